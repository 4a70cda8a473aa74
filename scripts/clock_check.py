#!/usr/bin/env python3
"""Games of Betacut against itself on a real clock with no margin, as fastchess and
cutechess-cli keep it: the time from sending `go` to reading `bestmove` comes off the mover's
clock, and a clock below zero after a move is a loss on time. Standard library only, so CI runs
it without python-chess; the moves are the engine's own and are not checked here (the protocol
tests and match.py check legality).

    scripts/clock_check.py BIN [--tc 2+0] [--tc 1+0.01] [--tc 40/4] [--games N] [--plies N]
                           [--threads N] [--hash MB] [--overhead MS]

Each `--tc` is BASE+INC in seconds or MOVES/BASE (a repeating control); the default plays
2+0 (sudden death: the control most likely to drain a clock) and 1+0.01. Every game starts
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


def play(engines, tc, start, max_plies):
    """One game; returns (plies, how it ended, least time left per side in seconds, losses
    on time)."""
    base, inc, session = tc
    clocks = [base, base]
    least = [base, base]
    losses = 0
    moves = list(start)
    for engine in engines:
        engine.send("ucinewgame")
        engine.sync()
    made = [0, 0]
    seen = {}
    for ply in range(len(moves), max_plies):
        side = ply % 2
        engine = engines[side]
        engine.send("position startpos moves " + " ".join(moves) if moves
                    else "position startpos")
        go = (f"go wtime {max(0, int(clocks[0] * 1000))} btime {max(0, int(clocks[1] * 1000))}"
              f" winc {int(inc * 1000)} binc {int(inc * 1000)}")
        if session:
            go += f" movestogo {session - made[side] % session}"
        sent = time.monotonic()
        engine.send(go)
        reply = engine.wait_for("bestmove", max(30.0, clocks[side] + 10))
        used = time.monotonic() - sent
        clocks[side] -= used
        least[side] = min(least[side], clocks[side])
        if clocks[side] < 0:
            losses += 1
            return ply + 1, "time", least, losses
        clocks[side] += inc
        made[side] += 1
        if session and made[side] % session == 0:
            clocks[side] += base
        words = reply.split()
        mv = words[1] if len(words) > 1 else "(none)"
        if mv in ("(none)", "0000"):
            return ply, "mate or stalemate", least, losses
        moves.append(mv)
        if drawn(engines[0], moves, seen):
            return len(moves), "draw by rule", least, losses
    return len(moves), "ply limit", least, losses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--tc", type=parse_tc, action="append",
                        help="BASE+INC or MOVES/BASE, seconds (default: 2+0 and 1+0.01)")
    parser.add_argument("--games", type=int, default=2, help="games a time control")
    parser.add_argument("--plies", type=int, default=300, help="longest game in plies")
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--overhead", type=int, help="Move Overhead in ms (default: the engine's)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    controls = args.tc or [parse_tc("2+0"), parse_tc("1+0.01")]
    options = [("Threads", args.threads), ("Hash", args.hash)]
    if args.overhead is not None:
        options.append(("Move Overhead", args.overhead))
    rng = random.Random(args.seed)
    total_losses = 0
    try:
        engines = [Engine(args.binary, options), Engine(args.binary, options)]
        try:
            for tc in controls:
                name = f"{tc[2]}/{tc[0]:g}" if tc[2] else f"{tc[0]:g}+{tc[1]:g}"
                for game in range(args.games):
                    start = opening(engines[0], args.random_plies, rng)
                    # Colours alternate: the second game of a pair swaps the engines.
                    order = engines if game % 2 == 0 else engines[::-1]
                    plies, end, least, losses = play(order, tc, start, args.plies)
                    total_losses += losses
                    print(f"{name} game {game + 1}: {plies} plies ({end}), least time left "
                          f"{least[0] * 1000:.0f} ms / {least[1] * 1000:.0f} ms"
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
