#!/usr/bin/env bash
# A network from scratch on every complete chunk of a data directory but the held-out one: the
# recipe of issue 69's from-scratch nets (cosine schedule, flipped samples, from ply 16, a
# checkpoint and a net after every epoch), resumable, with its provenance printed.
#
#   lab/scripts/train_scratch.sh NAME [more betacut train arguments]
#
# Writes OUT/NAME.log (the trainer's output), OUT/NAME/epoch-K.{ckpt,bin} and OUT/NAME.bin
# (the last epoch's net). Run again after an interruption (a session's end): it resumes from
# the newest checkpoint. At the end it prints the positions, the sha256 of the training
# chunks' concatenation (name order, as lab/scripts/data_manifest.py computes it), the held-out
# loss of every epoch and the best epoch, whose net OUT/NAME/epoch-K.bin is the candidate.
# Environment (defaults in brackets): DATA [~/betacut-data/gen10], HELD_OUT (a file name in
# DATA) [chunk-000000000.bin], BIN [target/release/betacut-lab], OUT [~/nets], EPOCHS [20],
# HIDDEN [256], LR [0.001], LR_END [0.00001], WDL [0.1], THREADS [1], SEED [1],
# NICE [1]: at idle priority, so timed matches and builds take the cores first.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ "${1:0:1}" = "-" ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
fi
name=$1
shift
DATA=${DATA:-${BETACUT_DATA:-$HOME/betacut-data}/gen10}
HELD_OUT=${HELD_OUT:-chunk-000000000.bin}
BIN=${BIN:-$here/target/release/betacut-lab}
OUT=${OUT:-$HOME/nets}
EPOCHS=${EPOCHS:-20}
HIDDEN=${HIDDEN:-256}
LR=${LR:-0.001}
LR_END=${LR_END:-0.00001}
WDL=${WDL:-0.1}
THREADS=${THREADS:-1}
SEED=${SEED:-1}
NICE=${NICE:-1}

[ -f "$DATA/$HELD_OUT" ] || { echo "no held-out file $DATA/$HELD_OUT" >&2; exit 1; }
mapfile -t chunks < <(find "$DATA" -maxdepth 1 -name 'chunk-*.bin' ! -name "$HELD_OUT" | sort)
[ ${#chunks[@]} -gt 0 ] || { echo "no chunks in $DATA" >&2; exit 1; }
mkdir -p "$OUT/$name"
log=$OUT/$name.log

resume=()
latest=$(find "$OUT/$name" -name 'epoch-*.ckpt' | sed 's/.*epoch-\([0-9]*\)\.ckpt/\1/' | sort -n |
    tail -1)
if [ -n "$latest" ]; then
    resume=(--resume "$OUT/$name/epoch-$latest.ckpt")
    echo "resuming after epoch $latest" | tee -a "$log"
fi

bytes=$(cat "${chunks[@]}" | wc -c)
sha=$(cat "${chunks[@]}" | sha256sum | cut -c1-16)
echo "$(date -u +%FT%TZ) $name: ${#chunks[@]} chunks, $((bytes / 32)) positions," \
    "sha256 of the concatenation $sha; held out $HELD_OUT" | tee -a "$log"

priority=()
[ "$NICE" = 1 ] && priority=(chrt -i 0 nice -n 19)
"${priority[@]}" "$BIN" train "${chunks[@]}" --out "$OUT/$name.bin" --hidden "$HIDDEN" \
    --output-buckets 8 --epochs "$EPOCHS" --lr "$LR" --lr-end "$LR_END" --wdl "$WDL" \
    --min-ply 16 --mirror --seed "$SEED" --threads "$THREADS" \
    --validation-data "$DATA/$HELD_OUT" --checkpoint "$OUT/$name" "${resume[@]}" "$@" \
    2>&1 | tee -a "$log" | grep --line-buffered -v '%'

echo "held-out loss by epoch (this run's log):"
grep -o 'epoch [0-9]*/[0-9]*: train loss [0-9.]*, validation loss [0-9.]*' "$log" |
    awk '{ split($2, e, "/"); print e[1], $8 }' | sort -n -k1,1 -u | tee /dev/stderr |
    sort -g -k2,2 | head -1 |
    awk -v dir="$OUT/$name" '{ print "best: epoch " $1 ", held out " $2 ": " dir "/epoch-" $1 ".bin" }'
