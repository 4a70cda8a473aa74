#!/usr/bin/env python3
"""The manifest of a training-data directory that scripts/datagen_chunks.sh filled.

    scripts/data_manifest.py DIR [--chunk-games N]

Prints one Markdown table row per complete chunk (`chunk-<first game>.bin`; `.part` files are
unfinished and left out): the game range, the positions (32-byte records) and the sha256 of the
file, then a total row with the sha256 of the chunks' concatenation in name order (what `cat
DIR/chunk-*.bin` gives). Paste the rows into src/eval/nnue/nets/README.md: with the binary's
commit, the seed and the datagen flags written there, a fresh machine regenerates any chunk
with one command and checks it against its sha256.
"""
import argparse
import hashlib
import os
import re
import sys

RECORD_LEN = 32
CHUNK = re.compile(r"^chunk-(\d+)\.bin$")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--chunk-games", type=int, default=1000,
                        help="games per chunk, as given to datagen_chunks.sh (default 1000)")
    args = parser.parse_args()
    names = sorted(n for n in os.listdir(args.dir) if CHUNK.match(n))
    if not names:
        print(f"{args.dir}: no complete chunk", file=sys.stderr)
        return 1
    whole = hashlib.sha256()
    total = 0
    print("| games | positions | sha256 |")
    print("| --- | --- | --- |")
    for name in names:
        first = int(CHUNK.match(name).group(1))
        digest = hashlib.sha256()
        size = 0
        with open(os.path.join(args.dir, name), "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
                whole.update(block)
                size += len(block)
        if size % RECORD_LEN:
            print(f"{name}: {size} bytes is not a whole number of records", file=sys.stderr)
            return 1
        total += size // RECORD_LEN
        print(f"| {first}..{first + args.chunk_games} | {size // RECORD_LEN:,} "
              f"| `{digest.hexdigest()[:16]}` |")
    print(f"| all {len(names)} chunks | **{total:,}** | `{whole.hexdigest()[:16]}` (concatenated) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
