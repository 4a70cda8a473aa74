#!/usr/bin/env bash
# What each search feature is worth: for every NAME, build Betacut with that
# switch off (see src/search/ablation.rs) and play it against the normal build with an SPRT.
#
#   lab/scripts/ablation_sprt.sh NAME [NAME ...]        e.g. lab/scripts/ablation_sprt.sh null_move lmr
#
# Search features only (the evaluation is a network; it has no switches).
# Environment (defaults in brackets): TC [2+0.02], GAMES (cap per SPRT) [200], CONCURRENCY [2],
# SEED (opening order; change it for a re-run on new openings) [11],
# SPRT bounds "ELO0 ELO1 ALPHA BETA" ["0 5 0.05 0.05"], OUT [target/ablation], PY
# [~/.venv-chess-tools/bin/python], TOOLS [../shared/tools], OPENINGS
# [../shared/data/openings/noob_2moves.epd]. Needs the tools of ../shared/tools/setup.sh.
#
# The first engine of every match is the normal build, so a positive Elo is what the feature
# is worth. One summary line per feature is appended to $OUT/summary.txt.
# A run that reaches its cap undecided goes on with lab/scripts/sprt_continue.py --prior W D L -- <the
# same match.py arguments with a new --seed and without --sprt>, which keeps the earlier games.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case ${1:-} in
    -h | --help) usage; exit 0 ;;
    "") usage >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
TC=${TC:-2+0.02}
GAMES=${GAMES:-200}
CONCURRENCY=${CONCURRENCY:-2}
SEED=${SEED:-11}
SPRT=${SPRT:-0 5 0.05 0.05}
OUT=${OUT:-target/ablation}
PY=${PY:-$HOME/.venv-chess-tools/bin/python}
TOOLS=${TOOLS:-${BETACUT_SHARED:-$PWD/../shared}/tools}
OPENINGS=${OPENINGS:-${BETACUT_SHARED:-$PWD/../shared}/data/openings/noob_2moves.epd}
mkdir -p "$OUT"

cargo build --release --quiet -p betacut
cp target/release/betacut "$OUT/betacut-full"
for name in "$@"; do
    # A separate target directory keeps the normal build's artefacts untouched; only the crate
    # itself is rebuilt per feature.
    BETACUT_ABLATE="$name" cargo build --release --quiet -p betacut --features ablation \
        --target-dir "$OUT/target"
    cp "$OUT/target/release/betacut" "$OUT/betacut-no-$name"
    # shellcheck disable=SC2086
    "$PY" "$TOOLS/match.py" \
        --engine "full=$OUT/betacut-full:xboard" --engine "no_$name=$OUT/betacut-no-$name:xboard" \
        --tc "$TC" --games "$GAMES" --openings "$OPENINGS" --seed "$SEED" \
        --concurrency "$CONCURRENCY" --sprt $SPRT \
        --pgn "$OUT/$name.pgn" --json "$OUT/$name.json" | tee "$OUT/$name.log"
    {
        printf '%s (TC %s, cap %s): ' "$name" "$TC" "$GAMES"
        grep -E '^(full vs|SPRT)|^  (full|no_[a-z_]+): illegal_move' "$OUT/$name.log" | tr -s ' \n' ' '
        echo
    } >>"$OUT/summary.txt"
done
