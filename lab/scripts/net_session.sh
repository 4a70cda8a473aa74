#!/usr/bin/env bash
# One session's data made into a net within the session, for machines that do not outlive it:
# both cores make new games of generation GENERATION for MINUTES, then the net INIT is fine-tuned on
# them, its held-out losses are measured beside INIT's, and the net, the new chunks' manifest
# rows and the lanes' next games are committed at once. A session that is cut off before the
# commit loses only its own work; the next one makes the same games again (they depend only on
# the seed and the game number) and goes on.
#
#   lab/scripts/net_session.sh NAME MINUTES       # e.g. ft10-s1 100
#
# Steps: (1) this checkout's release build (the trainer) if missing; (2) data generation by
# `lab/scripts/long_jobs.sh start` without SPSA (it builds the generation's generator if missing):
# two lanes at idle priority, the first making the held-out chunk 0 first if it is not on disk,
# then each lane going on from its next game in lab/tuning/genGENERATION-lanes ("NEXT END" per line: the
# first game not yet made, and the lane's end); (3) after MINUTES the lanes stop (unfinished
# chunks are dropped) and every chunk is checked against the manifest (lab/scripts/data_manifest.py
# --check); (4) lab/scripts/train_finetune.sh NAME on the lanes' complete chunks from their start,
# from INIT, on THREADS threads;
# (5) lab/scripts/held_out.sh INIT and the new net; (6) the net goes to
# lab/nets/candidates/NAME.bin with a row in the nets README (its provenance and
# losses), the new chunks' rows go to lab/manifests/genGENERATION.tsv (lab/scripts/data_manifest.py
# --append), lab/tuning/genGENERATION-lanes moves on, and all is committed. The net is not played
# here: its SPRT against the shipped net follows (docs/experiments.md gives the command).
# Environment (defaults in brackets): GENERATION [13] (as lab/scripts/long_jobs.sh), DATA
# [~/betacut-data/genGENERATION], INIT [src/eval/nnue/nets/gen11.bin; the newest candidate
# continues the chain], THREADS [2],
# EPOCHS, LR, LR_END, WDL, MIRROR (as lab/scripts/train_finetune.sh; recorded with the net),
# COMMIT [1] (0: nothing committed),
# NO_DATA [0] (1: skip steps 1-3 and train on what the lanes' chunks on disk already hold).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -ne 2 ] || [ "${1:0:1}" = "-" ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
fi
name=$1 minutes=$2
GENERATION=${GENERATION:-13}
DATA=${DATA:-${BETACUT_DATA:-$HOME/betacut-data}/gen$GENERATION}
INIT=${INIT:-$here/src/eval/nnue/nets/gen11.bin}
THREADS=${THREADS:-2}
COMMIT=${COMMIT:-1}
NO_DATA=${NO_DATA:-0}
LANES_FILE=$here/lab/tuning/gen$GENERATION-lanes
CANDIDATES=$here/lab/nets/candidates
NETS_README=$here/src/eval/nnue/nets/README.md
BIN=$here/target/release/betacut-lab
[ -f "$CANDIDATES/$name.bin" ] && { echo "$CANDIDATES/$name.bin exists" >&2; exit 1; }
mapfile -t lanes < <(grep -v '^#' "$LANES_FILE")
mkdir -p "$HOME/nets"
rm -f "$HOME/nets/$name.log"
log() { echo "$(date -u +%FT%TZ) net_session $name: $*"; }

if [ "$NO_DATA" != 1 ]; then
    [ -x "$BIN" ] || (cd "$here" && cargo build --release --quiet)
    # The lanes of lab/scripts/long_jobs.sh (the manifest's generator and switches, chunk 0 first
    # when it is missing, then lab/tuning/genGENERATION-lanes), without SPSA, for MINUTES.
    GENERATION=$GENERATION DATA=$DATA SPSA=0 "$here/lab/scripts/long_jobs.sh" start
    log "data generation for $minutes minutes (lanes from: ${lanes[*]})"
    deadline=$(($(date +%s) + minutes * 60))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        sleep 60
        log "$(find "$DATA" -name 'chunk-*.bin' | wc -l) chunks on disk"
    done
    GENERATION=$GENERATION DATA=$DATA "$here/lab/scripts/long_jobs.sh" stop-data
    python3 "$here/lab/scripts/data_manifest.py" "$DATA" --check | tail -3
fi

# The complete chunks of each lane from its next game on: the session's new games.
ranges=() new_lanes=()
for lane in "${lanes[@]}"; do
    read -r next end <<<"$lane"
    first=$next
    while [ "$first" -lt "$end" ] && [ -f "$(printf "%s/chunk-%09d.bin" "$DATA" "$first")" ]; do
        first=$((first + 1000))
    done
    [ "$first" -gt "$next" ] && ranges+=("$next-$first")
    new_lanes+=("$first $end")
done
[ ${#ranges[@]} -gt 0 ] || { log "no new chunks: nothing to train on" >&2; exit 1; }
log "training on games ${ranges[*]} from $INIT"
DATA=$DATA RANGES="${ranges[*]}" INIT=$INIT BIN=$BIN THREADS=$THREADS NICE=0 OUT=$HOME/nets \
    "$here/lab/scripts/train_finetune.sh" "$name" | tee "$HOME/nets/$name.session.log"
net=$HOME/nets/$name.bin
summary=$(grep -m1 "chunks (" "$HOME/nets/$name.log")
# The fine-tune's settings as lab/scripts/train_finetune.sh logged them (its defaults where unset).
recipe=$(sed -n 's/.*; \(epochs [^;]*\), seed .*/\1/p' <<<"$summary")
losses=$(DATA=$DATA "$here/lab/scripts/held_out.sh" "$INIT" "$net")
echo "$losses"

mkdir -p "$CANDIDATES"
cp "$net" "$CANDIDATES/$name.bin"
net_sha=$(sha256sum "$net" | cut -c1-16)
positions=$(sed -n 's/.* \([0-9]*\) positions,.*/\1/p' <<<"$summary")
data_sha=$(sed -n 's/.*concatenation \([0-9a-f]*\);.*/\1/p' <<<"$summary")
# The new chunks' rows go to the generation's manifest (lab/manifests/genGENERATION.tsv), under a
# note naming this session; chunks made before (on a lost machine) have their rows already.
MANIFEST=$here/lab/manifests/gen$GENERATION.tsv
python3 "$here/lab/scripts/data_manifest.py" "$DATA" --append "$(date -u +%H:%M)" --intro \
    "$(date -u +%F), \`GENERATION=$GENERATION lab/scripts/net_session.sh $name $minutes\` (INIT \`$(basename "$INIT")\`): games ${ranges[*]} of generation $GENERATION, $positions positions (sha256 of the concatenation \`$data_sha\`)."
python3 - "$NETS_README" "$name" "$(basename "$INIT")" "${ranges[*]}" \
    "$positions" "$data_sha" "$net_sha" "$losses" "$recipe" <<'EOF'
import sys
import textwrap
readme, name, init, ranges, positions, data_sha, net_sha, losses, recipe = sys.argv[1:]
text = open(readme, encoding="utf-8").read()
# The candidates' table is the README's last section: create it if needed, add the net's row.
heading = "\n## Candidate nets\n"
if heading not in text:
    intro = textwrap.fill(
        "Nets trained by `lab/scripts/net_session.sh` (a session's new games of generation 10, "
        "fine-tuning the net in the second column), kept in `lab/nets/candidates/` until their SPRT "
        "against the shipped net decides. Held-out losses on generation 10's chunk 0 "
        "(`lab/scripts/held_out.sh`: the score alone on all plies and from ply 16, the result "
        "alone and the training target, WDL share 0.1, from ply 16), each beside its initial "
        "net's; a net is rebuilt bit for bit by `RANGES=... INIT=... THREADS=2` and the settings "
        "beside its initial net, then `"
        "lab/scripts/train_finetune.sh NAME` on the manifest's chunks.", width=100,
        break_on_hyphens=False)
    text = text.rstrip("\n") + "\n" + heading + "\n" + intro + "\n\n" + (
        "| net | from | games | positions (sha256) | sha256 | held out: net | initial net |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n")
cells = [line.split("|")[3:7] for line in losses.splitlines() if line.startswith("| `")]
fmt = lambda c: " / ".join(x.strip() for x in c)
text = text.rstrip("\n") + (
    f"\n| `{name}.bin` | `{init}`, `{recipe}` | {ranges} | {int(positions):,} (`{data_sha}`) | `{net_sha}` "
    f"| {fmt(cells[1])} | {fmt(cells[0])} |\n")
open(readme, "w", encoding="utf-8").write(text)
EOF
{
    echo "# generation $GENERATION's lanes for lab/scripts/net_session.sh: NEXT END (first game not yet made, end)"
    printf '%s\n' "${new_lanes[@]}"
} >"$LANES_FILE"
log "candidate $CANDIDATES/$name.bin ($net_sha); lanes now: ${new_lanes[*]}"
if [ "$COMMIT" = 1 ]; then
    cd "$here"
    git add "$CANDIDATES/$name.bin" "$NETS_README" "$LANES_FILE" "$MANIFEST"
    for attempt in 1 2 3 4 5; do
        git commit -q -m "nets: candidate $name, fine-tuned on generation $GENERATION" \
            -m "$(basename "$INIT") fine-tuned on games ${ranges[*]} of generation $GENERATION ($positions positions; $recipe), sha256 $net_sha. Made by GENERATION=$GENERATION lab/scripts/net_session.sh $name $minutes." \
            -- "$CANDIDATES/$name.bin" "$NETS_README" "$LANES_FILE" "$MANIFEST" && break
        sleep 5 # another run (spsa.py) may hold the index
    done
    git log --oneline -1
fi
