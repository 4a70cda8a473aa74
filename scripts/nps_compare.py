#!/usr/bin/env python3
"""Compares the speed of builds by `betacut bench`, in one run, taking turns.

    scripts/nps_compare.py [--runs N] [--depth D] BUILD BUILD [BUILD ...]

A BUILD is a binary's path, optionally followed by `@LEVEL` to cap its vector instructions
(`BETACUT_SIMD`, src/eval/nnue/simd.rs), e.g. `target/release/betacut@avx2`. Each round runs
every build once, in turn, so that a slow spell of a shared machine hits them all alike; the
report gives each build's median nps and its ratio to the first build's median, with the
spread of the per-round ratios. Every build must print the same node count (exit 1 if not):
a change that keeps the node count is decided by speed alone. Stop other jobs first.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

BENCH_LINE = re.compile(r"^(\d+) nodes (\d+) nps$")


def run_bench(path, level, depth):
    """One bench run: (nodes, nps)."""
    env = dict(os.environ)
    if level:
        env["BETACUT_SIMD"] = level
    else:
        env.pop("BETACUT_SIMD", None)
    cmd = [path, "bench"] + ([str(depth)] if depth else [])
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    for line in reversed(out.stdout.splitlines() + out.stderr.splitlines()):
        match = BENCH_LINE.match(line.strip())
        if match:
            return int(match.group(1)), int(match.group(2))
    raise RuntimeError(f"{path}: no 'N nodes M nps' line in bench's output")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", help="PATH or PATH@LEVEL")
    parser.add_argument("--runs", type=int, default=8, help="rounds (default 8)")
    parser.add_argument("--depth", type=int, default=0, help="bench depth (default: bench's)")
    args = parser.parse_args()
    if len(args.builds) < 2:
        parser.error("give at least two builds")
    builds = [(b.split("@", 1) + [""])[:2] for b in args.builds]
    nps = [[] for _ in builds]
    nodes = [None] * len(builds)
    for r in range(args.runs):
        row = []
        for i, (path, level) in enumerate(builds):
            n, speed = run_bench(path, level, args.depth)
            if nodes[i] is not None and nodes[i] != n:
                print(f"{args.builds[i]}: node count changed between runs", file=sys.stderr)
                return 1
            nodes[i] = n
            nps[i].append(speed)
            row.append(f"{speed:>9}")
        print(f"round {r + 1:>2}: " + " ".join(row), flush=True)
    base = statistics.median(nps[0])
    print()
    print("| build | nodes | median nps | ratio to the first | per-round ratios (min..max) |")
    print("| --- | --- | --- | --- | --- |")
    for i, name in enumerate(args.builds):
        med = statistics.median(nps[i])
        ratios = [a / b for a, b in zip(nps[i], nps[0])]
        print(
            f"| {name} | {nodes[i]} | {med:.0f} | {med / base:.4f} "
            f"| {min(ratios):.3f}..{max(ratios):.3f} |"
        )
    if len(set(nodes)) != 1:
        print("node counts differ: these builds do not search alike", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
