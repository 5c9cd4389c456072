#!/usr/bin/env bash
# Installs image-feed into a temporary prefix as `make install` does, runs the installed program where no Swift
# toolchain is on PATH (and its runtime is not found on disk by the loader), checks the man page and the
# completions, then uninstalls and checks nothing is left.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
source "$root/scripts/checks.sh"

bash "$root/scripts/install.sh" install "$prefix"
program="$prefix/bin/image-feed"

check "the program is installed, executable" test -x "$program"
for file in share/man/man1/image-feed.1 share/bash-completion/completions/image-feed \
    share/zsh/site-functions/_image-feed share/fish/vendor_completions.d/image-feed.fish \
    share/image-feed/Assets/catalog.json; do
    check "$file is installed" test -s "$prefix/$file"
done

# No Swift runtime from the toolchain: every library the loader needs is a system one.
libraries=$(ldd "$program")
check "no library comes from the Swift toolchain" bash -c '! grep -qiE "swift|not found" <<<"$1"' _ "$libraries"

# A clean environment: PATH without the toolchain, a home of its own, another working folder.
home="$work/home"
mkdir -p "$home"
run() { (cd "$work" && env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 "$program" "$@"); }
check "swift is not on the test's PATH" bash -c '! env -i PATH=/usr/bin:/bin bash -c "command -v swift" >/dev/null'
check "--version prints the version" bash -c '[[ $1 =~ ^image-feed\ [0-9]+\.[0-9]+\.[0-9]+$ ]]' _ "$(run --version)"
check "-V prints the version" bash -c '[[ $1 == "$2" ]]' _ "$(run -V)" "$(run --version)"
check "--help runs" bash -c '[[ $1 == *"USAGE: image-feed"* ]]' _ "$(run --help)"
feed=$(run feed --demo --pages 1 --per-page 3 2>&1 || true)
check "the demo catalog is found from the prefix (feed --demo)" \
    python3 -c 'import json, sys; assert len(json.loads(sys.argv[1])["photos"]) == 3' "$feed"
doctor=$(run doctor --offline 2>&1 || true)
check "doctor finds the demo catalog in the prefix" grep -q "Demo catalog *$prefix/share/image-feed/Assets" <<<"$doctor"
photo=$(ls "$prefix/share/image-feed/Assets/photos/"*.jpg | head -1)
check "render draws a photo in cells" bash -c '[[ $(wc -l <<<"$1") -ge 5 ]]' _ \
    "$(run render "$photo" --graphics cells --cols 20 --rows 10 2>&1)"

# The man page: a section 1 page that names the subcommands; man(1) formats it when it is there.
manual="$prefix/share/man/man1/image-feed.1"
check "the man page is a section 1 page" grep -q '^\.Dt IMAGE-FEED 1' "$manual"
check "the man page covers the subcommands" grep -q 'render' "$manual"
if command -v man >/dev/null; then
    check "man formats the page" bash -c 'MANPAGER=cat man -l "$1" 2>/dev/null | grep -q "image-feed"' _ "$manual"
fi

# Completions: bash loads its script and completes the subcommands; zsh and fish check theirs when present.
check "bash completes 're' to render" grep -qx render <<<"$(bash_completes "$prefix/share/bash-completion/completions/image-feed" re)"
if command -v zsh >/dev/null; then
    check "the zsh completion parses" zsh -n "$prefix/share/zsh/site-functions/_image-feed"
fi
if command -v fish >/dev/null; then
    check "the fish completion parses" fish -n "$prefix/share/fish/vendor_completions.d/image-feed.fish"
fi

# A file of the user's own in the prefix survives uninstall; nothing of the install does.
mkdir -p "$prefix/bin"
echo "mine" > "$prefix/bin/other-tool"
bash "$root/scripts/install.sh" uninstall "$prefix"
left=$(cd "$prefix" && find . -mindepth 1 | sort)
check "uninstall leaves only what was not the install's" bash -c '[[ $1 == $'"'"'./bin\n./bin/other-tool'"'"' ]]' _ "$left"

if ((failures)); then
    echo "$failures install checks failed." >&2
    exit 1
fi
echo "All install checks passed."
