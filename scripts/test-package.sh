#!/usr/bin/env bash
# Checks what `make package` made (dist/, or DIST), as a user of a Debian 12 box without Swift meets it:
#   - SHA256SUMS holds for both files;
#   - `apt-get install ./image-feed_*.deb` installs it (timed), every library the program loads comes from a package its
#     Depends names, `image-feed --version`, `feed --demo`, `render`, doctor, and the full-screen `--demo` (in a
#     pseudo-terminal, then q) run with no Swift on PATH, `man image-feed` finds the page, the completions are where
#     bash, zsh and fish look; `apt-get purge image-feed` leaves no file of it;
#   - the tarball, unpacked anywhere, runs from its bin/ and finds its demo catalog.
# apt-get needs root (or sudo without a password). Where image-feed is already installed from elsewhere, the package is
# not installed over it: that part is left out, and says so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dist=$(realpath -m "${DIST:-$root/dist}")
work=$(mktemp -d)
installed_here=0
cleanup() {
    if ((installed_here)); then "${apt_get[@]}" purge -y -qq image-feed >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
source "$root/scripts/checks.sh"

deb=$(ls "$dist"/image-feed_*.deb 2>/dev/null | head -1)
tarball=$(ls "$dist"/image-feed-*-linux-*.tar.gz 2>/dev/null | head -1)
[[ -n $deb && -n $tarball ]] || { echo "test-package: nothing packaged in $dist (make package)" >&2; exit 1; }
version=$(dpkg-deb -f "$deb" Version)
# lintian, beside the other checks (it reads the package file; no error may stand).
lintian --fail-on error "$deb" > "$work/lintian.log" 2>&1 &
lintian_pid=$!
check "SHA256SUMS holds for the package and the tarball" bash -c 'cd "$1" && sha256sum --quiet -c SHA256SUMS' _ "$dist"
check "the package and the tarball have one version" bash -c '[[ $(basename "$2") == image-feed-$1-linux-* ]]' _ "$version" "$tarball"

# A user's run: a clean environment, no Swift on PATH, a home of its own.
home="$work/home"
mkdir -p "$home"
as_user() { (cd "$work" && env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 TERM=xterm-256color "$@"); }
check "swift is not on the user's PATH" bash -c '! env -i PATH=/usr/bin:/bin bash -c "command -v swift" >/dev/null'

# The full-screen demo in a pseudo-terminal: its first screen drawn, then q; the exit status and what it drew.
run_demo() {
    python3 - "$1" "$home" <<'EOF'
import os, pty, select, sys, time
program, home = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TERM": "xterm-256color"})
    os.execv(program, [program, "--demo"])
seen, started, presses, presses_at, drawn = b"", time.time(), [], [0], 0
def ended(status):
    feed = drawn > 0 and b"Photo by" in seen[:drawn]
    sys.exit(0 if feed and os.waitstatus_to_exitcode(status) == 0 else 1)
while time.time() - started < 60:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            seen += os.read(fd, 65536)
        except OSError:
            # The terminal closed: the program has ended (or is ending).
            ended(os.waitpid(pid, 0)[1])
    now = time.time()
    since = now - (presses[-1] if presses else started)
    # Each key once the screen it is for was drawn (and has held still half a second): the splash's "Enter log in",
    # the demo's sign-in ("Demo: press Enter"), then the feed.
    if b"Photo by" not in seen and since > 0.5 and not ready and len(presses) < 4 and (
            (not presses and b"log in" in seen) or (presses and b"Demo: press Enter" in seen[presses_at[-1]:])):
        os.write(fd, b"\r")
        presses.append(now)
        presses_at.append(len(seen))
    elif b"Photo by" in seen and since > 1 and not ready and len(presses) < 6:
        # The feed is drawn: q quits (a second q where the first only went back from a sub-screen).
        drawn = drawn or len(seen)
        os.write(fd, b"q")
        presses.append(now)
    finished, status = os.waitpid(pid, os.WNOHANG)
    if finished:
        ended(status)
os.kill(pid, 9)
sys.exit(1)
EOF
}

if [[ $(id -u) -eq 0 ]]; then
    apt_get=(apt-get)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    apt_get=(sudo apt-get)
else
    apt_get=()
fi
if ((${#apt_get[@]} == 0)); then
    echo "test-package: not root and no sudo: the package is not installed here (its other checks ran)"
elif dpkg-query -W -f='${Status}' image-feed 2>/dev/null | grep -q "install ok installed"; then
    echo "test-package: image-feed is already installed on this machine: the package is not installed over it"
else
    started=$(date +%s%N)
    check "apt-get install ./$(basename "$deb")" env DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq --no-install-recommends "$deb"
    installed_here=1
    milliseconds=$((($(date +%s%N) - started) / 1000000))
    echo "installed in $milliseconds ms"
    check "installed in under 60 s" test "$milliseconds" -lt 60000
    check "image-feed is on PATH as /usr/bin/image-feed" bash -c '[[ $(env -i PATH=/usr/bin:/bin bash -c "command -v image-feed") == /usr/bin/image-feed ]]'
    check "--version is the package's" bash -c '[[ $1 == "image-feed $2" ]]' _ "$(as_user image-feed --version)" "$version"
    # Every library the program loads (linked, or loaded when first needed: its sonames) is a Depends of the package.
    depends=$(dpkg-deb -f "$deb" Depends | sed -E 's/ \([^)]*\)//g; s/,/ /g')
    missing=()
    sonames=0
    while read -r soname path; do
        sonames=$((sonames + 1))
        owner=$(dpkg -S "$(realpath "$path")" 2>/dev/null | sed -n 1p | cut -d: -f1) || owner=""
        [[ -z $owner ]] && owner=$(dpkg -S "$path" 2>/dev/null | sed -n 1p | cut -d: -f1)
        if [[ -z $owner ]] || ! grep -qw -- "$owner" <<<"$depends"; then missing+=("$soname (${owner:-no package})"); fi
    done < <(loaded_libraries /usr/bin/image-feed)
    check "every library the program loads ($sonames) is in Depends (${missing[*]:-none missing})" test ${#missing[@]} -eq 0 -a $sonames -gt 5
    check "ldd finds every linked library" bash -c 'ldd /usr/bin/image-feed >/dev/null && ! ldd /usr/bin/image-feed | grep -q "not found"'
    feed=$(as_user image-feed feed --demo --pages 1 --per-page 3 2>&1 || true)
    check "feed --demo finds the demo catalog in /usr/share/image-feed" \
        python3 -c 'import json, sys; assert len(json.loads(sys.argv[1])["photos"]) == 3' "$feed"
    check "doctor finds the demo catalog there" bash -c 'grep -q "Demo catalog *.*/usr/share/image-feed/Assets" <<<"$1"' _ "$(as_user image-feed doctor --offline 2>&1 || true)"
    check "render draws a photo" bash -c '[[ $(wc -l <<<"$1") -ge 5 ]]' _ \
        "$(as_user image-feed render /usr/share/image-feed/Assets/photos/coffee.jpg --graphics cells --cols 20 --rows 10 2>&1)"
    check "image-feed --demo draws its screens and quits on q (exit status 0)" run_demo /usr/bin/image-feed
    check "man image-feed finds the page" bash -c '[[ $(env -i PATH=/usr/bin:/bin man -w image-feed) == /usr/share/man/man1/image-feed.1.gz ]]'
    check "man formats it" bash -c 'env -i PATH=/usr/bin:/bin MANPAGER=cat man image-feed 2>/dev/null | grep -q render'
    check "bash's completion is where bash-completion looks" test -s /usr/share/bash-completion/completions/image-feed
    check "zsh's is where Debian's zsh looks" test -s /usr/share/zsh/vendor-completions/_image-feed
    check "fish's is where fish looks" test -s /usr/share/fish/vendor_completions.d/image-feed.fish
    check "bash completes 're' to render" grep -qx render <<<"$(bash_completes /usr/share/bash-completion/completions/image-feed re)"
    check "the copyright and changelog are in /usr/share/doc/image-feed" test -s /usr/share/doc/image-feed/copyright -a -s /usr/share/doc/image-feed/changelog.gz
    mapfile -t files < <(dpkg -L image-feed)
    "${apt_get[@]}" purge -y -qq image-feed >/dev/null
    installed_here=0
    left=()
    for file in "${files[@]}"; do
        # Folders other packages share (/usr/bin) stay; a file, or a folder of the package's own, may not.
        if [[ -f $file || -L $file ]] || [[ -d $file && ( $file == /usr/share/image-feed* || $file == /usr/share/doc/image-feed* ) ]]; then
            left+=("$file")
        fi
    done
    check "apt-get purge leaves nothing of it (${left[*]:-nothing left})" test ${#left[@]} -eq 0
    check "dpkg no longer knows it" bash -c '! dpkg-query -W -f="\${Status}" image-feed 2>/dev/null | grep -q "ok installed"'
fi

# The tarball, unpacked in a folder of its own.
mkdir -p "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
top="$work/unpacked/image-feed-$version"
check "the tarball's README names glibc and the packages" bash -c 'grep -q "glibc 2\.[0-9]* or later" "$1" && grep -q "^apt install lib" "$1"' _ "$top/README"
check "the tarball's program runs from its bin/" bash -c '[[ $1 == "image-feed $2" ]]' _ "$(as_user "$top/bin/image-feed" --version)" "$version"
feed=$(as_user "$top/bin/image-feed" feed --demo --pages 1 --per-page 2 2>&1 || true)
check "the tarball's program finds its demo catalog in ../share" \
    python3 -c 'import json, sys; assert len(json.loads(sys.argv[1])["photos"]) == 2' "$feed"
check "the tarball's man page and completions are there" test -s "$top/share/man/man1/image-feed.1.gz" -a -s "$top/share/bash-completion/completions/image-feed"

if wait $lintian_pid; then
    echo "ok: lintian finds no error"
else
    fail "lintian finds errors"
fi
grep -v -e "spelling-error-in-binary" -e "running with root privileges" "$work/lintian.log" | sed 's/^/  lintian: /' || true
if ((failures)); then
    echo "$failures package checks failed." >&2
    exit 1
fi
echo "All package checks passed."
