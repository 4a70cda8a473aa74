"""The XBoard driver: the handshake, the model of the engine's state applied to each line
before it is sent, the error replies it should cause checked at each `pong`, the engine's
moves checked against it, probes that settle a running think first, and resyncs when the
model is no longer certain."""

import re
import time

from .driver import Driver
from .engine import EngineDied
from .positions import MOVE_RE, engine_end, engine_fen_board, parse_move_any
from .pychess import chess
from .text import I64, r_int, r_trim, shown
from .xboard_lines import XboardLines
from .xboard_parser import xb_parse, xb_parse_edit
from .xboard_state import XB_INTERACTING, EditModel, XModel

class XboardDriver(XboardLines, Driver):
    PROTOCOL = "xboard"

    def reset_state(self):
        self.m = XModel()
        self.options = []
        self.features_done = False
        self.ping_id = 1000000
        self.pong_seen = set()
        self.win_lo = self.win_hi = 0
        self.win_errors = []
        self.win_certain = True
        self.win_lines = []
        self.move_now_t = None
        self.last_move_t = 0.0
        self.verify_pending = False
        self.racy = False

    moves_checked = 0
    moves_unchecked = 0
    moves_seen = 0
    resyncs = 0

    def handshake(self):
        self.send("xboard", count=False)
        self.send("protover 2", count=False)
        self.wait_until(lambda: self.features_done, 10)
        if not self.features_done:
            raise SystemExit("no `feature done=1` from the engine")
        for line in ("new", "force", "st 0.2", "post"):
            self.send(line, count=False)
        self.probe(count_probe=False)

    # ----- output -----

    def on_output(self, t, line):
        if line.startswith("move "):
            self.on_move(t, line[5:].strip())
        elif line.startswith("pong "):
            self.pong_seen.add(line[5:].strip())
        elif line.startswith(("Error (", "Illegal move", "tellusererror")):
            self.win_errors.append(line)
        elif re.match(r"(1-0|0-1|1/2-1/2) \{", line):
            self.on_claim(line)
        elif line.startswith("feature "):
            for m in re.finditer(r'option="([^"]*)"', line):
                self.parse_option_feature(m.group(1))
            if "done=1" in line:
                self.features_done = True

    def parse_option_feature(self, text):
        m = re.match(r"(.+?) -(spin|check|button|file|string|combo)(.*)", text)
        if not m:
            return
        opt = {"name": m.group(1), "type": m.group(2)}
        if opt["type"] == "spin":
            nums = m.group(3).split()
            opt["default"], opt["min"], opt["max"] = (int(x) for x in nums[:3])
        if opt["type"] == "check":
            opt["default"] = m.group(3).strip()
        if all(o["name"] != opt["name"] for o in self.options):
            self.options.append(opt)

    def on_move(self, t, text):
        self.moves_seen += 1
        self.last_move_t = t
        if self.move_now_t is not None:
            self.measure("?->move", t - self.move_now_t)
            self.move_now_t = None
        if not (MOVE_RE.match(text) or text in ("O-O", "O-O-O")):
            self.fail("bad-format", f"move {text!r}")
            self.uncertain("bad move format")
            return
        m = self.m
        if not m.certain:
            self.moves_unchecked += 1
            m.think = False
            return
        if not (m.think or m.think_maybe):
            self.fail("unexpected-move", f"move {text} while the engine should not be "
                                         f"thinking (mode {m.mode}, {m.board.fen()})")
            self.uncertain("unexpected move")
            return
        board = m.board
        mv = None
        try:
            mv = board.parse_san(text) if text.startswith("O-") else board.parse_uci(text)
        except ValueError:
            mv = None
        if mv is None or mv == chess.Move.null():
            self.fail("illegal-move", f"move {text} is not legal in {board.fen()}")
            self.uncertain("illegal move")
            return
        self.moves_checked += 1
        board.push(mv)
        m.think = False
        m.think_maybe = False

    def on_claim(self, line):
        # Claims come after the engine's own move or after the opponent's move that ended the
        # game; they carry no position, so they are not matched against the model (a think
        # the model expects wrongly shows up at the next `?` or probe).
        pass

    def model_state(self):
        m = self.m
        if not m.certain:
            return "[uncertain]"
        return (f"[{m.mode}{'' if m.color is None else ('/W' if m.color else '/B')}"
                f"{' THINK' if m.think else ''}{' maybe' if m.think_maybe else ''}"
                f"{' paused' if m.paused else ''}{' edit' if m.edit else ''} {m.board.fen()}]")

    def uncertain(self, why):
        if self.trace:
            self.trace.write(f"           model uncertain: {why}\n")
        if self.m.certain:
            self.m.certain = False
            self.win_certain = False
            self.next_probe = min(self.next_probe, self.lines_since_probe + 3)

    # ----- the model -----

    def before_send(self, view, trusted, t):
        cmd = xb_parse(view)
        if cmd[0] == "memory" or (cmd[0] == "option" and cmd[1].strip().lower() == "hash"):
            self.hash_request(f"{cmd[0]} {cmd[-1] if cmd[-1] is not None else '(no value)'}")
        lo, hi = self.apply(view, trusted)
        self.win_lo += lo
        self.win_hi += hi
        self.win_lines.append((self.total_sent, view, lo, hi))
        if not self.m.certain:
            self.win_certain = False

    def abort(self):
        m = self.m
        if m.think:
            # Only `force` may abort a think without a resolution step (see settle()).
            self.uncertain("a think aborted racily")
        m.think = False

    def start_due(self):
        m = self.m
        if m.paused or m.edit is not None:
            return
        if m.mode == "play" and m.color == m.board.turn:
            if engine_end(m.board) is None:
                m.think = True

    def new_board(self, fen):
        return engine_fen_board(fen, self.m.chess960)

    def apply(self, view, trusted):
        """Applies a line the engine is about to process to the model; returns the range of
        error replies (Error/Illegal move/tellusererror) it should cause."""
        m = self.m
        if not m.certain:
            return 0, 10**6
        line = r_trim(view)
        if m.edit is not None:
            ec = xb_parse_edit(line)
            if ec is not None:
                if ec[0] != ".":
                    m.edit.apply(ec)
                    return 0, 0
                fen = m.edit.fen()
                m.edit = None
                board = self.new_board(fen)
                self.verify_soon()
                if board is None:
                    # No position now (force mode, moves and searches refused until a new
                    # one): not modelled, so the model resyncs.
                    self.uncertain("edit refused: the engine has no position")
                    return 1, 1
                m.board = board
                self.start_due()
                return 0, 0
            cmd = xb_parse(line)
            return (0, 0) if cmd[0] in ("ping", "empty", "accepted", "rejected") else (1, 1)
        cmd = xb_parse(line)
        name = cmd[0]
        if name == "error":
            return 1, 1
        if name in XB_INTERACTING and m.think and not (name == "force" and self.settling):
            self.uncertain(f"{name} sent while thinking")
            return 0, 10**6
        if name == "new":
            self.abort()
            m.chess960 = False
            m.board = chess.Board()
            m.edit = None
            m.paused = False
            if m.mode != "analyze":
                m.mode, m.color = "play", chess.BLACK
            self.start_due()
        elif name == "variant":
            if cmd[1] not in ("normal", "fischerandom"):
                return 1, 1
            self.abort()
            m.chess960 = cmd[1] == "fischerandom"
            m.board.chess960 = m.chess960 or m.board.has_chess960_castling_rights()
            self.start_due()
        elif name == "force":
            if m.think:
                m.think_maybe = True
            m.think = False
            m.mode = "force"
        elif name == "go":
            if not m.think:
                self.abort()
                m.mode, m.color = "play", m.board.turn
                self.start_due()
        elif name == "playother":
            self.abort()
            m.mode, m.color = "play", not m.board.turn
            self.start_due()
        elif name in ("white", "black"):
            self.abort()
            to_move = chess.WHITE if name == "white" else chess.BLACK
            m.mode, m.color = "play", not to_move
            if m.board.turn != to_move:
                fields = m.board.fen().split()
                fields[1] = "w" if to_move == chess.WHITE else "b"
                fields[3] = "-"
                board = self.new_board(" ".join(fields))
                if board is None:
                    return 1, 1
                m.board = board
        elif name == "usermove":
            if not trusted:
                self.verify_soon()  # the engine's move parser may read it differently
            text = cmd[1]
            mv = self.xb_parse_user_move(text)
            if mv is None:
                return 1, 1
            if m.mode in ("force", "analyze"):
                self.abort()
                m.board.push(mv)
            elif m.color == m.board.turn:
                return 1, 1
            else:
                self.abort()
                m.board.push(mv)
                self.start_due()
        elif name == "result":
            self.abort()
            m.mode = "force"
        elif name == "setboard":
            if not trusted:
                self.verify_soon()
            board = self.new_board(cmd[1])
            if board is None or (not m.chess960 and board.has_chess960_castling_rights()):
                # No position now (force mode, moves and searches refused until a new one):
                # not modelled, so the model resyncs.
                self.uncertain("setboard refused: the engine has no position")
                return 1, 1
            self.abort()
            m.board = board
            self.start_due()
        elif name == "edit":
            self.abort()
            m.edit = EditModel(m.board)
        elif name in ("undo", "remove"):
            plies = 1 if name == "undo" else 2
            if len(m.board.move_stack) < plies:
                return 1, 1
            was_thinking = m.think
            self.abort()
            for _ in range(plies):
                m.board.pop()
            if plies == 2 and was_thinking:
                self.start_due()
        elif name == "analyze":
            self.abort()
            m.mode = "analyze"
        elif name == "exit":
            if m.mode != "analyze":
                return 1, 1
            self.abort()
            m.mode = "force"
        elif name == "pause":
            if not m.paused:
                self.abort()
                m.paused = True
        elif name == "resume":
            if m.paused:
                m.paused = False
                self.start_due()
        elif name in ("exclude", "include"):
            if cmd[1] != "all" and parse_move_any(m.board, cmd[1]) is None:
                return 1, 1
        elif name == "option":
            return self.option_errors(cmd[1], cmd[2])
        return 0, 0

    def verify_soon(self):
        """The model guessed how the engine takes a line: check it at a probe right away (with
        `force` first, so that a think the model does not know of cannot hold the pong)."""
        self.verify_pending = True
        self.next_probe = min(self.next_probe, self.lines_since_probe)

    def xb_parse_user_move(self, text):
        board = self.m.board
        if re.fullmatch(r"[a-h][1-8][a-h][1-8]=[nbrqNBRQ]", text):
            text = text[:4] + text[5].lower()
        if re.fullmatch(r"[a-h][1-8][a-h][1-8][NBRQ]", text):
            text = text[:4] + text[4].lower()
        if self.m.chess960 and re.fullmatch(r"[a-h][1-8][a-h][1-8]", text):
            try:
                mv = board.parse_uci(text)
            except ValueError:
                return None
            # In Chess960 castling is only king-takes-rook or O-O.
            if board.is_castling(mv) and board.uci(mv, chess960=True) != text:
                return None
            return mv
        if re.fullmatch(r"P[a-h].*", text):
            text = text[1:]  # the engine's SAN reader takes a pawn move with a P in front
        return parse_move_any(board, text)

    def option_errors(self, name, value):
        opt = next((o for o in self.options if o["name"].lower() == name.strip().lower()), None)
        if opt is None:
            return 1, 1
        kind = opt["type"]
        if kind == "button":
            return 0, 0
        if value is None:
            return 1, 1
        if kind == "spin":
            v = r_int(value, *I64)
            return (0, 0) if v is not None and opt["min"] <= v <= opt["max"] else (1, 1)
        if kind == "check":
            return (0, 0) if value.lower() in ("true", "1", "on", "false", "0", "off") else (1, 1)
        files = dict(self.fixtures.get(opt["name"].lower(), []))
        if value in files:
            return (0, 0) if files[value] else (1, 1)
        return 0, 1

    # ----- probes and settling -----

    settling = False

    def settle(self):
        """Before a line that would interact with a running think: either `?` and wait for the
        move, or `force` and a ping (after its pong the think is over either way)."""
        m = self.m
        if not (m.certain and m.think):
            return
        r = self.rng.random()
        if r < 0.6:
            self.move_now()
        else:
            self.settling = True
            try:
                self.send("force", count=False)
            finally:
                self.settling = False
            self.probe()

    def move_now(self):
        m = self.m
        t0 = time.monotonic()
        self.move_now_t = t0
        self.send("?", count=False)
        done = lambda: not m.think or not m.certain
        if self.wait_until(done, self.args.ping_timeout):
            return
        # Still no move: is the engine busy (a pong waits for the move while it thinks), or
        # does the model expect a think that is not running?
        self.ping_id += 1
        n = str(self.ping_id)
        self.send(f"ping {n}", count=False)
        self.wait_until(lambda: n in self.pong_seen or done(), self.args.hang_timeout)
        if done():
            self.fail("move-now-timeout", f"`?` answered by a move only after "
                                          f"{(time.monotonic() - t0) * 1000:.0f} ms")
            return
        if n in self.pong_seen:
            self.note("no-think-running", f"pong without a move after `?` in "
                                          f"{m.board.fen()} (mode {m.mode})")
            self.move_now_t = None
            self.uncertain("no think after ?")
            return
        self.fail("hang", "no move and no pong within the hang timeout after `?`")
        raise EngineDied("? unanswered")

    def probe(self, count_probe=True):
        """`ping N`, timed until `pong N`. While the engine thinks about its own move the pong
        may wait for the move: the probe is then preceded by `force` or `?` (or, sometimes, it
        waits up to 3 s for the move and times the pong from the move). If the model is not
        certain, the probe resyncs the engine first (see resync)."""
        self.pump(0)
        m = self.m
        resyncing = False
        if chess is None:
            self.send("force", count=False)  # no model: make sure the pong cannot wait
        elif not m.certain:
            self.resync()
            resyncing = True
        elif m.think or self.verify_pending:
            x = self.rng.random()
            if self.verify_pending or x < 0.4:
                self.settling = True
                try:
                    self.send("force", count=False)
                finally:
                    self.settling = False
            elif x < 0.8:
                self.move_now()
        self.ping_id += 1
        n = str(self.ping_id)
        if self.stream:
            self.stream.write("P\n")
        t0 = time.monotonic()
        thinking = self.m.certain and self.m.think
        self.send(f"ping {n}", count=False)
        if thinking:
            done_move = lambda: not self.m.think or n in self.pong_seen
            if not self.wait_until(done_move, 3.0):
                self.move_now()
        self.probe_answered(t0, lambda: n in self.pong_seen, f"ping {n}")
        t_pong = time.monotonic()
        latency = t_pong - max(t0, self.last_move_t if thinking else 0.0)
        if count_probe:
            self.probes += 1
            self.measure("probe", latency)
        self.m.think_maybe = False
        self.lines_since_probe = 0
        self.next_probe = self.draw_probe_gap()
        if resyncing:
            self.m = XModel()  # start position, force mode: certain again
            self.reset_window()
        else:
            self.check_window()

    def reset_window(self):
        self.win_lo = self.win_hi = 0
        self.win_errors = []
        self.win_lines = []
        self.win_certain = self.m.certain
        self.verify_pending = False

    def check_window(self):
        """Compares the error replies read since the last pong with what the model expected;
        on a mismatch the model is given up and the engine resynced at once."""
        observed = len(self.win_errors)
        if self.win_certain and self.m.certain and not (self.win_lo <= observed <= self.win_hi):
            lines = [f"{i}:{shown(v.encode(), 60)}[{lo}]" for i, v, lo, hi in self.win_lines
                     if lo or hi]
            self.note("error-count", f"expected {self.win_lo}..{self.win_hi} error replies, got "
                                     f"{observed}: {self.win_errors[:4]} for {lines[:6]}")
            self.uncertain("error count")
        self.reset_window()
        if not self.m.certain and chess is not None:
            self.probe(count_probe=False)

    def resync(self):
        """Puts the engine into a known state: edit mode ended, analysis left, a new game in
        force mode. After the next pong the model is certain again."""
        self.resyncs += 1
        for line in (".", "exit", "new", "force"):
            self.send(line, count=False)
        self.m = XModel()
        self.m.certain = False  # until the pong

    def finish(self):
        self.probe()
        self.quit()

    def extra_summary(self):
        return [f"   moves played by the engine {self.moves_seen}: checked legal "
                f"{self.moves_checked}, unchecked (model uncertain) {self.moves_unchecked}; "
                f"resyncs {self.resyncs}"]
