"""The files the options point to: a small Polyglot book, broken books and networks, a copy of
the test Syzygy tables, log file paths, made in the engine's working directory."""

import os
import random
import shutil
import struct

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def polyglot_move(uci):
    ff, fr = ord(uci[0]) - 97, int(uci[1]) - 1
    tf, tr = ord(uci[2]) - 97, int(uci[3]) - 1
    return tf | (tr << 3) | (ff << 6) | (fr << 9)


def make_fixtures(tmp):
    """Creates the files the generated option values name (all inside tmp, given relative to
    it, since the engine runs there). Returns {option: [(value, ok), ...]}."""
    start_key = 0x463B96181691FC9C
    entries = sorted(
        (start_key, polyglot_move(mv), w, 0) for mv, w in (("e2e4", 3), ("d2d4", 2), ("g1f3", 1))
    )
    with open(os.path.join(tmp, "book.bin"), "wb") as f:
        for key, mv, weight, learn in entries:
            f.write(struct.pack(">QHHI", key, mv, weight, learn))
    with open(os.path.join(tmp, "truncated.bin"), "wb") as f:
        f.write(os.urandom(0) + b"\x01" * 23)
    open(os.path.join(tmp, "empty.bin"), "wb").close()
    with open(os.path.join(tmp, "garbage.nnue"), "wb") as f:
        f.write(random.Random(5).randbytes(4096))
    os.makedirs(os.path.join(tmp, "adir"), exist_ok=True)
    src = os.path.join(REPO, "tests", "data", "syzygy")
    have_tb = os.path.isdir(src)
    if have_tb:
        shutil.copytree(src, os.path.join(tmp, "syzygy"), dirs_exist_ok=True)
    return {
        "bookfile": [("book.bin", True), ("truncated.bin", False), ("empty.bin", False),
                     ("missing.bin", False), ("adir", False), ("<empty>", True), ("", True)],
        "evalfile": [("garbage.nnue", False), ("empty.bin", False), ("missing.nnue", False),
                     ("<empty>", True), ("", True)],
        "log file": [("fuzz.log", True), ("adir/sub.log", True), ("adir", False),
                     ("<empty>", True), ("", True), ("nodir/x.log", False)],
        "syzygypath": [("syzygy" if have_tb else "nothing", True), ("nothing", True),
                       ("syzygy:nothing", True), ("<empty>", True), ("adir", True)],
    }
