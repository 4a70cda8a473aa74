#!/usr/bin/env python3
"""Measures how long a UCI engine takes from `go` to `bestmove` on a tiny clock, the latency
that decides losses on time at bullet speed, for Betacut and a reference engine side by side.

Each call sends `position fen F` (three positions in turn) and then
`go wtime MS btime MS winc INC binc INC`, and times `go` -> `bestmove`; the engines take turns
call by call, so both see the same machine load. Prints, per engine, the calls over
--spike-ms (index and milliseconds, the first 20) and the mean, median, 99th percentile and
maximum in milliseconds.

    scripts/go_latency.py BIN [CALLS] [MS] [--inc MS] [--reference PATH] [--depth N]
                          [--hash MB] [--spike-ms MS]

`--depth N` sends `go depth N` instead (no clock: shows what the timed search adds). The
measurement the search log cites runs it with two busy loops beside, to stand for a loaded
machine:

    for i in 1 2; do (timeout 90 sh -c 'while :; do :; done' &); done
    python3 scripts/go_latency.py BIN 800 90
"""
import argparse
import statistics
import time

# The UCI engine process with a reader thread that clock_check.py plays its games with.
from clock_check import Engine

FENS = [
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9",
    "8/5ppk/4p2p/P7/2bq4/5QK1/8/8 w - - 0 67",
    "3r4/1p6/p1p1k3/2P2R1p/1P2B2P/2P1K1P1/8/4r3 w - - 1 41",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the engine to measure")
    parser.add_argument("calls", nargs="?", type=int, default=500, help="calls per engine")
    parser.add_argument("ms", nargs="?", type=int, default=90, help="wtime and btime in ms")
    parser.add_argument("--inc", type=int, default=10, help="winc and binc in ms")
    parser.add_argument("--reference", default="/usr/games/stockfish",
                        help="the engine measured alongside ('' for none)")
    parser.add_argument("--depth", type=int, help="send `go depth N` instead of a clock")
    parser.add_argument("--hash", type=int, default=64, help="Hash in MB for both")
    parser.add_argument("--spike-ms", type=float, default=25, help="what counts as a spike")
    args = parser.parse_args()

    names = [("betacut", args.binary)]
    if args.reference:
        names.append(("reference", args.reference))
    options = [("Hash", args.hash), ("Threads", 1)]
    engines = {name: Engine(path, options) for name, path in names}
    go = (f"go depth {args.depth}" if args.depth else
          f"go wtime {args.ms} btime {args.ms} winc {args.inc} binc {args.inc}")
    times = {name: [] for name in engines}
    for i in range(args.calls):
        for name, engine in engines.items():
            engine.send(f"position fen {FENS[i % len(FENS)]}")
            start = time.monotonic()
            engine.send(go)
            engine.wait_for("bestmove", 30)
            times[name].append((time.monotonic() - start) * 1000)
    for engine in engines.values():
        engine.quit()
    for name, path in names:
        v = times[name]
        spikes = [(i, round(x)) for i, x in enumerate(v) if x > args.spike_ms]
        print(f"{name} ({path}): {len(spikes)} over {args.spike_ms:g} ms at {spikes[:20]}")
        v = sorted(v)
        print(f"{name} mean {statistics.mean(v):.1f} median {v[len(v) // 2]:.1f} "
              f"p99 {v[int(len(v) * 0.99)]:.1f} max {v[-1]:.1f} ms")


if __name__ == "__main__":
    main()
