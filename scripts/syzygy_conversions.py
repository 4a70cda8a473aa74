#!/usr/bin/env python3
"""Writes scripts/syzygy_conversions.fen: start positions for checking that Betacut with Syzygy
tables converts far tablebase wins and holds tablebase draws against an engine without tables.

Usage: ~/.venv-chess-tools/bin/python scripts/syzygy_conversions.py [TB_DIR] [OUT] [--seed N]

Seeded random legal positions (python-chess, probed with its chess.syzygy), three of each:
KBNvK, KQvKR and KRvKP wins with the strong side to move, a DTZ of at least 50, 45 and 15 plies
and no capture on the board; KRvKP and KQvKQ draws with no capture on the board (the KRvKP ones
with the pawn on its sixth or seventh rank). The strong side is White in some and Black in
others. Play them with ../shared/tools/match.py --openings (each is played with both colours);
the line comments go to standard error, the file holds bare FENs.
"""

import argparse
import random
import sys

import chess
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def random_board(rng, strong, weak, strong_color):
    """Random legal placement of the two sides, the strong side to move."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        for letters, color in ((strong, strong_color), (weak, not strong_color)):
            for letter in letters:
                while True:
                    sq = squares.pop()
                    if PIECES[letter] == chess.PAWN and chess.square_rank(sq) in (0, 7):
                        continue
                    board.set_piece_at(sq, chess.Piece(PIECES[letter], color))
                    break
        board.turn = strong_color
        if board.is_valid() and not any(board.is_capture(m) for m in board.legal_moves):
            return board


def pick(tb, rng, strong, weak, count, accept):
    found = []
    colors = [chess.WHITE, chess.BLACK, chess.WHITE]
    for i in range(count):
        for _ in range(200000):
            board = random_board(rng, strong, weak, colors[i % 3])
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            if accept(board, wdl, dtz):
                found.append((board, wdl, dtz))
                break
        else:
            sys.exit(f"no {strong}v{weak} position found")
    return found


def pawn_rank_from_home(board):
    """How far the (only) pawn has gone, 1 (its second rank) to 6 (its seventh)."""
    sq = next(iter(board.pieces(chess.PAWN, chess.WHITE) | board.pieces(chess.PAWN, chess.BLACK)))
    color = board.piece_at(sq).color
    rank = chess.square_rank(sq)
    return rank if color == chess.WHITE else 7 - rank


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tb_dir", nargs="?", default="tests/data/syzygy")
    parser.add_argument("out", nargs="?", default="scripts/syzygy_conversions.fen")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sets = [
        ("KBN", "K", "win, DTZ >= 50", lambda b, w, d: w == 2 and d >= 50),
        ("KQ", "KR", "win, DTZ >= 45", lambda b, w, d: w == 2 and d >= 45),
        ("KR", "KP", "win, DTZ >= 15", lambda b, w, d: w == 2 and d >= 15),
        ("KR", "KP", "draw, pawn on its 6th/7th rank",
         lambda b, w, d: w == 0 and pawn_rank_from_home(b) >= 5),
        ("KQ", "KQ", "draw", lambda b, w, d: w == 0),
    ]
    lines = []
    with chess.syzygy.open_tablebase(args.tb_dir) as tb:
        for strong, weak, what, accept in sets:
            for board, wdl, dtz in pick(tb, rng, strong, weak, 3, accept):
                lines.append(board.fen())
                print(f"{strong}v{weak} {what}: {board.fen()} (wdl {wdl}, dtz {dtz})",
                      file=sys.stderr)
    with open(args.out, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
