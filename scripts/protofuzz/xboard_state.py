"""What the fuzz believes the engine's XBoard front-end holds: the position, mode, the
engine's colour, whether it thinks about its own move, a board being edited."""

from .pychess import chess

class EditModel:
    def __init__(self, board):
        self.squares = {sq: p.symbol() for sq, p in board.piece_map().items()}
        self.white = True
        self.side = "w" if board.turn == chess.WHITE else "b"
        self.fullmove = max(1, board.fullmove_number)

    def apply(self, ec):
        if ec[0] == "c":
            self.white = not self.white
        elif ec[0] == "#":
            self.squares = {}
        elif ec[0] == "x":
            self.squares.pop(chess.parse_square(ec[1]), None)
        elif ec[0] == "put":
            letter = ec[1] if self.white else ec[1].lower()
            self.squares[chess.parse_square(ec[2])] = letter

    def fen(self):
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                p = self.squares.get(rank * 8 + file)
                if p:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += p
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        at = lambda sq, p: self.squares.get(sq) == p
        castling = ("K" if at(4, "K") and at(7, "R") else "") + (
            "Q" if at(4, "K") and at(0, "R") else "") + (
            "k" if at(60, "k") and at(63, "r") else "") + ("q" if at(60, "k") and at(56, "r") else "")
        return f"{'/'.join(rows)} {self.side} {castling or '-'} - 0 {self.fullmove}"


class XModel:
    """What the script believes the XBoard front-end's state is."""

    def __init__(self):
        self.certain = chess is not None
        self.board = chess.Board() if chess else None
        self.chess960 = False
        self.mode = "force"
        self.color = None  # engine's colour in play mode
        self.edit = None
        self.paused = False
        self.think = False  # a search for the engine's own move runs: a `move` will come
        self.think_maybe = False  # a think was aborted by `force`: its move may still come


XB_INTERACTING = {
    "new", "variant", "force", "go", "playother", "white", "black", "usermove", "result",
    "setboard", "edit", "undo", "remove", "analyze", "pause", "exclude", "include",
}
