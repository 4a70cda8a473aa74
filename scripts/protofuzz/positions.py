"""Chess facts: the FENs the fuzz sends (good, Chess960, broken), moves that are never legal,
games to play without python-chess, and the engine's own rules on top of python-chess (game
end, insufficient material, which FENs it accepts, how it reads a move and a `position`)."""

import re

from .pychess import chess
from .text import U32, r_int, r_split

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/8/8/4k3/8/8/r7/K7 w - - 99 80",
    "7k/8/5K2/8/8/8/8/6R1 w - - 0 1",
    "k7/8/1Q6/8/8/8/8/K7 b - - 0 1",
    "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1",
    "8/8/8/8/8/2k5/8/K1B5 w - - 0 1",
    "8/P7/8/8/8/8/5k2/K7 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "8/5k2/8/8/8/8/1p6/4K3 b - - 0 1",
]
FENS_960 = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w GBgb - 0 1",
]
FENS_BROKEN = [
    "8/8/8 w - - 0 1",
    "garbage",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "k7/8/8/8/8/8/8/K6q b - - 0 1",
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "KK6/8/8/8/8/8/8/k7 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra fields here",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
]
# Moves that are never legal anywhere (or not moves at all).
NEVER_LEGAL = [
    "a1a1", "e1e3", "e2e5", "e7e4", "h8h8", "e2e9", "i2i4", "e7e8k", "e2e4e5", "xyz", "Ke9",
    "e2-e4", "Nf9", "e9", "O-O-O-O", "e7e8=K",
]
# Legal move sequences used when python-chess is not available.
FALLBACK_GAMES = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 h7h6 g5h4 b7b6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6",
]


def engine_end(board):
    """Game::end() of the engine: why the game is over by rule, or None."""
    if not any(True for _ in board.legal_moves):
        return "mate" if board.is_check() else "stalemate"
    if engine_insufficient(board):
        return "insufficient"
    if board.halfmove_clock >= 100:
        return "fifty"
    if board.is_repetition(3):
        return "repetition"
    return None


def engine_insufficient(board):
    if board.pawns or board.rooks or board.queens:
        return False
    minors = board.knights | board.bishops
    if chess.popcount(minors) <= 1:
        return True
    return board.knights == 0 and (
        board.bishops & chess.BB_LIGHT_SQUARES == 0 or board.bishops & chess.BB_DARK_SQUARES == 0
    )


def parse_move_any(board, text):
    """A legal move from coordinates (either castling form) or SAN, or None."""
    if text in ("0000", "@@@@", "--", "Z0"):
        return None  # null moves: python-chess reads them, the engine refuses them
    try:
        mv = board.parse_uci(text)
        # In Chess960 python-chess also reads the king's two-square step (e1g1) as castling;
        # the engine, as Stockfish, takes only king-takes-rook there.
        if mv and board.chess960 and board.is_castling(mv) and board.uci(mv) != text:
            return None
        return mv or None
    except ValueError:
        pass
    try:
        return board.parse_san(text) or None
    except ValueError:
        return None


def engine_fen_board(fen, chess960):
    """The board for a FEN that the engine's Position::from_fen accepts (4 to 6 fields, one
    king each, no pawn on a back rank, material a game can produce, the side not to move not
    in check, at most two checkers, consistent castling and en passant), else None."""
    fields = r_split(fen)
    if not 4 <= len(fields) <= 6 or any(r_int(f, *U32) is None for f in fields[4:]):
        return None
    try:
        board = chess.Board(fen, chess960=chess960)
    except ValueError:
        return None
    bad = (chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_TOO_MANY_KINGS
           | chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_OPPOSITE_CHECK
           | chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE
           | chess.STATUS_EMPTY)
    if board.status() & bad:
        return None
    for color in chess.COLORS:
        count = lambda kind: len(board.pieces(kind, color))
        promoted = sum(max(0, count(kind) - n) for kind, n in
                       ((chess.QUEEN, 1), (chess.ROOK, 2), (chess.BISHOP, 2), (chess.KNIGHT, 2)))
        if count(chess.PAWN) + promoted > 8:
            return None
    if chess.popcount(board.checkers_mask()) > 2:
        return None
    return board


def board_from(fen, moves, chess960, partial=False):
    """The board after a UCI position command, or None if python-chess cannot follow it; with
    `partial`, the board before the first move it cannot play (as the engine sets it up)."""
    try:
        board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
        if fen and not chess960:
            # Castling rights only Chess960 has (a king off e1/e8) keep the position a
            # Chess960 one in the engine (Game::set_chess960), whatever UCI_Chess960 says.
            b960 = chess.Board(fen, chess960=True)
            if b960.has_chess960_castling_rights():
                board = b960
    except ValueError:
        return None
    for text in moves:
        mv = parse_move_any(board, text)
        if mv is None:
            return board if partial else None
        board.push(mv)
    return board


MOVE_RE = re.compile(r"[a-h][1-8][a-h][1-8][nbrq]?\Z")
