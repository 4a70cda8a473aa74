#!/usr/bin/env python3
"""How far the Elo that an SPRT reports when it passes lies above the true Elo.

    lab/scripts/sprt_bias.py [--bounds ELO0 ELO1] [--true ELO ...] [--runs N] [--shape C0,...,C4]
                             [--max-pairs N] [--seed S]

An SPRT stops as soon as its log-likelihood ratio leaves its bounds, so the runs that pass
early are the ones that were lucky early: the Elo a passing run prints is biased upward, and
the more so the smaller the true gain against the upper bound. Merging only passes, after
other variants were tried and dropped, adds to it. This script measures the first effect for
the project's own SPRTs: it plays RUNS simulated runs per true Elo, pair by pair, with the
LLR of match.py (`sprt_llr_penta`: pentanomial, normal approximation, at least 20 pairs,
alpha = beta = 0.05), and prints the share that pass, the pairs they take and the Elo they
print (mean and median), against the true Elo.

Pairs are drawn from a pentanomial shape (counts of pairs scoring 0, 0.5, 1, 1.5, 2 points),
made symmetric and then tilted to each true Elo (p_i proportional to shape_i * exp(k * i),
k chosen so the mean pair score is the Elo's expected score), so draws and the correlation of
a pair's two games are those of the project's UHO runs. Default shape: the `gen10.bin` SPRT of
2026-12-04 ([6, 41, 103, 81, 8], docs/log/figures.md).

Pure Python, no numpy; seedable, so its output repeats.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
MIN_PAIRS = 20


def expected_score(elo: float) -> float:
    """The logistic expected score of an Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The logistic Elo of a mean score (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def tilted(shape: list[float], elo: float) -> list[float]:
    """The symmetric version of SHAPE tilted until its mean pair score is ELO's."""
    sym = [(a + b) / 2 for a, b in zip(shape, reversed(shape))]
    target = expected_score(elo)

    def probabilities(k: float) -> list[float]:
        weights = [s * math.exp(k * i) for i, s in enumerate(sym)]
        total = sum(weights)
        return [w / total for w in weights]

    def mean(k: float) -> float:
        return sum(p * pts / 2 for p, pts in zip(probabilities(k), PAIR_POINTS))

    lo, hi = -10.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if mean(mid) < target:
            lo = mid
        else:
            hi = mid
    return probabilities((lo + hi) / 2)


def llr(counts: list[int], s0: float, s1: float) -> float:
    """match.py's pentanomial LLR (zero counts regularised to 1e-3, 0 before 20 pairs)."""
    n = sum(counts)
    if n < MIN_PAIRS:
        return 0.0
    reg = [c if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    s = sum(c * p / 2 for c, p in zip(reg, PAIR_POINTS)) / total
    var = sum(c * (p / 2 - s) ** 2 for c, p in zip(reg, PAIR_POINTS)) / total
    if var <= 0:
        return 0.0
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


def run_once(rng: random.Random, probs: list[float], s0: float, s1: float, lower: float,
             upper: float, max_pairs: int) -> tuple[str, int, float]:
    """One SPRT: ("H1" | "H0" | "open", pairs, the Elo it reports)."""
    counts = [0] * 5
    cumulative = [sum(probs[: i + 1]) for i in range(5)]
    for pairs in range(1, max_pairs + 1):
        r = rng.random()
        counts[next((i for i, c in enumerate(cumulative) if r < c), 4)] += 1
        value = llr(counts, s0, s1)
        if value >= upper or value <= lower:
            break
    score = sum(c * p / 2 for c, p in zip(counts, PAIR_POINTS)) / sum(counts)
    verdict = "H1" if value >= upper else "H0" if value <= lower else "open"
    return verdict, sum(counts), elo_of(score)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bounds", nargs=2, type=float, default=[0.0, 10.0],
                        metavar=("ELO0", "ELO1"))
    parser.add_argument("--true", nargs="+", type=float, default=[0, 5, 10, 15, 20, 30],
                        metavar="ELO", help="the true Elo differences to simulate")
    parser.add_argument("--runs", type=int, default=2000, help="simulated SPRTs a true Elo")
    parser.add_argument("--shape", default="6,41,103,81,8",
                        help="pentanomial counts whose shape the pairs follow")
    parser.add_argument("--max-pairs", type=int, default=5000,
                        help="pairs after which an undecided run is left open")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        shape = [float(x) for x in args.shape.split(",")]
    except ValueError:
        parser.error(f"--shape: not five numbers: {args.shape}")
    if len(shape) != 5 or any(x < 0 for x in shape) or sum(shape) <= 0:
        parser.error(f"--shape: not five counts: {args.shape}")
    if args.runs < 1 or args.max_pairs < MIN_PAIRS:
        parser.error("--runs must be >= 1 and --max-pairs >= 20")

    alpha = beta = 0.05
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    s0, s1 = expected_score(args.bounds[0]), expected_score(args.bounds[1])
    rng = random.Random(args.seed)
    print(f"SPRT [{args.bounds[0]:g}, {args.bounds[1]:g}], alpha = beta = 0.05, pairs shaped "
          f"{args.shape}, {args.runs} runs a row, seed {args.seed}")
    print("| true Elo | passed (H1) | games to H1 (median) | Elo printed at H1: mean | median "
          "| H0 | open |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for true in args.true:
        probs = tilted(shape, true)
        results = [run_once(rng, probs, s0, s1, lower, upper, args.max_pairs)
                   for _ in range(args.runs)]
        passed = [(pairs, elo) for verdict, pairs, elo in results if verdict == "H1"]
        h0 = sum(1 for verdict, _, _ in results if verdict == "H0")
        open_ = args.runs - len(passed) - h0
        if passed:
            games = statistics.median(2 * p for p, _ in passed)
            elos = [e for _, e in passed if math.isfinite(e)]
            line = (f"| {true:+g} | {100 * len(passed) / args.runs:.1f} % | {games:.0f} "
                    f"| {statistics.mean(elos):+.1f} | {statistics.median(elos):+.1f} ")
        else:
            line = f"| {true:+g} | 0 % | - | - | - "
        print(line + f"| {100 * h0 / args.runs:.1f} % | {100 * open_ / args.runs:.1f} % |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
