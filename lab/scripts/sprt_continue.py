#!/usr/bin/env python3
"""Continue an SPRT that stopped at its game cap without a decision.

    lab/scripts/sprt_continue.py --prior W D L [--sprt ELO0 ELO1] [--tools DIR] -- MATCH.PY ARGS...

Runs ../shared/tools/match.py with MATCH.PY ARGS (give a new --seed and a generous --games,
and no --sprt of its own), echoes its output, and after every game adds that match's running
W/D/L (first engine's view) to the earlier run's W D L. When the combined log-likelihood ratio
crosses a bound (alpha = beta = 0.05), the match is interrupted (it then prints its summary)
and a last line `combined W-D-L n=N LLR X: H1 accepted` (or `H0 accepted`) is printed. The
sequential test goes on where it stopped, so its error rates stay those of the SPRT.
"""
import argparse
import math
import os
import re
import signal
import subprocess
import sys
import time

RUNNING = re.compile(r"^Game .*\| \S+: \+(\d+) =(\d+) -(\d+) ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prior", nargs=3, type=int, required=True, metavar=("W", "D", "L"))
    parser.add_argument("--sprt", nargs=2, type=float, default=[0.0, 5.0], metavar=("ELO0", "ELO1"))
    parser.add_argument("--tools", default=os.path.join(os.environ.get("BETACUT_SHARED") or os.path.join(
                            os.path.dirname(__file__), "..", "..", "..", "shared"), "tools"))
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("match_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    match_args = [a for a in args.match_args if a != "--"]
    sys.path.insert(0, args.tools)
    from match import sprt_llr  # the same statistics the match itself reports

    bound = math.log((1 - 0.05) / 0.05)
    w0, d0, l0 = args.prior
    proc = subprocess.Popen(
        [args.python, os.path.join(args.tools, "match.py"), *match_args],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    verdict = None
    combined = f"combined {w0}-{d0}-{l0} n={w0 + d0 + l0}"
    assert proc.stdout is not None
    for line in proc.stdout:
        sys.stdout.write(line)
        found = RUNNING.match(line)
        if not found or verdict:
            continue
        w, d, l = (w0 + int(found[1]), d0 + int(found[2]), l0 + int(found[3]))
        llr = sprt_llr(w, d, l, args.sprt[0], args.sprt[1])
        combined = f"combined {w}-{d}-{l} n={w + d + l} LLR {llr:.2f}"
        if llr >= bound or llr <= -bound:
            verdict = "H1 accepted" if llr > 0 else "H0 accepted"
            # Let the match get back to waiting for its next game first: only there does an
            # interrupt end it with its summary (engines' faults included).
            time.sleep(1.0)
            proc.send_signal(signal.SIGINT)
    proc.wait()
    print(f"{combined}: {verdict or 'no decision (the match ended first)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
