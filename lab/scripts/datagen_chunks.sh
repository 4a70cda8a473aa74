#!/usr/bin/env bash
# Generates training data in chunks of games, resumably: chunk files that are complete are kept,
# so the run can be stopped and started again, split over machines (disjoint game ranges), or
# extended later. Game i depends only on the seed and i, so the concatenated chunks equal one
# long run of `betacut-lab datagen --games TOTAL` (BINARY: `betacut-lab`, or the `betacut` of
# a commit before the workspace split, whose engine binary held datagen).
#
# usage: lab/scripts/datagen_chunks.sh BINARY OUT_DIR SEED TOTAL_GAMES CHUNK_GAMES [datagen flags...]
# e.g.   nice -n 19 lab/scripts/datagen_chunks.sh target/release/betacut-lab ~/betacut-data/gen1 4301 \
#            120000 10000 --nodes 5000 --threads 2
# Then:  cat OUT_DIR/chunk-*.bin > gen1.bin   (the chunk names sort in game order)
# FIRST=K in the environment starts at game K instead of 0, e.g. to go on with smaller chunks
# (an interrupted chunk restarts from its beginning, so smaller ones lose less).
set -euo pipefail
if [ $# -lt 5 ]; then
    sed -n '2,12p' "$0"
    exit 2
fi
binary=$1 out=$2 seed=$3 total=$4 chunk=$5
shift 5
# Linux's autogroup scheduling shares the CPU between sessions first; nice and SCHED_IDLE act
# only inside a session's group. A run started with setsid (lab/scripts/long_jobs.sh) is a session
# of its own and so took an equal share from timed work beside it (2026-12-01: a search beside
# two chunk runs at 176,000 nps, at 490,000 once their group was niced): nice the group too.
if [ -w /proc/self/autogroup ]; then
    echo 19 >/proc/self/autogroup 2>/dev/null || true
fi
mkdir -p "$out"
for ((first = ${FIRST:-0}; first < total; first += chunk)); do
    games=$((total - first < chunk ? total - first : chunk))
    name=$(printf "%s/chunk-%09d.bin" "$out" "$first")
    if [ -f "$name" ]; then
        continue
    fi
    echo "$(date -u +%FT%TZ) games $first..$((first + games)) -> $name" >> "$out/log"
    # The chunk's CPU seconds (user, system) and wall seconds go to OUT_DIR/cpu, one line a chunk
    # ("FIRST GAMES USER SYSTEM WALL"): what a position costs, whatever else shares the cores.
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -a -o "$out/cpu" -f "$first $games %U %S %e" \
            "$binary" datagen "$name.part" --games "$games" --first-game "$first" --seed "$seed" \
            "$@" 2>> "$out/progress"
    else
        "$binary" datagen "$name.part" --games "$games" --first-game "$first" --seed "$seed" "$@" \
            2>> "$out/progress"
    fi
    mv "$name.part" "$name"
done
echo "$(date -u +%FT%TZ) done: $total games" >> "$out/log"
