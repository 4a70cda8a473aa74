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

The fuzz itself is the package scripts/protofuzz/ beside this script (its __init__.py lists
the modules); this file is the command line.

Exit code: 0 if no failure of any kind, 1 otherwise (2: usage or start-up error).
"""

import argparse
import os
import shutil
import sys
import tempfile

from protofuzz.fixtures import make_fixtures
from protofuzz.pychess import chess
from protofuzz.uci_driver import UciDriver
from protofuzz.xboard_driver import XboardDriver

VENV_PYTHON = os.path.expanduser("~/.venv-chess-tools/bin/python")

if chess is None and "--no-chess" not in sys.argv:
    if os.path.exists(VENV_PYTHON) and os.environ.get("PROTOCOL_FUZZ_REEXEC") != "1":
        os.environ["PROTOCOL_FUZZ_REEXEC"] = "1"
        os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])

DEFAULT_SEED = 20261127


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
