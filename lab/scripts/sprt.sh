#!/usr/bin/env bash
# SPRT of one Betacut build against another: the command behind every SPRT figure in the docs.
#
#   lab/scripts/sprt.sh NAME NEW BASE SEED ELO0 ELO1
#
# NEW and BASE are two betacut binaries (build each from its commit and copy it aside); the
# first engine, "new", is the one under test, so a positive Elo is what NEW gains. SEED sets the
# opening order (a new SEED for every SPRT, so no two share their openings); ELO0 ELO1 are the
# SPRT bounds (alpha = beta = 0.05, pentanomial on game pairs, decided by match.py).
# Environment (defaults in brackets): TC [8+0.08], HASH (MiB, each engine) [32],
# CONCURRENCY [2], GAMES (cap) [4000], OPENINGS [../shared/data/openings/UHO_4060_v4_20k.epd],
# PROTOCOL [xboard], EXTRA (more match.py arguments, e.g. "--option new:EvalFile=net.bin") [],
# OUT [target/sprt], PY [~/.venv-chess-tools/bin/python], TOOLS [../shared/tools],
# PAUSE_DATAGEN [1]: every running `betacut datagen` is stopped (SIGSTOP) for the match and
# continued (SIGCONT) when it ends, however it ends, so the match has the cores to itself.
# NODES: a fixed number of nodes a move instead of TC (over UCI). Such games do not depend on
# the machine's load, so data generation is not paused (PAUSE_DATAGEN [0]) and the match can
# share the machine: fit for two nets of one architecture (same speed), not for a change that
# costs or saves speed.
# Needs the tools of ../shared/tools/setup.sh. Writes OUT/NAME.{log,pgn,json} and appends one
# line (counts, pentanomial pairs, Elo, LLR, decision, faults) to OUT/summary.txt.
# A run stopped before its decision goes on with lab/scripts/sprt_resume.sh (the same arguments,
# a new NAME and SEED, and the earlier runs' PGNs): one pentanomial test over all its runs.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case ${1:-} in
    -h | --help) usage; exit 0 ;;
esac
if [ $# -ne 6 ]; then
    usage >&2
    exit 2
fi
name=$1 new=$2 base=$3 seed=$4 elo0=$5 elo1=$6
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lab/scripts/sprt_defaults.sh
. "$here/lab/scripts/sprt_defaults.sh"
NODES=${NODES:-}
if [ -n "$NODES" ]; then
    limit=(--nodes "$NODES")
    PROTOCOL=uci
    PAUSE_DATAGEN=${PAUSE_DATAGEN:-0}
else
    limit=(--tc "$TC")
fi
PAUSE_DATAGEN=${PAUSE_DATAGEN:-1}
mkdir -p "$OUT"
for binary in "$new" "$base"; do
    [ -x "$binary" ] || { echo "sprt.sh: $binary is not an executable" >&2; exit 2; }
done

if [ "$PAUSE_DATAGEN" = 1 ]; then
    # shellcheck source=lab/scripts/datagen_pause.sh
    . "$here/lab/scripts/datagen_pause.sh"
    pause_datagen_until_exit sprt.sh
fi

# shellcheck disable=SC2086
"$PY" "$TOOLS/match.py" \
    --engine "new=$new:$PROTOCOL" --engine "base=$base:$PROTOCOL" \
    --option "new:Hash=$HASH" --option "base:Hash=$HASH" \
    "${limit[@]}" --games "$GAMES" --openings "$OPENINGS" --seed "$seed" \
    --concurrency "$CONCURRENCY" --sprt "$elo0" "$elo1" 0.05 0.05 \
    --pgn "$OUT/$name.pgn" --json "$OUT/$name.json" $EXTRA | tee "$OUT/$name.log"
{
    printf '%s %s (new %s, base %s, %s, seed %s, bounds [%s, %s]%s): ' "$(date -u +%F)" \
        "$name" "$new" "$base" "${limit[*]}" "$seed" "$elo0" "$elo1" "${EXTRA:+, $EXTRA}"
    grep -E '^(new vs|SPRT)|^    pairs|^  (new|base): illegal_move' "$OUT/$name.log" | tr -s ' \n' ' '
    echo
} >>"$OUT/summary.txt"
