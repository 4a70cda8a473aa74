#!/usr/bin/env bash
# Go on with an SPRT that stopped before its decision: one sequential test over all its runs.
#
#   lab/scripts/sprt_resume.sh NAME NEW BASE SEED ELO0 ELO1 [EARLIER.pgn ...]
#
# NAME, NEW, BASE, ELO0, ELO1 and the environment are those of lab/scripts/sprt.sh; SEED must be
# new (no two runs share their openings). EARLIER.pgn are the PGNs of the test's earlier runs
# (sprt.sh's OUT/NAME.pgn). PRIOR="W D L P0 P1 P2 P3 P4" adds runs whose PGNs are gone, with
# the counts the docs recorded (with PRIOR alone, on a new machine, no PGN is needed). The games
# play with match.py without its own --sprt; every CHECK seconds [60] lab/scripts/sprt_combine.py
# pools the pairs of all runs and the new one, appends its line to OUT/NAME.combined, and when
# the pooled test crosses a bound the match is interrupted (it writes its summary) and the
# verdict is the combined line. So the test goes on where it stopped and its error rates stay
# those of one SPRT. Writes OUT/NAME.{log,pgn,json,combined} and one line to OUT/summary.txt.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case ${1:-} in
    -h | --help) usage; exit 0 ;;
esac
if [ $# -lt 6 ]; then
    usage >&2
    exit 2
fi
name=$1 new=$2 base=$3 seed=$4 elo0=$5 elo1=$6
shift 6
earlier=("$@")
here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lab/scripts/sprt_defaults.sh
. "$here/lab/scripts/sprt_defaults.sh"
CHECK=${CHECK:-60}
no_prior="0 0 0 0 0 0 0 0"
PRIOR=${PRIOR:-$no_prior}
PAUSE_DATAGEN=${PAUSE_DATAGEN:-1}
mkdir -p "$OUT"
for binary in "$new" "$base"; do
    [ -x "$binary" ] || { echo "sprt_resume.sh: $binary is not an executable" >&2; exit 2; }
done
if [ ${#earlier[@]} -eq 0 ] && [ "$PRIOR" = "$no_prior" ]; then
    echo "sprt_resume.sh: nothing to resume: give EARLIER.pgn or PRIOR" >&2
    exit 2
fi
for pgn in "${earlier[@]}"; do
    [ -r "$pgn" ] || { echo "sprt_resume.sh: cannot read $pgn" >&2; exit 2; }
done
if [ -e "$OUT/$name.pgn" ]; then
    echo "sprt_resume.sh: $OUT/$name.pgn exists; give a new NAME" >&2
    exit 2
fi

if [ "$PAUSE_DATAGEN" = 1 ]; then
    # shellcheck source=lab/scripts/datagen_pause.sh
    . "$here/lab/scripts/datagen_pause.sh"
    pause_datagen_until_exit sprt_resume.sh
fi

combined() {
    # shellcheck disable=SC2086
    "$PY" "$here/lab/scripts/sprt_combine.py" "$elo0" "$elo1" --tools "$TOOLS" --prior $PRIOR \
        "${earlier[@]}" "$OUT/$name.pgn"
}

# shellcheck disable=SC2086
"$PY" "$TOOLS/match.py" \
    --engine "new=$new:$PROTOCOL" --engine "base=$base:$PROTOCOL" \
    --option "new:Hash=$HASH" --option "base:Hash=$HASH" \
    --tc "$TC" --games "$GAMES" --openings "$OPENINGS" --seed "$seed" \
    --concurrency "$CONCURRENCY" --pgn "$OUT/$name.pgn" --json "$OUT/$name.json" $EXTRA \
    >"$OUT/$name.log" 2>&1 &
match=$!
verdict=""
while kill -0 "$match" 2>/dev/null; do
    sleep "$CHECK"
    [ -e "$OUT/$name.pgn" ] || continue
    line=$(combined)
    echo "$(date -u +%FT%TZ) $line" >>"$OUT/$name.combined"
    echo "$line"
    case $line in
        *accepted*)
            verdict=$line
            kill -INT "$match" 2>/dev/null || true
            break
            ;;
    esac
done
wait "$match" || true
[ -n "$verdict" ] || verdict=$(combined)
format='%s %s (resumed; new %s, base %s, tc %s, seed %s, bounds [%s, %s]%s; earlier: %s): %s\n'
prior_text=""
[ "$PRIOR" = "$no_prior" ] || prior_text=", prior $PRIOR"
# shellcheck disable=SC2059
printf "$format" "$(date -u +%F)" "$name" "$new" "$base" "$TC" "$seed" "$elo0" "$elo1" \
    "${EXTRA:+, $EXTRA}" "${earlier[*]:-none}$prior_text" "$verdict" >>"$OUT/summary.txt"
echo "$verdict"
