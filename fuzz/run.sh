#!/usr/bin/env bash
# Runs Betacut's fuzz targets one after the other, each for SECONDS, at nice 10, on its corpus
# in fuzz/corpus/<target>/ (fill it first with fuzz/seed_corpus.sh), and prints one line of
# figures per target: CPU seconds, executions, coverage (cov: edges, ft: features), corpus
# size, peak memory and what it found. A crash, panic, timeout or memory overrun stops that
# target's run; its input is in fuzz/artifacts/<target>/ and the log in fuzz/logs/<target>.log.
#
# usage: fuzz/run.sh SECONDS [TARGET...]       (all targets when none is named)
# Exit status 1 if any target found something. FUZZ_ARGS adds libFuzzer flags to every run,
# e.g. FUZZ_ARGS=-len_control=0 lets inputs use their whole -max_len from the start (libFuzzer
# otherwise raises the limit only when new coverage stops coming, which left the session targets
# at about 620 of their 4,096 bytes after an hour: docs/log/fuzzing.md).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
all=(fen move_text uci_session xboard_session epd pgn polyglot net_file syzygy_header)
[ $# -gt 0 ] && targets=("$@") || targets=("${all[@]}")

# Longest input per target: a few lines of text for the parsers, a few KB of session or PGN,
# a book of 256 entries, a network file (the built-in one is 602,944 bytes), a small table.
max_len() {
    case $1 in
        fen | move_text) echo 256 ;;
        uci_session | xboard_session) echo 4096 ;;
        epd | pgn) echo 8192 ;;
        polyglot) echo 4096 ;;
        net_file) echo 700000 ;;
        syzygy_header) echo 16448 ;;
        *) echo 4096 ;;
    esac
}

# The same at the process's end: the release threads still running then are reported too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
mkdir -p fuzz/logs
found=0
printf '%-15s %8s %10s %7s %7s %7s %8s  %s\n' target cpu_s execs cov ft corpus rss_mb finding
for target in "${targets[@]}"; do
    log=fuzz/logs/$target.log
    mkdir -p "fuzz/corpus/$target"
    # -a: debug assertions and overflow checks. -detect_leaks=0: LeakSanitizer's check after
    # an input counts the thread-exit record (32 bytes, __cxa_thread_atexit_impl) of a thread
    # still running then, such as the detached thread that hands a dropped hash table back to
    # the system (search/table_memory.rs): by design, not a leak, and it stopped every target
    # that searches within minutes (docs/log/fuzzing.md). ASAN_OPTIONS (above) does the same
    # for the check at the process's end.
    /usr/bin/time -f '%U %S' -o "fuzz/logs/$target.time" \
        nice -n 10 cargo +nightly fuzz run -a "$target" -- \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" \
        -rss_limit_mb=2048 -timeout=10 -detect_leaks=0 -print_final_stats=1 ${FUZZ_ARGS:-} \
        > "$log" 2>&1
    status=$?
    cpu=$(tail -n 1 "fuzz/logs/$target.time" | awk '{printf "%.0f", $1 + $2}')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
    corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
    finding=none
    if [ "$status" -ne 0 ]; then
        found=1
        finding=$(grep -m 1 -A 1 -E 'panicked at' "$log" | tail -n 1 | cut -c1-100)
        [ -n "$finding" ] || finding=$(grep -m 1 -E 'ERROR: libFuzzer|SUMMARY' "$log" | cut -c1-100)
        finding="${finding:-exit status $status} (see $log)"
    fi
    printf '%-15s %8s %10s %7s %7s %7s %8s  %s\n' "$target" "${cpu:-?}" "${execs:-?}" \
        "${cov:-?}" "${ft:-?}" "$corpus" "${rss:-?}" "$finding"
done
exit "$found"
