#!/usr/bin/env python3
"""What a position costs: the CPU seconds of each chunk of a data directory, as
lab/scripts/datagen_chunks.sh logs them in DIR/cpu ("FIRST GAMES USER SYSTEM WALL", one line a
chunk), beside the chunk's positions (its size / 32).

    lab/scripts/chunk_cost.py DIR...                  # a Markdown table row per directory
    lab/scripts/chunk_cost.py DIR --budget SECONDS    # the chunks that fit in that much CPU

The table gives each directory's complete chunks, their positions, CPU seconds (user +
system) and positions per CPU second. `--budget` lists, in game order and without the held-out
chunk 0, the chunks whose CPU seconds add up to at most SECONDS, as the `RANGES` of
lab/scripts/train_finetune.sh ("FROM-TO" half-open game ranges), so that two data sets are
compared at equal CPU. A chunk logged twice (remade after an interrupted run) counts its last
line; a chunk on disk with no line (made before the log existed) is left out and reported.
"""
import argparse
import os
import re
import sys

RECORD_LEN = 32
CHUNK = re.compile(r"^chunk-(\d+)\.bin$")


def chunks(folder: str) -> dict:
    """Complete chunks of `folder`: first game -> positions."""
    found = {}
    for name in os.listdir(folder):
        match = CHUNK.match(name)
        if match:
            found[int(match.group(1))] = os.path.getsize(os.path.join(folder, name)) // RECORD_LEN
    return found


def cpu_seconds(folder: str) -> dict:
    """First game -> (games, CPU seconds) from `folder`/cpu; later lines replace earlier ones."""
    costs = {}
    path = os.path.join(folder, "cpu")
    if not os.path.exists(path):
        return costs
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if len(fields) != 5:
                raise SystemExit(f"{path}:{number}: expected FIRST GAMES USER SYSTEM WALL: {line!r}")
            try:
                first, games = int(fields[0]), int(fields[1])
                user, system = float(fields[2]), float(fields[3])
            except ValueError:
                raise SystemExit(f"{path}:{number}: not numbers: {line!r}") from None
            costs[first] = (games, user + system)
    return costs


def ranges(firsts: list, games: dict) -> str:
    """Sorted first games as half-open "FROM-TO" ranges (consecutive chunks joined)."""
    spans = []
    for first in firsts:
        end = first + games[first]
        if spans and spans[-1][1] == first:
            spans[-1][1] = end
        else:
            spans.append([first, end])
    return " ".join(f"{a}-{b}" for a, b in spans)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", metavar="DIR")
    parser.add_argument("--budget", type=float, metavar="SECONDS",
                        help="the chunks (chunk 0 left out) that fit in this many CPU seconds")
    args = parser.parse_args()
    if args.budget is not None:
        if len(args.dirs) != 1:
            parser.error("--budget takes one DIR")
        folder = args.dirs[0]
        on_disk, costs = chunks(folder), cpu_seconds(folder)
        chosen, spent, positions = [], 0.0, 0
        for first in sorted(on_disk):
            if first == 0 or first not in costs:
                continue
            if spent + costs[first][1] > args.budget:
                break
            chosen.append(first)
            spent += costs[first][1]
            positions += on_disk[first]
        games = {first: costs[first][0] for first in chosen}
        print(f"RANGES=\"{ranges(chosen, games)}\"  # {len(chosen)} chunks, {positions} positions,"
              f" {spent:.0f} CPU seconds")
        return 0
    print("| data | chunks | positions | CPU seconds | positions a CPU second | chunks without a cost |")
    print("| --- | --- | --- | --- | --- | --- |")
    for folder in args.dirs:
        on_disk, costs = chunks(folder), cpu_seconds(folder)
        costed = [f for f in on_disk if f in costs]
        positions = sum(on_disk[f] for f in costed)
        seconds = sum(costs[f][1] for f in costed)
        rate = positions / seconds if seconds else 0.0
        print(f"| `{os.path.basename(os.path.normpath(folder))}` | {len(costed)} | {positions:,} |"
              f" {seconds:,.0f} | {rate:.1f} | {len(on_disk) - len(costed)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
