#!/usr/bin/env bash
# Betacut against another engine at the level-measuring settings of the README's figures: the
# command behind the "against Ethereal 12.00" and "against Stockfish 15.1" rows and issue 69's
# targets.
#
#   lab/scripts/gauntlet.sh BETACUT OPPONENT [GAMES] [SEED]
#
# BETACUT is a betacut binary (one thread, Hash 64, over UCI). OPPONENT is ethereal
# (/usr/games/ethereal-chess), stockfish (/usr/games/stockfish), toga (/usr/games/toga2) or
# NAME=PATH for any UCI engine; the named ones play with Threads=1 and Hash=64 (Toga: Hash=64).
# GAMES [100], SEED [43]: openings of noob_2moves.epd in the seed's order, colours swapped in
# pairs, 10+0.1 (TC to change it), two games at a time (CONCURRENCY).
# Environment: TC [10+0.1], CONCURRENCY [2], EXTRA (more match.py arguments) [], OUT
# [target/gauntlet], PY [~/.venv-chess-tools/bin/python], TOOLS [../shared/tools],
# OPENINGS [../shared/data/openings/noob_2moves.epd].
# Data generation is paused (SIGSTOP) for the match and continued when it ends, however it ends.
# Writes OUT/NAME-SEED.{log,pgn,json}; match.py's last lines give W-D-L, Elo and the faults
# (illegal moves, time forfeits, stalls, crashes) of each side.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case ${1:-} in
    -h | --help) usage; exit 0 ;;
esac
if [ $# -lt 2 ] || [ $# -gt 4 ]; then
    usage >&2
    exit 2
fi
betacut=$1 opponent=$2 games=${3:-100} seed=${4:-43}
here=$(cd "$(dirname "$0")/../.." && pwd)
TC=${TC:-10+0.1}
CONCURRENCY=${CONCURRENCY:-2}
EXTRA=${EXTRA:-}
OUT=${OUT:-$here/target/gauntlet}
PY=${PY:-$HOME/.venv-chess-tools/bin/python}
TOOLS=${TOOLS:-${BETACUT_SHARED:-$here/../shared}/tools}
OPENINGS=${OPENINGS:-${BETACUT_SHARED:-$here/../shared}/data/openings/noob_2moves.epd}
[ -x "$betacut" ] || { echo "gauntlet.sh: $betacut is not an executable" >&2; exit 2; }

options=()
case $opponent in
    ethereal) name=ethereal path=/usr/games/ethereal-chess
        options=(--option ethereal:Threads=1 --option ethereal:Hash=64) ;;
    stockfish) name=stockfish path=/usr/games/stockfish
        options=(--option stockfish:Threads=1 --option stockfish:Hash=64) ;;
    toga) name=toga path=/usr/games/toga2
        options=(--option toga:Hash=64) ;;
    *=*) name=${opponent%%=*} path=${opponent#*=} ;;
    *) echo "gauntlet.sh: unknown opponent $opponent (ethereal, stockfish, toga or NAME=PATH)" >&2
        exit 2 ;;
esac
[ -x "$path" ] || { echo "gauntlet.sh: $path is not an executable" >&2; exit 2; }
mkdir -p "$OUT"

# shellcheck source=lab/scripts/datagen_pause.sh
. "$here/lab/scripts/datagen_pause.sh"
pause_datagen_until_exit gauntlet.sh

run=$OUT/$name-$seed
# shellcheck disable=SC2086
"$PY" "$TOOLS/match.py" \
    --engine "betacut=$betacut:uci" --engine "$name=$path:uci" \
    --option betacut:Hash=64 --option betacut:Threads=1 "${options[@]}" \
    --tc "$TC" --games "$games" --openings "$OPENINGS" --seed "$seed" \
    --concurrency "$CONCURRENCY" --pgn "$run.pgn" --json "$run.json" $EXTRA | tee "$run.log"
