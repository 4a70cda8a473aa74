#!/usr/bin/env python3
"""How much of its clock each engine used in a match, from the move times in a PGN.

`match.py` writes each move's time into its comment (`{ +0.68/15 0.268s }`). For every game in
which an engine made at least MIN_MOVES moves, its use is the sum of its move times divided by
what it had: BASE + INC per move made. Prints each engine's mean and median use over those
games; `--profile` adds each engine's mean time per move in bands of ten of its own moves (all
games), which shows where in the game the time goes; `--least` adds, over all games, how low
each engine's clock went (the least time left after a move, its median and tenth percentile
over the games, and the games in which it fell below 100 ms), the margin a stall must eat for
a loss on time. Needs python-chess (the venv of ../shared/tools/setup.sh).

With `--control-moves N` (a control of BASE seconds every N moves, e.g. 40/10), an engine's use
in a game is what it spent in its completed controls over what they gave it.

usage: lab/scripts/clock_use.py GAMES.pgn BASE INC [--min-moves N] [--control-moves N] [--profile]
                                [--least]
e.g.   lab/scripts/clock_use.py gauntlet.pgn 10 0.1 --profile
"""

import argparse
import re
import statistics

import chess.pgn

from pgn_files import open_pgn

TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def counted_moves(played, args):
    """(moves counted, seconds they gave) of an engine's game of `played` moves, or None if
    the game does not count: its completed controls with --control-moves, else the whole game
    when it lasted --min-moves."""
    if args.control_moves > 0:
        controls = played // args.control_moves
        moves = controls * args.control_moves
        return (moves, args.base * controls + args.inc * moves) if controls > 0 else None
    if played >= args.min_moves:
        return played, args.base + args.inc * played
    return None


def least_left(spent, args):
    """The least time an engine had left after any of its moves, `spent` its move times: the
    clock starts at BASE, loses each move's time and gains INC after it (and BASE again after
    each completed control with --control-moves)."""
    clock = lowest = args.base
    for move, seconds in enumerate(spent, 1):
        clock -= seconds
        lowest = min(lowest, clock)
        clock += args.inc
        if args.control_moves > 0 and move % args.control_moves == 0:
            clock += args.base
    return lowest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("base", type=float, help="base time in seconds")
    parser.add_argument("inc", type=float, help="increment in seconds")
    parser.add_argument("--min-moves", type=int, default=60)
    parser.add_argument("--profile", action="store_true", help="mean move time by move band")
    parser.add_argument("--least", action="store_true",
                        help="how low each engine's clock went in each game")
    parser.add_argument("--control-moves", type=int, default=0,
                        help="a conventional control (BASE seconds every N moves): the use "
                             "of the completed controls of every game")
    args = parser.parse_args()
    use = {}
    bands = {}
    least = {}
    with open_pgn(args.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            names = [game.headers.get("White", "?"), game.headers.get("Black", "?")]
            times = {name: [] for name in names}
            first = 0 if game.board().turn else 1  # the side to move in the start position
            for ply, node in enumerate(game.mainline()):
                found = TIME.search(node.comment)
                if found:
                    times[names[(ply + first) % 2]].append(float(found.group(1)))
            for name, spent in times.items():
                least.setdefault(name, []).append(least_left(spent, args))
                for move, seconds in enumerate(spent):
                    bands.setdefault(name, {}).setdefault(move // 10, []).append(seconds)
                counted = counted_moves(len(spent), args)
                if counted:
                    moves, had = counted
                    use.setdefault(name, []).append(sum(spent[:moves]) / had)
    for name, shares in sorted(use.items()):
        which = (f"games with a completed control of {args.control_moves} moves"
                 if args.control_moves > 0 else f"games of {args.min_moves}+ moves")
        print(
            f"{name}: {len(shares)} {which}, "
            f"mean use {100 * statistics.mean(shares):.1f} %, "
            f"median {100 * statistics.median(shares):.1f} %"
        )
    if args.least:
        for name, lows in sorted(least.items()):
            lows.sort()
            print(f"{name}: least time left in a game, median {1000 * statistics.median(lows):.0f} ms, "
                  f"tenth percentile {1000 * lows[len(lows) // 10]:.0f} ms, "
                  f"below 100 ms in {sum(low < 0.1 for low in lows)} of {len(lows)} games")
    if args.profile:
        for name, by_band in sorted(bands.items()):
            cells = [
                f"{10 * band + 1}-{10 * band + 10}: {statistics.mean(s):.3f}s ({len(s)})"
                for band, s in sorted(by_band.items())
                if band < 8
            ]
            print(f"{name} mean move time by move (moves counted): " + ", ".join(cells))


if __name__ == "__main__":
    main()
