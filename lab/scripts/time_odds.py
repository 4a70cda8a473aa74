#!/usr/bin/env python3
"""The time-odds rung: at what share of Betacut's time does a stronger engine score 50 %?

    lab/scripts/time_odds.py BETACUT [--opponent NAME=PATH] [--shares 1/4 1/8 1/16] [--games 40]
                         [--tc 10+0.1] [--seed 71] [--out target/time-odds] [--concurrency 2]

Plays Betacut (UCI, one thread, Hash 64) at --tc against the opponent (default Stockfish 15.1,
/usr/games/stockfish, one thread, Hash 64) given each share of that time control in turn
(`match.py --tc-for`, base and increment both scaled), --games games a share from
noob_2moves.epd, colours swapped in pairs. Each share's match writes OUT/share-K.{json,pgn,log}
(K = the share's denominator) and is skipped when its JSON is there, so the ladder resumes
where it stopped. At the end it prints one line per share (opponent's time, Betacut's W-D-L,
score, Elo) and the share at which Betacut's Elo crosses zero: a straight line fitted to Elo
against log2(share), each share weighted by its games (a score of 0 or 100 % is clamped to
half a game from it), with a 95 % interval from resampling each share's game pairs (the
pentanomial counts match.py writes; 2,000 resamples, seed 1). A smaller share means a stronger
Betacut: the target of issue 69 is to halve it. Needs the tools of ../shared/tools/setup.sh;
data generation is paused (SIGSTOP) while the matches run and continued afterwards.
"""
import argparse
import fractions
import json
import math
import os
import random
import subprocess
import sys

from datagen_pause import datagen_paused

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The shared tools and data outside the repository: BETACUT_SHARED, default ../shared.
SHARED = os.environ.get("BETACUT_SHARED") or os.path.join(ROOT, "..", "shared")


def scaled_tc(tc: str, share: fractions.Fraction) -> str:
    """The time control `tc` (BASE+INC seconds) scaled by `share`."""
    base, _, inc = tc.partition("+")
    scaled_base = float(base) * share
    text = f"{scaled_base:g}"
    if inc:
        text += f"+{float(inc) * share:g}"
    return text


def stem_of(out: str, share: fractions.Fraction) -> str:
    """OUT/share-K (or share-KxN for a share N/K): where one share's match files go."""
    suffix = f"x{share.numerator}" if share.numerator != 1 else ""
    return os.path.join(out, f"share-{share.denominator}{suffix}")


def elo_of(score: float) -> float:
    return -400.0 * math.log10(1.0 / score - 1.0)


def fit_zero(points):
    """Share where the weighted straight line of Elo against log2(share) crosses zero."""
    xs = [math.log2(float(s)) for s, _, _ in points]
    ws = [n for _, _, n in points]
    ys = [e for _, e, _ in points]
    total = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs)) / total
    my = sum(w * y for w, y in zip(ws, ys)) / total
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs))
    if sxx == 0:
        return None, None
    slope = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys)) / sxx
    if slope == 0:
        return None, slope
    return 2.0 ** (mx - my / slope), slope


def clamped_elo(points_won: float, games: int) -> float:
    """Elo of a score, a score of 0 or 100 % clamped to half a game from it."""
    score = min(max(points_won / games, 0.5 / games), 1 - 0.5 / games)
    return elo_of(score)


def zero_interval(shares, pentas, runs=2000, seed=1, level=0.95):
    """The `level` interval of fit_zero's share, by resampling each share's game pairs.

    `pentas` holds, per share, the counts of pairs that scored 0, 0.5, 1, 1.5 and 2 points.
    Returns (low, high) shares, or None when a share has no pairs or too few resamples cross
    zero."""
    per_share = [[k / 2 for k, count in enumerate(penta) for _ in range(count)]
                 for penta in pentas]
    if not all(per_share):
        return None
    rng = random.Random(seed)
    zeros = []
    for _ in range(runs):
        points = [(share, clamped_elo(sum(rng.choices(pairs, k=len(pairs))), 2 * len(pairs)),
                   2 * len(pairs)) for share, pairs in zip(shares, per_share)]
        zero, slope = fit_zero(points)
        if zero is not None and slope is not None and slope < 0:
            zeros.append(zero)
    if len(zeros) < runs // 2:
        return None
    zeros.sort()
    tail = (1 - level) / 2
    return zeros[int(tail * len(zeros))], zeros[min(len(zeros) - 1, int((1 - tail) * len(zeros)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("betacut")
    ap.add_argument("--opponent", default="stockfish=/usr/games/stockfish")
    ap.add_argument("--shares", nargs="+", default=["1/4", "1/8", "1/16"])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "time-odds"))
    ap.add_argument("--tools", default=os.path.join(SHARED, "tools"))
    ap.add_argument("--openings",
                    default=os.path.join(SHARED, "data", "openings", "noob_2moves.epd"))
    ap.add_argument("--python", default=os.path.expanduser("~/.venv-chess-tools/bin/python"))
    args = ap.parse_args()
    name, _, path = args.opponent.partition("=")
    if not path:
        ap.error("--opponent wants NAME=PATH")
    os.makedirs(args.out, exist_ok=True)
    shares = [fractions.Fraction(s) for s in args.shares]

    with datagen_paused():
        for share in shares:
            stem = stem_of(args.out, share)
            if os.path.exists(stem + ".json"):
                continue
            command = [args.python, os.path.join(args.tools, "match.py"),
                       "--engine", f"betacut={args.betacut}:uci", "--engine", f"{name}={path}:uci",
                       "--option", "betacut:Hash=64", "--option", "betacut:Threads=1",
                       "--option", f"{name}:Hash=64", "--option", f"{name}:Threads=1",
                       "--tc", args.tc, "--tc-for", f"{name}={scaled_tc(args.tc, share)}",
                       "--games", str(args.games), "--openings", args.openings,
                       "--seed", str(args.seed), "--concurrency", str(args.concurrency),
                       "--pgn", stem + ".pgn", "--json", stem + ".json.part"]
            print(f"share {share}: {name} at {scaled_tc(args.tc, share)}", flush=True)
            with open(stem + ".log", "w") as log:
                subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=True)
            os.replace(stem + ".json.part", stem + ".json")

    points, pentas = [], []
    print(f"Betacut at {args.tc} against {name} at a share of it; {args.games} games a share")
    print("| share | opponent's time | Betacut W-D-L | score | Elo | faults (Betacut) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for share in shares:
        stem = stem_of(args.out, share)
        with open(stem + ".json") as f:
            summary = json.load(f)
        pairing = summary["pairings"][name]
        w, d, l = pairing["w"], pairing["d"], pairing["l"]
        n = w + d + l
        elo = clamped_elo(w + d / 2, n)
        faults = sum(summary["bugs"]["betacut"].values())
        points.append((share, elo, n))
        pentas.append(pairing.get("penta"))
        print(f"| {share} | {scaled_tc(args.tc, share)} | {w}-{d}-{l} | "
              f"{100 * (w + d / 2) / n:.1f} % | {elo:+.0f} | {faults} |")
    if len(points) >= 2:
        zero, slope = fit_zero(points)
        if zero is None:
            print("no crossing: the Elo does not change with the share")
        else:
            print(f"50 % at a share of about 1/{1 / zero:.1f} of Betacut's time "
                  f"({slope:+.0f} Elo per doubling of the opponent's time)")
            interval = None
            if all(pentas):
                interval = zero_interval(shares, pentas)
            if interval is not None:
                low, high = interval
                print(f"95 % interval, game pairs resampled: 1/{1 / high:.1f} to "
                      f"1/{1 / low:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
