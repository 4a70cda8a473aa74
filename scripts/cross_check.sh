#!/usr/bin/env bash
# A cross-built Linux binary checked under qemu-user, against this machine's x86-64 build:
#   arm64  aarch64-unknown-linux-gnu (64-bit ARM: Raspberry Pi OS 64-bit, ARM Linux laptops and
#          servers; the network's NEON path), run by qemu-aarch64
#   s390x  s390x-unknown-linux-gnu (IBM Z: big-endian, so every binary format is read with
#          its byte order stated), run by qemu-s390x
# Checks, each against the x86-64 release build where there is something to compare:
#   1. the perft suites (perft/*.epd) to depth 4: no failure;
#   2. `bench`: the same node count (also with BETACUT_SIMD=portable, the plain loops);
#   3. a Polyglot book (tests/data/books/*.bin): the same `book show` output;
#   4. EvalFile: `bench 8 --net src/eval/nnue/nets/gen10.bin` reads the net from a file: the
#      same node count;
#   5. Syzygy: `probe --syzygy tests/data/syzygy --file tests/data/syzygy_probes.txt`: the same
#      WDL and DTZ for all 2,304 positions;
#   6. games through match.py in UCI and in XBoard against Fairy-Max: no illegal move, time
#      forfeit, stall or crash (qemu is slow, so Betacut's games play at 2x the base time);
#   7. with TESTS=1, the engine's unit tests (`cargo test --lib -p betacut`) built for the
#      target and run by qemu.
# Usage: scripts/cross_check.sh arm64|s390x     (or `make arm64-check`, `make s390x-check`)
# Env: GAMES (games per protocol, default 2), TC (default 10+0.1), TESTS (0 or 1, default 1),
# OUT (default target/TARGET-check), TOOLS and PY as in scripts/windows_check.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
arch=${1:-}
case $arch in
    arm64) triple=aarch64-unknown-linux-gnu qemu=qemu-aarch64 sysroot=/usr/aarch64-linux-gnu ;;
    s390x) triple=s390x-unknown-linux-gnu qemu=qemu-s390x sysroot=/usr/s390x-linux-gnu ;;
    *) echo "usage: scripts/cross_check.sh arm64|s390x" >&2; exit 2 ;;
esac
GAMES=${GAMES:-2}
TC=${TC:-10+0.1}
TESTS=${TESTS:-1}
OUT=${OUT:-target/$arch-check}
TOOLS=${TOOLS:-${BETACUT_SHARED:-$PWD/../shared}/tools}
PY=${PY:-$HOME/.venv-chess-tools/bin/python}
OPPONENT=${OPPONENT:-/usr/games/fairymax:xboard}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
bin=$OUT/betacut
host=$root/target/release/betacut
export QEMU_LD_PREFIX=$sysroot
failures=0
fail() {
    echo "!! $*"
    failures=$((failures + 1))
}
same() { # what, host value, target value
    echo "   $1: x86-64 $2, $arch $3"
    if [ -z "$2" ] || [ "$2" != "$3" ]; then
        fail "$1 differs"
    fi
}

echo "== builds: x86-64 release, $triple release ($bin)"
cargo build --release -p betacut
make --no-print-directory "$arch" EXE="$bin"
echo "   $(file -b "$bin" | cut -d, -f1-2)"
run() { "$qemu" "$bin" "$@"; }

echo "== perft suites to depth 4"
for suite in perft/*.epd; do
    if line=$(run perft-suite "$suite" --max-depth 4 | tail -n 1); then
        echo "   $suite: $line"
    else
        fail "$suite: $line"
    fi
done

echo "== bench node counts"
bench_nodes() { "$@" 2>/dev/null | tail -n 1 | awk '{ print $1 }'; }
native=$(bench_nodes "$host" bench)
same "bench ($(run bench 2>&1 >/dev/null | awk '/network path/ { print $3 }'))" \
    "$native" "$(bench_nodes run bench)"
same "bench (portable loops)" "$native" "$(BETACUT_SIMD=portable bench_nodes run bench)"
net=src/eval/nnue/nets/gen10.bin
same "bench 8 --net gen10.bin (EvalFile)" \
    "$(bench_nodes "$host" bench 8 --net $net)" "$(bench_nodes run bench 8 --net $net)"

echo "== Polyglot books"
for book in tests/data/books/*.bin; do
    fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    for position in "" "$fen"; do
        a=$("$host" book show "$book" ${position:+"$position"} | sha256sum | cut -c1-16)
        b=$(run book show "$book" ${position:+"$position"} | sha256sum | cut -c1-16)
        same "book show $(basename "$book")${position:+ after 1.e4} (sha256 of the output)" "$a" "$b"
    done
done

echo "== Syzygy probes (tests/data/syzygy_probes.txt)"
probes() { "$@" probe --syzygy tests/data/syzygy --file tests/data/syzygy_probes.txt; }
same "WDL and DTZ of $(grep -vc '^#' tests/data/syzygy_probes.txt) positions (sha256)" \
    "$(probes "$host" | sha256sum | cut -c1-16)" "$(probes run | sha256sum | cut -c1-16)"

base=${TC%%+*}
inc=${TC#*+}
[ "$inc" = "$TC" ] && inc=0
slow_tc="$(awk -v b="$base" 'BEGIN { print 2 * b }')+$(awk -v i="$inc" 'BEGIN { print 2 * i }')"
for protocol in uci xboard; do
    echo "== $GAMES games: $qemu betacut ($protocol, $slow_tc) against $OPPONENT ($TC)"
    if "$PY" "$TOOLS/match.py" --engine "betacut-$arch=$qemu $bin:$protocol" \
        --engine "opponent=$OPPONENT" --tc "$TC" --tc-for "betacut-$arch=$slow_tc" \
        --games "$GAMES" --concurrency 1 --openings "$TOOLS/openings-40.fen" --seed 1 \
        --fail-on-bugs --pgn "$OUT/games-$protocol.pgn" >"$OUT/match-$protocol.log" 2>&1; then
        awk -v me="betacut-$arch" '/^Finished/ || $1 == me { print }
            $1 == me ":" { print }' "$OUT/match-$protocol.log" | sed 's/^ */   /'
        grep -E "^  betacut-$arch: illegal" "$OUT/match-$protocol.log" | sed 's/^ */   /'
    else
        fail "the $protocol games had engine faults or did not run (see $OUT/match-$protocol.log)"
        grep -E "BUG|error" "$OUT/match-$protocol.log" | head -n 5 | sed 's/^/   /'
    fi
done

if [ "$TESTS" = 1 ]; then
    echo "== the engine's unit tests built for $triple, run by $qemu"
    runner_var=CARGO_TARGET_$(echo "$triple" | tr 'a-z-' 'A-Z_')_RUNNER
    if env "$runner_var=$qemu" make --no-print-directory "$arch-test" >"$OUT/tests.log" 2>&1; then
        echo "   passed"
    else
        fail "the unit tests failed (see $OUT/tests.log)"
    fi
    awk '/^test result:/ { p += $4; f += $6; i += $8 } END {
        printf "   %d passed, %d failed, %d ignored\n", p, f, i }' "$OUT/tests.log"
fi

if [ "$failures" -gt 0 ]; then
    echo "cross_check $arch: $failures check(s) failed"
    exit 1
fi
echo "cross_check $arch: all passed"
