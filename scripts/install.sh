#!/usr/bin/env bash
# Installs image-feed under a prefix, or removes exactly what an install put there.
#
#   install.sh install PREFIX     a release build with the Swift runtime linked in (the program runs where no
#                                 Swift toolchain is), its man page, completions for bash, zsh and fish, and the
#                                 demo catalog (`image-feed --demo` works from anywhere)
#   install.sh uninstall PREFIX   removes those files, then the folders the install made that are left empty
#   install.sh build              only builds what an install places (the program, its man page generator), in
#                                 .build/install: `make build` does this, and an install after it builds nothing again
#
# SWIFT names the toolchain's swift (default: swift on PATH).
set -euo pipefail

action=${1:-}
prefix=${2:-}
if [[ -z $action || ( -z $prefix && $action != build ) ]]; then
    echo "usage: $0 install|uninstall PREFIX, or $0 build" >&2
    exit 2
fi
swift=${SWIFT:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -n $prefix ]] && prefix=$(realpath -m "$prefix")
scratch="$root/.build/install"
program="$scratch/release/image-feed"

# The program as installed, and the man page generator; one command each, so that a second run (the install after
# `make build`, or after the build CI starts beside the tests) finds them built and builds nothing.
build() {
    # `make test` builds beside the suite and sets IMAGE_FEED_BUILT for the checks after it: what it built is used as it
    # is (asking SwiftPM again costs ten seconds of planning on a busy machine, to build nothing).
    if [[ ${IMAGE_FEED_BUILT:-0} == 1 && -x $program && -x $scratch/tools/debug/generate-manual ]]; then
        return
    fi
    echo "Building image-feed (release, Swift runtime linked statically) and the man page generator..."
    # ArgumentParser's own man page generator, built from the checkout SwiftPM holds for the program (resolved first),
    # beside the program: a tool of the build, not shipped, so a debug build (a fraction of a release one's time).
    "$swift" package resolve --scratch-path "$scratch" >/dev/null
    "$swift" build --package-path "$scratch/checkouts/swift-argument-parser" --scratch-path "$scratch/tools" \
        --product generate-manual > "$scratch/generate-manual.log" 2>&1 &
    local generator=$!
    # Package.swift links a release build so already (the runtime in, lld, no symbol exported); the option says it
    # for every module the build compiles.
    # The checkout's folder is written as "." in the program (the paths #filePath and __FILE__ keep for messages): the
    # same sources build the same program wherever they are checked out (scripts/package.sh's reproducible package).
    local status=0
    "$swift" build -c release --static-swift-stdlib --product image-feed --scratch-path "$scratch" \
        -Xswiftc -file-prefix-map -Xswiftc "$root=." -Xcc "-ffile-prefix-map=$root=." || status=$?
    if ! wait "$generator"; then
        cat "$scratch/generate-manual.log" >&2
        echo "The man page generator did not build." >&2
        exit 1
    fi
    tail -n 1 "$scratch/generate-manual.log"
    ((status == 0)) || exit "$status"
}

# The install writes down every file and folder it made, so that uninstall removes exactly those.
manifest_path=share/image-feed/install-manifest
made=()
# make_folders FOLDER: creates FOLDER (relative to the prefix) and its missing parents, noting each one made.
make_folders() {
    local path=$1 parts=() part
    while [[ $path != . && ! -d $prefix/$path ]]; do
        parts=("$path" "${parts[@]}")
        path=$(dirname "$path")
    done
    for part in "${parts[@]}"; do
        mkdir "$prefix/$part"
        made+=("folder $part")
    done
}
# place SOURCE DESTINATION MODE [-s]: copies a file to DESTINATION (relative to the prefix); -s strips a
# program of its symbols (half its size: 142 MB to 79 MB, most of what is left is the runtime's Unicode data).
place() {
    make_folders "$(dirname "$2")"
    install ${4:-} -m "$3" "$1" "$prefix/$2"
    made+=("file $2")
}

case $action in
build)
    build
    echo "Built $program."
    ;;
install)
    build
    generated="$scratch/manual"
    rm -rf "$generated"
    mkdir -p "$generated"
    "$scratch/tools/debug/generate-manual" "$program" --output-directory "$generated" \
        --section 1 --authors "ImageFeed's developers"

    mkdir -p "$prefix"
    if [[ -f $prefix/$manifest_path ]]; then
        echo "An earlier install is there: removing it first."
        "$0" uninstall "$prefix" >/dev/null
    fi
    completions="$scratch/completions"
    mkdir -p "$completions"
    for shell in bash zsh fish; do
        "$program" --generate-completion-script "$shell" > "$completions/$shell"
    done
    place "$program" bin/image-feed 755 -s
    place "$generated/image-feed.1" share/man/man1/image-feed.1 644
    place "$completions/bash" share/bash-completion/completions/image-feed 644
    place "$completions/zsh" share/zsh/site-functions/_image-feed 644
    place "$completions/fish" share/fish/vendor_completions.d/image-feed.fish 644
    while IFS= read -r file; do
        place "$root/Assets/$file" "share/image-feed/Assets/$file" 644
    done < <(cd "$root/Assets" && find . -type f | sed 's|^\./||' | sort)
    make_folders "$(dirname "$manifest_path")"
    made+=("file $manifest_path")
    printf '%s\n' "${made[@]}" > "$prefix/$manifest_path"

    echo "Installed image-feed in $prefix/bin."
    case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "$prefix/bin is not on your PATH: add it in your shell's profile." ;;
    esac
    case $prefix in
    "$HOME/.local") echo "zsh finds the completions once $prefix/share/zsh/site-functions is in fpath." ;;
    esac
    ;;
uninstall)
    if [[ ! -f $prefix/$manifest_path ]]; then
        echo "Nothing to remove: $prefix/$manifest_path, the list an install writes, is not there." >&2
        exit 1
    fi
    mapfile -t entries < "$prefix/$manifest_path"
    # Files first, then folders deepest first, each folder only if nothing else was put in it since.
    for ((i = ${#entries[@]} - 1; i >= 0; i--)); do
        kind=${entries[i]%% *}
        path=${entries[i]#* }
        if [[ $kind == file ]]; then rm -f "$prefix/$path"; fi
    done
    for ((i = ${#entries[@]} - 1; i >= 0; i--)); do
        kind=${entries[i]%% *}
        path=${entries[i]#* }
        if [[ $kind == folder ]]; then rmdir "$prefix/$path" 2>/dev/null || true; fi
    done
    echo "Removed image-feed from $prefix."
    ;;
*)
    echo "usage: $0 install|uninstall PREFIX, or $0 build" >&2
    exit 2
    ;;
esac
