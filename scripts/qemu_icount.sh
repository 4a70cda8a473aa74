#!/usr/bin/env bash
# Guest instructions a node of a cross-built Betacut under qemu user mode, for each network path:
# qemu logs every translated block (`-d in_asm`) and every block it runs (`-d exec,nochain`),
# and awk sums the blocks' sizes over their runs. `bench 1` and `bench DEPTH` are counted, so
# the start-up (tables, the net, the hash) cancels: instructions a node = the difference of the
# instructions over the difference of the nodes. Repeated runs agree to about 0.2 % (timer polls
# and the environment's size move a few thousand instructions); the counts are not
# time (qemu says nothing about a real CPU's cycles).
#
#   scripts/qemu_icount.sh BINARY [DEPTH] [PATH...]
#
# e.g. `make arm64 EXE=/tmp/betacut-arm64 && scripts/qemu_icount.sh /tmp/betacut-arm64 4 neon
# portable`. BINARY: an aarch64 or s390x build (qemu-aarch64 or qemu-s390x by its ELF header);
# DEPTH [4]; PATH: values of BETACUT_SIMD [the binary's default]. The log streams through a
# pipe: `bench 4` writes about 3 GB of it, never to disk.
set -euo pipefail
if [ $# -lt 1 ]; then
    sed -n '2,15p' "$0"
    exit 2
fi
bin=$1 depth=${2:-4}
shift $(($# < 2 ? $# : 2))
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=("")
case $(file -b "$bin") in
    *aarch64*) qemu=qemu-aarch64 sysroot=/usr/aarch64-linux-gnu ;;
    *S/390*) qemu=qemu-s390x sysroot=/usr/s390x-linux-gnu ;;
    *) echo "qemu_icount.sh: $bin is neither an aarch64 nor an s390x binary" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/log"

# The instructions of one `bench D` run with BETACUT_SIMD=$path, then its node count.
count() {
    local path=$1 d=$2
    awk '
        function norm(h) { sub(/^0x/, "", h); sub(/^0+/, "", h); return h }
        /^IN:/ { inblk = 1; pc = ""; n = 0; next }
        inblk && /^0x[0-9a-f]+:/ {
            if (pc == "") pc = norm(substr($1, 1, length($1) - 1))
            n++
            next
        }
        inblk { if (pc != "") size[pc] = n; inblk = 0 }
        /^Trace / {
            split(substr($0, index($0, "[") + 1), a, "/")
            p = norm(a[2])
            if (p in size) total += size[p]; else missed++
        }
        END {
            if (missed) { print "blocks run but never seen translated: " missed > "/dev/stderr"; exit 1 }
            printf "%d\n", total
        }' "$work/log" >"$work/count" &
    local reader=$!
    env ${path:+BETACUT_SIMD=$path} QEMU_LD_PREFIX=$sysroot "$qemu" \
        -d in_asm,exec,nochain -D "$work/log" "$bin" bench "$d" 2>&1 |
        awk '/ nodes .* nps/ { print $1 }' >"$work/nodes"
    wait "$reader"
    echo "$(cat "$work/count") $(cat "$work/nodes")"
}

for path in "${paths[@]}"; do
    read -r i1 n1 < <(count "$path" 1)
    read -r i2 n2 < <(count "$path" "$depth")
    awk -v p="${path:-default}" -v i1="$i1" -v n1="$n1" -v i2="$i2" -v n2="$n2" -v d="$depth" \
        'BEGIN { printf "%s: bench 1 %d nodes %d instructions; bench %d %d nodes %d instructions; %.1f instructions a node\n", p, n1, i1, d, n2, i2, (i2 - i1) / (n2 - n1) }'
done
