#!/usr/bin/env python3
"""SPSA tuning of Betacut's search constants (issue 55, item 3).

Each iteration perturbs every constant of `betacut tunables` at once by +c_k or -c_k (a random
sign per constant), plays a fixed number of game pairs between the two perturbed engines
(the same binary, built with `cargo build --release --features tune`, which takes the
constants as UCI options) with match.py, and moves every constant along its sign by the
result (wins minus losses of the "plus" engine). The gains follow Spall's schedule as
OpenBench and fishtest use it:

    c_k = c_end * N^gamma / (k+1)^gamma              (per constant; c_end = its `step`)
    a_k = r_end * c_end^2 * (A+N)^alpha / (A+k+1)^alpha,   R_k = a_k / c_k^2
    theta += R_k * c_k * (wins - losses) * sign

with alpha 0.602, gamma 0.101, A = N/10 and r_end 0.002 by default.

The state is two files that grow by appending: the current state (settings, iteration, current
values: a small JSON file, --state) and the history beside it (STATE without `.json`, plus
`.history.jsonl`: one JSON line per iteration, its result and the values after it), both
written after each iteration; run the same command again to resume. A state file of the old
form (the history inside it) is converted the first time it is read. The random signs and the
openings' seed of iteration k depend only on --seed and k, so a run is reproducible.

Example (about 4 games a minute per core at 2+0.02):
    cargo build --release -p betacut --features tune --target-dir target/tune
    lab/scripts/spsa.py --engine target/tune/release/betacut --state lab/tuning/spsa-state.json \\
        --iterations 400 --pairs 8 --tc 2+0.02 --concurrency 2 --seed 55 --commit-every 10

    lab/scripts/spsa.py --state lab/tuning/spsa-state.json --report   # values so far, as options

Running data generation (`datagen`) is paused while timed games are played. With
--nodes N every move is searched for N nodes instead of on a clock: the games then do not
depend on the machine's load, so data generation goes on beside them, e.g. one core each:
    taskset -c 1 lab/scripts/spsa.py --engine target/tune/release/betacut \\
        --state lab/tuning/spsa-state.json --iterations 1000 --pairs 4 --nodes 40000 \\
        --r-end 0.005 --concurrency 1 --seed 69 --commit-every 10   # the run of issue 69
With --commit-every K the state file (a few kilobytes) and the history (one line more an
iteration), kept in the repository, are committed after every K iterations: a run lost with
its machine resumes from the last commit.
    lab/scripts/spsa.py --self-test                               # the update on a known optimum
"""

import argparse
import functools
import json
import math
import os
import random
import subprocess
import sys
import tempfile

from datagen_pause import datagen_paused

HERE = os.path.dirname(os.path.abspath(__file__))
# The shared tools and data outside the repository: BETACUT_SHARED, default ../shared.
SHARED = os.environ.get("BETACUT_SHARED") or os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared"))
DEFAULT_MATCH = os.path.join(SHARED, "tools", "match.py")
DEFAULT_OPENINGS = os.path.join(SHARED, "data", "openings", "UHO_4060_v4_20k.epd")
DEFAULT_PYTHON = os.path.expanduser("~/.venv-chess-tools/bin/python")


def read_tunables(engine):
    """The table `betacut tunables` prints: name -> (default, min, max, step)."""
    out = subprocess.run([engine, "tunables"], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        name, default, lo, hi, step = line.split()
        table[name] = (int(default), int(lo), int(hi), int(step))
    if not table:
        sys.exit(f"{engine} printed no tunables")
    return table


class Schedule:
    """Spall's gain sequences for N iterations."""

    def __init__(self, iterations, alpha=0.602, gamma=0.101, a_ratio=0.1, r_end=0.002):
        self.n = iterations
        self.alpha = alpha
        self.gamma = gamma
        self.big_a = a_ratio * iterations
        self.r_end = r_end

    def c(self, step, k):
        return step * self.n ** self.gamma / (k + 1) ** self.gamma

    def a(self, step, k):
        a_end = self.r_end * step * step
        return a_end * (self.big_a + self.n) ** self.alpha / (self.big_a + k + 1) ** self.alpha

    def update(self, theta, step, k, sign, result):
        """One constant's new value after `result` (plus engine's wins minus losses)."""
        c_k = self.c(step, k)
        r_k = self.a(step, k) / (c_k * c_k)
        return theta + r_k * c_k * result * sign


def signs_for(seed, k, names):
    rng = random.Random(f"{seed}:{k}")
    return {name: rng.choice((-1, 1)) for name in names}


def perturbed(theta, table, schedule, k, signs, direction):
    """The integer values the plus (direction 1) or minus (-1) engine plays with."""
    values = {}
    for name, value in theta.items():
        _, lo, hi, step = table[name]
        v = value + direction * signs[name] * schedule.c(step, k)
        values[name] = int(round(min(max(v, lo), hi)))
    return values


@functools.lru_cache(maxsize=None)
def opening_lines(path):
    """The non-empty, non-comment lines of an openings file (read once per run)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [raw.strip() for raw in f]
    return [line for line in lines if line and not line.startswith("#")]


def opening_subset(path, seed, pairs, out):
    """Writes to `out` the openings match.py would play from `path` with `seed` and `pairs`
    game pairs, and returns `out`.

    match.py parses every line of its openings file on each start (about 5 s for the 20,000
    of UHO_4060_v4_20k, a quarter of an iteration at a fixed node budget) and then takes the
    first `pairs` of a seeded shuffle of them. Handing it just those lines plays the same
    openings, one pair each, so the games (at a fixed node budget, the very same games) are
    those of the whole file; only the order of the pairs in its report differs. This mirrors
    match.py's make_jobs and assumes, as holds for the files it is used with, that every
    non-empty line that is not a comment is a valid opening."""
    lines = opening_lines(path)
    order = list(range(len(lines)))
    random.Random(seed).shuffle(order)
    with open(out, "w", encoding="utf-8") as f:
        for p in range(pairs):
            f.write(lines[order[p % len(order)]] + "\n")
    return out


def play(args, plus, minus, k):
    """Plays args.pairs game pairs, plus engine first; returns (w, d, l, bugs)."""
    with tempfile.TemporaryDirectory() as tmp:
        summary = os.path.join(tmp, "result.json")
        seed = args.seed * 100_003 + k
        openings = opening_subset(args.openings, seed, args.pairs,
                                  os.path.join(tmp, "openings.epd"))
        cmd = [args.python, args.match,
               "--engine", f"plus={args.engine}:uci", "--engine", f"minus={args.engine}:uci",
               "--option", f"plus:Hash={args.hash}", "--option", f"minus:Hash={args.hash}",
               *(["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc]),
               "--games", str(2 * args.pairs),
               "--openings", openings, "--seed", str(seed),
               "--concurrency", str(args.concurrency), "--json", summary]
        for name, value in plus.items():
            cmd += ["--option", f"plus:{name}={value}"]
        for name, value in minus.items():
            cmd += ["--option", f"minus:{name}={value}"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(summary):
            sys.exit(f"match.py failed (exit {run.returncode}):\n{run.stdout[-2000:]}"
                     f"\n{run.stderr[-2000:]}")
        with open(summary) as f:
            result = json.load(f)
    pairing = result["pairings"]["minus"]
    bugs = sum(n for engine in result["bugs"].values() for n in engine.values())
    return pairing["w"], pairing["d"], pairing["l"], bugs


def history_path(path):
    """The history file beside the state file `path`: `X.json` -> `X.history.jsonl`."""
    base = path[:-len(".json")] if path.endswith(".json") else path
    return base + ".history.jsonl"


def write_small(path, state):
    """Writes the current state, without its history, to `path` (atomically)."""
    small = {key: value for key, value in state.items() if key != "history"}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(small, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def write_history(path, lines):
    """Writes the history file of `path` whole (used once, to convert an old state file)."""
    tmp = history_path(path) + ".tmp"
    with open(tmp, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    os.replace(tmp, history_path(path))


def load_state(path):
    """The state of `path` with its history (`state["history"]`, one entry per iteration).
    An old state file, with the history inside, is split into the two files first. Lines of
    the history past the state's iteration (a run stopped between the two writes) are dropped."""
    with open(path) as f:
        state = json.load(f)
    if "history" in state:
        write_history(path, state["history"])
        write_small(path, state)
        print(f"{path}: history moved to {history_path(path)}", flush=True)
        return state
    history = []
    if os.path.exists(history_path(path)):
        with open(history_path(path)) as f:
            history = [json.loads(line) for line in f if line.strip()]
    if len(history) > state["k"]:
        history = history[:state["k"]]
        write_history(path, history)
    if len(history) != state["k"]:
        sys.exit(f"{history_path(path)}: {len(history)} iterations, the state says {state['k']}")
    state["history"] = history
    return state


def save_state(path, state, new=None):
    """Appends the iteration `new` (if any) to the history, then rewrites the small state."""
    if new is not None:
        with open(history_path(path), "a") as f:
            f.write(json.dumps(new, separators=(",", ":")) + "\n")
    write_small(path, state)


def report(state):
    table = {name: tuple(v) for name, v in state["table"].items()}
    total = [0, 0, 0]
    for it in state["history"]:
        for i in range(3):
            total[i] += it["wdl"][i]
    print(f"iterations {state['k']} of {state['iterations']}, games {sum(total)} "
          f"(plus engine +{total[0]} ={total[1]} -{total[2]})")
    for name, value in state["theta"].items():
        default = table[name][0]
        print(f"  {name:22} {value:9.2f}  (default {default}, now {int(round(value))})")
    options = " ".join(f"{n}={int(round(v))}" for n, v in state["theta"].items())
    print(f"options: {options}")


def self_test():
    """SPSA on a noisy objective with a known optimum: every constant must end nearer to it."""
    table = {"x": (50, 0, 200, 8), "y": (300, 100, 600, 20), "z": (5, 1, 20, 1)}
    optimum = {"x": 90, "y": 220, "z": 9}
    schedule = Schedule(600, r_end=0.002)
    theta = {name: float(v[0]) for name, v in table.items()}
    noise = random.Random(1)

    def score(values):  # expected score of an engine with `values`, in [0, 1]
        loss = sum(((values[n] - optimum[n]) / table[n][3]) ** 2 for n in values)
        return 1 / (1 + math.exp(0.05 * loss - 1))

    for k in range(schedule.n):
        signs = signs_for(7, k, theta)
        plus = perturbed(theta, table, schedule, k, signs, 1)
        minus = perturbed(theta, table, schedule, k, signs, -1)
        p = 0.5 + (score(plus) - score(minus)) / 2
        result = sum((noise.random() < p) - (noise.random() < 1 - p) for _ in range(16))
        for n in theta:
            lo, hi, step = table[n][1], table[n][2], table[n][3]
            theta[n] = min(max(schedule.update(theta[n], step, k, signs[n], result), lo), hi)
    ok = True
    for n in theta:
        start, end = abs(table[n][0] - optimum[n]), abs(theta[n] - optimum[n])
        print(f"{n}: default {table[n][0]}, optimum {optimum[n]}, tuned {theta[n]:.1f}")
        ok &= end < start / 2
    print("self-test", "passed" if ok else "FAILED")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", help="betacut built with --features tune")
    ap.add_argument("--state", help="JSON state file (resumed if it exists)")
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--pairs", type=int, default=8, help="game pairs per iteration")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--nodes", type=int, default=0,
                    help="nodes per move instead of --tc (untimed: data generation goes on)")
    ap.add_argument("--hash", type=int, default=8)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=55)
    ap.add_argument("--openings", default=DEFAULT_OPENINGS)
    ap.add_argument("--match", default=DEFAULT_MATCH)
    ap.add_argument("--python", default=DEFAULT_PYTHON if os.path.exists(DEFAULT_PYTHON)
                    else sys.executable)
    ap.add_argument("--params", help="comma-separated subset of the tunables (default: all)")
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--commit-every", type=int, default=0, metavar="K",
                    help="commit the state file to git after every K iterations and at the end "
                         "(the file must be inside the repository; 0: never)")
    ap.add_argument("--report", action="store_true", help="print the state and exit")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()

    if args.self_test:
        return self_test()
    if not args.state:
        ap.error("--state is needed")
    if args.report:
        report(load_state(args.state))
        return 0
    if not args.engine:
        ap.error("--engine is needed")

    if os.path.exists(args.state):
        state = load_state(args.state)
        print(f"resuming {args.state} at iteration {state['k']}", flush=True)
    else:
        table = read_tunables(args.engine)
        if args.params:
            wanted = args.params.split(",")
            unknown = [n for n in wanted if n not in table]
            if unknown:
                sys.exit(f"unknown tunables: {', '.join(unknown)}")
            table = {n: table[n] for n in wanted}
        state = {"iterations": args.iterations, "seed": args.seed, "pairs": args.pairs,
                 "tc": args.tc, "nodes": args.nodes, "r_end": args.r_end, "k": 0,
                 "table": {n: list(v) for n, v in table.items()},
                 "theta": {n: float(v[0]) for n, v in table.items()}, "history": []}
        os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
        write_history(args.state, [])
        save_state(args.state, state)
    table = {name: tuple(v) for name, v in state["table"].items()}
    schedule = Schedule(state["iterations"], r_end=state["r_end"])
    args.seed, args.pairs, args.tc = state["seed"], state["pairs"], state["tc"]
    args.nodes = state.get("nodes", 0)

    if args.nodes:
        # Searches of a fixed size play the same games on a loaded machine.
        iterate(args, state, table, schedule)
    else:
        # Timed games: data generation waits until the run ends, however it ends.
        with datagen_paused():
            iterate(args, state, table, schedule)
    report(state)
    return 0


def iterate(args, state, table, schedule):
    """Plays the iterations left, saving (and with --commit-every committing) the state."""
    while state["k"] < state["iterations"]:
        k = state["k"]
        theta = state["theta"]
        signs = signs_for(state["seed"], k, theta)
        plus = perturbed(theta, table, schedule, k, signs, 1)
        minus = perturbed(theta, table, schedule, k, signs, -1)
        w, d, l, bugs = play(args, plus, minus, k)
        result = w - l
        for name in theta:
            _, lo, hi, step = table[name]
            theta[name] = min(max(schedule.update(theta[name], step, k, signs[name], result),
                                  lo), hi)
        new = {"k": k, "wdl": [w, d, l], "bugs": bugs, "theta": dict(theta)}
        state["history"].append(new)
        state["k"] = k + 1
        save_state(args.state, state, new)
        shown = " ".join(f"{n}={v:.1f}" for n, v in theta.items())
        print(f"iteration {k + 1}/{state['iterations']}: +{w} ={d} -{l}"
              f"{f' BUGS {bugs}' if bugs else ''} | {shown}", flush=True)
        if args.commit_every and (state["k"] % args.commit_every == 0
                                  or state["k"] == state["iterations"]):
            commit_state(args.state, state)


def commit_state(path, state):
    """Commits the state file and its history alone (other staged or changed files are left as
    they are), so a run survives the machine: a new one resumes from the repository's copy."""
    games = sum(sum(it["wdl"]) for it in state["history"])
    message = (f"spsa: state after iteration {state['k']} of {state['iterations']} "
               f"({games} games, seed {state['seed']}, "
               f"{'nodes ' + str(state['nodes']) if state.get('nodes') else 'tc ' + state['tc']})")
    where = os.path.dirname(os.path.abspath(path))
    files = [os.path.abspath(path), os.path.abspath(history_path(path))]
    subprocess.run(["git", "add", "--", *files], cwd=where, check=False)
    done = subprocess.run(["git", "commit", "--quiet", "-m", message, "--", *files],
                          cwd=where, check=False)
    if done.returncode != 0:
        print(f"note: could not commit {path} (git exit {done.returncode}); the run goes on",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
