#!/usr/bin/env python3
"""Writes tests/data/syzygy_probes.txt: seeded random legal positions of every material set of
a Syzygy folder with their WDL and DTZ as python-chess's chess.syzygy computes them.

Usage: ~/.venv-chess-tools/bin/python scripts/syzygy_testdata.py [TB_DIR] [OUT] [--seed N]
       [--per-side N] [--en-passant N]

Defaults: tests/data/syzygy, tests/data/syzygy_probes.txt, seed 1, 32 positions per material
set and side to move, 64 en-passant positions per set with pawns of both colours. Each line is
`<FEN> ;wdl W ;dtz D`, the format `betacut probe --syzygy DIR --file F` prints, so the file can
be compared with the prober's output by `diff`. Material sets are taken in name order and both
colours play the first-named side, so the file is the same on every run with the same seed.
"""

import argparse
import os
import random
import sys

import chess
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def random_position(rng, strong, weak, turn):
    """Places the pieces of the name's two sides on random squares (the first side is White or
    Black at random) until the position is legal."""
    while True:
        board = chess.Board(None)
        strong_color = rng.choice([chess.WHITE, chess.BLACK])
        sides = [(strong, strong_color), (weak, not strong_color)]
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        ok = True
        for letters, color in sides:
            for letter in letters:
                piece = PIECES[letter]
                while True:
                    if not squares:
                        ok = False
                        break
                    sq = squares.pop()
                    if piece == chess.PAWN and chess.square_rank(sq) in (0, 7):
                        continue
                    board.set_piece_at(sq, chess.Piece(piece, color))
                    break
        board.turn = turn
        board.castling_rights = chess.BB_EMPTY
        if ok and board.is_valid():
            return board


def en_passant_position(rng, strong, weak):
    """A position with a legal en-passant capture: the side to move has a pawn on its fifth
    rank and the other side has just pushed a pawn two squares next to it."""
    while True:
        board = random_position(rng, strong, weak, rng.choice([chess.WHITE, chess.BLACK]))
        us = board.turn
        them = not us
        ours = list(board.pieces(chess.PAWN, us))
        theirs = list(board.pieces(chess.PAWN, them))
        if not ours or not theirs:
            continue
        capturer = rng.choice(ours)
        pushed = rng.choice(theirs)
        fifth = 4 if us == chess.WHITE else 3
        file = chess.square_file(capturer)
        target_file = file + rng.choice([-1, 1])
        if not 0 <= target_file <= 7:
            continue
        forward = 8 if us == chess.WHITE else -8
        new_capturer = chess.square(file, fifth)
        new_pushed = chess.square(target_file, fifth)
        behind = new_pushed + forward  # the en-passant square
        start = behind + forward  # where the pushed pawn came from
        board.remove_piece_at(capturer)
        board.remove_piece_at(pushed)
        if any(board.piece_at(s) for s in (new_capturer, new_pushed, behind, start)):
            continue
        board.set_piece_at(new_capturer, chess.Piece(chess.PAWN, us))
        board.set_piece_at(new_pushed, chess.Piece(chess.PAWN, them))
        board.ep_square = behind
        if board.is_valid() and board.has_legal_en_passant():
            return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tb_dir", nargs="?", default="tests/data/syzygy")
    parser.add_argument("out", nargs="?", default="tests/data/syzygy_probes.txt")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-side", type=int, default=32)
    parser.add_argument("--en-passant", type=int, default=64)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    names = sorted({os.path.splitext(f)[0] for f in os.listdir(args.tb_dir)
                    if f.endswith(".rtbw")})
    lines = []
    counts = {}
    with chess.syzygy.open_tablebase(args.tb_dir) as tb:
        for name in names:
            strong, weak = name.split("v")
            boards = []
            for turn in (chess.WHITE, chess.BLACK):
                boards += [random_position(rng, strong, weak, turn) for _ in range(args.per_side)]
            if "P" in strong and "P" in weak:
                boards += [en_passant_position(rng, strong, weak) for _ in range(args.en_passant)]
            for board in boards:
                wdl = tb.probe_wdl(board)
                dtz = tb.probe_dtz(board)
                lines.append(f"{board.fen()} ;wdl {wdl} ;dtz {dtz}")
            counts[name] = len(boards)
    with open(args.out, "w") as out:
        out.write(f"# {len(lines)} positions of {len(names)} material sets, "
                  f"scripts/syzygy_testdata.py --seed {args.seed} --per-side {args.per_side} "
                  f"--en-passant {args.en_passant}\n")
        out.write(f"# WDL and DTZ by python-chess {chess.__version__} (chess.syzygy), "
                  "side to move's view\n")
        for line in lines:
            out.write(line + "\n")
    print(f"{len(lines)} positions of {len(names)} material sets written to {args.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
