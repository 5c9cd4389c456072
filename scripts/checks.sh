# What the install and package checks share, sourced by scripts/test-install.sh, scripts/test-package.sh and (for
# `loaded_libraries`) scripts/package.sh.

failures=0
# fail WHAT: one failed check, counted.
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# check WHAT COMMAND...: runs the command; "ok: WHAT" or a failure.
check() { local what=$1; shift; if "$@"; then echo "ok: $what"; else fail "$what"; fi; }

# bash_completes SCRIPT WORD: what bash's completion SCRIPT offers for `image-feed WORD`, a line each.
bash_completes() {
    bash -c 'source "$1"; COMP_WORDS=(image-feed "$2"); COMP_CWORD=1; COMP_LINE="image-feed $2"; COMP_POINT=${#COMP_LINE}
        fn=$(complete -p image-feed | sed -E "s/.*-F ([^ ]+).*/\1/"); "$fn" image-feed "$2" image-feed; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$1" "$2" 2>/dev/null || true
}

# loaded_libraries PROGRAM: every library PROGRAM is linked with or loads when first needed (libcurl, libtiff and
# FFmpeg's are loaded so; only their sonames in the program say which), a line each: its soname, then the file the
# loader takes for it (empty where this machine has none).
loaded_libraries() {
    local soname
    while read -r soname; do
        # awk reads ldconfig to its end: leaving early would end ldconfig with SIGPIPE, a failure under pipefail.
        echo "$soname $(/sbin/ldconfig -p | awk -v name="$soname" '$1 == name && !found { print $NF; found = 1 }')"
    done < <(strings -n 8 "$1" | grep -xE 'lib[a-z0-9_+-]+\.so\.[0-9]+' | sort -u)
}
