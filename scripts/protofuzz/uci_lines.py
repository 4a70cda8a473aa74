"""The UCI line generator: games and positions, `go` of every kind, analysis and ponder
sequences, options, mutated and random lines. Its own game is independent of the engine's
replies: the UCI stream depends only on the seed, the options of the `uci` reply and (for
Hash values above a quarter of it) the memory available."""

from .mutations import mutate, random_junk
from .options import OptionGen
from .positions import FALLBACK_GAMES, FENS, FENS_960, FENS_BROKEN, NEVER_LEGAL
from .pychess import chess
from .text import engine_view
from .uci_parser import uci_parse


class UciLines:
    """The generator half of UciDriver (mixed into it: it uses the driver's rng, send, sleep
    and the options of the `uci` reply). `step` sends the next lines."""

    def reset_generator(self):
        self.g_fen = None
        self.g_moves = []
        self.g_board = chess.Board() if chess else None
        self.g960 = False
        self.g_fallback = 0

    def step(self):
        r = self.rng
        actions = [
            ("game_move", 14), ("new_position", 6), ("bad_position", 5), ("go", 14),
            ("analysis", 4), ("ponder", 3), ("stop", 5), ("ponderhit", 2), ("isready", 2),
            ("ucinewgame", 4), ("setoption", 10), ("misc", 3), ("empty", 1), ("mutated", 15),
            ("random_bytes", 4), ("long", 1), ("sleep", 3),
        ]
        action = r.choices([a for a, _ in actions], [w for _, w in actions])[0]
        getattr(self, "gen_" + action)()

    def emit(self, line, mutate_p=0.0):
        if self.rng.random() < mutate_p:
            return self.emit_mutated(line)
        return self.send(line)

    def emit_mutated(self, line):
        for _ in range(20):
            raw = mutate(self.rng, line)
            if uci_parse(engine_view(raw))[0] != "quit":
                return self.send(raw, trusted=False)
        return self.send(line)

    def pause(self):
        r = self.rng
        x = r.random()
        if x < 0.55:
            return
        self.sleep(r.choice([0.005, 0.02, 0.05, 0.1, 0.2]) if x < 0.95 else r.uniform(0.3, 1.0))

    # positions

    def g_position_line(self, moves=None):
        moves = self.g_moves if moves is None else moves
        head = "position startpos" if self.g_fen is None else f"position fen {self.g_fen}"
        return head + (" moves " + " ".join(moves) if moves else "")

    def g_move_text(self, board, mv):
        if chess and board.is_castling(mv) and (self.g960 or self.rng.random() < 0.2):
            return board.uci(mv, chess960=True)  # king takes rook
        if self.rng.random() < 0.03:
            return board.san(mv)
        return board.uci(mv)

    def g_new_game(self):
        r = self.rng
        if chess is None:
            self.g_fallback = r.randrange(len(FALLBACK_GAMES))
            self.g_fen, self.g_moves = None, []
            return
        if self.g960 and r.random() < 0.5:
            self.g_fen = r.choice(FENS_960)
        elif r.random() < 0.55:
            self.g_fen = None
        else:
            self.g_fen = r.choice(FENS)
        self.g_board = chess.Board(self.g_fen, chess960=self.g960) if self.g_fen else chess.Board(
            chess960=self.g960)
        self.g_moves = []
        for _ in range(r.choice([0, 0, 1, 2, 4, 8, 12])):
            if not self.g_advance():
                break

    def g_advance(self):
        """Plays one random legal move in the generator's game."""
        if chess is None:
            game = FALLBACK_GAMES[self.g_fallback].split()
            if len(self.g_moves) >= len(game):
                return False
            self.g_moves.append(game[len(self.g_moves)])
            return True
        legal = sorted(self.g_board.legal_moves, key=lambda m: m.uci())
        if not legal or len(self.g_moves) > 200:
            return False
        mv = legal[self.rng.randrange(len(legal))]
        self.g_moves.append(self.g_move_text(self.g_board, mv))
        self.g_board.push(mv)
        return True

    def gen_game_move(self):
        r = self.rng
        if not self.g_advance() or (r.random() < 0.03):
            self.g_new_game()
        if r.random() < 0.3:
            self.g_advance()
        self.emit(self.g_position_line(), 0.05)
        if r.random() < 0.6:
            self.emit(self.go_clock_line(), 0.05)
            self.pause()

    def gen_new_position(self):
        self.g_new_game()
        self.emit(self.g_position_line(), 0.05)

    def gen_bad_position(self):
        r = self.rng
        x = r.random()
        if x < 0.45:
            moves = list(self.g_moves)
            bad = r.choice(NEVER_LEGAL + ["e1g1", "e8g8", "e2e4", "a2a4", "h7h5", "0000"])
            moves.insert(r.randint(0, len(moves)), bad)
            line = self.g_position_line(moves)
        elif x < 0.8:
            line = "position fen " + r.choice(FENS_BROKEN) + r.choice(["", " moves e2e4", " moves"])
        else:
            line = r.choice(["position", "position fen", "position startpos e2e4",
                             "position moves e2e4", "position startpos moves",
                             "position startpos moves e2e4 moves e7e5", "position fen moves",
                             "position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2 c1c2 a2a1"])
        self.emit(line, 0.1)

    # go

    def go_clock_line(self):
        r = self.rng
        parts = ["go"]
        wt, bt = r.randint(50, 60000), r.randint(50, 60000)
        if r.random() < 0.05:
            wt, bt = r.choice([(0, 0), (-50, 1000), (10**12, 10**12), (1, 1)])
        parts += ["wtime", str(wt), "btime", str(bt)]
        if r.random() < 0.6:
            parts += ["winc", str(r.randint(0, 2000)), "binc", str(r.randint(0, 2000))]
        if r.random() < 0.3:
            parts += ["movestogo", str(r.randint(1, 40))]
        return " ".join(parts)

    def go_line(self):
        r = self.rng
        kind = r.choices(["depth", "nodes", "movetime", "clock", "mate", "infinite", "ponder",
                          "searchmoves", "combo", "bare", "bad"],
                         [12, 8, 12, 12, 3, 5, 4, 5, 6, 2, 8])[0]
        if kind == "depth":
            return f"go depth {r.choice([1, 2, 3, 4, 5, 6, 8, 10])}"
        if kind == "nodes":
            return f"go nodes {r.choice([1, 10, 1000, 20000, 100000, 300000])}"
        if kind == "movetime":
            return f"go movetime {r.choice([0, 1, 10, 50, 100, 250, 500])}"
        if kind == "clock":
            return self.go_clock_line()
        if kind == "mate":
            return f"go mate {r.randint(1, 4)}" + (" depth 6" if r.random() < 0.7 else "")
        if kind == "infinite":
            return "go infinite" + (" " + self.searchmoves_part() if r.random() < 0.2 else "")
        if kind == "ponder":
            return "go ponder " + self.go_clock_line()[3:]
        if kind == "searchmoves":
            return f"go {self.searchmoves_part()} depth {r.randint(1, 6)}"
        if kind == "combo":
            parts = [["wtime", str(r.randint(100, 20000))], ["btime", str(r.randint(100, 20000))],
                     ["winc", str(r.randint(0, 500))], ["binc", str(r.randint(0, 500))],
                     ["movestogo", str(r.randint(1, 30))], ["depth", str(r.randint(1, 12))],
                     ["nodes", str(r.randint(1, 200000))], ["mate", str(r.randint(1, 5))],
                     ["movetime", str(r.randint(1, 400))]]
            r.shuffle(parts)
            words = [w for p in parts[: r.randint(1, len(parts))] for w in p]
            if r.random() < 0.2:
                words += [self.searchmoves_part()]
            return "go " + " ".join(words)
        if kind == "bare":
            return "go"
        return r.choice([
            "go fast", "go depth", "go depth x", "go depth -3", "go wtime", "go nodes -1",
            "go movetime 1e3", "go depth 5 wtime", "go searchmoves zz9 depth 2",
            "go searchmoves e2e5 depth 2", "go mate", "go movestogo -1 wtime 100",
            "go nodes 18446744073709551616", "go depth 4294967296", "go winc 5 binc x",
            "go infinite please", "go ponderhit", "go movetime 100 movetime", "go depth 3 depth 4",
            "go wtime 9223372036854775807 btime 9223372036854775807",
            "go wtime -9223372036854775808 btime -9223372036854775808 movestogo 1",
        ])

    def searchmoves_part(self):
        r = self.rng
        if chess is None:
            return "searchmoves e2e4 d2d4"
        legal = sorted(self.g_board.legal_moves, key=lambda m: m.uci())
        if not legal:
            return "searchmoves"
        pick = [legal[r.randrange(len(legal))] for _ in range(r.randint(1, 3))]
        return "searchmoves " + " ".join(self.g_move_text(self.g_board, m) for m in pick)

    def gen_go(self):
        self.emit(self.go_line(), 0.08)
        self.pause()

    def gen_analysis(self):
        r = self.rng
        if r.random() < 0.5:
            self.emit(self.g_position_line())
        self.emit("go infinite" + (" " + self.searchmoves_part() if r.random() < 0.2 else ""))
        self.sleep(r.choice([0.0, 0.01, 0.05, 0.2, 0.5]))
        self.emit(r.choice(["stop", "stop", "stop", "isready", "ucinewgame",
                            self.g_position_line(), "go depth 2"]))

    def gen_ponder(self):
        r = self.rng
        if chess is not None and r.random() < 0.7:
            if self.g_advance():
                self.emit(self.g_position_line())
        self.emit("go ponder " + self.go_clock_line()[3:])
        self.sleep(r.choice([0.0, 0.01, 0.05, 0.2]))
        self.emit(r.choice(["ponderhit", "ponderhit", "stop", self.g_position_line(), "ponderhit"]))
        if r.random() < 0.4:
            self.sleep(r.choice([0.05, 0.2]))

    def gen_stop(self):
        self.emit("stop", 0.1)

    def gen_ponderhit(self):
        self.emit("ponderhit", 0.1)

    def gen_isready(self):
        self.emit("isready", 0.1)

    def gen_ucinewgame(self):
        self.emit("ucinewgame", 0.1)
        if self.rng.random() < 0.5:
            self.g_new_game()

    def gen_setoption(self):
        r = self.rng
        if not self.options or r.random() < 0.08:
            line = r.choice(["setoption", "setoption name", "setoption name Contempt value 20",
                             "setoption Hash 64", "setoption name value 3",
                             "setoption name Hash value", "setoption name Threads",
                             "setoption name  Move   Overhead  value  100",
                             "setoption name hash value 32", "setoption name HASH value 2"])
            self.emit(line, 0.2)
            return
        opt = r.choice(self.options)
        value = OptionGen(self).value(opt)
        line = f"setoption name {opt['name']}" + ("" if value is None else f" value {value}")
        if opt["name"] == "UCI_Chess960" and value in ("true", "false"):
            self.g960 = value == "true"
            self.g_new_game()
        self.emit(line, 0.1)

    def gen_misc(self):
        self.emit(self.rng.choice(["debug on", "debug off", "debug", "register later",
                                   "register name Fuzz code 42", "uci", "joho debug on",
                                   "isready now", "stop stop", "ponderhit x"]), 0.1)

    def gen_empty(self):
        self.send(self.rng.choice([b"", b" ", b"\t", b"\r", b"  \r", "\u00a0".encode(),
                                   "\u3000".encode()]))

    def gen_mutated(self):
        r = self.rng
        pool = [self.g_position_line(), self.go_line(), "stop", "ponderhit", "isready",
                "ucinewgame", "debug on", "register later"]
        if self.options:
            opt = r.choice(self.options)
            value = OptionGen(self).value(opt)
            pool.append(f"setoption name {opt['name']}" + ("" if value is None else f" value {value}"))
        self.emit_mutated(r.choice(pool))

    def gen_random_bytes(self):
        r = self.rng
        raw = random_junk(r, r.randint(1, 200))
        if uci_parse(engine_view(raw))[0] == "quit":
            raw = raw.replace(b"quit", b"qu1t")
        self.send(raw, trusted=False)

    def gen_long(self):
        r = self.rng
        x = r.random()
        if x < 0.3:
            cycle = ["g1f3", "g8f6", "f3g1", "f6g8"]
            n = r.choice([200, 5000, 20000])
            line = "position startpos moves " + " ".join(cycle[i % 4] for i in range(n))
        elif x < 0.5:
            line = "setoption name Log File value " + "a" * r.choice([300, 5000, 100000])
        elif x < 0.7:
            line = "go " + " ".join(r.choice(["depth 2", "nodes 5", "movetime 1"]) for _ in
                                    range(r.choice([100, 10000])))
        elif x < 0.85:
            line = "position fen " + FENS[0] + " moves" + " e2e4" * 20000
        else:
            raw = random_junk(r, r.choice([1000, 70000, 200000]))
            if uci_parse(engine_view(raw))[0] == "quit":
                raw = raw.replace(b"quit", b"qu1t")
            self.send(raw, trusted=False)
            return
        self.send(line, trusted=False)

    def gen_sleep(self):
        self.sleep(self.rng.choice([0.01, 0.05, 0.1, 0.3]))
