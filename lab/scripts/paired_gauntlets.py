#!/usr/bin/env python3
"""Two gauntlet runs of the same openings, colours and seed, set game for game.

    lab/scripts/paired_gauntlets.py --side NAME A.pgn B.pgn

A and B are match.py PGNs of `lab/scripts/gauntlet.sh` runs with the same opponent, openings
and seed (so round k is the same opening with the same colours in both; the script checks the
opening and the colours of every round). It prints each run's score of NAME and the mean
difference A - B in points a game, with its standard error over the game pairs (rounds 2k-1,
2k: one opening, both colours), so the two runs' shared openings cancel out, and the same
difference in Elo (the referee's paired delta method, referee_stats.diff_paired).
"""
import argparse
import math
import sys
from typing import Dict, List, Tuple

import referee_stats as rs
from eval_calibration import parse_games_text
from pgn_files import open_pgn

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def games_by_round(text: str, side: str) -> Dict[int, Tuple[str, str, float]]:
    """Round -> (opening, White, the side's points) for every finished game in PGN text."""
    out = {}
    for tag, _, _ in parse_games_text(text):
        if tag.get("Result") not in POINTS or not tag.get("Round", "").isdigit():
            continue
        if side not in (tag.get("White"), tag.get("Black")):
            continue
        points = POINTS[tag["Result"]]
        if tag.get("White") != side:
            points = 1.0 - points
        out[int(tag["Round"])] = (tag.get("Opening", ""), tag.get("White", ""), points)
    return out


def matched_pairs(a, b) -> List[Tuple[int, int]]:
    """(A's, B's) half-points (0..4) of every game pair, rounds 2k-1 and 2k, both runs
    finished; a round whose opening or colours differ is an error."""
    for r in set(a) & set(b):
        if a[r][:2] != b[r][:2]:
            raise ValueError(f"round {r}: {a[r][:2]} against {b[r][:2]}: not the same game")
    pairs = []
    for k in range(1, max(set(a) | set(b) | {0}) + 1, 2):
        if all(r in a and r in b for r in (k, k + 1)):
            pairs.append((round(2 * (a[k][2] + a[k + 1][2])), round(2 * (b[k][2] + b[k + 1][2]))))
    return pairs


def paired_difference(a, b) -> Tuple[int, float, float]:
    """(pairs, mean of A - B in points a game, its standard error) over [`matched_pairs`]."""
    diffs = [(x - y) / 4 for x, y in matched_pairs(a, b)]
    n = len(diffs)
    if n < 2:
        raise ValueError("fewer than two game pairs in common")
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return n, mean, sd / math.sqrt(n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--side", default="betacut", help="the engine compared [betacut]")
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    try:
        runs = []
        for path in (args.a, args.b):
            with open_pgn(path) as f:
                runs.append(games_by_round(f.read(), args.side))
        n, mean, se = paired_difference(*runs)
    except (OSError, ValueError) as e:
        print(f"paired_gauntlets.py: {e}", file=sys.stderr)
        return 2
    for path, run in zip((args.a, args.b), runs):
        score = sum(g[2] for g in run.values()) / max(len(run), 1)
        print(f"{path}: {len(run)} games, {100 * score:.1f} %")
    print(f"A - B over {n} game pairs: {100 * mean:+.1f} +/- {196 * se:.1f} points a game "
          f"(in %, 95 %)")
    elo = rs.diff_paired(matched_pairs(*runs))
    if elo:
        print(f"A - B in Elo (paired, delta method): {elo[0]:+.1f} +/- {elo[1]:.1f} (95 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
