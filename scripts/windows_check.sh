#!/usr/bin/env bash
# The Windows build checked under Wine, on Debian:
#   1. the whole test suite built for x86_64-pc-windows-gnu and run by Wine (`make windows-test`:
#      unit tests, and the integration tests driving the Windows betacut.exe over pipes);
#   2. the release exe (`make windows`) against the Linux release build: `perft 6` and `bench`
#      must give the same node counts;
#   3. games of the exe under Wine through match.py, in UCI and in XBoard, against Fairy-Max;
#      any engine fault fails the check.
# Usage: scripts/windows_check.sh     (or `make windows-check`)
# Env: GAMES (games per protocol, default 2), TC (default 10+0.1), OUT (default
# target/windows-check: the exe, the PGN files, the logs), TOOLS (the match tools, default
# ../shared/tools, set up by their setup.sh), PY (python with python-chess, default
# ~/.venv-chess-tools/bin/python), OPPONENT (default /usr/games/fairymax:xboard).
#
# Wine 8 (Debian 12) lacks bcryptprimitives.dll, whose ProcessPrng Rust's standard library
# calls for random seeds (Windows 10 and 11 have it): the check runs in a Wine prefix of its own
# (target/wine) and, when the exe does not start there, puts a stand-in built from
# scripts/wine/bcryptprimitives.c into that prefix's system folder. Nothing is put beside the
# exe; ~/.wine is not touched.
#
# About 20 minutes on 2 cores from a clean tree (the test build takes most), so it is not part
# of .ci/run: run it before a release and after changes to platform code (input reading, files,
# paths, memory, threads).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
GAMES=${GAMES:-2}
TC=${TC:-10+0.1}
OUT=${OUT:-target/windows-check}
TOOLS=${TOOLS:-${BETACUT_SHARED:-$PWD/../shared}/tools}
PY=${PY:-$HOME/.venv-chess-tools/bin/python}
OPPONENT=${OPPONENT:-/usr/games/fairymax:xboard}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
exe=$OUT/betacut.exe
failures=0
fail() {
    echo "!! $*"
    failures=$((failures + 1))
}

scripts/windows_deps.sh --wine
for need in "$TOOLS/match.py" "$PY"; do
    if [ ! -e "$need" ]; then
        echo "windows_check: $need is missing (run the match tools' setup.sh)" >&2
        exit 2
    fi
done

export WINEPREFIX=$root/target/wine WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
trap 'wineserver -k >/dev/null 2>&1 || true' EXIT
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "== a Wine prefix of our own: $WINEPREFIX"
    wineboot -i >/dev/null 2>&1 || true
    wineserver -w
fi

echo "== builds: Linux release, Windows release exe ($exe)"
cargo build --release -p betacut
make --no-print-directory windows EXE="$exe"
linux=$root/target/release/betacut

echo "== does the exe start under Wine?"
if ! wine "$exe" --version >/dev/null 2>&1; then
    # Wine's loader names the DLL it could not find (read whole: grep -q would end the pipe
    # early, and pipefail would count that as a failure).
    diagnosis=$(WINEDEBUG=err+module wine "$exe" --version 2>&1 || true)
    if grep -q 'bcryptprimitives.dll.*not found' <<<"$diagnosis"; then
        echo "   Wine lacks bcryptprimitives.dll (ProcessPrng): installing the test stand-in"
        x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -shared -s \
            -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
            scripts/wine/bcryptprimitives.c -ladvapi32
    fi
fi
version=$(wine "$exe" --version | tr -d '\r')
echo "   $version"
echo "   $(stat -c %s "$exe") bytes; DLLs: $(x86_64-w64-mingw32-objdump -p "$exe" |
    awk '/DLL Name:/ { printf "%s ", $3 }')"

echo "== the test suite on Windows (Wine runs the test programs)"
if make --no-print-directory windows-test >"$OUT/tests.log" 2>&1; then
    echo "   passed"
else
    fail "the Windows test suite failed (see $OUT/tests.log)"
fi
awk '/^test result:/ { p += $4; f += $6; i += $8 } END {
    printf "   %d passed, %d failed, %d ignored\n", p, f, i }' "$OUT/tests.log"

echo "== node counts: Linux build and exe"
perft_nodes() { "$@" perft 6 | tr -d '\r' | awk '$1 == "nodes" { print $2 }'; }
bench_nodes() { "$@" bench 2>/dev/null | tr -d '\r' | tail -n 1 | awk '{ print $1 }'; }
for what in perft bench; do
    native=$("${what}_nodes" "$linux")
    windows=$("${what}_nodes" wine "$exe")
    echo "   $what: Linux $native, exe $windows"
    if [ -z "$native" ] || [ "$native" != "$windows" ]; then
        fail "$what node counts differ"
    fi
done

for protocol in uci xboard; do
    echo "== $GAMES games at $TC: wine betacut.exe ($protocol) against $OPPONENT"
    if "$PY" "$TOOLS/match.py" --engine "betacut-exe=wine $exe:$protocol" \
        --engine "opponent=$OPPONENT" --tc "$TC" --games "$GAMES" --concurrency 1 \
        --openings "$TOOLS/openings-40.fen" --seed 1 --fail-on-bugs \
        --pgn "$OUT/games-$protocol.pgn" >"$OUT/match-$protocol.log" 2>&1; then
        # The summary, the exe's fault counts and its notes (what the match runner had to
        # accommodate; the opponent's notes are left out).
        awk '/^Finished|^betacut-exe vs/ { print }
            /^  betacut-exe:/ { own = 1; print; next }
            /^  [^ ]/ { own = 0 }
            own && /notes:/ { print }' "$OUT/match-$protocol.log" | sed 's/^ */   /'
    else
        fail "the $protocol games had engine faults or did not run (see $OUT/match-$protocol.log)"
        grep -E "BUG|error" "$OUT/match-$protocol.log" | head -n 5 | sed 's/^/   /'
    fi
done

if [ "$failures" -gt 0 ]; then
    echo "windows_check: $failures check(s) failed"
    exit 1
fi
echo "windows_check: all passed"
