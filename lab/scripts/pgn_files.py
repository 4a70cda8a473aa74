"""Opens a PGN file for reading as text, plain or compressed (`.xz`, `.gz`, by the name's
ending), so the analysis scripts read the game records kept in lab/tuning/games/ as they are.
"""
import gzip
import lzma
from typing import TextIO


def open_pgn(path: str) -> TextIO:
    """The file at `path` as UTF-8 text (undecodable bytes replaced), decompressed on the fly
    when its name ends in `.xz` or `.gz`."""
    if path.endswith(".xz"):
        return lzma.open(path, "rt", encoding="utf-8", errors="replace")
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")
