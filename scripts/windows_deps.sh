#!/usr/bin/env bash
# Installs from Debian's packages what cross-building betacut.exe needs, if it is missing:
#   rustc-web, cargo-web  Debian's current Rust compiler (1.96 on Debian 12), in /usr/bin
#   rust-web-src          the source of its standard library, which the build compiles for
#                         Windows (Debian ships no prebuilt Windows standard library for it)
#   gcc-mingw-w64-x86-64  the MinGW-w64 linker and C runtime for x86_64-pc-windows-gnu
# With --wine, also Wine (wine, wine64), which scripts/windows_check.sh runs the exe with.
#
# Used by `make windows`, `make dist` and scripts/windows_check.sh; safe to run again (it
# installs nothing when all is there). It never removes a package: rustc-web conflicts with
# Debian's older `rustc` package, and if that one is installed apt-get stops and says so.
# A rustup toolchain in ~/.cargo is not touched: the Windows build calls /usr/bin/cargo and
# /usr/bin/rustc by their full paths.
set -euo pipefail

packages=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64)
if [ "${1:-}" = "--wine" ]; then
    packages+=(wine wine64)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "windows_deps: missing ${missing[*]}, and this is not a Debian system (no apt-get)." >&2
    echo "Build betacut.exe on Windows with 'cargo build --release' instead." >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "windows_deps: as root, run: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
echo "== installing ${missing[*]} (Debian packages)"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-remove "${missing[@]}"
