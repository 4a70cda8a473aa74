#!/usr/bin/env python3
"""The manifest of a training-data directory that scripts/datagen_chunks.sh filled.

    scripts/data_manifest.py DIR [--chunk-games N]
    scripts/data_manifest.py DIR --check [MANIFEST]
    scripts/data_manifest.py DIR --missing [MANIFEST]
    scripts/data_manifest.py DIR --append SESSION --intro TEXT [--lanes FILE]

Prints one Markdown table row per complete chunk (`chunk-<first game>.bin`; `.part` files are
unfinished and left out): the game range, the positions (32-byte records) and the sha256 of the
file, then a total row with the sha256 of the chunks' concatenation in name order (what `cat
DIR/chunk-*.bin` gives). Paste the rows into src/eval/nnue/nets/README.md: with the binary's
commit, the seed and the datagen flags written there, a fresh machine regenerates any chunk
with one command and checks it against its sha256.

`--check` does that check: every complete chunk of DIR whose game range has a row in MANIFEST
(default: the nets README, whose rows cover every generation, so give DIR of the generation the
rows belong to, e.g. ~/betacut-data/gen10 for generation 10's section) must have the row's
positions and sha256 prefix. It prints one line per chunk (same, DIFFERENT, or not in the
manifest) and exits 1 if any chunk differs. The rows are read from the manifest section of the
generation named by DIR's last component (`gen10` -> "Generation 10"), to the next section.

`--missing` prints the rows of the chunks that have none in MANIFEST yet (the new ones), with
their total: what a session pastes into the manifest for the chunks it made.

`--append SESSION` writes those rows into the nets README itself, at the end of the
generation's section, under a block of the session SESSION (its start, e.g. "19:02"): the first
call opens the block with the paragraph `--intro` gives, later calls of the same session add
their rows to its table; the line after the table gives the session's chunks and positions and
what all rows of the generation cover. With `--lanes FILE` (lab/tuning/gen10-lanes) each lane's next
game moves past the complete chunks on disk that follow it without a gap.
"""
import argparse
import hashlib
import os
import re
import sys

RECORD_LEN = 32
CHUNK = re.compile(r"^chunk-(\d+)\.bin$")
DEFAULT_MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "eval",
                                "nnue", "nets", "README.md")
# A manifest row: | 1000..2000 | 85,817 | `0892d6c933aa85e1` |
ROW = re.compile(r"^\| (\d+)\.\.(\d+) \| ([\d,]+) \| `([0-9a-f]{16})` \|")


def file_digest(path: str, whole=None) -> tuple[str, int]:
    """The sha256 (hex) and size in bytes of a file; `whole`, a hashlib object, is fed the
    same bytes (the digest of several files' concatenation)."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
            if whole is not None:
                whole.update(block)
            size += len(block)
    return digest.hexdigest(), size


def generation_of(directory: str) -> str:
    """The generation a data directory holds, from its last component (`gen10` -> "10")."""
    return re.sub(r"^gen", "", os.path.basename(os.path.normpath(directory)))


def row_text(first: int, chunk_games: int, positions: int, digest: str) -> str:
    """One manifest row: the game range, the positions and the sha256 prefix."""
    return f"| {first}..{first + chunk_games} | {positions:,} | `{digest[:16]}` |"


def manifest_rows(manifest: str, generation: str) -> dict[int, tuple[int, int, str]]:
    """The rows of one generation's section of the manifest: first game -> (last game,
    positions, sha256 prefix). `generation` is a number as a string ("10")."""
    heading = re.compile(r"^\*\*Generation (\d+)\*\*")
    rows: dict[int, tuple[int, int, str]] = {}
    current = None
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            found = heading.match(line)
            if found:
                current = found.group(1)
            elif line.startswith("## "):
                current = None
            row = ROW.match(line)
            if row and current == generation:
                first, last = int(row.group(1)), int(row.group(2))
                rows[first] = (last, int(row.group(3).replace(",", "")), row.group(4))
    return rows


def check(directory: str, names: list[str], manifest: str, chunk_games: int) -> int:
    """Compares every complete chunk with its manifest row; 1 if any differs."""
    generation = generation_of(directory)
    rows = manifest_rows(manifest, generation)
    if not rows:
        print(f"{manifest}: no rows for generation {generation}", file=sys.stderr)
        return 1
    same = different = unlisted = 0
    for name in names:
        first = int(CHUNK.match(name).group(1))
        digest, size = file_digest(os.path.join(directory, name))
        games = f"{first}..{first + chunk_games}"
        if first not in rows:
            unlisted += 1
            print(f"{name}: games {games}, {size // RECORD_LEN:,} positions, "
                  f"`{digest[:16]}`: not in the manifest")
            continue
        _, positions, prefix = rows[first]
        if positions == size // RECORD_LEN and digest.startswith(prefix):
            same += 1
            print(f"{name}: games {games}: same as the manifest")
        else:
            different += 1
            print(f"{name}: games {games}: DIFFERENT: {size // RECORD_LEN:,} positions "
                  f"`{digest[:16]}`, the manifest says {positions:,} `{prefix}`")
    print(f"{same} same, {different} different, {unlisted} not in the manifest "
          f"(generation {generation}, {len(rows)} rows)")
    return 1 if different else 0


def chunk_row(directory: str, name: str, chunk_games: int, whole=None) -> tuple[int, str]:
    """The positions and the manifest row of one complete chunk (`whole` as in file_digest)."""
    first = int(CHUNK.match(name).group(1))
    digest, size = file_digest(os.path.join(directory, name), whole)
    if size % RECORD_LEN:
        raise ValueError(f"{name}: {size} bytes is not a whole number of records")
    positions = size // RECORD_LEN
    return positions, row_text(first, chunk_games, positions, digest)


def append(directory: str, names: list[str], manifest: str, chunk_games: int, session: str,
           intro: str | None) -> int:
    """Writes the rows of the chunks not yet in `manifest` into the session's block."""
    generation = generation_of(directory)
    listed = manifest_rows(manifest, generation)
    new = [n for n in names if int(CHUNK.match(n).group(1)) not in listed]
    with open(manifest, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next((i for i, line in enumerate(lines)
                  if re.match(rf"^\*\*Generation {generation}\*\*", line)), None)
    if start is None:
        print(f"{manifest}: no section for generation {generation}", file=sys.stderr)
        return 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    marker = f"New chunks of the session from {session} UTC:"
    summary = next((i for i in range(start, end) if lines[i].startswith(marker)), None)
    if summary is None:
        if not intro:
            print(f"no block of the session from {session} yet: give --intro", file=sys.stderr)
            return 2
        while lines[end - 1] == "":
            end -= 1
        block = ["", intro, "", "| games | positions | sha256 |", "| --- | --- | --- |", "",
                 marker, ""]
        lines[end:end] = block
        summary = end + len(block) - 2
    table_end = summary - 1  # the blank line between the table and the summary
    rows = [chunk_row(directory, n, chunk_games) for n in new]
    lines[table_end:table_end] = [row for _, row in rows]
    summary += len(rows)
    session_rows = []
    i = table_end + len(rows) - 1
    while ROW.match(lines[i]):
        session_rows.append(lines[i])
        i -= 1
    session_positions = sum(int(ROW.match(r).group(3).replace(",", "")) for r in session_rows)
    total_chunks = len(listed) + len(rows)
    total = sum(v[1] for v in listed.values()) + sum(p for p, _ in rows)
    lines[summary:summary + 2] = [
        f"{marker} {len(session_rows)} chunks, **{session_positions:,}** positions; the "
        "manifest's rows now cover",
        f"{total:,} positions of distinct games of generation {generation} ({total_chunks} chunks).",
    ]
    with open(manifest, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"{len(rows)} rows added; the session {len(session_rows)} chunks, "
          f"{session_positions:,} positions; generation {generation}: {total:,} positions, "
          f"{total_chunks} chunks")
    return 0


def move_lanes(directory: str, names: list[str], lanes_file: str, chunk_games: int) -> None:
    """Moves each lane's next game past the complete chunks on disk that follow it."""
    on_disk = {int(CHUNK.match(n).group(1)) for n in names}
    out = []
    with open(lanes_file, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("#") or not line.strip():
                out.append(line)
                continue
            nxt, end = (int(x) for x in line.split())
            while nxt < end and nxt in on_disk:
                nxt += chunk_games
            out.append(f"{nxt} {end}")
    with open(lanes_file, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print("lanes: " + ", ".join(l for l in out if not l.startswith("#")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--chunk-games", type=int, default=1000,
                        help="games per chunk, as given to datagen_chunks.sh (default 1000)")
    parser.add_argument("--check", nargs="?", const=DEFAULT_MANIFEST, metavar="MANIFEST",
                        help="compare the chunks with the manifest's rows instead of printing "
                             "rows (default manifest: src/eval/nnue/nets/README.md)")
    parser.add_argument("--missing", nargs="?", const=DEFAULT_MANIFEST, metavar="MANIFEST",
                        help="print rows only for the chunks without a row in the manifest")
    parser.add_argument("--append", metavar="SESSION",
                        help="write the new chunks' rows into the nets README under the block "
                             "of the session from SESSION (e.g. 19:02) UTC")
    parser.add_argument("--intro", help="the paragraph that opens the session's block")
    parser.add_argument("--lanes", metavar="FILE",
                        help="with --append: move each lane's next game past its chunks on disk")
    args = parser.parse_args()
    names = sorted(n for n in os.listdir(args.dir) if CHUNK.match(n))
    if not names:
        print(f"{args.dir}: no complete chunk", file=sys.stderr)
        return 1
    if args.append:
        status = append(args.dir, names, DEFAULT_MANIFEST, args.chunk_games, args.append,
                        args.intro)
        if status == 0 and args.lanes:
            move_lanes(args.dir, names, args.lanes, args.chunk_games)
        return status
    if args.check:
        return check(args.dir, names, args.check, args.chunk_games)
    if args.missing:
        generation = generation_of(args.dir)
        listed = manifest_rows(args.missing, generation)
        names = [n for n in names if int(CHUNK.match(n).group(1)) not in listed]
        if not names:
            print(f"{args.dir}: every complete chunk has its row", file=sys.stderr)
            return 0
    whole = hashlib.sha256()
    total = 0
    print("| games | positions | sha256 |")
    print("| --- | --- | --- |")
    for name in names:
        try:
            positions, row = chunk_row(args.dir, name, args.chunk_games, whole)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 1
        total += positions
        print(row)
    print(f"| all {len(names)} chunks | **{total:,}** | `{whole.hexdigest()[:16]}` (concatenated) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
