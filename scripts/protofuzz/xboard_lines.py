"""The XBoard line generator: a GUI's moves and commands chosen by the model's state (mode,
a running think, edit mode), time controls, options, mutated and random lines. A line that
would interact with a running think is preceded by a settling step (`?` or `force`)."""

import re

from .mutations import mutate, random_junk
from .options import OptionGen
from .positions import FENS, FENS_960, FENS_BROKEN, NEVER_LEGAL
from .pychess import chess
from .text import engine_view
from .xboard_parser import looks_like_move, xb_parse
from .xboard_state import XB_INTERACTING


class XboardLines:
    """The generator half of XboardDriver (mixed into it: it uses the driver's rng, send,
    model `m`, settle and move_now). `step` sends the next lines."""

    def step(self):
        m = self.m
        r = self.rng
        if m.edit is not None and m.certain:
            return self.gen_edit_step()
        think = m.certain and m.think
        play_opp = m.mode == "play" and m.color is not None and m.board is not None and (
            m.board.turn != m.color)
        actions = [
            ("gui_move", 14 if play_opp else 0), ("user_move", 10 if m.mode != "play" else 2),
            ("bad_move", 3), ("go", 3), ("playother", 2), ("force", 3), ("new", 2),
            ("white_black", 1), ("setboard", 3), ("setboard_bad", 2), ("edit", 1.5), ("undo", 2),
            ("remove", 1.5), ("analyze", 2 if m.mode != "analyze" else 0.2),
            ("exit", 2 if m.mode == "analyze" else 0.3),
            ("exclude", 2 if m.mode == "analyze" else 0.4), ("hint", 1), ("bk", 0.5),
            ("status", 1), ("draw", 0.5), ("result", 1), ("level", 1.5), ("st", 1.5), ("sd", 1),
            ("nps", 0.4), ("time", 2), ("otim", 2), ("option", 4), ("memory", 2), ("cores", 1),
            ("egtpath", 0.5), ("misc", 3), ("pause", 0.7), ("resume", 0.7), ("variant", 0.7),
            ("ping", 1), ("mutated", 15), ("random_bytes", 4), ("long", 1), ("empty", 1),
            ("sleep", 3), ("wait_move", 6 if think else 0), ("move_now", 2 if think else 0.3),
        ]
        action = r.choices([a for a, _ in actions], [w for _, w in actions])[0]
        if think and action in ("gui_move", "user_move", "bad_move", "go", "playother", "force",
                                "new", "white_black", "setboard", "setboard_bad", "edit", "undo",
                                "remove", "analyze", "exclude", "result", "pause", "variant"):
            if r.random() < 0.03:
                self.racy = True  # send it anyway: the model gives up until the next resync
            else:
                self.settle()
        getattr(self, "gen_" + action)()
        self.racy = False

    def emit(self, line, mutate_p=0.0):
        if self.rng.random() < mutate_p:
            return self.emit_mutated(line)
        return self.send(line)

    def emit_mutated(self, line):
        for _ in range(20):
            raw = mutate(self.rng, line)
            view = engine_view(raw)
            if xb_parse(view)[0] != "quit":
                # A mutated line that would interact with a running think: settle first.
                name = xb_parse(view)[0]
                if name in XB_INTERACTING and self.m.certain and self.m.think:
                    self.settle()
                return self.send(raw, trusted=False)
        return self.send(line)

    def legal_sorted(self):
        if chess is None or self.m.board is None:
            return []
        return sorted(self.m.board.legal_moves, key=lambda mv: mv.uci())

    def move_text(self, mv):
        r = self.rng
        board = self.m.board
        x = r.random()
        if self.m.chess960 and board.is_castling(mv):
            return board.uci(mv, chess960=True) if x < 0.5 else board.san(mv).rstrip("+#")
        if x < 0.2:
            return board.san(mv)
        if mv.promotion and x < 0.3:
            return board.uci(mv)[:4] + "=" + board.uci(mv)[4].upper()
        return board.uci(mv)

    def random_move_text(self):
        r = self.rng
        legal = self.legal_sorted()
        if not legal:
            r.random()
            return r.choice(["e2e4", "e7e5"])
        return self.move_text(legal[r.randrange(len(legal))])

    def gen_gui_move(self):
        r = self.rng
        if r.random() < 0.7:
            self.emit(f"time {r.randint(10, 6000)}")
            self.emit(f"otim {r.randint(10, 6000)}")
        text = self.random_move_text()
        self.emit(("usermove " if r.random() < 0.7 else "") + text)
        if self.m.think and r.random() < 0.5:
            self.gen_wait_move()

    def gen_user_move(self):
        text = self.random_move_text()
        self.emit(("usermove " if self.rng.random() < 0.6 else "") + text, 0.05)

    def gen_bad_move(self):
        r = self.rng
        text = r.choice(NEVER_LEGAL)
        if looks_like_move(text) and r.random() < 0.5:
            self.emit(text)
        else:
            self.emit("usermove " + text)

    def gen_go(self):
        self.emit("go", 0.05)

    def gen_playother(self):
        self.emit("playother", 0.05)

    def gen_force(self):
        self.emit("force", 0.05)

    def gen_new(self):
        self.emit("new", 0.05)
        if self.rng.random() < 0.5:
            self.emit(self.rng.choice(["random", "st 0.1", "level 0 0:02 0.05", "sd 4", "post"]))

    def gen_white_black(self):
        self.emit(self.rng.choice(["white", "black"]))

    def gen_setboard(self):
        r = self.rng
        fen = r.choice(FENS_960) if self.m.chess960 and r.random() < 0.6 else r.choice(FENS)
        self.emit(f"setboard {fen}")

    def gen_setboard_bad(self):
        r = self.rng
        fen = r.choice(FENS_BROKEN + ([] if self.m.chess960 else FENS_960[:1]))
        self.emit(f"setboard {fen}")

    def gen_edit(self):
        self.emit("edit")
        self.edit_lines = 0

    edit_lines = 0

    def gen_edit_step(self):
        r = self.rng
        self.edit_lines += 1
        x = r.random()
        if x < 0.15 or self.edit_lines > 25:
            self.emit(".")
            return
        if x < 0.22:
            self.emit("#")
            if r.random() < 0.8:
                self.emit("Ke1")
                self.emit("c")
                self.emit("Ke8")
                self.emit("c")
            return
        if x < 0.32:
            self.emit("c")
            return
        if x < 0.75:
            piece = r.choice("PNBRQ" * 3 + "K")
            rank = r.randint(2, 7) if piece == "P" else r.randint(1, 8)
            self.emit(f"{piece}{'abcdefgh'[r.randrange(8)]}{rank}")
            return
        if x < 0.85:
            self.emit(f"x{'abcdefgh'[r.randrange(8)]}{r.randint(1, 8)}")
            return
        if x < 0.95:
            self.emit(r.choice(["Za4", "Pa9", "new", "force", "go", "e2e4", "pa4", "K", "KKe1"]))
            return
        self.emit(f"ping {r.randint(0, 999)}")

    def gen_undo(self):
        self.emit("undo", 0.05)

    def gen_remove(self):
        self.emit("remove", 0.05)

    def gen_analyze(self):
        self.emit("analyze", 0.05)
        if self.rng.random() < 0.5:
            self.sleep(self.rng.choice([0.01, 0.1, 0.3]))

    def gen_exit(self):
        self.emit("exit", 0.05)

    def gen_exclude(self):
        r = self.rng
        word = r.choice(["exclude", "include"])
        arg = "all" if r.random() < 0.25 else (
            self.random_move_text() if r.random() < 0.8 else r.choice(NEVER_LEGAL))
        self.emit(f"{word} {arg}")

    def gen_hint(self):
        self.emit("hint")

    def gen_bk(self):
        self.emit("bk")

    def gen_status(self):
        self.emit(".")

    def gen_draw(self):
        self.emit("draw")

    def gen_result(self):
        self.emit(self.rng.choice(["result 1-0 {White mates}", "result 0-1", "result 1/2-1/2 {x}",
                                   "result *", "result 2-0", "result"]))

    def gen_level(self):
        r = self.rng
        self.emit(r.choice([
            f"level {r.choice([0, 40, 1])} {r.choice(['0:02', '0:05', '1', '0.5', '0:10'])} "
            f"{r.choice(['0', '0.05', '0.1', '1'])}",
            "level 40 5 0", "level 0 0:30 0", "level 40", "level x 1 0", "level 0 1:xx 0",
            "level 0 99999999 0", "level 1 0 0",
        ]), 0.1)

    def gen_st(self):
        r = self.rng
        self.emit(f"st {r.choice(['0.05', '0.1', '0.2', '0.5', '1', '0', '2', 'abc', '-1', '1e2'])}",
                  0.1)

    def gen_sd(self):
        r = self.rng
        self.emit(f"sd {r.choice(['1', '2', '4', '6', '8', '0', '200', '-1', 'x'])}", 0.1)

    def gen_nps(self):
        self.emit(f"nps {self.rng.choice(['0', '1000', '100000', '1', '-5'])}", 0.1)

    def gen_time(self):
        r = self.rng
        self.emit(f"time {r.choice([r.randint(0, 30000), -100, 10**12, 'x'])}", 0.05)

    def gen_otim(self):
        r = self.rng
        self.emit(f"otim {r.choice([r.randint(0, 30000), -100, 'x'])}", 0.05)

    def gen_option(self):
        r = self.rng
        if not self.options or r.random() < 0.1:
            self.emit(r.choice(["option", "option =5", "option Foo=1", "option UCI_Chess960=1",
                                "option SyzygyPath=x", "option Hash", "option hash=8",
                                "option Threads=", "option MultiPV = 2"]), 0.1)
            return
        opt = r.choice(self.options)
        value = OptionGen(self).value(opt)
        self.emit(f"option {opt['name']}" + ("" if value is None else f"={value}"), 0.05)

    def gen_memory(self):
        r = self.rng
        x = r.random()
        if x < 0.85:
            value = OptionGen(self).hash_value(refused_only=True)
            if not re.fullmatch(r"[0-9]+", value):
                value = str(r.randint(1, 64))
        else:
            value = r.choice(["0", "-1", "18446744073709551616", "big"] + (
                ["18446744073709551615"] if self.max_hash >= 1048576 else []))
        self.emit(f"memory {value}", 0.05)

    def gen_cores(self):
        r = self.rng
        value = str(r.randint(1, self.args.max_threads)) if r.random() < 0.85 else r.choice(
            ["0", "-1", "99999999999999999999", "x"])
        self.emit(f"cores {value}", 0.05)

    def gen_egtpath(self):
        r = self.rng
        path = r.choice(self.fixtures["syzygypath"])[0] or "nothing"
        self.emit(r.choice([f"egtpath syzygy {path}", f"egtpath gaviota {path}", "egtpath syzygy",
                            f"egtpath SYZYGY {path}"]))

    def gen_misc(self):
        r = self.rng
        self.emit(r.choice([
            "post", "nopost", "hard", "easy", "random", "computer", "name Fuzzy Opponent 1.0",
            "rating 2400 2300", "rating x 1", "ics -", "ics", "xboard", "protover 2", "protover x",
            "accepted ping", "rejected debug", "accepted", "setscore 100 5", "setscore x",
            "lift e2", "put e4", "hover a1", "variant crazyhouse", "frobnicate", "uci", "?",
            "new game", "force now", "usermove", "usermove e2e4 e7e5", "draw please", "bk",
        ]), 0.05)

    def gen_pause(self):
        self.emit("pause")

    def gen_resume(self):
        self.emit("resume")

    def gen_variant(self):
        self.emit(f"variant {self.rng.choice(['normal', 'fischerandom', 'normal', 'suicide'])}")

    def gen_ping(self):
        r = self.rng
        self.emit(f"ping {r.choice([str(r.randint(0, 999999)), '-3', '+7', '0'])}")

    def gen_mutated(self):
        r = self.rng
        pool = [self.random_move_text(), "usermove " + self.random_move_text(), "force", "new",
                "go", "analyze", "exit", "undo", "remove", "?", ".", "hint", "st 0.1", "sd 3",
                "level 40 0:05 0", "time 500", "otim 500", "memory 64", "cores 1", "post",
                "setboard " + r.choice(FENS), "edit", "ping 5", "result 1-0", "easy", "hard"]
        if self.options:
            opt = r.choice(self.options)
            value = OptionGen(self).value(opt)
            pool.append(f"option {opt['name']}" + ("" if value is None else f"={value}"))
        self.emit_mutated(r.choice(pool))

    def gen_random_bytes(self):
        r = self.rng
        raw = random_junk(r, r.randint(1, 200))
        if xb_parse(engine_view(raw))[0] == "quit":
            raw = b"x" + raw
        self.send(raw, trusted=False)

    def gen_long(self):
        r = self.rng
        x = r.random()
        if x < 0.3:
            line = "name " + "Opponent " * r.choice([100, 10000])
        elif x < 0.5:
            line = "setboard " + FENS[0] + " " + "x" * r.choice([1000, 100000])
        elif x < 0.65:
            line = "ping " + "9" * r.choice([30, 1000, 70000])
        elif x < 0.8:
            line = "option Log File=" + "a" * r.choice([300, 100000])
        else:
            raw = random_junk(r, r.choice([1000, 70000, 200000]))
            if xb_parse(engine_view(raw))[0] == "quit":
                raw = b"x" + raw
            self.send(raw, trusted=False)
            return
        self.send(line, trusted=line.startswith(("name", "ping")))

    def gen_empty(self):
        self.send(self.rng.choice([b"", b" ", b"\t", b"\r", b"  \r", "\u00a0".encode()]))

    def gen_sleep(self):
        self.sleep(self.rng.choice([0.01, 0.05, 0.1, 0.3]))

    def gen_wait_move(self):
        """What a GUI does: wait for the engine's move (then `?` if it takes long)."""
        m = self.m
        limit = self.rng.choice([0.2, 0.5, 1.5])
        if not self.wait_until(lambda: not m.think or not m.certain, limit):
            self.move_now()

    def gen_move_now(self):
        if self.m.certain and self.m.think:
            self.move_now()
        else:
            self.emit("?")
