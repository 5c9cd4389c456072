#!/usr/bin/env bash
# Builds what `make package` ships, into dist/ (or DIST): the program as `make install` builds it (release, the Swift
# runtime linked in), as
#
#   image-feed_VERSION_ARCH.deb               for apt on Debian 12 and later: the program in /usr/bin, its man page,
#                                             completions for bash, zsh and fish where Debian's shells look, the demo
#                                             catalog in /usr/share/image-feed, copyright and changelog; Depends as
#                                             dpkg-shlibdeps finds the libraries the program needs (ncurses-term, which
#                                             has the terminfo entries 24-bit colour is drawn through, recommended)
#   image-feed-VERSION-linux-MACHINE.tar.gz   the same files under image-feed-VERSION/ (bin/, share/), with a README
#                                             that says what the machine needs
#   SHA256SUMS                                for both
#
# then checks the package with lintian (no error may stand; its warnings are printed). The version is the program's own
# (`image-feed --version`, from Sources/ImageFeedApp/Composition/Version.swift), the one place it is written.
# SOURCE_DATE_EPOCH (default: the last commit's time) dates every file, so the same program packs into the same bytes.
# SWIFT names the toolchain's swift; LINTIAN=0 leaves lintian out.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dist=$(realpath -m "${DIST:-$root/dist}")
scratch="$root/.build/install"
program="$scratch/release/image-feed"

SWIFT=${SWIFT:-swift} bash "$root/scripts/install.sh" build
version=$("$program" --version | awk '{ print $2 }')
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "package: the program says its version is '$version'" >&2; exit 1; }
arch=$(dpkg --print-architecture)
machine=$(uname -m)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Who answers for the package: DEBFULLNAME and DEBEMAIL, as Debian's tools take them, else the last commit's author.
maintainer="${DEBFULLNAME:-$(git -C "$root" log -1 --format=%an 2>/dev/null)} <${DEBEMAIL:-$(git -C "$root" log -1 --format=%ae 2>/dev/null)}>"
[[ $maintainer =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] || { echo "package: set DEBFULLNAME and DEBEMAIL (the maintainer: '$maintainer')" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 022

# The files as installed under /usr, made once for both.
stage="$work/stage"
usr="$stage/usr"
mkdir -p "$usr/bin" "$usr/share/man/man1" "$usr/share/bash-completion/completions" "$usr/share/zsh/vendor-completions" \
    "$usr/share/fish/vendor_completions.d" "$usr/share/image-feed" "$usr/share/doc/image-feed"
install -m 755 "$program" "$usr/bin/image-feed"
# Symbols out (half its size); the build id stays, as Debian's own packages keep it.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$usr/bin/image-feed"
"$scratch/tools/debug/generate-manual" "$program" --output-directory "$work" --section 1 --authors "ImageFeed's developers"
# The generator dates the page today: the page is dated by SOURCE_DATE_EPOCH instead (the same bytes each time).
date_line=$(LC_ALL=C date -u -d "@$SOURCE_DATE_EPOCH" '+.Dd %B %-d, %Y')
# (Blank lines are dropped: in mdoc they are a formatting error.)
sed -E "s/^\.Dd .*/$date_line/; /^$/d" "$work/image-feed.1" | gzip -9n > "$usr/share/man/man1/image-feed.1.gz"
# bash sources its completions: no #! line.
"$program" --generate-completion-script bash | sed '1{/^#!/d}' > "$usr/share/bash-completion/completions/image-feed"
"$program" --generate-completion-script zsh > "$usr/share/zsh/vendor-completions/_image-feed"
"$program" --generate-completion-script fish > "$usr/share/fish/vendor_completions.d/image-feed.fish"
(cd "$root" && find Assets -type f ! -name README.md -print0 | sort -z | xargs -0 -I{} install -D -m 644 {} "$usr/share/image-feed/{}")
python3 "$root/scripts/make-copyright.py" "$root" "$scratch" > "$usr/share/doc/image-feed/copyright"
changelog_date=$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")
printf '%s\n' "image-feed ($version) unstable; urgency=medium" "" \
    "  * Built from commit $commit of ImageFeed's repository." "" \
    " -- $maintainer  $changelog_date" | gzip -9n > "$usr/share/doc/image-feed/changelog.gz"

# Every file and folder dated alike, owned by root in both archives.
find "$stage" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
chmod -R u=rwX,go=rX "$stage"

# The libraries the program needs, as the packages that have them, at the lowest versions their symbols allow: those
# it is linked with, and those it loads when first needed (libcurl for the network, libtiff at the first TIFF, FFmpeg's
# at the first video), which only their names in the program say (every soname it holds is one or the other). A stub
# linked with the loaded ones lets dpkg-shlibdeps find their packages as it finds the linked ones'.
mkdir -p "$work/shlibs/debian"
printf 'Source: image-feed\n\nPackage: image-feed\nArchitecture: any\n' > "$work/shlibs/debian/control"
source "$root/scripts/checks.sh"
loaded=()
while read -r soname path; do
    [[ -n $path ]] || { echo "package: the program loads $soname, which this machine does not have" >&2; exit 1; }
    # glibc's own are the program's anyway (dpkg-shlibdeps finds libc6 from the program).
    [[ $soname =~ ^lib(c|m|pthread|dl|rt)\.so\.[0-9]+$ ]] || loaded+=("$path")
done < <(loaded_libraries "$program")
cc -shared -nostdlib -o "$work/shlibs/loaded.so" -Wl,--no-as-needed "${loaded[@]}"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$usr/bin/image-feed" -e"$work/shlibs/loaded.so" 2>"$work/shlibdeps.log" \
    | sed -n 's/^shlibs:Depends=//p') || {
    cat "$work/shlibdeps.log" >&2
    exit 1
}
[[ -n $depends ]] || { echo "package: dpkg-shlibdeps found no libraries" >&2; cat "$work/shlibdeps.log" >&2; exit 1; }
# dpkg-shlibdeps weighs the symbols the program uses, not the versions it requires of a library without a symbol:
# the packed relocations lld writes (GLIBC_ABI_DT_RELR) need glibc 2.36, which no symbol says. Each version the program
# requires is looked up in its library's symbols file (as `NAME@NAME VERSION`), and a Depends raised where it is higher.
depends=$(objdump -p "$usr/bin/image-feed" | python3 -c '
import glob, re, subprocess, sys
depends = [part.strip() for part in sys.argv[1].split(",")]
# Each symbols file once, by the libraries it describes ("libc.so.6 libc6 #MINVER#").
files = {}
for symbols in glob.glob("/var/lib/dpkg/info/*.symbols"):
    text = open(symbols, errors="replace").read()
    for described in re.finditer(r"^(\S+\.so\S*) (\S+)", text, re.M):
        files.setdefault(described.group(1), []).append((described.group(2), text))
library = None
for line in sys.stdin:
    found = re.match(r"\s+required from (\S+):", line)
    if found:
        library = found.group(1)
        continue
    version = re.match(r"\s+0x\w+ 0x\w+ \d+ (\S+)", line)
    if not (library and version):
        continue
    name = version.group(1)
    for package, text in files.get(library, []):
        wanted = re.search(rf"^ {re.escape(name)}@{re.escape(name)} (\S+)", text, re.M)
        if not wanted:
            continue
        for index, part in enumerate(depends):
            current = re.match(rf"{re.escape(package)} \(>= (\S+)\)$", part)
            if current and subprocess.run(["dpkg", "--compare-versions", wanted.group(1), "gt", current.group(1)]).returncode == 0:
                depends[index] = f"{package} (>= {wanted.group(1)})"
print(", ".join(depends))
' "$depends")

# The Debian package.
deb_root="$work/deb"
cp -a "$stage" "$deb_root"
mkdir -p "$deb_root/DEBIAN"
installed_size=$(du -sk --apparent-size "$deb_root/usr" | cut -f1)
cat > "$deb_root/DEBIAN/control" <<EOF
Package: image-feed
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: ncurses-term
Section: graphics
Priority: optional
Description: full-screen terminal client for Unsplash and Imgur albums
 ImageFeed browses the Unsplash Editorial feed in a terminal, often over SSH on
 a headless machine: photos shown in pixels where the terminal draws them (Kitty
 graphics, Sixel, iTerm2's images) and in coloured characters elsewhere, likes,
 favourites, search, photographers, topics, collections and Imgur albums, their
 animations played, all from the keyboard.
 .
 image-feed --demo runs it on a demo catalog that needs no account.
EOF
(cd "$deb_root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$deb_root/DEBIAN/md5sums"
touch --date="@$SOURCE_DATE_EPOCH" "$deb_root/DEBIAN" "$deb_root/DEBIAN/control" "$deb_root/DEBIAN/md5sums"
chmod 644 "$deb_root/DEBIAN/control" "$deb_root/DEBIAN/md5sums"
mkdir -p "$dist"
deb="$dist/image-feed_${version}_${arch}.deb"
# gzip (level 6), not xz: as small within a few percent for a program this size, and many times faster to make.
dpkg-deb --root-owner-group -Zgzip -z6 --build "$deb_root" "$deb" >/dev/null

# The tarball: the same files under image-feed-VERSION/, and what the machine needs.
name="image-feed-$version"
tar_root="$work/tar/$name"
mkdir -p "$tar_root"
cp -a "$usr/bin" "$usr/share" "$tar_root/"
rm -rf "$tar_root/share/doc"
mkdir -p "$tar_root/share/doc/image-feed"
cp -a "$usr/share/doc/image-feed/copyright" "$tar_root/share/doc/image-feed/"
glibc=$(grep -oE 'libc6 \(>= [0-9.]+' <<<"$depends" | grep -oE '[0-9.]+$')
packages=$(sed -E 's/ \([^)]*\)//g; s/, */ /g' <<<"$depends")
cat > "$tar_root/README" <<EOF
ImageFeed $version for Linux ($machine): copy bin/ and share/ under a prefix (/usr/local, or ~/.local), keeping them side by side
(image-feed finds its demo catalog in ../share/image-feed). It needs glibc $glibc or later and these Debian 12 packages (or the same libraries elsewhere):
apt install $packages
EOF
find "$work/tar" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
tarball="$dist/$name-linux-$machine.tar.gz"
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner --format=gnu -C "$work/tar" -cf - "$name" \
    | gzip -6n > "$tarball"

(cd "$dist" && sha256sum "$(basename "$deb")" "$(basename "$tarball")" > SHA256SUMS)

if [[ ${LINTIAN:-1} != 0 ]]; then
    if command -v lintian >/dev/null; then
        # Errors fail the package; everything lintian says is printed.
        lintian --fail-on error --display-info "$deb" | tee "$work/lintian.log" || {
            echo "package: lintian found errors in $deb" >&2
            exit 1
        }
    else
        echo "package: lintian is not installed (apt install lintian): the package was not checked" >&2
        exit 1
    fi
fi

echo "Packaged image-feed $version in $dist:"
(cd "$dist" && ls -l "$(basename "$deb")" "$(basename "$tarball")" SHA256SUMS | awk '{ print "  " $5 "  " $9 }')
echo "Depends: $depends"
