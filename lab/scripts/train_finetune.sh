#!/usr/bin/env bash
# A network fine-tuned from a shipped one on chunks of a data directory, the recipe of the
# fine-tunes on generation 10 (docs/experiments.md, "The first from-scratch net on generation
# 10, and gen8.bin fine-tuned on the same data"), with its provenance printed and, given the
# sha256 the docs record, a check that it rebuilt the same net bit for bit.
#
#   lab/scripts/train_finetune.sh NAME [more betacut train arguments]
#
# Trains on the chunks whose first game lies in RANGES (name order, as `cat` of the chunk
# files gives them), never the held-out chunk, and writes OUT/NAME.bin and OUT/NAME.log. Prints
# the positions and the sha256 of the training chunks' concatenation (as lab/scripts/data_manifest.py
# computes it), the held-out loss and the net's sha256; with EXPECT set, exits 1 unless the
# net's sha256 starts with it. A missing chunk of RANGES is an error (regenerate it first:
# lab/scripts/long_jobs.sh start, checked by lab/scripts/data_manifest.py DATA --check).
# Environment (defaults in brackets): DATA [~/betacut-data/gen10], HELD_OUT (a file name in
# DATA) [chunk-000000000.bin], RANGES (first games, "FROM-TO" half-open, chunk size CHUNK)
# ["1000-55000 200000-255000": the chunks of ft10-9m-a and ft10-9m-b], CHUNK [1000],
# INIT [src/eval/nnue/nets/gen10.bin, the init of ft11f-a, shipped as gen11.bin; gen8.bin was
# the init of gen10.bin],
# BIN [target/release/betacut-lab], OUT [~/nets], EPOCHS [8],
# LR [0.0001], LR_END [0.000001], WDL [0.1], THREADS [1], SEED [1], EXPECT [] (ft10-9m-b:
# bf4cb1253ae32bec), NICE [1]: at idle priority, so timed matches and builds take the cores first,
# MIRROR [1]: half the samples flipped left to right (`--mirror`; 0: none, which held out better
# on 1-2 M positions, docs/experiments.md).
# The defaults with INIT=lab/nets/gen8.bin are ft10-9m-b; EPOCHS=6 LR=0.00003 is
# ft10-9m-a (b9938cd03196f4a5).
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
RANGES=${RANGES:-1000-55000 200000-255000}
CHUNK=${CHUNK:-1000}
INIT=${INIT:-$here/src/eval/nnue/nets/gen10.bin}
BIN=${BIN:-$here/target/release/betacut-lab}
OUT=${OUT:-$HOME/nets}
EPOCHS=${EPOCHS:-8}
LR=${LR:-0.0001}
LR_END=${LR_END:-0.000001}
WDL=${WDL:-0.1}
THREADS=${THREADS:-1}
SEED=${SEED:-1}
EXPECT=${EXPECT:-}
NICE=${NICE:-1}
MIRROR=${MIRROR:-1}

[ -f "$DATA/$HELD_OUT" ] || { echo "no held-out file $DATA/$HELD_OUT" >&2; exit 1; }
[ -f "$INIT" ] || { echo "no initial net $INIT" >&2; exit 1; }
chunks=()
missing=0
for range in $RANGES; do
    from=${range%-*} to=${range#*-}
    for ((first = from; first < to; first += CHUNK)); do
        file=$(printf "%s/chunk-%09d.bin" "$DATA" "$first")
        [ "$(basename "$file")" = "$HELD_OUT" ] && continue
        if [ -f "$file" ]; then
            chunks+=("$file")
        else
            echo "missing: $file" >&2
            missing=$((missing + 1))
        fi
    done
done
[ "$missing" = 0 ] || { echo "$missing chunks of RANGES are missing" >&2; exit 1; }
mapfile -t chunks < <(printf '%s\n' "${chunks[@]}" | sort)
mkdir -p "$OUT"
log=$OUT/$name.log

bytes=$(cat "${chunks[@]}" | wc -c)
sha=$(cat "${chunks[@]}" | sha256sum | cut -c1-16)
echo "$(date -u +%FT%TZ) $name: ${#chunks[@]} chunks ($RANGES), $((bytes / 32)) positions," \
    "sha256 of the concatenation $sha; held out $HELD_OUT; from $INIT;" \
    "epochs $EPOCHS, lr $LR to $LR_END, wdl $WDL, mirror $MIRROR, seed $SEED" | tee -a "$log"

priority=()
mirror=()
[ "$MIRROR" = 1 ] && mirror=(--mirror)
[ "$NICE" = 1 ] && priority=(chrt -i 0 nice -n 19)
"${priority[@]}" "$BIN" train "${chunks[@]}" --init "$INIT" --output-buckets 8 \
    --out "$OUT/$name.bin" --epochs "$EPOCHS" --lr "$LR" --lr-end "$LR_END" --wdl "$WDL" \
    --scale 140 --min-ply 16 ${mirror[@]+"${mirror[@]}"} --seed "$SEED" --threads "$THREADS" \
    --validation-data "$DATA/$HELD_OUT" "$@" 2>&1 | tee -a "$log" | grep --line-buffered -v '%'

net_sha=$(sha256sum "$OUT/$name.bin" | cut -c1-16)
echo "$(date -u +%FT%TZ) $name: $OUT/$name.bin sha256 $net_sha" | tee -a "$log"
if [ -n "$EXPECT" ]; then
    if [[ $net_sha == "$EXPECT"* ]]; then
        echo "same net as recorded ($EXPECT)"
    else
        echo "DIFFERENT net: recorded $EXPECT, rebuilt $net_sha" >&2
        exit 1
    fi
fi
