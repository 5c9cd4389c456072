#!/usr/bin/env python3
"""Writes the package's copyright file (Debian's machine-readable format) to standard output.

    make-copyright.py ROOT SCRATCH

ROOT is the checkout; SCRATCH the build folder `scripts/install.sh build` used (.build/install). What the file lists is
read, not kept by hand: the photos' sources and licences from Assets/README.md's table, and the Swift packages whose
modules the program was linked from (the objects of its link, SCRATCH/*/release/image-feed.product/Objects.LinkFileList),
each with its version and its own licence files (a package's LICENSE, and any a module it links keeps of its own, as
TOMLKit does for toml++). The Swift runtime, Foundation and the ICU data Foundation carries, which a static release
build links in, are listed with the licence texts kept in packaging/licenses. Fails when a linked module's package, or a
photo in Assets/, is not accounted for."""

import glob
import json
import os
import re
import sys

root, scratch = sys.argv[1], sys.argv[2]


def body(text):
    """A licence text as a field's continuation lines (a blank line is " .")."""
    lines = text.replace("\t", "    ").rstrip().split("\n")
    return "\n".join(" " + line.rstrip() if line.strip() else " ." for line in lines)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def kind(text):
    """The licence a file holds, by its words."""
    if "Apache License" in text and "Version 2.0" in text:
        return "Apache-2.0"
    if "Permission is hereby granted, free of charge" in text:
        return "Expat"
    if "Redistribution and use in source and binary forms" in text:
        return "BSD-3-clause" if "Neither the name" in text else "BSD-2-clause"
    if "Permission to use, copy, modify, and/or distribute" in text:
        return "ISC"
    return None


stanzas = []
licences = {}  # short name -> text for its stand-alone paragraph

stanzas.append("""Files: *
Copyright: 2026 ImageFeed's developers
License: ImageFeed""")
licences["ImageFeed"] = (
    "ImageFeed's developers have not chosen a public licence for ImageFeed itself yet: this package is built from their\n"
    "repository so that the program can be installed on the machines it is meant for. The parts listed below keep\n"
    "their own licences.")

# The photos, from Assets/README.md's table, and what is made from them.
readme = read(os.path.join(root, "Assets/README.md"))
photos = {}
for line in readme.splitlines():
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) == 4 and cells[0].startswith("photos/"):
        photos[cells[0]] = (cells[2], cells[3])
if not photos:
    sys.exit("make-copyright: no photos found in Assets/README.md's table")
on_disk = sorted(os.path.relpath(path, os.path.join(root, "Assets"))
                 for path in glob.glob(os.path.join(root, "Assets/photos/*")))
missing = [path for path in on_disk if path not in photos]
if missing:
    sys.exit(f"make-copyright: Assets/README.md does not list {missing}")
licence_names = {}
for path, (source, licence) in sorted(photos.items()):
    if licence.startswith("CC0"):
        name = "CC0-1.0"
        licences[name] = ("To the extent possible under law, the author has waived all copyright and related or neighboring\n"
                          "rights to this work (Creative Commons CC0 1.0 Universal). On Debian systems, the complete text\n"
                          "is in /usr/share/common-licenses/CC0-1.0.")
    elif licence.startswith("public domain"):
        name = "public-domain"
        licences[name] = "This work is in the public domain."
    else:
        name = "no-known-restrictions"
        licences[name] = ("The collection holding this photograph publishes it with no known copyright restrictions\n"
                          "(as the sample data of scikit-image 0.26.0 documents it).")
    licence_names[path] = name
    stanzas.append(f"Files: usr/share/image-feed/Assets/{path}\nCopyright: {source}\nLicense: {name}\nComment: {licence}")
# Animations and avatars are made from the photos, under theirs (Assets/README.md says from which).
derived = {
    "animations/rocket.gif": "photos/rocket.jpg", "animations/coffee.webp": "photos/coffee.jpg",
    "animations/hubble.mp4": "photos/hubble-deep-field.jpg",
    "avatars/chelsea.jpg": "photos/chelsea.jpg", "avatars/astronaut.jpg": "photos/astronaut.jpg",
    "avatars/coffee.jpg": "photos/coffee.jpg", "avatars/rocket.jpg": "photos/rocket.jpg",
    "avatars/camera.jpg": "photos/camera.jpg", "avatars/clock_motion.jpg": "photos/clock.jpg",
}
for folder in ("animations", "avatars"):
    for path in sorted(glob.glob(os.path.join(root, "Assets", folder, "*"))):
        relative = os.path.relpath(path, os.path.join(root, "Assets"))
        if relative not in derived:
            sys.exit(f"make-copyright: {relative} is not accounted for (which photo it is made from)")
for path, origin in derived.items():
    source, licence = photos[origin]
    stanzas.append(f"Files: usr/share/image-feed/Assets/{path}\nCopyright: {source}\nLicense: {licence_names[origin]}\n"
                   f"Comment: made from {origin} by scripts/make-animations.sh or cropped from it")

# The Swift packages the program was linked from.
link_lists = glob.glob(os.path.join(scratch, "*/release/image-feed.product/Objects.LinkFileList"))
if not link_lists:
    sys.exit("make-copyright: the release build's link file list was not found (run scripts/install.sh build first)")
modules = set()
for line in read(link_lists[0]).split():
    match = re.search(r"/release/([^/]+)\.build/", line)
    if match:
        modules.add(match.group(1))
own = {os.path.basename(path) for path in glob.glob(os.path.join(root, "Sources/*"))}
own |= {os.path.basename(path) for path in glob.glob(os.path.join(root, "Sources/Shims/*"))}
own.add("image_feed")
checkouts = os.path.join(scratch, "checkouts")
versions = {}
state = os.path.join(scratch, "workspace-state.json")
if os.path.exists(state):
    for dependency in json.loads(read(state)).get("object", {}).get("dependencies", []):
        location = dependency.get("packageRef", {}).get("location", "")
        name = os.path.basename(location).removesuffix(".git")
        version = dependency.get("state", {}).get("checkoutState", {}).get("version")
        if version:
            versions[name.lower()] = (version, location)
packages = {}  # checkout folder -> module source folders linked
for module in sorted(modules - own):
    # Where the build read the module's sources from: a Swift module's file map, a C module's dependency files.
    built = os.path.dirname(link_lists[0]).replace("image-feed.product", f"{module}.build")
    sources = []
    file_map = os.path.join(built, "output-file-map.json")
    if os.path.exists(file_map):
        sources = [key for key in json.loads(read(file_map)) if key]
    for dependencies in glob.glob(os.path.join(built, "**", "*.d"), recursive=True):
        words = read(dependencies).replace("\\\n", " ").split()
        sources += [word for word in words[1:2] if not word.endswith(":")]
    map_file = os.path.join(built, "module.modulemap")
    if os.path.exists(map_file):
        sources += re.findall(r'"(/[^"]+)"', read(map_file))
    inside = [path for path in sources if os.path.realpath(path).startswith(os.path.realpath(checkouts) + os.sep)]
    if not inside:
        sys.exit(f"make-copyright: module {module} was linked, but its sources are in no package of {checkouts}")
    relative = os.path.relpath(os.path.realpath(inside[0]), os.path.realpath(checkouts)).split(os.sep)
    package = os.path.join(checkouts, relative[0])
    # The module's own folder: the sources' common folder.
    folder = os.path.commonpath([os.path.dirname(os.path.realpath(path)) for path in inside])
    packages.setdefault(package, []).append(folder)
holders = ["2026 ImageFeed's developers", "Apple Inc. and the Swift project authors", "Unicode, Inc. and others"]
program_licences = ["ImageFeed", "Apache-2.0-with-Swift-exception", "Unicode-DFS-2016"]
linked = []  # a line per package
notices = []
for package, folders in sorted(packages.items(), key=lambda item: os.path.basename(item[0]).lower()):
    name = os.path.basename(package)
    version, location = versions.get(name.lower(), ("", ""))
    files = sorted(glob.glob(os.path.join(package, "LICENSE*")) + glob.glob(os.path.join(package, "COPYING*")))
    # Licences a linked module keeps of its own (code vendored into it, as swift-nio's llhttp).
    for folder in folders:
        files += sorted(path for path in glob.glob(os.path.join(folder, "**", "LICENSE*"), recursive=True)
                        if os.path.isfile(path) and os.path.realpath(path) not in map(os.path.realpath, files))
    if not files:
        sys.exit(f"make-copyright: {name} has no licence file")
    said = []
    for path in files:
        text = read(path)
        short = kind(text)
        if short is None:
            sys.exit(f"make-copyright: the licence in {path} is not one this script knows")
        if short != "Apache-2.0":
            # The text itself, which carries the copyright notice these licences ask to be kept.
            short = f"{short}-{name}" + ("" if path in files[:1] else f"-{os.path.basename(os.path.dirname(path))}")
            licences[short] = text
        program_licences.append(short)
        said.append(f"{os.path.relpath(path, package)}: {short}")
    # Code vendored into a linked module that says its licence in its own header (TOMLKit's toml++).
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "**", "*"), recursive=True)):
            if not os.path.isfile(path) or os.path.getsize(path) > 8_000_000:
                continue
            text = read(path)
            spdx = re.search(r"SPDX-License-Identifier:\s*([A-Za-z0-9.\-]+)", text[:4000])
            # The package's own licence needs no more; code under another (vendored) names its holders.
            if not spdx or spdx.group(1).startswith("Apache-2.0"):
                continue
            identifier = {"MIT": "Expat"}.get(spdx.group(1), spdx.group(1))
            for holder in dict.fromkeys(re.findall(r"Copyright \(c\)\s*([^\n]+)", text)):
                holders.append(holder.strip() + f" ({os.path.relpath(path, package)}, in {name})")
            program_licences.append(identifier)
            said.append(f"{os.path.relpath(path, package)}: {identifier}")
    holders.append(f"the authors of {name}, as its licence says")
    linked.append(f"{name} {version} ({location}): " + "; ".join(said))
    for path in sorted(glob.glob(os.path.join(package, "NOTICE*"))):
        notices.append(f"{name}'s {os.path.basename(path)}:\n\n" + read(path).strip())
licences["Expat"] = """Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the
Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE."""
comment = ("The program, with what its release build links in: the Swift standard library and runtime, Foundation\n"
           "(swift-foundation, swift-corelibs-foundation) and libdispatch (--static-swift-stdlib), ICU's code and data,\n"
           "which Foundation carries (swift-foundation-icu), and these packages:\n" + "\n".join(linked)
           + "".join("\n\n" + notice for notice in notices))
stanzas.append("Files: usr/bin/image-feed\nCopyright: " + "\n ".join(dict.fromkeys(holders)) + "\nLicense: "
               + " and ".join(dict.fromkeys(program_licences)) + "\nComment:\n" + body(comment))

# The Swift runtime and Foundation, linked in by a static release build, and the ICU data Foundation carries.
here = os.path.join(root, "packaging", "licenses")
licences["Apache-2.0"] = "On Debian systems, the complete text of the Apache License 2.0 is in\n/usr/share/common-licenses/Apache-2.0."
licences["Apache-2.0-with-Swift-exception"] = (
    "Licensed under the Apache License, Version 2.0 (on Debian systems in /usr/share/common-licenses/Apache-2.0),\n"
    "with the Swift project's exception:\n\n" + read(os.path.join(here, "Swift-Runtime-Library-Exception.txt")))
licences["Unicode-DFS-2016"] = read(os.path.join(here, "Unicode-ICU.txt"))

print("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
print("Upstream-Name: image-feed")
print("Upstream-Contact: ImageFeed's developers")
print()
print("\n\n".join(stanzas))
for name, text in licences.items():
    print()
    print(f"License: {name}\n{body(text)}")
