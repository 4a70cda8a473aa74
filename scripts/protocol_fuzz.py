#!/usr/bin/env python3
"""Protocol fuzzer: drives a Betacut binary with long streams of random and mutated UCI and
XBoard lines and checks that it never leaves a GUI waiting, never crashes and plays only legal
moves.

usage: scripts/protocol_fuzz.py BINARY [--protocol uci|xboard|both] [--lines 30000]
           [--seed S] [--max-hash MB] [--max-threads N] [--ping-timeout 1.0]
           [--hang-timeout 20] [--probe-every 50] [--save-stream FILE] [--verbose]

For each protocol it starts the engine (in a temporary directory that also holds the files
the options point to: a small Polyglot book, broken books and networks, a copy of the test
Syzygy tables, log files) and sends --lines lines: valid commands of every kind (positions
with legal and illegal moves, FENs valid and broken, `go` with every parameter and unknown
words, `setoption` for every option of the `uci` reply (huge `Hash` values up to --max-hash
MB, by default twice the machine's memory), XBoard's `memory`, `cores`, `analyze`, `exit`,
`force`, `new`, `usermove`, `setboard`, `st`, `sd`, `level`, `time`, `otim`, `ping`, `?`,
`.`, `hint`, `undo`, `remove`, `edit`, ...), GUI-like sequences (a game against the engine,
`go ponder` + `ponderhit`, `go infinite` + `stop`), and mutated lines: words dropped, swapped,
duplicated or replaced, random bytes (invalid UTF-8, NUL, Unicode white space), very long
lines, empty lines, CRLF endings. `quit` is only sent at the end.

Every --probe-every lines on average (at random points) it sends a sync probe: `isready` in
UCI, `ping N` in XBoard (preceded by `?` or `force` when the engine is thinking about its own
move, whose `pong` may wait for the move). Failures:

  probe-timeout   a probe not answered within --ping-timeout s (latency still measured, up to
                  --hang-timeout s); the last 20 lines sent before it are printed
  hang            not answered within --hang-timeout s: the engine is killed and restarted
  crash           the process exited (or its stdin broke); it is restarted
  panic           a Rust panic message on stderr
  move-now-timeout  XBoard `?` not answered by a move within --ping-timeout s
  slow-stop       UCI `stop` (or a new `position`/`go`) during an endless search not answered
                  by `bestmove` within --ping-timeout s
  overrun         a search limited by `movetime` or a clock still running well past it
  missing-bestmove / extra-bestmove   UCI: every `go` that starts a search (no error reply)
                  gets exactly one `bestmove`, including searches superseded by `stop`,
                  `position`, `ucinewgame` or another `go`
  illegal-move    a `bestmove`/`ponder`/`move` that is not legal in the position the script
                  believes the engine has (python-chess tracks it; XBoard: only while the model
                  of the engine's state is certain, see "moves checked" in the summary)
  bad-format      a `bestmove`/`move` line that is not a move in coordinates
  unexpected-move XBoard: a `move` while the model says the engine is not thinking
  exit            `quit` did not end the process within 5 s with status 0

The line stream is a deterministic function of --seed in UCI; in XBoard it also depends on
the engine's own moves (the replies to them are drawn the same way). --save-stream writes every
line sent (and each probe) to a file so a failure can be replayed by hand.

python-chess (for the position model and legality checks) is taken from
~/.venv-chess-tools/bin/python if the running interpreter lacks it (the script re-executes
itself there); without it, moves are only checked for their format (--no-chess forces that).

Exit code: 0 if no failure of any kind, 1 otherwise (2: usage or start-up error).
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time

from protofuzz.driver import Driver
from protofuzz.engine import EngineDied
from protofuzz.fixtures import make_fixtures
from protofuzz.mutations import mutate, random_junk
from protofuzz.options import OptionGen
from protofuzz.positions import (
    FENS, FENS_960, FENS_BROKEN, MOVE_RE, NEVER_LEGAL, engine_end, engine_fen_board,
    parse_move_any,
)
from protofuzz.pychess import chess
from protofuzz.text import I64, engine_view, r_int, r_trim, shown
from protofuzz.uci_driver import UciDriver
from protofuzz.xboard_parser import looks_like_move, xb_parse, xb_parse_edit

VENV_PYTHON = os.path.expanduser("~/.venv-chess-tools/bin/python")

if chess is None and "--no-chess" not in sys.argv:
    if os.path.exists(VENV_PYTHON) and os.environ.get("PROTOCOL_FUZZ_REEXEC") != "1":
        os.environ["PROTOCOL_FUZZ_REEXEC"] = "1"
        os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])

DEFAULT_SEED = 20261127

# ----------------------------------------------------------------------------------------------
# XBoard
# ----------------------------------------------------------------------------------------------


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


class XboardDriver(Driver):
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

    # ----- the generator -----

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


# ----------------------------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (head of this file) for the failure kinds.")
    parser.add_argument("binary", help="the engine binary")
    parser.add_argument("--protocol", choices=["uci", "xboard", "both"], default="both")
    parser.add_argument("--lines", type=int, default=30000, help="lines per protocol")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--max-hash", type=int, default=0,
                        help="largest Hash / memory value sent, MB (default: twice MemTotal)")
    parser.add_argument("--max-threads", type=int, default=4,
                        help="largest Threads / cores value generated (default 4; a mutated "
                             "line can still ask for more, e.g. `cores 901681`, which the "
                             "engine clamps to 256)")
    parser.add_argument("--ping-timeout", type=float, default=1.0,
                        help="seconds a probe may take before it is a failure (default 1.0)")
    parser.add_argument("--hang-timeout", type=float, default=20.0,
                        help="seconds after which the engine counts as hung and is restarted")
    parser.add_argument("--probe-every", type=int, default=50,
                        help="mean number of lines between probes (default 50)")
    parser.add_argument("--max-reports", type=int, default=25,
                        help="failures reported in full in the summary (default 25)")
    parser.add_argument("--save-stream", metavar="FILE",
                        help="write every line sent (hex) and each probe (P) and pause (W) to FILE")
    parser.add_argument("--keep-tmp", action="store_true",
                        help="keep the engine's working directory (its log files)")
    parser.add_argument("--no-chess", action="store_true",
                        help="do not use python-chess: check moves for their format only")
    parser.add_argument("--trace", metavar="FILE",
                        help="write every line sent and read (and the XBoard model's state) to "
                             "FILE, to debug the script's model")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    if not os.access(args.binary, os.X_OK):
        parser.error(f"{args.binary} is not an executable")
    if chess is None:
        print("python-chess not available: moves are checked for their format only "
              "(XBoard runs without a position model)", file=sys.stderr)
    protocols = ["uci", "xboard"] if args.protocol == "both" else [args.protocol]
    tmp = tempfile.mkdtemp(prefix="betacut-fuzz-")
    fixtures = make_fixtures(tmp)
    print(f"protocol_fuzz: {args.binary}, seed {args.seed}, {args.lines} lines per protocol, "
          f"probe timeout {args.ping_timeout} s, working directory {tmp}", file=sys.stderr)
    drivers = []
    try:
        for p in protocols:
            driver = UciDriver(args, tmp, fixtures) if p == "uci" else XboardDriver(
                args, tmp, fixtures)
            drivers.append(driver)
            driver.run()
            print(driver.summary(), flush=True)
    except KeyboardInterrupt:
        for d in drivers:
            if d.engine is not None:
                d.engine.kill()
        print("interrupted", file=sys.stderr)
        for d in drivers:
            print(d.summary())
        return 1
    finally:
        if not args.keep_tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    failures = sum(sum(d.fail_counts.values()) for d in drivers)
    print(f"== total: {sum(d.lines_sent for d in drivers)} lines, "
          f"{sum(d.probes for d in drivers)} probes, {failures} failures: "
          f"{'FAIL' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
