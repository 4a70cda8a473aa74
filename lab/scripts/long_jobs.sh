#!/usr/bin/env bash
# The long runs from the repository alone, so a fresh machine picks them up with one command:
# the newest generation's data (lanes of game ranges) and the SPSA run at a fixed node budget,
# whose state is committed as it goes. The SPSA run is the second stage (started again 2026-12-02):
# all 31 constants of `betacut tunables` on main's search (a5aecf1: the values of the first
# stage, the late-move reductions kept in hundredths so that their adjustments tune), state in
# lab/tuning/spsa-stage2.json (finished 2026-12-02 at 1,000 iterations: `start` with SPSA=1 then
# only reports it). The first stage (16 constants, 1,000 iterations, finished
# 2026-11-29) is lab/tuning/spsa-state.json, tuned with BETACUT_tune_8348558. SPSA is off by
# default (SPSA=1 runs it); it tunes on gen8.bin, the net the tune build a5aecf1 embeds.
#
#   lab/scripts/long_jobs.sh build     # the binaries the runs need, from their commits, into ~/bin
#   lab/scripts/long_jobs.sh start     # starts what is not running (builds first if needed)
#   lab/scripts/long_jobs.sh status    # what runs, data written, SPSA iteration
#   lab/scripts/long_jobs.sh stop      # stops both (a chunk in progress restarts from its start)
#   lab/scripts/long_jobs.sh stop-data # stops data generation alone (SPSA goes on)
#
# Data generation runs at idle priority (SCHED_IDLE, nice 19): builds, training and timed
# matches take the cores from it, and lab/scripts/sprt.sh and spsa.py pause it for timed games.
# DATA_PRIORITY=normal starts it as an ordinary process instead, for sessions in which other
# work (helpers' builds, fuzzers) keeps the cores busy for hours: at idle priority the data then
# gets almost nothing (2026-12-07: no chunk in 35 minutes beside a fuzzer and two helpers),
# while the kernel's session groups (`sched_autogroup_enabled`) give an ordinary process a
# fair share. The timed scripts pause it either way.
# Environment: GENERATION [11]: the data's generation (10: gen8.bin's games of bb2deb1, seed
# 4310; 11: gen10.bin's games of aa73cd7, seed 4311; 12: ft11f-a's games with a third
# Chess960, the generator of 4dd91a8, seed 4320; 13 and 13-1500: gen11.bin's games of e69feb0 at
# 3,000 and 1,500 soft nodes, seeds 4330 and 4331; 14: ft13k-j's games at 1,500 soft nodes by
# the engine of 5cbfe80, seed 4340; nets/README.md, "Data manifest"), DATA
# [~/betacut-data/genGENERATION], DATA_LANES (below), BIN [~/bin], SPSA [0] (1: the
# SPSA run as well), SPSA_CORES [1]: the cores SPSA is pinned to, one game at a time on each
# ("0,1": both cores, twice the iterations an hour; fixed-node games give the same results
# either way),
# SPSA_CONCURRENCY [one per core]: games at a time (the harness keeps a fixed-node engine about
# a third busy, so two games a core go faster still).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
GENERATION=${GENERATION:-11}
DATA=${DATA:-${BETACUT_DATA:-$HOME/betacut-data}/gen$GENERATION}
BIN=${BIN:-$HOME/bin}
SPSA=${SPSA:-0}
SPSA_CORES=${SPSA_CORES:-1}
SPSA_CONCURRENCY=${SPSA_CONCURRENCY:-$(tr ',' '\n' <<<"$SPSA_CORES" | wc -l)}
# The generation's generator and seed (nets/README.md, "Data manifest") and the SPSA run's tune
# build (docs/experiments.md, "SPSA at a fixed number of nodes").
generation_flags=()
case $GENERATION in
    10) DATAGEN_COMMIT=bb2deb1 DATAGEN_SEED=4310 ;;
    11) DATAGEN_COMMIT=aa73cd7 DATAGEN_SEED=4311 ;;
    12) DATAGEN_COMMIT=4dd91a8 DATAGEN_SEED=4320
        generation_flags=(--chess960 0.17 --double-chess960 0.17
            --net "$here/lab/nets/candidates/ft11f-a.bin") ;;
    # Generation 13: main's engine of e69feb0 (gen11.bin built in, the same bytes as ft11f-a),
    # generation 12's switches, seed 4330; 13-1500 the same at half the nodes (1,500 soft,
    # 7,500 hard), seed 4331: what a position costs and is worth at each (nets README,
    # "Data manifest: generation 13").
    13) DATAGEN_COMMIT=e69feb0 DATAGEN_SEED=4330
        generation_flags=(--chess960 0.17 --double-chess960 0.17) ;;
    13-1500) DATAGEN_COMMIT=e69feb0 DATAGEN_SEED=4331 SOFT_NODES=1500 HARD_NODES=7500
        generation_flags=(--chess960 0.17 --double-chess960 0.17) ;;
    # Generation 14: the games of the candidate ft13k-j (4 king buckets, by --net) with the
    # engine of 5cbfe80 (the search of Bench: 3221267), 13-1500's switches and nodes, seed 4340.
    # At a fixed number of nodes the net's lower nps costs nothing; its held-out loss is 1.2 % to
    # 2.8 % below gen11.bin's (nets README, "Data manifest: generation 14").
    14) DATAGEN_COMMIT=5cbfe80 DATAGEN_SEED=4340 SOFT_NODES=1500 HARD_NODES=7500
        generation_flags=(--chess960 0.17 --double-chess960 0.17
            --net "$here/lab/nets/candidates/ft13k-j.bin") ;;
    *) echo "long_jobs.sh: no generation $GENERATION (10, 11, 12, 13, 13-1500 or 14)" >&2; exit 2 ;;
esac
TUNE_COMMIT=a5aecf1
# The generator is built for this machine's CPU (DATAGEN_NATIVE=1; 0: the portable build of
# .cargo/config.toml): the search is integer arithmetic and its node counts decide every move,
# so the games are the same bits as the portable build's (`lab/scripts/data_manifest.py --check`
# compares each chunk with the manifest), made about 8 % faster (2026-12-01, Intel Xeon VM:
# 12 games in 5.31 s of CPU against 5.78 s, the mean of six alternated runs each; the same
# sha256).
# On top of that it is a profile-guided build (DATAGEN_PGO=1; 0: without, scripts/pgo_build.sh),
# again the same games: 2026-12-03, Intel Xeon VM, data generation paused, 30 games (games
# 910,000..910,030) three times alternated, 13.62 s of CPU a run (mean) plain native against
# 12.26 s profile-guided, 10 % less, the six outputs the same bits.
DATAGEN_NATIVE=${DATAGEN_NATIVE:-1}
DATAGEN_PGO=${DATAGEN_PGO:-1}
if [ "$DATAGEN_NATIVE" = 1 ]; then
    datagen_rustflags="-C target-cpu=native" datagen_bin=$BIN/BETACUT_${DATAGEN_COMMIT}_native
else
    datagen_rustflags="" datagen_bin=$BIN/BETACUT_$DATAGEN_COMMIT
fi
if [ "$DATAGEN_PGO" = 1 ]; then datagen_bin=${datagen_bin}_pgo; fi
tune_bin=$BIN/BETACUT_tune_$TUNE_COMMIT
datagen_flags=(--soft-nodes "${SOFT_NODES:-3000}" --nodes "${HARD_NODES:-15000}"
    --random-plies 8-9 --opening-limit 400
    --exact-only --undamped --threads 1 "${generation_flags[@]}")
# The game ranges, one lane a core: "FROM:TO" ranges run in order, joined by commas. Every new
# machine so far lost the data (2026-12-02 the fourth time), so the lanes make games no net has
# been trained on: the held-out chunk 0 first, then each lane of lab/tuning/genGENERATION-lanes
# from its next game (the first not used by a committed net; lab/scripts/net_session.sh moves
# generation 10's on). The lost nets' ranges, 1,000..55,000 and 200,000..255,000, are in the
# manifest and can be made again with DATA_LANES="0:55000 200000:255000".
lanes_file=$here/lab/tuning/gen$GENERATION-lanes
DATA_LANES=${DATA_LANES:-$(awk '!/^#/ { printf "%s%s:%s", (n++ ? " " : "0:1000,"), $1, $2 }' \
    "$lanes_file")}
SPSA_STATE=lab/tuning/spsa-stage2.json
spsa_args=(--state "$here/$SPSA_STATE" --iterations 1000 --pairs 4 --nodes 40000
    --r-end 0.005 --seed 70 --commit-every 10)

# Builds PACKAGE (betacut, or betacut-lab: the data generator of commits after the workspace
# split; before it, the engine binary held datagen) at COMMIT (with cargo FEATURES, and
# RUSTFLAGS if given) into DEST, in a scratch worktree.
build_at() {
    local commit=$1 dest=$2 features=${3:-} rustflags=${4:-} package=${5:-betacut}
    [ -x "$dest" ] && return 0
    local tree
    tree=$(mktemp -d)
    git -C "$here" worktree add --detach "$tree" "$commit" >/dev/null
    [ -f "$tree/lab/Cargo.toml" ] || package=betacut
    # An empty RUSTFLAGS would override .cargo/config.toml's target: set it only when given.
    (cd "$tree" && env ${rustflags:+RUSTFLAGS="$rustflags"} cargo build --release --quiet \
        -p "$package" ${features:+--features "$features"})
    mkdir -p "$(dirname "$dest")"
    cp "$tree/target/release/$package" "$dest"
    git -C "$here" worktree remove --force "$tree"
    echo "built $dest"
}

running() { pgrep -f "$1" >/dev/null; }

# The data generator: a profile-guided build when DATAGEN_PGO=1.
build_datagen() {
    if [ "$DATAGEN_PGO" = 1 ]; then
        [ -x "$datagen_bin" ] || PGO_PACKAGE=betacut-lab "$here/scripts/pgo_build.sh" \
            "$DATAGEN_COMMIT" "$datagen_bin" "$datagen_rustflags"
    else
        build_at "$DATAGEN_COMMIT" "$datagen_bin" "" "$datagen_rustflags" betacut-lab
    fi
}

case ${1:-} in
    build)
        build_datagen
        build_at "$TUNE_COMMIT" "$tune_bin" tune
        ;;
    start)
        build_datagen
        if [ "$SPSA" = 1 ]; then build_at "$TUNE_COMMIT" "$tune_bin" tune; fi
        mkdir -p "$DATA" "$here/target/spsa"
        # A chunk cut off by the end of a session is incomplete: it restarts from its start.
        if ! running "datagen_chunks.sh.*$DATA"; then
            rm -f "$DATA"/*.part
            case ${DATA_PRIORITY:-idle} in
                idle) priority=(chrt -i 0 nice -n 19) ;;
                normal) priority=(nice -n 0) ;;
                *) echo "long_jobs.sh: DATA_PRIORITY is idle or normal" >&2; exit 2 ;;
            esac
            for lane in $DATA_LANES; do
                setsid nohup "${priority[@]}" bash -c '
                    lane=$1 script=$2 bin=$3 data=$4 seed=$5
                    shift 5
                    for range in ${lane//,/ }; do
                        FIRST=${range%%:*} "$script" "$bin" "$data" "$seed" "${range##*:}" 1000 "$@"
                    done' lane "$lane" "$here/lab/scripts/datagen_chunks.sh" "$datagen_bin" \
                    "$DATA" "$DATAGEN_SEED" "${datagen_flags[@]}" >/dev/null 2>&1 </dev/null &
            done
            echo "data generation started into $DATA"
        fi
        if [ "$SPSA" = 1 ] && ! running "spsa.py.*$SPSA_STATE"; then
            # A fresh machine has no python-chess for match.py: the tools' venv alone (no apt
            # packages: the games are Betacut against Betacut).
            if [ ! -x "$HOME/.venv-chess-tools/bin/python" ]; then
                NO_APT=1 "${BETACUT_SHARED:-$here/../shared}/tools/setup.sh" >/dev/null
            fi
            (cd "$here" && setsid nohup taskset -c "$SPSA_CORES" python3 lab/scripts/spsa.py \
                --engine "$tune_bin" "${spsa_args[@]}" \
                --concurrency "$SPSA_CONCURRENCY" \
                >>target/spsa/run.log 2>&1 </dev/null &) >/dev/null 2>&1 </dev/null
            echo "SPSA started on core(s) $SPSA_CORES (log: target/spsa/run.log)"
        fi
        ;;
    status)
        # The chunk runs (not the lanes' shells around them) and the SPSA run.
        pgrep -af "^bash [^ ]*datagen_chunks.sh|spsa.py" | cut -c1-140 || echo "nothing running"
        if [ -d "$DATA" ]; then
            bytes=$(find "$DATA" -name 'chunk-*.bin' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
            echo "$(find "$DATA" -name 'chunk-*.bin' | wc -l) chunks in $DATA," \
                "$((bytes / 32)) positions; in progress: $(find "$DATA" -name '*.part' -printf '%f ')"
        fi
        if running "spsa.py.*$SPSA_STATE" && [ -f "$here/target/spsa/run.log" ]; then
            tail -1 "$here/target/spsa/run.log" | cut -c1-60
        fi
        ;;
    stop)
        pkill -f "spsa.py.*$SPSA_STATE" || true
        pkill -f "match.py.*plus=" || true
        "$0" stop-data
        ;;
    stop-data)
        # The lanes' shells first (they would start the next chunk), then the chunk runs.
        pkill -f "datagen_chunks.sh.*$DATA" || true
        pkill -f "^[^ ]+ datagen $DATA/" || true
        sleep 1
        rm -f "$DATA"/*.part
        ;;
    *)
        awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
        exit 2
        ;;
esac
