#!/usr/bin/env python3
"""Measures how fast Betacut answers the commands a GUI waits on, in UCI or XBoard.

Each trial sets up a position, starts an endless search (UCI `go infinite`, XBoard `analyze`),
and measures:

  stop -> bestmove     UCI: `stop` during `go infinite` until `bestmove` (checked to name a move)
  ? -> move            XBoard: `?` while the engine thinks about its own move (`st 30`, `go`)
                       until `move`
  (a) during search    `isready` -> `readyok` / `ping` -> `pong` halfway through the search
  (b) after stop/force/exit   the same probe sent right after `stop` (UCI) or after `force` or
                       `exit` (XBoard, alternating) ends the search
  (c) after resize     `setoption name Hash value M` / `memory M`, alternating between --hash
                       and half of it so that every trial really resizes, then the probe
  (d) after new game   `ucinewgame` / `new` (which clears the table), then the probe
  quit -> exit         `quit` during a search until the process has exited (fresh engines)

(b), (c) and (d) are timed from the command (stop, force, exit, the resize, the new game),
which is sent right before the probe, to the probe's answer: how long a GUI that waits for the
engine to be ready after that command waits. The searches run 0.2-1.5 s (random, fixed seed), so the table is partly touched when
it is resized or cleared. Prints the median and maximum of each in milliseconds and a verdict
against 50 ms (quit: against 1 s, the issue's target for an exit). Timings include the pipe
round trip; run it on an otherwise idle machine (and note the load when it is not).

usage: scripts/stop_latency.py [BINARY] [--protocol uci|xboard] [--trials N] [--threads N]
                               [--hash MB|max] [--seed S]

--hash max means the largest table the machine allows: half of MemAvailable (the engine's own
cap). Exit code: 0 if every measurement is within its target, 1 otherwise.
"""

import argparse
import queue
import random
import re
import statistics
import subprocess
import sys
import threading
import time

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
]
TARGET_MS = 50.0
QUIT_TARGET_MS = 1000.0
WAIT_S = 60.0  # longest wait for any answer before it counts as missing
MOVE_RE = re.compile(r"[a-h][1-8][a-h][1-8][nbrq]?\Z|O-O(-O)?\Z")


class Engine:
    """The engine process, its output read on a thread so that waits can time out."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, matches, timeout=WAIT_S):
        """The first line for which matches(line) is true, or None after timeout seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                raise RuntimeError("the engine's output ended")
            if matches(line):
                return line

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def mem_available_mb():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    raise RuntimeError("no MemAvailable in /proc/meminfo")


class Meter:
    """Named lists of milliseconds; a missing answer counts as infinitely slow."""

    def __init__(self):
        self.values = {}

    def add(self, name, ms):
        self.values.setdefault(name, []).append(ms)

    def timed(self, name, engine, send, matches):
        """Sends the line(s) in send, times until matches; returns the line or None."""
        sent = time.perf_counter()
        for line in send:
            engine.send(line)
        got = engine.wait_for(matches)
        self.add(name, (time.perf_counter() - sent) * 1000 if got is not None else float("inf"))
        return got


class Uci:
    name = "uci"

    def __init__(self, binary, threads, hash_mb):
        self.engine = Engine(binary)
        self.pings = 0
        self.engine.send("uci")
        if self.engine.wait_for(lambda l: l == "uciok") is None:
            raise RuntimeError("no uciok")
        self.engine.send(f"setoption name Threads value {threads}")
        self.engine.send(f"setoption name Hash value {hash_mb}")
        self.probe_untimed()

    def probe_lines(self):
        return ["isready"], lambda l: l == "readyok"

    def probe_untimed(self):
        self.engine.send("isready")
        if self.engine.wait_for(lambda l: l == "readyok") is None:
            raise RuntimeError("no readyok")

    def start_search(self, fen):
        self.engine.send(f"position fen {fen}")
        self.engine.send("go infinite")

    def end_search(self, meter, trial):
        """stop -> bestmove, and the probe right after the stop."""
        sent = time.perf_counter()
        self.engine.send("stop")
        self.engine.send("isready")
        bestmove = ready = None
        while bestmove is None or ready is None:
            line = self.engine.wait_for(lambda l: l.startswith("bestmove") or l == "readyok")
            now = time.perf_counter()
            if line is None:
                break
            if line == "readyok" and ready is None:
                ready = now
            elif line.startswith("bestmove") and bestmove is None:
                bestmove = now
                words = line.split()
                if len(words) < 2 or not MOVE_RE.match(words[1]):
                    raise RuntimeError(f"no move after stop: {line}")
        inf = float("inf")
        meter.add("stop -> bestmove", (bestmove - sent) * 1000 if bestmove else inf)
        meter.add("(b) probe after stop", (ready - sent) * 1000 if ready else inf)

    def resize(self, mb):
        return [f"setoption name Hash value {mb}"]

    def new_game(self):
        return ["ucinewgame"]

    def think(self, meter, fen, rng):
        pass  # UCI's stop -> bestmove is measured in end_search

    def quit(self):
        self.engine.send("quit")


class Xboard:
    name = "xboard"

    def __init__(self, binary, threads, hash_mb):
        self.engine = Engine(binary)
        self.pings = 0
        self.engine.send("xboard")
        self.engine.send("protover 2")
        if self.engine.wait_for(lambda l: l.startswith("feature") and "done=1" in l) is None:
            raise RuntimeError("no feature done=1")
        self.engine.send(f"cores {threads}")
        self.engine.send(f"memory {hash_mb}")
        self.engine.send("new")
        self.engine.send("force")
        self.probe_untimed()

    def probe_lines(self):
        self.pings += 1
        n = str(self.pings)
        return [f"ping {n}"], lambda l: l == f"pong {n}"

    def probe_untimed(self):
        lines, matches = self.probe_lines()
        for line in lines:
            self.engine.send(line)
        if self.engine.wait_for(matches) is None:
            raise RuntimeError("no pong")

    def start_search(self, fen):
        self.engine.send("force")
        self.engine.send(f"setboard {fen}")
        self.engine.send("analyze")

    def end_search(self, meter, trial):
        """force or exit (alternating), then the probe."""
        word = "force" if trial % 2 == 0 else "exit"
        lines, matches = self.probe_lines()
        meter.timed(f"(b) probe after {word}", self.engine, [word] + lines, matches)
        self.engine.send("force")

    def resize(self, mb):
        return [f"memory {mb}"]

    def new_game(self):
        return ["new", "force"]

    def think(self, meter, fen, rng):
        """`?` while the engine thinks about its own move: the XBoard stop."""
        self.engine.send(f"setboard {fen}")
        self.engine.send("st 30")
        self.engine.send("go")
        time.sleep(rng.uniform(0.2, 1.5))
        got = meter.timed("? -> move", self.engine, ["?"], lambda l: l.startswith("move "))
        if got is not None and not MOVE_RE.match(got.split()[1]):
            raise RuntimeError(f"not a move: {got}")
        self.engine.send("force")
        self.probe_untimed()

    def quit(self):
        self.engine.send("quit")


def verdict(values, target):
    worst = max(values)
    if worst <= target:
        return f"ok (max within {target:.0f} ms)"
    return f"SLOW (max {worst:.1f} ms > {target:.0f} ms)"


def fmt(ms):
    return "missing" if ms == float("inf") else f"{ms:.1f} ms"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="See the head of this file for what each line of the report measures.")
    parser.add_argument("binary", nargs="?", default="target/release/betacut")
    parser.add_argument("--protocol", choices=["uci", "xboard"], default="uci")
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", default="64",
                        help="table size in MB, or max: half of MemAvailable (default 64)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.hash == "max":
        hash_mb = mem_available_mb() // 2
    elif args.hash.isdigit() and int(args.hash) >= 2:
        hash_mb = int(args.hash)
    else:
        parser.error("--hash takes a number of MB (at least 2) or max")
    sizes = (hash_mb, hash_mb // 2)
    rng = random.Random(args.seed)
    kind = Uci if args.protocol == "uci" else Xboard
    print(f"{args.binary}, {args.protocol}, {args.trials} trials, {args.threads} thread(s), "
          f"hash {hash_mb} MB (resizes alternate {sizes[1]} / {sizes[0]} MB)", flush=True)

    meter = Meter()
    front = kind(args.binary, args.threads, hash_mb)
    engine = front.engine
    for trial in range(args.trials):
        fen = POSITIONS[trial % len(POSITIONS)]
        front.start_search(fen)
        duration = rng.uniform(0.2, 1.5)
        time.sleep(duration / 2)
        lines, matches = front.probe_lines()
        meter.timed("(a) probe during search", engine, lines, matches)
        time.sleep(duration / 2)
        front.end_search(meter, trial)
        # every trial really resizes: the table alternates between the two sizes
        lines, matches = front.probe_lines()
        size = sizes[(trial + 1) % 2]
        meter.timed("(c) probe after resize", engine, front.resize(size) + lines, matches)
        lines, matches = front.probe_lines()
        meter.timed("(d) probe after new game", engine, front.new_game() + lines, matches)
        front.think(meter, fen, rng)
    front.quit()
    try:
        engine.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        engine.kill()

    quits = []
    for trial in range(max(1, args.trials // 3)):
        front = kind(args.binary, args.threads, hash_mb)
        front.start_search(POSITIONS[trial % len(POSITIONS)])
        time.sleep(rng.uniform(0.2, 1.5))
        sent = time.perf_counter()
        front.quit()
        try:
            front.engine.proc.wait(timeout=10)
            quits.append((time.perf_counter() - sent) * 1000)
        except subprocess.TimeoutExpired:
            front.engine.kill()
            quits.append(float("inf"))
    meter.values["quit -> exit"] = quits

    ok = True
    width = max(len(name) for name in meter.values)
    order = ["stop -> bestmove", "? -> move", "(a) probe during search", "(b) probe after stop",
             "(b) probe after force", "(b) probe after exit", "(c) probe after resize",
             "(d) probe after new game", "quit -> exit"]
    for name in order:
        if name not in meter.values:
            continue
        values = meter.values[name]
        target = QUIT_TARGET_MS if name == "quit -> exit" else TARGET_MS
        good = max(values) <= target
        ok = ok and good
        print(f"{name:<{width}}  {len(values):3} trials, median {fmt(statistics.median(values)):>10},"
              f" max {fmt(max(values)):>10}  {verdict(values, target)}")
    print("verdict:", "all within target" if ok else "SLOW: see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
