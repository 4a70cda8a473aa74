#!/usr/bin/env bash
# The held-out losses of networks on a validation chunk, as the tables of docs/experiments.md
# and src/eval/nnue/nets/README.md give them: the score alone on all plies, the score alone
# from ply 16, the result alone from ply 16, and the training target (WDL share 0.1) from ply
# 16. Each net is read back with `betacut train --epochs 0 --init NET`, so the figures are
# those of the quantised net that plays.
#
#   lab/scripts/held_out.sh NET...     # one Markdown table row per net
#
# Environment (defaults in brackets): DATA [~/betacut-data/gen10], HELD_OUT
# [chunk-000000000.bin: generation 10's games 0..1,000, sha256 883ca40864901a81], BIN
# [target/release/betacut-lab], WDL [0.1]: the share of the last column.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ "${1:0:1}" = "-" ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
fi
DATA=${DATA:-${BETACUT_DATA:-$HOME/betacut-data}/gen10}
HELD_OUT=${HELD_OUT:-chunk-000000000.bin}
BIN=${BIN:-$here/target/release/betacut-lab}
WDL=${WDL:-0.1}
held_out=$DATA/$HELD_OUT
[ -f "$held_out" ] || { echo "no held-out file $held_out" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The validation loss of NET with the given --wdl and --min-ply.
loss() {
    local net=$1 wdl=$2 min_ply=$3
    # No epoch runs: the training data (the held-out file again) is only read, and the output
    # buckets come from the net.
    "$BIN" train "$held_out" --init "$net" --epochs 0 --wdl "$wdl" --scale 140 \
        --min-ply "$min_ply" --validation-data "$held_out" --out "$scratch/net.bin" 2>&1 |
        sed -n 's/.*validation loss \([0-9.]*\).*/\1/p' | tail -1
}

echo "| net | sha256 | score alone, all plies | score alone, from ply 16 | result alone, from ply 16 | wdl $WDL, from ply 16 |"
echo "| --- | --- | --- | --- | --- | --- |"
for net in "$@"; do
    sha=$(sha256sum "$net" | cut -c1-16)
    echo "| \`$(basename "$net")\` | \`$sha\` | $(loss "$net" 0 0) | $(loss "$net" 0 16) |" \
        "$(loss "$net" 1 16) | $(loss "$net" "$WDL" 16) |"
done
