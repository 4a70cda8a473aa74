#!/usr/bin/env python3
"""One pentanomial SPRT over the games of several runs of the same two engines.

    lab/scripts/sprt_combine.py ELO0 ELO1 [RUN.pgn ...] [--first NAME] [--prior W D L P0 P1 P2 P3 P4]

Each PGN is one run of match.py (lab/scripts/sprt.sh writes OUT/NAME.pgn as the games finish), with
its own --seed: runs played side by side on two cores, or one after another because a session
or a machine ended before the decision. The games of a run pair up by their `Opening` tag (each
opening is played twice, colours swapped); the pairs of all runs are pooled, and the verdict is
the sequential test on the pooled pair counts, with match.py's own statistics (the pentanomial
model, alpha = beta = 0.05). A pair with one game only (its second still playing when the run
stopped) is left out. Prints W-D-L of the first engine (default `new`), the pair counts, the
pentanomial Elo and the LLR with its bounds and decision. --prior adds the counts of runs
whose PGNs are gone (W D L and the five pair counts, as this script or match.py printed them and
the docs recorded them), so an SPRT goes on from the docs on a new machine. Exit 0 always;
needs ../shared/tools/match.py.
"""
import argparse
import math
import os
import re
import sys
from collections import defaultdict

from pgn_files import open_pgn

HERE = os.path.dirname(os.path.abspath(__file__))
# The shared tools outside the repository: BETACUT_SHARED, default ../shared.
SHARED = os.environ.get("BETACUT_SHARED") or os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared"))
TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def games(path):
    """Yields the tag dictionaries of the games of a PGN file."""
    tags = {}
    with open_pgn(path) as f:
        for line in f:
            found = TAG.match(line)
            if found:
                if found[1] == "Event" and tags:
                    yield tags
                    tags = {}
                tags[found[1]] = found[2]
    if tags:
        yield tags


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elo0", type=float)
    parser.add_argument("elo1", type=float)
    parser.add_argument("pgns", nargs="*")
    parser.add_argument("--prior", nargs=8, type=int, default=[0] * 8,
                        metavar=("W", "D", "L", "P0", "P1", "P2", "P3", "P4"))
    parser.add_argument("--first", default="new", help="the engine under test (default new)")
    parser.add_argument("--tools", default=os.path.join(SHARED, "tools"))
    args = parser.parse_intermixed_args()
    sys.path.insert(0, args.tools)
    from match import penta_stats, sprt_llr_penta  # the match's own statistics

    wdl = list(args.prior[:3])
    counts = list(args.prior[3:])
    unpaired = 0
    for path in args.pgns:
        by_opening = defaultdict(list)
        for tags in games(path):
            result = tags.get("Result")
            if result not in POINTS or args.first not in (tags.get("White"), tags.get("Black")):
                continue
            white, black = POINTS[result]
            points = white if tags.get("White") == args.first else black
            wdl[0 if points == 1 else 1 if points == 0.5 else 2] += 1
            by_opening[tags.get("Opening", tags.get("FEN", "?"))].append(points)
        for scores in by_opening.values():
            while len(scores) >= 2:
                counts[int(round(2 * (scores.pop(0) + scores.pop(0))))] += 1
            unpaired += len(scores)
    bound = math.log((1 - 0.05) / 0.05)
    llr = sprt_llr_penta(counts, args.elo0, args.elo1)
    stats = penta_stats(counts) if sum(counts) else {}
    verdict = "H1 accepted" if llr >= bound else "H0 accepted" if llr <= -bound else "no decision"
    elo = (f"{stats['elo']:+.1f} +/- {stats['elo_error95']:.1f}"
           if stats and math.isfinite(stats.get("elo_error95", math.inf)) else "n/a")
    prior = " and the --prior counts" if any(args.prior) else ""
    print(f"{len(args.pgns)} run(s){prior}: {args.first} W {wdl[0]} D {wdl[1]} L {wdl[2]} "
          f"(n={sum(wdl)}); pairs (0, 0.5, 1, 1.5, 2 points): {counts} "
          f"({unpaired} unpaired game(s) left out); pentanomial Elo {elo}; "
          f"SPRT [{args.elo0:g}, {args.elo1:g}] LLR {llr:.2f} (bounds {-bound:.2f}, "
          f"{bound:.2f}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
