#!/usr/bin/env bash
# The from-scratch net trained in parts, one part a session, its state in the repository: each
# part trains the chunks of generation 10 that no earlier part has seen (the session's new
# games, or every chunk on disk that is new to the chain) for EPOCHS_PER_PART epochs of one
# cosine schedule of TOTAL_EPOCHS, resumed from the last part's checkpoint. A new machine loses
# the data, not the training: the chain keeps about three quarters of what one run over all
# the games would learn (docs/experiments.md, "One schedule in parts against one run").
#
#   lab/scripts/scratch_chain.sh run       # the next part, if at least MIN_CHUNKS new chunks
#   lab/scripts/scratch_chain.sh status    # the parts so far and the chunks a next part would take
#   lab/scripts/scratch_chain.sh net OUT   # the chain's net now (quantised from the checkpoint)
#   lab/scripts/scratch_chain.sh handover  # commit the last checkpoint, to resume on another machine
#
# State: lab/tuning/scratch-chain/parts.tsv (one line a part: part, date, trainer commit,
# epochs, positions, sha256 of the chunks' concatenation, held-out loss, net sha256, first games
# of its chunks), appended and committed after each part (`run` does; COMMIT=0 leaves it to
# you). The checkpoints (float weights and Adam's moments, 2.4 MB each) stay outside the
# repository, in CHECKPOINTS (epoch-N.ckpt after epoch N), so a day of parts adds a line to the
# history, not megabytes. Only when the chain must resume on another machine (the machine is
# about to go, or the next part runs elsewhere) does `handover` commit the last checkpoint as
# lab/tuning/scratch-chain/latest.ckpt with its epoch in latest.epochs; `run` resumes from the
# local checkpoint of the last part, else from the committed one if it is at that epoch. Parts
# after the last handover are lost with their machine (remove their lines from parts.tsv to go on
# from the committed checkpoint). A part is rebuilt from the manifest's chunks of its line and
# the checkpoint before it with the trainer of its commit (one thread, so the sums are in one
# order: bit for bit).
# Environment: DATA [~/betacut-data/gen10], HELD_OUT [chunk-000000000.bin],
# BIN [target/release/betacut-lab], TOTAL_EPOCHS [80], EPOCHS_PER_PART [1], MIN_CHUNKS [10],
# COMMIT [1], STATE [lab/tuning/scratch-chain] (another directory for a trial run),
# CHECKPOINTS [DATA/../scratch-chain].
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
DATA=${DATA:-${BETACUT_DATA:-$HOME/betacut-data}/gen10}
HELD_OUT=${HELD_OUT:-chunk-000000000.bin}
BIN=${BIN:-$here/target/release/betacut-lab}
TOTAL_EPOCHS=${TOTAL_EPOCHS:-80}
# One pass a part: a session brings about 3 M positions, and ten passes over them at the
# schedule's early learning rate overfit (part 2, 2026-12-03: held out best after the first pass,
# 0.007994, 0.008457 after the tenth; part 1 had 10 passes over 5.2 M).
EPOCHS_PER_PART=${EPOCHS_PER_PART:-1}
MIN_CHUNKS=${MIN_CHUNKS:-10}
COMMIT=${COMMIT:-1}
state=${STATE:-$here/lab/tuning/scratch-chain}
parts=$state/parts.tsv
committed=$state/latest.ckpt
committed_epochs=$state/latest.epochs
CHECKPOINTS=${CHECKPOINTS:-$(dirname "$DATA")/scratch-chain}
# The recipe of lab/scripts/train_scratch.sh (cosine, flipped samples, from ply 16, WDL 0.1).
recipe=(--hidden 256 --output-buckets 8 --epochs "$TOTAL_EPOCHS" --lr 0.001 --lr-end 0.00001
    --wdl 0.1 --min-ply 16 --mirror --seed 1 --threads 1)

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

# First games of the chunks earlier parts trained on, one a line.
seen_games() {
    [ -f "$parts" ] || return 0
    awk -F'\t' '!/^#/ { n = split($9, g, ","); for (i = 1; i <= n; i++) print g[i] }' "$parts"
}

# The first game of a chunk file (`chunk-000055000.bin` -> 55000).
first_game() { echo $((10#$(basename "$1" | sed 's/chunk-\([0-9]*\)\.bin/\1/'))); }

# The complete chunks on disk that no part has trained on (never the held-out one).
new_chunks() {
    local seen
    seen=$(seen_games | sort -u)
    find "$DATA" -maxdepth 1 -name 'chunk-*.bin' ! -name "$HELD_OUT" -printf '%f\n' | sort |
        while read -r name; do
            grep -qx "$(first_game "$name")" <<<"$seen" || echo "$DATA/$name"
        done
}

epochs_done() { [ -f "$parts" ] && awk -F'\t' '!/^#/ { e = $4 } END { print e + 0 }' "$parts" || echo 0; }

# The checkpoint after epoch $1: this machine's, else the committed one if it is at that epoch;
# nothing (and a note on standard error) if there is none.
checkpoint_at() {
    local epochs=$1
    if [ -f "$CHECKPOINTS/epoch-$epochs.ckpt" ]; then
        echo "$CHECKPOINTS/epoch-$epochs.ckpt"
    elif [ -f "$committed" ] && [ "$(cat "$committed_epochs" 2>/dev/null)" = "$epochs" ]; then
        echo "$committed"
    else
        echo "no checkpoint after epoch $epochs here or committed (latest.epochs:" \
            "$(cat "$committed_epochs" 2>/dev/null || echo none)): a part was not handed over" >&2
    fi
}

# The chain's net at its checkpoint (after epoch $2), written to $1: resumed at its last epoch
# with nothing left to train, the trainer only quantises, the output bias calibrated on the
# held-out chunk (which the manifest rebuilds on any machine), so the net follows from the
# checkpoint alone.
write_net() {
    local checkpoint
    checkpoint=$(checkpoint_at "$2")
    [ -n "$checkpoint" ] || exit 1
    "$BIN" train "$DATA/$HELD_OUT" --out "$1" "${recipe[@]}" --stop-after "$2" \
        --resume "$checkpoint" >/dev/null 2>&1
}

case ${1:-} in
    status)
        [ -f "$parts" ] && column -t -s $'\t' "$parts" | cut -c1-160 || echo "no part yet"
        mapfile -t chunks < <(new_chunks)
        echo "epochs done: $(epochs_done) of $TOTAL_EPOCHS; new chunks on disk: ${#chunks[@]}"
        ;;
    net)
        [ $# -eq 2 ] || { usage >&2; exit 2; }
        [ "$(epochs_done)" -gt 0 ] || { echo "no part yet" >&2; exit 1; }
        write_net "$2" "$(epochs_done)"
        echo "$2: $(sha256sum "$2" | cut -c1-16)"
        ;;
    run)
        mapfile -t chunks < <(new_chunks)
        if [ "${#chunks[@]}" -lt "$MIN_CHUNKS" ]; then
            echo "only ${#chunks[@]} new chunks (MIN_CHUNKS $MIN_CHUNKS): no part" >&2
            exit 1
        fi
        done_epochs=$(epochs_done)
        stop=$((done_epochs + EPOCHS_PER_PART))
        [ "$stop" -le "$TOTAL_EPOCHS" ] || { echo "the schedule is done ($done_epochs)" >&2; exit 1; }
        part=$(($(grep -vc '^#' "$parts" 2>/dev/null || true) + 1))
        work=$(mktemp -d)
        trap 'rm -rf "$work"' EXIT
        resume=()
        if [ "$done_epochs" -gt 0 ]; then
            checkpoint=$(checkpoint_at "$done_epochs")
            [ -n "$checkpoint" ] || exit 1
            resume=(--resume "$checkpoint")
        fi
        positions=$(($(cat "${chunks[@]}" | wc -c) / 32))
        sha=$(cat "${chunks[@]}" | sha256sum | cut -c1-16)
        echo "part $part: ${#chunks[@]} chunks, $positions positions ($sha), epochs" \
            "$((done_epochs + 1))-$stop of $TOTAL_EPOCHS"
        "$BIN" train "${chunks[@]}" --out "$work/net.bin" "${recipe[@]}" --stop-after "$stop" \
            --validation-data "$DATA/$HELD_OUT" --checkpoint "$work" "${resume[@]}" 2>&1 |
            tee "$work/log" | grep --line-buffered -v '%'
        loss=$(grep -o "epoch $stop/$TOTAL_EPOCHS: .*validation loss [0-9.]*" "$work/log" |
            grep -o '[0-9.]*$')
        mkdir -p "$state" "$CHECKPOINTS"
        cp "$work/epoch-$stop.ckpt" "$CHECKPOINTS/epoch-$stop.ckpt"
        firsts=$(for c in "${chunks[@]}"; do first_game "$c"; done | paste -sd,)
        mkdir -p "$HOME/nets"
        net=$HOME/nets/scratch-chain-part-$part.bin
        write_net "$net" "$stop"
        net_sha=$(sha256sum "$net" | cut -c1-16)
        if [ ! -f "$parts" ]; then
            printf '# part\tdate\ttrainer\tepochs done\tpositions\tdata sha256\theld out\tnet sha256\tchunks (first games)\n' >"$parts"
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$(date -u +%F)" \
            "$(git -C "$here" rev-parse --short HEAD)" "$stop" "$positions" "$sha" "$loss" \
            "$net_sha" "$firsts" >>"$parts"
        echo "part $part: held out $loss, net $net_sha ($net)"
        if [ "$COMMIT" = 1 ]; then
            git -C "$here" add "$parts"
            git -C "$here" commit -q -m "scratch chain part $part: epochs to $stop, held out $loss" \
                -m "$positions positions of generation 10 ($sha), epochs to $stop of $TOTAL_EPOCHS; the checkpoint stays in $CHECKPOINTS until lab/scripts/scratch_chain.sh handover." \
                -- "$parts"
            echo "committed $parts (the checkpoint: lab/scripts/scratch_chain.sh handover)"
        fi
        ;;
    handover)
        epochs=$(epochs_done)
        [ -f "$CHECKPOINTS/epoch-$epochs.ckpt" ] ||
            { echo "no checkpoint after epoch $epochs in $CHECKPOINTS" >&2; exit 1; }
        if [ "$(cat "$committed_epochs" 2>/dev/null)" = "$epochs" ]; then
            echo "the checkpoint after epoch $epochs is committed already"
            exit 0
        fi
        cp "$CHECKPOINTS/epoch-$epochs.ckpt" "$committed"
        echo "$epochs" >"$committed_epochs"
        git -C "$here" add "$committed" "$committed_epochs"
        git -C "$here" commit -q -m "scratch chain: checkpoint after epoch $epochs, to resume elsewhere" \
            -- "$committed" "$committed_epochs"
        echo "committed $committed (epoch $epochs)"
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac
