#!/usr/bin/env bash
# A profile-guided build of `betacut` at one commit: an instrumented build plays the training
# run (the bench positions, then a few self-play games of `datagen`, the two workloads the
# engine's time goes to), LLVM merges the profile, and the release build is made again with it.
# Since the workspace split, `datagen` is the lab's (`betacut-lab datagen`, the same engine
# code): the instrumented build then builds both binaries for the training run, and the
# optimised build only the package PGO_PACKAGE names (the engine, betacut, unless told). The search is integer arithmetic, so a profile-guided build plays exactly the same
# moves and writes exactly the same data as the plain build of the same commit (check with
# `betacut bench`, and `lab/scripts/data_manifest.py DIR --check` for data); it only runs faster.
#
#   scripts/pgo_build.sh COMMIT DEST [RUSTFLAGS]
#
# COMMIT: any commit of this repository (built in a scratch worktree), or `.` for the checkout
# as it is, uncommitted changes included (`make pgo`); DEST: where the binary
# goes; RUSTFLAGS (optional, e.g. "-C target-cpu=native"): added to the build's target flags,
# which otherwise are .cargo/config.toml's (x86-64-v2). Needs `llvm-profdata` of the Rust
# toolchain's LLVM: `rustup component add llvm-tools` puts it in the toolchain's
# lib/rustlib/<host>/bin, where this script looks first (PROFDATA overrides).
# Environment: PGO_GAMES [6]: self-play games in the training run (after `betacut bench`);
# PGO_PACKAGE [betacut]: the binary built with the profile and copied to DEST (betacut-lab:
# the data generator of commits after the split; before it, the engine binary held datagen).
set -euo pipefail
if [ $# -lt 2 ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
fi
commit=$1 dest=$2 extra=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
games=${PGO_GAMES:-6}

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | awk '/^host:/ { print $2 }')
profdata=${PROFDATA:-$sysroot/lib/rustlib/$host/bin/llvm-profdata}
if [ ! -x "$profdata" ]; then
    echo "no llvm-profdata at $profdata: rustup component add llvm-tools" >&2
    exit 1
fi
# The target flags of .cargo/config.toml: RUSTFLAGS replaces them, so they are repeated here.
base_flags="-C target-cpu=x86-64-v2 $extra"

profiles=$(mktemp -d)
if [ "$commit" = . ]; then
    tree=$here
    trap 'rm -rf "$profiles"' EXIT
else
    tree=$(mktemp -d)
    trap 'git -C "$here" worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$profiles"' EXIT
    git -C "$here" worktree add --detach "$tree" "$commit" >/dev/null
fi

package=${PGO_PACKAGE:-betacut}
# A workspace (lab/ beside the engine) builds its members by name; older commits have one.
if [ -f "$tree/lab/Cargo.toml" ]; then
    generate_packages=(-p betacut -p betacut-lab) use_packages=(-p "$package")
    generator=$tree/target/pgo-generate/release/betacut-lab
else
    generate_packages=() use_packages=() package=betacut
    generator=$tree/target/pgo-generate/release/betacut
fi
echo "pgo: instrumented build of $commit"
(cd "$tree" && RUSTFLAGS="$base_flags -C profile-generate=$profiles" \
    cargo build --release --quiet --target-dir target/pgo-generate "${generate_packages[@]}")
instrumented=$tree/target/pgo-generate/release/betacut
echo "pgo: training run (bench, $games self-play games)"
"$instrumented" bench >/dev/null 2>&1
"$generator" datagen "$profiles/games.bin" --games "$games" --soft-nodes 3000 \
    --nodes 15000 --random-plies 8-9 --exact-only --undamped --threads 1 >/dev/null 2>&1
"$profdata" merge -o "$profiles/merged.profdata" "$profiles"/*.profraw

echo "pgo: optimised build"
(cd "$tree" && RUSTFLAGS="$base_flags -C profile-use=$profiles/merged.profdata" \
    cargo build --release --quiet --target-dir target/pgo-use "${use_packages[@]}")
mkdir -p "$(dirname "$dest")"
cp "$tree/target/pgo-use/release/$package" "$dest"
if [ "$package" = betacut ]; then
    echo "pgo: $dest ($("$dest" bench 2>&1 | tail -1))"
else
    echo "pgo: $dest"
fi
