#!/usr/bin/env python3
"""Measures how fast Betacut answers `stop` and `quit` during a search (UCI).

For each trial: `position` (start position or a middlegame), `go infinite`, wait a random
0.2-1.5 s, send `stop`, time until `bestmove` (checking that it names a move); then the same
with `quit`, timed until the process has exited. Prints the median and maximum of each in
milliseconds. The issue's targets: a legal `bestmove` within 50 ms of `stop`, an exit within a
second of `quit`. Timings include the pipe round trip; run it on an otherwise idle machine.

usage: scripts/stop_latency.py [BINARY] [--trials N] [--threads N] [--hash MB]
"""

import argparse
import random
import statistics
import subprocess
import time

POSITIONS = [
    "position startpos",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
]


def start(binary, threads, hash_mb):
    engine = subprocess.Popen(
        [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    send(engine, "uci")
    wait_for(engine, "uciok")
    send(engine, f"setoption name Threads value {threads}")
    send(engine, f"setoption name Hash value {hash_mb}")
    send(engine, "isready")
    wait_for(engine, "readyok")
    return engine


def send(engine, line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def wait_for(engine, prefix):
    while True:
        line = engine.stdout.readline()
        if not line:
            raise RuntimeError(f"engine output ended before {prefix!r}")
        if line.startswith(prefix):
            return line.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default="target/release/betacut")
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, default=64)
    args = parser.parse_args()
    rng = random.Random(1)

    stops = []
    engine = start(args.binary, args.threads, args.hash)
    for trial in range(args.trials):
        send(engine, POSITIONS[trial % len(POSITIONS)])
        send(engine, "go infinite")
        time.sleep(rng.uniform(0.2, 1.5))
        sent = time.perf_counter()
        send(engine, "stop")
        line = wait_for(engine, "bestmove")
        stops.append((time.perf_counter() - sent) * 1000)
        words = line.split()
        if len(words) < 2 or words[1] == "(none)":
            raise RuntimeError(f"no move after stop: {line}")
    send(engine, "quit")
    engine.wait(timeout=10)

    quits = []
    for trial in range(max(1, args.trials // 3)):
        engine = start(args.binary, args.threads, args.hash)
        send(engine, POSITIONS[trial % len(POSITIONS)])
        send(engine, "go infinite")
        time.sleep(rng.uniform(0.2, 1.5))
        sent = time.perf_counter()
        send(engine, "quit")
        engine.wait(timeout=10)
        quits.append((time.perf_counter() - sent) * 1000)

    print(
        f"stop -> bestmove: {len(stops)} trials, median {statistics.median(stops):.1f} ms, "
        f"max {max(stops):.1f} ms"
    )
    print(
        f"quit -> exit:     {len(quits)} trials, median {statistics.median(quits):.1f} ms, "
        f"max {max(quits):.1f} ms"
    )


if __name__ == "__main__":
    main()
