#!/usr/bin/env bash
# Installs the Debian packages a cross build needs, when they are missing: Debian's rustc-web
# and cargo-web with the standard library's source (rust-web-src, built for the target by
# -Zbuild-std), and per target a C cross linker with its C library and qemu-user to run the
# binary (arm64, s390x); the macOS check compiles without linking, so it needs no more.
# Usage: scripts/cross_deps.sh arm64|s390x|macos     (called by the Makefile's cross targets)
set -euo pipefail
packages=(rustc-web cargo-web rust-web-src)
case ${1:-} in
    arm64) packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user) ;;
    s390x) packages+=(gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user) ;;
    macos) ;;
    *) echo "usage: scripts/cross_deps.sh arm64|s390x|macos" >&2; exit 2 ;;
esac
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "cross_deps: missing ${missing[*]}, and this is not a Debian system (no apt-get)." >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "cross_deps: as root, run: apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
echo "cross_deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
