#!/usr/bin/env bash
# Every clock a GUI or a tester sets, played with no margin over the clock (as fastchess and
# cutechess-cli judge it): the games of issue 119, item 3. Each trial is one match.py run (or
# scripts/clock_check.py for pondering, which match.py does not do) whose log gives W/D/L and
# each side's time forfeits; lab/scripts/clock_use.py then gives the clock each side used.
#
#   lab/scripts/clock_trials.sh BETACUT [TRIAL...]
#
# BETACUT is a betacut binary. TRIALS (default: all, in this order):
#   inc       1+0.01 against Stockfish 15.1, 1,000 games
#   long      5+0 self-play to move 150 (draw adjudicated there, no resignation), 40 games
#   moves     40/4 repeating against Stockfish 15.1, 100 games
#   st        CECP `st 0.1` (0.1 s a move), self-play over XBoard, 50 games
#   movetime  UCI `go movetime 100`, self-play, 50 games
#             (self-play: Stockfish and Ethereal think 100-108 ms at 100 ms a move, so with
#             no margin they would lose every game on time)
#   threads   1+0.01 against Stockfish 15.1 with Threads 2 and Hash 256: four threads on two
#             cores at concurrency 2, 50 games
#   ponder    self-play with pondering at 1+0.01 and 2+0, 50 games each (scripts/clock_check.py
#             --ponder; both engines think at once, so one game at a time on two cores)
# Openings: noob_2moves.epd (balanced), seed 119; concurrency 2; no resign adjudication
# (fastchess's default); Betacut one thread and Hash 64 unless said, the opponents one thread and
# Hash 64. Data generation is paused for the whole run. Writes OUT/TRIAL.{log,pgn,json}.
# Environment: OUT [target/clock-trials], PY [~/.venv-chess-tools/bin/python], TOOLS
# [../shared/tools], OPENINGS [../shared/data/openings/noob_2moves.epd].
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case ${1:-} in
    "" | -h | --help) usage; [ -n "${1:-}" ]; exit $? ;;
esac
betacut=$1
shift
[ -x "$betacut" ] || { echo "clock_trials.sh: $betacut is not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$here/target/clock-trials}
PY=${PY:-$HOME/.venv-chess-tools/bin/python}
TOOLS=${TOOLS:-${BETACUT_SHARED:-$here/../shared}/tools}
OPENINGS=${OPENINGS:-${BETACUT_SHARED:-$here/../shared}/data/openings/noob_2moves.epd}
trials=("$@")
[ ${#trials[@]} -gt 0 ] || trials=(inc long moves st movetime threads ponder)
mkdir -p "$OUT"

# shellcheck source=lab/scripts/datagen_pause.sh
. "$here/lab/scripts/datagen_pause.sh"
pause_datagen_until_exit clock_trials.sh

stockfish=(--engine "stockfish=/usr/games/stockfish:uci"
    --option stockfish:Threads=1 --option stockfish:Hash=64)
common=(--openings "$OPENINGS" --seed 119 --concurrency 2 --timemargin 0 --resign-moves 0)

# match TRIAL ARGS...: one match.py run into OUT/TRIAL.*.
match() {
    local trial=$1
    shift
    echo "== $trial: match.py $*"
    "$PY" "$TOOLS/match.py" "$@" "${common[@]}" --pgn "$OUT/$trial.pgn" \
        --json "$OUT/$trial.json" | tee "$OUT/$trial.log"
}

for trial in "${trials[@]}"; do
    case $trial in
        inc) match inc --engine "betacut=$betacut:uci" --option betacut:Hash=64 \
            "${stockfish[@]}" --tc 1+0.01 --games 1000 ;;
        long) match long --engine "betacut=$betacut:uci" --engine "betacut2=$betacut:uci" \
            --option betacut:Hash=64 --option betacut2:Hash=64 --tc 5+0 --maxmoves 150 \
            --games 40 ;;
        moves) match moves --engine "betacut=$betacut:uci" --option betacut:Hash=64 \
            "${stockfish[@]}" --tc 40/4 --games 100 ;;
        st) match st --engine "betacut=$betacut:xboard" --engine "betacut2=$betacut:xboard" \
            --option betacut:Hash=64 --option betacut2:Hash=64 --movetime 0.1 --games 50 ;;
        movetime) match movetime --engine "betacut=$betacut:uci" --engine "betacut2=$betacut:uci" \
            --option betacut:Hash=64 --option betacut2:Hash=64 --movetime 0.1 --games 50 ;;
        threads) match threads --engine "betacut=$betacut:uci" --option betacut:Hash=256 \
            --option betacut:Threads=2 "${stockfish[@]}" --tc 1+0.01 --games 50 ;;
        ponder) echo "== ponder: scripts/clock_check.py --ponder"
            python3 "$here/scripts/clock_check.py" "$betacut" --ponder --tc 1+0.01 --tc 2+0 \
                --games 50 --hash 64 --seed 119 | tee "$OUT/ponder.log" ;;
        *) echo "clock_trials.sh: no trial $trial" >&2; exit 2 ;;
    esac
done
