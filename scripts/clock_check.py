#!/usr/bin/env python3
"""Games of Betacut against itself on a real clock with no margin, as fastchess and
cutechess-cli keep it: the time from sending `go` to reading `bestmove` comes off the mover's
clock, and a clock below zero after a move is a loss on time. Standard library only, so CI runs
it without python-chess; the moves are the engine's own and are not checked here (the protocol
tests and match.py check legality).

    scripts/clock_check.py BIN [--tc 2+0] [--tc 1+0.01] [--tc 40/4] [--movetime MS]
                           [--ponder] [--games N] [--plies N] [--threads N] [--hash MB]
                           [--overhead MS]

Each `--tc` is BASE+INC in seconds or MOVES/BASE (a repeating control); the default plays
2+0 (sudden death: the control most likely to drain a clock) and 1+0.01. `--movetime MS`
plays a game of `go movetime MS` moves as well: a move that takes longer than MS from `go` to
`bestmove` is a loss on time, and the longest and the mean move are printed (how much of the
time given the engine uses). `--ponder` plays every clocked game with pondering as a GUI does
it: after `bestmove M ponder P` the engine gets `go ponder` on the position after M and P with
the clocks of that moment; when the opponent plays P it gets `ponderhit` and its clock runs from
then, otherwise `stop` (that search's answer is dropped) and a normal `go`. Every game starts
from the start position with `--random-plies` plies chosen by the engine itself (`go depth 1`
with a seeded MultiPV pick), so the games differ, and ends as a match runner ends it: a mate or
stalemate (`bestmove (none)` or `0000`), the fifty-move rule, a threefold repetition or bare
kings and at most one minor piece (read from the engine's `d` FEN, outside the clock), or after
`--plies` plies. Prints one line a game (the plies, how it ended, the least time left on each
side's clock) and a summary; exits 1 if any move lost on time, 2 if an engine died or went
silent.
"""
import argparse
import random
import subprocess
import sys
import threading
import time
import queue


class EngineGone(Exception):
    """The engine exited or stopped answering."""


class Engine:
    """A UCI engine process with a reader thread, so that reads can time out."""

    def __init__(self, path, options):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 10)
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.sync()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as err:
            raise EngineGone(f"cannot write to the engine: {err}") from None

    def wait_for(self, prefix, timeout):
        """The first line starting with `prefix` within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineGone(f"no {prefix!r} within {timeout} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineGone(f"no {prefix!r} within {timeout} s") from None
            if line is None:
                raise EngineGone("the engine exited")
            if line.startswith(prefix):
                return line

    def sync(self):
        self.send("isready")
        self.wait_for("readyok", 10)

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineGone, subprocess.TimeoutExpired):
            self.proc.kill()


def parse_tc(text):
    """(base seconds, increment seconds, moves per session or None) from `2+0.01` or `40/4`."""
    try:
        if "/" in text:
            moves, base = text.split("/", 1)
            return float(base), 0.0, int(moves)
        base, _, inc = text.partition("+")
        return float(base), float(inc or 0), None
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad time control {text!r}") from None


def opening(engine, plies, rng):
    """`plies` moves chosen at random among the engine's best few at depth 1."""
    moves = []
    engine.send("setoption name MultiPV value 4")
    for _ in range(plies):
        engine.send("position startpos moves " + " ".join(moves))
        engine.send("go depth 1")
        options = []
        while True:
            line = engine.wait_for("", 10)
            if line.startswith("bestmove"):
                break
            words = line.split()
            if "pv" in words and words.index("pv") + 1 < len(words):
                options.append(words[words.index("pv") + 1])
        if not options:
            break
        moves.append(rng.choice(sorted(set(options))))
    engine.send("setoption name MultiPV value 1")
    engine.sync()
    return moves


def drawn(engine, moves, seen):
    """Whether the position after `moves` is drawn by rule: the fifty-move count, a third
    occurrence (`seen` counts positions by their first four FEN fields) or too little material
    to mate. The FEN comes from the engine's `d`."""
    engine.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
    engine.send("d")
    fen = engine.wait_for("Fen:", 10).split(None, 1)[1].split()
    engine.sync()
    key = " ".join(fen[:4])
    seen[key] = seen.get(key, 0) + 1
    pieces = [c for c in fen[0] if c.isalpha() and c not in "kK"]
    bare = all(c in "nNbB" for c in pieces) and len(pieces) <= 1
    return int(fen[4]) >= 100 or seen[key] >= 3 or bare


def position(moves):
    """The UCI `position` command for the start position and `moves`."""
    return "position startpos moves " + " ".join(moves) if moves else "position startpos"


class Game:
    """One game's clocks and statistics. `tc` is (base, increment, moves per session) or
    ("movetime", seconds)."""

    def __init__(self, tc):
        self.movetime = tc[1] if tc[0] == "movetime" else None
        base = 0.0 if self.movetime else tc[0]
        self.base, self.inc, self.session = (base, 0.0, None) if self.movetime else tc
        self.clocks = [base, base]
        self.least = [base, base]
        self.made = [0, 0]
        self.used = [[], []]
        self.ponderhits = 0

    def go(self, side, ponder=False):
        """The `go` command for `side`, with the clocks of now."""
        if self.movetime:
            return f"go movetime {int(self.movetime * 1000)}"
        go = "go ponder" if ponder else "go"
        go += (f" wtime {max(0, int(self.clocks[0] * 1000))}"
               f" btime {max(0, int(self.clocks[1] * 1000))}"
               f" winc {int(self.inc * 1000)} binc {int(self.inc * 1000)}")
        if self.session:
            go += f" movestogo {self.session - self.made[side] % self.session}"
        return go

    def charge(self, side, used):
        """Charges `used` seconds to `side`; whether the move lost on time."""
        self.used[side].append(used)
        if self.movetime:
            return used > self.movetime
        self.clocks[side] -= used
        self.least[side] = min(self.least[side], self.clocks[side])
        if self.clocks[side] < 0:
            return True
        self.clocks[side] += self.inc
        self.made[side] += 1
        if self.session and self.made[side] % self.session == 0:
            self.clocks[side] += self.base
        return False


def play(engines, arbiter, tc, start, max_plies, ponder):
    """One game; returns (plies, how it ended, the Game, losses on time)."""
    game = Game(tc)
    ponder = ponder and not game.movetime
    moves = list(start)
    for engine in engines:
        engine.send("ucinewgame")
        engine.sync()
    # Per side: the move it ponders on, or None.
    pondering = [None, None]
    try:
        return game_moves(engines, arbiter, game, moves, max_plies, ponder, pondering)
    finally:
        # A game over ends the loser's ponder search, as a GUI's `stop` does.
        for side, expected in enumerate(pondering):
            if expected is not None:
                engines[side].send("stop")
                engines[side].wait_for("bestmove", 10)


def game_moves(engines, arbiter, game, moves, max_plies, ponder, pondering):
    """The moves of `play` from `moves` on."""
    seen = {}
    for ply in range(len(moves), max_plies):
        side = ply % 2
        engine = engines[side]
        expected = pondering[side]
        pondering[side] = None
        if expected is not None and expected == moves[-1]:
            game.ponderhits += 1
            sent = time.monotonic()
            engine.send("ponderhit")
        else:
            if expected is not None:
                engine.send("stop")
                engine.wait_for("bestmove", 10)
            engine.send(position(moves))
            sent = time.monotonic()
            engine.send(game.go(side))
        limit = game.movetime if game.movetime else game.clocks[side]
        reply = engine.wait_for("bestmove", max(30.0, limit + 10))
        if game.charge(side, time.monotonic() - sent):
            return ply + 1, "time", game, 1
        words = reply.split()
        mv = words[1] if len(words) > 1 else "(none)"
        if mv in ("(none)", "0000"):
            return ply, "mate or stalemate", game, 0
        moves.append(mv)
        if drawn(arbiter, moves, seen):
            return len(moves), "draw by rule", game, 0
        if ponder and len(words) >= 4 and words[2] == "ponder":
            pondering[side] = words[3]
            engine.send(position(moves + [words[3]]))
            engine.send(game.go(side, ponder=True))
    return len(moves), "ply limit", game, 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--tc", type=parse_tc, action="append",
                        help="BASE+INC or MOVES/BASE, seconds (default: 2+0 and 1+0.01)")
    parser.add_argument("--movetime", type=int, action="append",
                        help="milliseconds a move (`go movetime`), games of their own")
    parser.add_argument("--ponder", action="store_true",
                        help="ponder as a GUI does (`go ponder`, `ponderhit`, `stop`)")
    parser.add_argument("--games", type=int, default=2, help="games a time control")
    parser.add_argument("--plies", type=int, default=300, help="longest game in plies")
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--overhead", type=int, help="Move Overhead in ms (default: the engine's)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    controls = args.tc or ([] if args.movetime else [parse_tc("2+0"), parse_tc("1+0.01")])
    controls += [("movetime", ms / 1000) for ms in args.movetime or []]
    options = [("Threads", args.threads), ("Hash", args.hash)]
    if args.ponder:
        options.append(("Ponder", "true"))
    if args.overhead is not None:
        options.append(("Move Overhead", args.overhead))
    rng = random.Random(args.seed)
    total_losses = 0
    try:
        engines = [Engine(args.binary, options), Engine(args.binary, options)]
        # Openings and the draw rules are read from a third process, never from a player,
        # which may be pondering.
        arbiter = Engine(args.binary, [("Hash", 1)])
        engines.append(arbiter)
        try:
            for tc in controls:
                if tc[0] == "movetime":
                    name = f"movetime {tc[1] * 1000:g}"
                else:
                    name = f"{tc[2]}/{tc[0]:g}" if tc[2] else f"{tc[0]:g}+{tc[1]:g}"
                for number in range(args.games):
                    start = opening(arbiter, args.random_plies, rng)
                    # Colours alternate: the second game of a pair swaps the engines.
                    order = engines[:2] if number % 2 == 0 else engines[1::-1]
                    plies, end, game, losses = play(order, arbiter, tc, start, args.plies,
                                                    args.ponder)
                    total_losses += losses
                    if game.movetime:
                        moves = game.used[0] + game.used[1]
                        detail = (f"longest move {max(moves, default=0) * 1000:.0f} ms, mean "
                                  f"{sum(moves) / max(1, len(moves)) * 1000:.0f} ms")
                    else:
                        detail = (f"least time left {game.least[0] * 1000:.0f} ms / "
                                  f"{game.least[1] * 1000:.0f} ms")
                        if args.ponder:
                            detail += f", {game.ponderhits} ponder hits"
                    print(f"{name} game {number + 1}: {plies} plies ({end}), {detail}"
                          f"{', LOST ON TIME' if losses else ''}", flush=True)
        finally:
            for engine in engines:
                engine.quit()
    except EngineGone as err:
        print(f"engine failure: {err}", file=sys.stderr)
        return 2
    print(f"{total_losses} losses on time in {len(controls) * args.games} games")
    return 1 if total_losses else 0


if __name__ == "__main__":
    sys.exit(main())
