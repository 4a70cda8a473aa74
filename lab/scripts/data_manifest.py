#!/usr/bin/env python3
"""The manifest of a training-data directory that lab/scripts/datagen_chunks.sh filled.

    lab/scripts/data_manifest.py DIR [--chunk-games N]
    lab/scripts/data_manifest.py DIR --check [MANIFEST]
    lab/scripts/data_manifest.py DIR --missing [MANIFEST]
    lab/scripts/data_manifest.py DIR --append SESSION [--intro TEXT] [--lanes FILE]
    lab/scripts/data_manifest.py --count [MANIFEST ...]

A generation's manifest is lab/manifests/genN.tsv (N from DIR's last component: `gen10` ->
lab/manifests/gen10.tsv): one tab-separated row per chunk of games, `first..end`, the positions
(32-byte records) and the first 16 hex digits of the chunk file's sha256, under the header line
`games positions sha256`; lines starting with `#` are the notes of the sessions that made the
rows below them. With the binary's commit, the seed and the datagen flags written in
src/eval/nnue/nets/README.md, a fresh machine regenerates any chunk with one command and checks
it against its row.

Without an option the script prints one Markdown table row per complete chunk of DIR
(`chunk-<first game>.bin`; `.part` files are unfinished and left out) and a total row with the
sha256 of the chunks' concatenation in name order (what `cat DIR/chunk-*.bin` gives).

`--check` compares every complete chunk of DIR whose game range has a row in MANIFEST (default:
the generation's file; a directory stands for its genN.tsv) with the row's positions and sha256
prefix. It prints one line per chunk (same, DIFFERENT, or not in the manifest) and exits 1 if
any chunk differs.

`--missing` prints the rows of the chunks that have none in MANIFEST yet (the new ones), with
their total: what `--append` would add.

`--append SESSION` appends those rows to the generation's file, under a note that opens the
session's block (`# session from SESSION UTC: ` and the text `--intro` gives); a later call of
the same session, while its block is the file's last, adds its rows to it without a new note.
A note line after the rows gives the session's chunks and positions and what all rows of the
generation cover. With `--lanes FILE` (lab/tuning/gen10-lanes) each lane's next game moves past the
complete chunks on disk that follow it without a gap.

`--count` needs no data: it reads each MANIFEST (default: every genN.tsv) and prints its rows,
positions and game ranges, and exits 1 on a malformed row or a game range listed twice.
"""
import argparse
import hashlib
import os
import re
import sys

RECORD_LEN = 32
CHUNK = re.compile(r"^chunk-(\d+)\.bin$")
HEADER = "games\tpositions\tsha256"
# A manifest row: 1000..2000<TAB>85817<TAB>0892d6c933aa85e1
ROW = re.compile(r"^(\d+)\.\.(\d+)\t(\d+)\t([0-9a-f]{16})$")
SESSION = "# session from "


def manifest_folder() -> str:
    """lab/manifests of the repository this script is in (found upwards from the script, so
    that the script may move within the repository)."""
    here = os.path.dirname(os.path.abspath(__file__))
    while True:
        folder = os.path.join(here, "lab", "manifests")
        if os.path.isdir(folder):
            return folder
        parent = os.path.dirname(here)
        if parent == here:
            raise SystemExit("no lab/manifests above " + os.path.abspath(__file__))
        here = parent


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
    """One Markdown table row for reading: the game range, the positions, the sha256 prefix."""
    return f"| {first}..{first + chunk_games} | {positions:,} | `{digest[:16]}` |"


def tsv_row(first: int, chunk_games: int, positions: int, digest: str) -> str:
    """One manifest row: the game range, the positions and the sha256 prefix, tab-separated."""
    return f"{first}..{first + chunk_games}\t{positions}\t{digest[:16]}"


def manifest_path(manifest: str | None, generation: str) -> str:
    """The manifest file of a generation: MANIFEST itself, genN.tsv in MANIFEST if it is a
    folder, or lab/manifests/genN.tsv."""
    if manifest is None:
        manifest = manifest_folder()
    if os.path.isdir(manifest):
        return os.path.join(manifest, f"gen{generation}.tsv")
    return manifest


def manifest_rows(manifest: str) -> dict[int, tuple[int, int, str]]:
    """The rows of a manifest file: first game -> (end game, positions, sha256 prefix). A
    malformed line or a game range listed twice is an error naming the line."""
    rows: dict[int, tuple[int, int, str]] = {}
    with open(manifest, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line == HEADER:
                continue
            row = ROW.match(line)
            if not row:
                raise ValueError(f"{manifest}:{number}: not a row: {line!r}")
            first, last = int(row.group(1)), int(row.group(2))
            if first in rows:
                raise ValueError(f"{manifest}:{number}: games {first}..{last} listed twice")
            rows[first] = (last, int(row.group(3)), row.group(4))
    return rows


def check(directory: str, names: list[str], manifest: str, chunk_games: int) -> int:
    """Compares every complete chunk with its manifest row; 1 if any differs."""
    generation = generation_of(directory)
    rows = manifest_rows(manifest)
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


def chunk_row(directory: str, name: str, chunk_games: int, whole=None) -> tuple[int, str, str]:
    """The positions, the Markdown row and the manifest row of one complete chunk (`whole` as in
    file_digest)."""
    first = int(CHUNK.match(name).group(1))
    digest, size = file_digest(os.path.join(directory, name), whole)
    if size % RECORD_LEN:
        raise ValueError(f"{name}: {size} bytes is not a whole number of records")
    positions = size // RECORD_LEN
    return (positions, row_text(first, chunk_games, positions, digest),
            tsv_row(first, chunk_games, positions, digest))


def last_block(manifest: str) -> tuple[str | None, int]:
    """The note line that opens the file's last session block, and the positions of the rows
    after it."""
    note, positions = None, 0
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            if line.startswith(SESSION):
                note, positions = line, 0
            row = ROW.match(line.rstrip("\n"))
            if row:
                positions += int(row.group(3))
    return note, positions


def append(directory: str, names: list[str], manifest: str, chunk_games: int, session: str,
           intro: str | None) -> int:
    """Appends the rows of the chunks not yet in `manifest` to the session's block."""
    generation = generation_of(directory)
    if not os.path.exists(manifest):
        with open(manifest, "w", encoding="utf-8") as f:
            f.write(f"# Generation {generation}: see lab/scripts/data_manifest.py and "
                    f"src/eval/nnue/nets/README.md.\n{HEADER}\n")
    listed = manifest_rows(manifest)
    new = [n for n in names if int(CHUNK.match(n).group(1)) not in listed]
    if not new:
        print(f"{directory}: every complete chunk has its row in {manifest}")
        return 0
    note = f"{SESSION}{session} UTC:"
    last, session_positions = last_block(manifest)
    out = []
    if last is None or not last.startswith(note):
        if not intro:
            print(f"no block of the session from {session} yet: give --intro", file=sys.stderr)
            return 2
        out = ["#", f"{note} {intro}"]
        session_positions = 0
    rows = [chunk_row(directory, n, chunk_games) for n in new]
    out += [row for _, _, row in rows]
    session_positions += sum(p for p, _, _ in rows)
    total_chunks = len(listed) + len(rows)
    total = sum(v[1] for v in listed.values()) + sum(p for p, _, _ in rows)
    out.append(f"# the session from {session} UTC so far: {session_positions:,} positions; the "
               f"rows cover {total:,} positions of generation {generation} ({total_chunks} "
               "chunks)")
    with open(manifest, "a", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(rows)} rows added to {manifest}; the session {session_positions:,} positions; "
          f"generation {generation}: {total:,} positions, {total_chunks} chunks")
    return 0


def count(manifests: list[str]) -> int:
    """Prints the rows, positions and game ranges of each manifest; 1 if one is malformed."""
    status = 0
    for manifest in manifests:
        try:
            rows = manifest_rows(manifest)
        except (OSError, ValueError) as error:
            print(error, file=sys.stderr)
            status = 1
            continue
        ranges: list[list[int]] = []
        for first in sorted(rows):
            if ranges and ranges[-1][1] == first:
                ranges[-1][1] = rows[first][0]
            else:
                ranges.append([first, rows[first][0]])
        games = ", ".join(f"{a:,}..{b:,}" for a, b in ranges)
        print(f"{manifest}: {len(rows)} chunks, {sum(v[1] for v in rows.values()):,} positions; "
              f"games {games}")
    return status


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
    parser.add_argument("dir", nargs="?", help="the data folder (e.g. ~/betacut-data/gen10)")
    parser.add_argument("--chunk-games", type=int, default=1000,
                        help="games per chunk, as given to datagen_chunks.sh (default 1000)")
    parser.add_argument("--check", nargs="?", const="", metavar="MANIFEST",
                        help="compare the chunks with the manifest's rows instead of printing "
                             "rows (default manifest: lab/manifests/genN.tsv)")
    parser.add_argument("--missing", nargs="?", const="", metavar="MANIFEST",
                        help="print rows only for the chunks without a row in the manifest")
    parser.add_argument("--append", metavar="SESSION",
                        help="append the new chunks' rows to lab/manifests/genN.tsv in the "
                             "block of the session from SESSION (e.g. 19:02) UTC")
    parser.add_argument("--intro", help="the note that opens the session's block")
    parser.add_argument("--lanes", metavar="FILE",
                        help="with --append: move each lane's next game past its chunks on disk")
    parser.add_argument("--count", nargs="*", metavar="MANIFEST",
                        help="without data: the rows, positions and games of each manifest "
                             "(default: every lab/manifests/genN.tsv)")
    args = parser.parse_args()
    if args.count is not None:
        manifests = args.count or sorted(
            os.path.join(manifest_folder(), n) for n in os.listdir(manifest_folder())
            if re.match(r"^gen\d+\.tsv$", n))
        if args.dir:
            manifests.insert(0, args.dir)
        return count(manifests)
    if not args.dir:
        parser.error("DIR is needed (all but --count)")
    names = sorted(n for n in os.listdir(args.dir) if CHUNK.match(n))
    if not names:
        print(f"{args.dir}: no complete chunk", file=sys.stderr)
        return 1
    generation = generation_of(args.dir)
    try:
        if args.append:
            status = append(args.dir, names, manifest_path(None, generation), args.chunk_games,
                            args.append, args.intro)
            if status == 0 and args.lanes:
                move_lanes(args.dir, names, args.lanes, args.chunk_games)
            return status
        if args.check is not None:
            return check(args.dir, names, manifest_path(args.check or None, generation),
                         args.chunk_games)
        if args.missing is not None:
            listed = manifest_rows(manifest_path(args.missing or None, generation))
            names = [n for n in names if int(CHUNK.match(n).group(1)) not in listed]
            if not names:
                print(f"{args.dir}: every complete chunk has its row", file=sys.stderr)
                return 0
    except (OSError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    whole = hashlib.sha256()
    total = 0
    print("| games | positions | sha256 |")
    print("| --- | --- | --- |")
    for name in names:
        try:
            positions, row, _ = chunk_row(args.dir, name, args.chunk_games, whole)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 1
        total += positions
        print(row)
    print(f"| all {len(names)} chunks | **{total:,}** | `{whole.hexdigest()[:16]}` (concatenated) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
