#!/usr/bin/env bash
# Perft speed of Betacut against Stockfish's `go perft`, measured in the same run.
#
#   scripts/perft_vs_stockfish.sh [runs]        (default 5 runs per position; median reported)
#
# Both sides bulk-count the last ply and use no hash table, single-threaded. Stockfish is timed
# from sending `go perft N` to reading `Nodes searched` (its start-up and NNUE loading are
# excluded); Betacut is timed by its own `perft` command (start-up excluded likewise).
# Needs /usr/games/stockfish (Debian package `stockfish`) and python3.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
case ${1:-} in -h | --help) usage; exit 0 ;; esac
cd "$(dirname "$0")/.."
RUNS=${1:-5}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
cargo build --release --quiet -p betacut
exec python3 - "$RUNS" "$STOCKFISH" <<'PY'
import re, statistics, subprocess, sys, time

runs, stockfish = int(sys.argv[1]), sys.argv[2]
positions = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
]

sf = subprocess.Popen([stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(line):
    sf.stdin.write(line + "\n"); sf.stdin.flush()
send("uci"); send("isready")
for line in sf.stdout:
    if line.strip() == "readyok":
        break

def stockfish_time(fen, depth, expected):
    send(f"position fen {fen}")
    t0 = time.perf_counter()
    send(f"go perft {depth}")
    for line in sf.stdout:
        m = re.match(r"Nodes searched: (\d+)", line.strip())
        if m:
            assert int(m.group(1)) == expected, line
            return time.perf_counter() - t0

def betacut_time(fen, depth, expected):
    out = subprocess.run(["./target/release/betacut", "perft", str(depth), "--fen", fen],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"nodes (\d+) time ([\d.]+) s", out)
    assert int(m.group(1)) == expected, out
    return float(m.group(2))

print(f"| position | depth | nodes | Stockfish median (s) | Betacut median (s) | Stockfish Mnps | Betacut Mnps | speed ratio |")
print(f"| --- | --- | --- | --- | --- | --- | --- | --- |")
for name, fen, depth, nodes in positions:
    sf_times, bc_times = [], []
    for _ in range(runs):  # interleaved, so machine noise hits both alike
        sf_times.append(stockfish_time(fen, depth, nodes))
        bc_times.append(betacut_time(fen, depth, nodes))
    s, b = statistics.median(sf_times), statistics.median(bc_times)
    print(f"| {name} | {depth} | {nodes:,} | {s:.3f} | {b:.3f} | {nodes/s/1e6:.0f} | {nodes/b/1e6:.0f} | {s/b:.2f}x |")
send("quit")
sf.wait()
PY
