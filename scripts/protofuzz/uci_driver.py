"""The UCI driver: the handshake, a model of the engine's answers (the lines since the last
`isready` replayed on it once `readyok` shows they were all read), the checks of each
`bestmove` (format, legality, latency after `stop`, overrun) and of their count."""

import re
import time

from .driver import Driver
from .positions import MOVE_RE, board_from, parse_move_any
from .pychess import chess
from .text import r_split, r_trim, shown
from .uci_lines import UciLines
from .uci_parser import uci_parse

class Search:
    """One UCI search the engine started (a `go` without an error reply)."""

    def __init__(self, index, t, board, params, line):
        self.index = index
        self.t = t
        self.board = board
        self.params = params
        self.line = line
        self.trigger_t = None  # first stop/supersession sent after it
        self.trigger_index = None
        self.ponderhit_t = None
        self.bestmove = None
        self.overrun_reported = False


class UciDriver(UciLines, Driver):
    PROTOCOL = "uci"

    def reset_state(self):
        self.window = []  # (index, view, parsed, t) since the last probe
        self.window_errors = []
        self.searches = []
        self.bestmoves = []  # (t, line)
        self.checked = 0
        self.readyok_seen = 0
        self.isready_sent = 0
        self.board = chess.Board() if chess else None
        self.chess960 = False
        self.uciok = False
        self.reported_count_gap = False
        self.options = []
        self.reset_generator()

    def handshake(self):
        self.uciok = False
        self.send("uci", count=False)
        self.wait_until(lambda: self.uciok, 10)
        if not self.uciok:
            raise SystemExit("no uciok from the engine")
        self.probe(count_probe=False)

    def on_output(self, t, line):
        if line.startswith("bestmove"):
            self.bestmoves.append((t, line))
            self.match_bestmoves()
        elif line == "readyok":
            self.readyok_seen += 1
        elif line.startswith("info string error:"):
            self.window_errors.append(line)
        elif line == "uciok":
            self.uciok = True
        elif line.startswith("option name "):
            self.parse_option_line(line)

    def parse_option_line(self, line):
        m = re.match(r"option name (.+?) type (\w+)(.*)", line)
        if not m:
            return
        name, kind, rest = m.group(1), m.group(2), m.group(3)
        opt = {"name": name, "type": kind}
        lo = re.search(r" min (-?\d+)", rest)
        hi = re.search(r" max (-?\d+)", rest)
        if lo and hi:
            opt["min"], opt["max"] = int(lo.group(1)), int(hi.group(1))
        if all(o["name"] != name for o in self.options):
            self.options.append(opt)

    # ----- model -----

    def after_send(self, view, trusted, t):
        parsed = uci_parse(view)
        if parsed[0] == "isready":
            self.isready_sent += 1
        if parsed[0] == "setoption" and parsed[1].strip().lower() == "hash":
            self.hash_request(f"Hash {parsed[2]}")
        self.window.append((self.total_sent, view, parsed, t))

    def reconcile(self):
        """Called at a probe's readyok: every line before it has been processed, every error
        it caused has been read. Replays the window on the model."""
        errors = self.window_errors
        ptr = 0
        norm = lambda s: re.sub("\ufffd+", "\ufffd", s)
        normed = [norm(e) for e in errors]
        kinds = ("position", "go", "setoption", "error", "perft")
        targets = [norm(": " + r_trim(view)) if parsed[0] in kinds else None
                   for _, view, parsed, _ in self.window]
        for at, (index, view, parsed, t) in enumerate(self.window):
            kind = parsed[0]
            ok = True
            error_text = None
            if kind in kinds:
                target = targets[at]
                later = [x for x in targets[at + 1:] if x is not None and x != target]
                # The engine answers in order: an error of a later line ends the search, so
                # that a line without an error never takes one of an identical later line
                # (`go infinite` twice, the second after a bad FEN).
                found = None
                for j in range(ptr, len(normed)):
                    if normed[j].endswith(target):
                        found = j
                        break
                    if any(normed[j].endswith(x) for x in later):
                        break
                if found is not None:
                    ok = False
                    error_text = errors[found]
                    if found > ptr:
                        self.note("unattributed-error", errors[ptr])
                    ptr = found + 1
                    # A `go` may report several things it left out, each on a line of its own.
                    while ptr < len(normed) and normed[ptr].endswith(target):
                        ptr += 1
                elif kind == "error":
                    self.note("parsed-ok-expected-error", shown(view.encode()))
            self.apply(index, view, parsed, t, ok, error_text)
        if ptr < len(errors):
            self.note("unattributed-error", errors[ptr])
        self.window = []
        self.window_errors = []
        self.match_bestmoves()
        self.check_counts()

    def apply(self, index, view, parsed, t, ok, error_text=None):
        kind = parsed[0]
        running = self.searches[-1] if self.searches else None
        if kind == "position" or (kind == "error" and r_split(view)[:1] == ["position"]):
            # A good position; one with an illegal move (the engine keeps the moves before
            # it); or none at all (a bad FEN, a malformed command: `go` then answers
            # `bestmove (none)`, which the model leaves unchecked).
            if chess:
                partial = kind == "position" and (ok or "position before it" in (error_text or ""))
                if partial:
                    self.board = board_from(parsed[1], parsed[2], self.chess960, partial=not ok)
                    if self.board is None and ok:
                        self.note("engine-accepted-position-python-chess-refuses", view[:200])
                else:
                    self.board = None
            if running and running.trigger_t is None:
                running.trigger_t, running.trigger_index = t, index
        elif kind == "ucinewgame":
            if chess:
                self.board = chess.Board(chess960=self.chess960)
            if running and running.trigger_t is None:
                running.trigger_t, running.trigger_index = t, index
        elif kind == "setoption" and ok and parsed[1].strip().lower() == "uci_chess960":
            value = (parsed[2] or "").strip().lower()
            self.chess960 = value in ("true", "1", "on")
            if self.board is not None:
                self.board.chess960 = self.chess960
        elif kind == "go":
            if running and running.trigger_t is None:
                running.trigger_t, running.trigger_index = t, index
            board = self.board.copy() if self.board is not None else None
            self.searches.append(Search(index, t, board, parsed[1], view))
        elif kind == "stop":
            if running and running.trigger_t is None:
                running.trigger_t, running.trigger_index = t, index
        elif kind == "ponderhit":
            if running and running.params.get("ponder") and running.ponderhit_t is None:
                running.ponderhit_t = t

    def match_bestmoves(self):
        while self.checked < min(len(self.bestmoves), len(self.searches)):
            search = self.searches[self.checked]
            t, line = self.bestmoves[self.checked]
            search.bestmove = (t, line)
            self.check_bestmove(search, t, line)
            self.checked += 1

    def endless(self, s):
        """True if the search can only end by stop (or a new command): no limit at all (the
        clock counts only for the side to move), `infinite`, or a ponder search without a
        ponderhit."""
        p = s.params
        # A clock for either side makes a timed search (the side to move's missing time is 0).
        limited = any(k in p for k in ("wtime", "btime", "depth", "nodes", "mate", "movetime"))
        return p["infinite"] or (p["ponder"] and s.ponderhit_t is None) or not limited

    def white(self, s):
        return s.board is None or s.board.turn == chess.WHITE

    def time_bound(self, s):
        """Seconds after which a search must have ended by itself, or None."""
        p = s.params
        if p["infinite"] or (p["ponder"] and s.ponderhit_t is None):
            return None, None
        start = s.ponderhit_t if p["ponder"] else s.t
        bounds = []
        if "movetime" in p:
            bounds.append(p["movetime"] / 1000)
        clock = p.get("wtime") if self.white(s) else p.get("btime")
        if clock is not None or "wtime" in p or "btime" in p:
            inc = p.get("winc" if self.white(s) else "binc") or 0
            bounds.append(max(0, clock or 0) / 1000 + max(0, inc) / 1000)
        if not bounds:
            return None, None
        return start, min(bounds)

    def check_bestmove(self, s, t, line):
        words = line.split()
        if len(words) < 2 or not (MOVE_RE.match(words[1]) or words[1] == "(none)"):
            self.fail("bad-format", f"{line!r} for `{s.line}`")
            return
        ponder = words[3] if len(words) >= 4 and words[2] == "ponder" else None
        if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "ponder"):
            self.fail("bad-format", f"{line!r} for `{s.line}`")
        if s.trigger_t is not None and t >= s.trigger_t:
            latency = t - s.trigger_t
            if self.endless(s):
                self.measure("stop->bestmove", latency)
                if latency > self.args.ping_timeout:
                    self.fail("slow-stop", f"bestmove {latency * 1000:.0f} ms after line "
                                           f"{s.trigger_index} ended the endless `{s.line}` "
                                           f"(line {s.index})", at=s.trigger_index)
        start, bound = self.time_bound(s)
        if bound is not None and (s.trigger_t is None or s.trigger_t > start + bound):
            self.check_overrun(s, t - start, bound)
        board = s.board
        if board is None or chess is None:
            self.moves_unchecked += 1
            return
        legal = list(board.legal_moves)
        if words[1] == "(none)":
            if legal:
                self.fail("illegal-move", f"bestmove (none) with {len(legal)} legal moves in "
                                          f"{board.fen()} (`{s.line}`)")
            else:
                self.moves_checked += 1
            return
        mv = parse_move_any(board, words[1]) if MOVE_RE.match(words[1]) else None
        if mv is None:
            self.fail("illegal-move", f"{line!r} is not legal in {board.fen()} (`{s.line}`)")
            return
        self.moves_checked += 1
        if s.params["searchmoves"]:
            # Names that are no legal move are skipped; with none left, every move is searched.
            allowed = [m for m in (parse_move_any(board, m) for m in s.params["searchmoves"]) if m]
            if allowed and mv not in allowed:
                self.fail("illegal-move", f"{line!r} is not among searchmoves in {board.fen()} "
                                          f"(`{s.line}`)")
        if ponder is not None:
            after = board.copy()
            after.push(mv)
            if not MOVE_RE.match(ponder) or parse_move_any(after, ponder) is None:
                self.fail("illegal-move", f"ponder move of {line!r} is not legal after it in "
                                          f"{board.fen()} (`{s.line}`)")

    moves_checked = 0
    moves_unchecked = 0

    def check_overrun(self, s, took, bound):
        slack = 1.0 + 0.25 * bound
        if took > bound + slack and not s.overrun_reported:
            s.overrun_reported = True
            self.fail("overrun", f"`{s.line}` (line {s.index}) took {took:.2f} s, its limit "
                                 f"allows {bound:.2f} s", at=s.index)

    def check_counts(self):
        started, got = len(self.searches), len(self.bestmoves)
        if got > started:
            self.fail("extra-bestmove", f"{got} bestmoves for {started} searches started")
            self.bestmoves = self.bestmoves[:started]
        elif got < started - 1 and not self.reported_count_gap:
            self.reported_count_gap = True
            missing = self.searches[got]
            self.fail("missing-bestmove", f"{started} searches started, {got} bestmoves; the "
                                          f"first without one: `{missing.line}`")
        # a time-limited search that is still running long after its limit
        if self.searches and got < started:
            s = self.searches[-1]
            start, bound = self.time_bound(s)
            if bound is not None and s.trigger_t is None:
                self.check_overrun(s, time.monotonic() - start, bound)

    # ----- probes -----

    def probe(self, count_probe=True):
        self.pump(0)
        target = self.isready_sent + 1
        t0 = time.monotonic()
        if self.stream:
            self.stream.write("P\n")
        self.send("isready", count=False)
        self.probe_answered(t0, lambda: self.readyok_seen >= target, "isready")
        latency = time.monotonic() - t0
        if count_probe:
            self.probes += 1
            self.measure("probe", latency)
        self.reconcile()
        self.lines_since_probe = 0
        self.next_probe = self.draw_probe_gap()

    def finish(self):
        self.send("stop", count=False)
        self.probe()
        self.wait_until(lambda: len(self.bestmoves) >= len(self.searches), 3.0)
        self.reconcile()
        started, got = len(self.searches), len(self.bestmoves)
        if got < started:
            self.fail("missing-bestmove", f"at the end: {started} searches, {got} bestmoves "
                                          f"(after stop)", context=False)
        self.quit()

    def extra_summary(self):
        return [f"   searches {len(self.searches)} (go's that started one), bestmoves "
                f"{len(self.bestmoves)} (current engine only); moves checked legal: "
                f"{self.moves_checked}, unchecked (position unknown): {self.moves_unchecked}"]
