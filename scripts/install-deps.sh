#!/usr/bin/env bash
# Installs what the project needs and the machine lacks; does nothing when all is there.
# Usage: install-deps.sh "DEBIAN PACKAGES" "PYPI PACKAGES"
set -euo pipefail

debian_packages=($1)
python_packages=(${2:-})

missing=()
for package in "${debian_packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]})); then
    echo "Installing Debian packages: ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then
        apt_get=(apt-get)
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        apt_get=(sudo apt-get)
    else
        echo "error: these Debian packages are missing: ${missing[*]}" >&2
        echo "Install them as root (apt-get install ${missing[*]}), or run make as a user with sudo." >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${apt_get[@]}" update -qq
    "${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}"
fi

missing_python=()
for package in "${python_packages[@]}"; do
    if ! python3 -m pip show -q "$package" >/dev/null 2>&1; then
        missing_python+=("$package")
    fi
done
if ((${#missing_python[@]})); then
    echo "Installing PyPI packages: ${missing_python[*]}"
    python3 -m pip install -q "${missing_python[@]}"
fi
