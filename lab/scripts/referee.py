#!/usr/bin/env python3
"""The referee: one or more Betacut builds against fixed rungs of outside engines near 50 %.

    lab/scripts/referee.py --build base=/tmp/base@aaf2a98 --build new=target/release/betacut
                       [--chunks 7 | --chunks 3-6] [--run NAME] [--rungs FILE] [--rung NAME ...]
                       [--pairs N] [--tc-scale X] [--concurrency 2] [--out DIR] [--base NAME]
    lab/scripts/referee.py --report --run NAME [--rung NAME ...]   (or --report FILE.jsonl)

Each rung of lab/scripts/referee-rungs.toml is an opponent (path, protocol, options) with a clock
for it and one for Betacut (time odds through match.py --tc-for); every build plays with
Threads=1 and Hash=64. The run is cut in chunks: chunk k is `pairs_per_chunk` openings of
noob_2moves.epd (the book shuffled once with `book_seed`, openings k*N onward), each played
twice with colours swapped, on every rung, with match.py seed book_seed*1000+k. Every build
meets the same openings, colours and seeds. Chunk k is played by every build on every rung
before chunk k+1, so a run stopped anywhere leaves the builds at most one (rung, chunk) apart.

A rung that drifted outside 35-65 % is moved: a new rung with its new clock, and the old one
marked `retired = true`, which stays in the file so its results still fit but is neither played
nor reported unless --rung names it.

A build is NAME=PATH[@COMMIT]; without @COMMIT the commit of the checkout the binary lies in
(PATH under CHECKOUT/target/, HEAD, "+dirty" with uncommitted changes) is taken. The run's name
(default: the builds' names and commits, e.g. base-aaf2a98_new-1a2b3c4) names the results file,
lab/tuning/referee/RUN.jsonl: one JSON line per finished (build, rung, chunk) with W/D/L, the
pentanomial pair counts, each pair's points, the faults of both engines (illegal moves, time
forfeits, stalls, crashes, protocol errors, as match.py counts them), the engines' id names,
paths and sha256, the commits, the CPU model and the date. A (build, rung, chunk) already in
the file is skipped, so the same command resumes where it stopped, on any machine with the
file. PGNs, match.py logs and JSON go to OUT/RUN/ (default ~/betacut-referee).

At the end (and with --report, which only reads the file) it prints per rung and pooled over
the rungs each build's score and pentanomial Elo with its 95 % error, and for every other build
the difference to the base (--base, default the first build): paired by opening, rung and
chunk (the same games for both) and, beside it, with independent errors. Data generation is
paused (SIGSTOP) while games play. Exit 0; 1 when a match fails; 2 on bad arguments or a
results file that does not fit the rungs; 130 when interrupted.
"""
import argparse
import contextlib
import datetime
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import referee_stats as rs
from datagen_pause import datagen_paused

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAULTS = ("illegal_move", "time_forfeit", "stall", "crash", "protocol_error")
COMMIT_RE = re.compile(r"^[0-9a-fA-F]{7,40}$")
NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")
ID_LINE = re.compile(r"^  (\S+): '(.*)' \((?:uci|xboard)\) ")


class RefereeError(Exception):
    """A bad argument, rungs file or results file: printed and exit 2."""


@dataclass
class Build:
    """One Betacut build under test."""
    name: str
    path: str
    commit: str
    commit_source: str


def repo_path(path: str) -> str:
    """A path of the rungs file: absolute, or relative to the repository."""
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(ROOT, path))


def git(args: List[str], cwd: str) -> Optional[str]:
    """Output of a git command, None when it fails."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


def checkout_commit(binary: str) -> Optional[str]:
    """HEAD of the checkout whose target/ holds the binary (+dirty if it has changes)."""
    parts = os.path.realpath(binary).split(os.sep)
    if "target" not in parts:
        return None
    root = os.sep.join(parts[:len(parts) - 1 - parts[::-1].index("target")]) or os.sep
    head = git(["rev-parse", "--short=7", "HEAD"], root)
    if not head:
        return None
    dirty = git(["status", "--porcelain", "--untracked-files=no"], root)
    return head + ("+dirty" if dirty else "")


def parse_build(text: str) -> Build:
    """NAME=PATH[@COMMIT]."""
    name, sep, rest = text.partition("=")
    if not sep or not NAME_RE.match(name) or not rest:
        raise RefereeError(f"--build {text!r}: want NAME=PATH[@COMMIT], NAME of [A-Za-z0-9_.+-]")
    path, at, commit = rest.rpartition("@")
    if at and COMMIT_RE.match(commit):
        return Build(name, os.path.abspath(path), commit[:7].lower(), "given")
    path = os.path.abspath(rest)
    found = checkout_commit(path)
    return Build(name, path, found or "unknown", "checkout" if found else "unknown")


def sha256_of(path: str) -> str:
    """The first 16 hex digits of a file's sha256 (its identity in the results)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def cpu_model() -> str:
    """The CPU model and the number of cores, from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            models = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    except OSError:
        models = []
    return f"{models[0] if models else 'unknown CPU'}, {os.cpu_count()} cores"


def scaled_tc(tc: str, scale: float) -> str:
    """BASE+INC (seconds) times scale."""
    base, plus, inc = tc.partition("+")
    text = f"{round(float(base) * scale, 6):g}"
    return text + (f"+{round(float(inc) * scale, 6):g}" if plus else "")


def load_rungs(path: str) -> Dict[str, Any]:
    """The rungs file, checked: unique rung names, each with engine and both clocks."""
    try:
        with open(path, "rb") as f:
            cfg = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise RefereeError(f"rungs file {path}: {err}") from err
    rungs = cfg.get("rung", [])
    if not rungs:
        raise RefereeError(f"rungs file {path}: no [[rung]]")
    seen = set()
    for rung in rungs:
        for key in ("name", "engine", "betacut_tc", "opponent_tc"):
            if key not in rung:
                raise RefereeError(f"rungs file {path}: a rung without {key!r}")
        if rung["name"] in seen or not NAME_RE.match(rung["name"]):
            raise RefereeError(f"rungs file {path}: rung name {rung['name']!r} repeated or "
                               "not of [A-Za-z0-9_.+-]")
        seen.add(rung["name"])
    for key in ("pairs_per_chunk", "openings", "book_seed"):
        if key not in cfg:
            raise RefereeError(f"rungs file {path}: no {key!r}")
    return cfg


def opponent_name(rung: Dict[str, Any]) -> str:
    """The opponent's engine name in match.py and the PGNs: the binary's name."""
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", os.path.basename(rung["engine"]))


def conditions(cfg: Dict[str, Any], rung: Dict[str, Any], pairs: int, scale: float) -> Dict:
    """What must stay the same for a rung's chunks to be pooled."""
    return {"engine": repo_path(rung["engine"]), "protocol": rung.get("protocol", "uci"),
            "options": rung.get("options", {}), "betacut_options": cfg.get("betacut_options", {}),
            "betacut_tc": scaled_tc(rung["betacut_tc"], scale),
            "opponent_tc": scaled_tc(rung["opponent_tc"], scale),
            "pairs": pairs, "openings": os.path.basename(cfg["openings"]),
            "book_seed": cfg["book_seed"]}


def load_results(path: str) -> List[Dict[str, Any]]:
    """The lines of a results file ([] when there is none)."""
    if not os.path.exists(path):
        return []
    records, seen = [], set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                key = (record["build"], record["rung"], record["chunk"])
            except (json.JSONDecodeError, KeyError, TypeError) as err:
                raise RefereeError(f"{path}:{number}: not a results line: {err}") from err
            if key in seen:  # two machines played the same chunk: the first one counts
                print(f"{path}:{number}: {key} again, left out", file=sys.stderr)
                continue
            seen.add(key)
            records.append(record)
    return records


def check_fits(records: List[Dict], builds: List[Build], conds: Dict[str, Dict], path: str):
    """Refuses to add to a file whose earlier chunks were played under other conditions or by
    another commit under the same build name."""
    commits = {b.name: b.commit for b in builds}
    for r in records:
        if r["build"] in commits and r["commit"] != commits[r["build"]]:
            raise RefereeError(f"{path}: build {r['build']} was commit {r['commit']} there, "
                               f"{commits[r['build']]} now; use another --run or build name")
        if r["rung"] in conds and r["conditions"] != conds[r["rung"]]:
            raise RefereeError(f"{path}: rung {r['rung']} was played under other conditions "
                               f"({r['conditions']}); rename the rung or use another --run")


def retired_rungs(cfg: Dict[str, Any]) -> set:
    """Names of the rungs marked `retired` (moved): neither played nor reported by default."""
    return {r["name"] for r in cfg["rung"] if r.get("retired")}


def only_rungs(records: List[Dict], names: List[str], retired: set) -> List[Dict]:
    """The records of the rungs named; when none is, of every rung but the retired ones."""
    if not names:
        return [r for r in records if r["rung"] not in retired]
    return [r for r in records if r["rung"] in names]


def check_reported_rungs(records: List[Dict], names: List[str], path: str):
    """Refuses a --report of a rung the results file holds nothing of."""
    unknown = sorted(set(names) - {r["rung"] for r in records})
    if unknown:
        raise RefereeError(f"--rung: {path} holds no results of {unknown}")


def book_lines(path: str) -> List[str]:
    """The book's positions, one a line, without blank lines and comments."""
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def chunk_openings(lines: List[str], seed: int, chunk: int, pairs: int) -> List[str]:
    """Chunk k's openings: the next `pairs` of the book in its seeded shuffle."""
    order = list(range(len(lines)))
    random.Random(seed).shuffle(order)
    return [lines[order[(chunk * pairs + j) % len(order)]] for j in range(pairs)]


def pair_points(pgn: str, build: str, pairs: int) -> List[Optional[int]]:
    """The build's half-points (0..4) in each opening slot of a chunk, from match.py's PGN
    (the `Opening` tag is FILE:LINE of the chunk's openings file); None for a slot without
    both games."""
    tag = re.compile(r'^\[(\w+) "(.*)"\]')
    games, tags = [], {}
    with open(pgn, encoding="utf-8", errors="replace") as f:
        for line in f:
            found = tag.match(line)
            if found:
                if found[1] == "Event" and tags:
                    games.append(tags)
                    tags = {}
                tags[found[1]] = found[2]
    if tags:
        games.append(tags)
    halves: List[List[int]] = [[] for _ in range(pairs)]
    for g in games:
        white = {"1-0": 2, "0-1": 0, "1/2-1/2": 1}.get(g.get("Result", "*"))
        slot = int(g.get("Opening", ":0").rpartition(":")[2]) - 1
        if white is None or not 0 <= slot < pairs or build not in (g.get("White"), g.get("Black")):
            continue
        halves[slot].append(white if g.get("White") == build else 2 - white)
    return [sum(h) if len(h) == 2 else None for h in halves]


def play_chunk(args, cfg, rung, build: Build, chunk: int, conds: Dict, run: str,
               openings_file: str) -> Optional[Dict[str, Any]]:
    """Plays one (build, rung, chunk) with match.py; its results line, None when it failed."""
    opp = opponent_name(rung)
    engine = conds["engine"]
    pairs = conds["pairs"]
    seed = cfg["book_seed"] * 1000 + chunk
    outdir = os.path.join(args.out, run, rung["name"])
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.join(outdir, f"{build.name}-c{chunk}")
    command = [args.python, os.path.join(args.tools, "match.py"),
               "--engine", f"{build.name}={build.path}:uci",
               "--engine", f"{opp}={engine}:{conds['protocol']}"]
    for key, value in conds["betacut_options"].items():
        command += ["--option", f"{build.name}:{key}={value}"]
    for key, value in conds["options"].items():
        command += ["--option", f"{opp}:{key}={value}"]
    command += ["--tc", conds["betacut_tc"], "--tc-for", f"{opp}={conds['opponent_tc']}",
                "--games", str(2 * pairs), "--openings", openings_file, "--seed", str(seed),
                "--concurrency", str(args.concurrency), "--event", f"referee {run}",
                "--pgn", stem + ".pgn", "--json", stem + ".json"]
    print(f"chunk {chunk}, {rung['name']}: {build.name} at {conds['betacut_tc']} against "
          f"{opp} at {conds['opponent_tc']}, {2 * pairs} games", flush=True)
    if args.dry_run:
        print("  " + " ".join(command))
        return None
    with open(stem + ".log", "w", encoding="utf-8") as log:
        match = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            returncode = match.wait()
        except KeyboardInterrupt:
            match.send_signal(signal.SIGINT)  # match.py ends its engines and its games
            try:
                match.wait(timeout=30)
            except subprocess.TimeoutExpired:
                match.kill()
                match.wait()
            raise
    if returncode != 0:
        print(f"  match.py exited {returncode}; see {stem}.log", file=sys.stderr)
        return None
    with open(stem + ".json", encoding="utf-8") as f:
        summary = json.load(f)
    if summary["games_finished"] != 2 * pairs:
        print(f"  only {summary['games_finished']} games finished; see {stem}.log",
              file=sys.stderr)
        return None
    ids = {}
    with open(stem + ".log", encoding="utf-8", errors="replace") as f:
        for line in f:
            found = ID_LINE.match(line)
            if found:
                ids[found[1]] = found[2]
    pairing = summary["pairings"][opp]
    points = pair_points(stem + ".pgn", build.name, pairs)
    bugs = summary["bugs"]
    record = {
        "run": run, "build": build.name, "commit": build.commit,
        "commit_source": build.commit_source, "rung": rung["name"], "chunk": chunk,
        "seed": seed, "w": pairing["w"], "d": pairing["d"], "l": pairing["l"],
        "penta": pairing.get("penta", [0] * 5), "pair_points": points,
        "faults": {"betacut": {k: bugs[build.name].get(k, 0) for k in FAULTS},
                   "opponent": {k: bugs[opp].get(k, 0) for k in FAULTS}},
        "betacut": {"id": ids.get(build.name, "?"), "path": build.path,
                    "sha256": sha256_of(build.path)},
        "opponent": {"id": ids.get(opp, "?"), "path": engine, "sha256": sha256_of(engine)},
        "conditions": conds, "elapsed_s": summary["elapsed_s"],
        "concurrency": args.concurrency, "referee_commit": git(["rev-parse", "--short=7",
                                                                "HEAD"], ROOT) or "unknown",
        "cpu": cpu_model(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    print(f"  {build.name}: +{record['w']} ={record['d']} -{record['l']}, pairs "
          f"{record['penta']}, {summary['elapsed_s']:.0f} s", flush=True)
    return record


def append_record(path: str, record: Dict[str, Any]) -> None:
    """Appends one line and forces it to disk."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def fmt_elo(stats: Dict[str, float]) -> str:
    """+12.3 +/- 45.6, or the infinite cases."""
    if not stats:
        return "n/a"
    elo, err = stats["elo"], stats["error95"]
    text = f"{elo:+.1f}" if abs(elo) != float("inf") else ("+inf" if elo > 0 else "-inf")
    return text + (f" +/- {err:.1f}" if err != float("inf") else " +/- inf")


def fmt_diff(diff: Optional[Tuple[float, float]]) -> str:
    """+12.3 +/- 45.6, or n/a."""
    return "n/a" if diff is None else f"{diff[0]:+.1f} +/- {diff[1]:.1f}"


def faults_text(records: List[Dict], side: str) -> str:
    """The non-zero fault counts of one side, or 0."""
    total = {k: sum(r["faults"][side].get(k, 0) for r in records) for k in FAULTS}
    return ", ".join(f"{k} {v}" for k, v in total.items() if v) or "0"


def report(records: List[Dict], base: Optional[str]) -> str:
    """The tables: each build per rung and pooled, then the differences to the base build."""
    if not records:
        return "no results yet"
    builds = list(dict.fromkeys(r["build"] for r in records))
    rungs = list(dict.fromkeys(r["rung"] for r in records))
    base = base or builds[0]
    if base not in builds:
        raise RefereeError(f"--base {base}: not a build of the run ({', '.join(builds)})")
    lines = [f"Run {records[0]['run']}: builds "
             + ", ".join(f"{b} ({next(r['commit'] for r in records if r['build'] == b)})"
                         for b in builds)]
    for rung in rungs:
        rec = [r for r in records if r["rung"] == rung]
        c = rec[0]["conditions"]
        opp_ids = sorted({r["opponent"]["id"] for r in rec})
        lines.append(f"  {rung}: {' / '.join(opp_ids)} at {c['opponent_tc']}, Betacut at "
                     f"{c['betacut_tc']}, {c['pairs']} pairs a chunk")
    lines += ["", "| rung | build | chunks | games | W-D-L | score | pairs (0, 0.5, 1, 1.5, 2) "
              "| Elo (pentanomial, 95 %) | faults Betacut | faults opponent |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for rung in rungs + [None]:
        for build in builds:
            rec = [r for r in records
                   if r["build"] == build and (rung is None or r["rung"] == rung)]
            if not rec:
                continue
            w, d, l = (sum(r[k] for r in rec) for k in "wdl")
            counts = rs.pool(r["penta"] for r in rec)
            stats = rs.penta_elo(counts)
            n = w + d + l
            lines.append(f"| {rung or '**pooled**'} | {build} | {len(rec)} | {n} | {w}-{d}-{l} | "
                         f"{100 * (w + d / 2) / n:.1f} % | {counts} | {fmt_elo(stats)} | "
                         f"{faults_text(rec, 'betacut')} | {faults_text(rec, 'opponent')} |")
    others = [b for b in builds if b != base]
    if others:
        lines += ["", f"Difference to {base} (Elo of the build minus Elo of {base}; paired: "
                  "the same opening, rung, chunk and colours for both, delta method; "
                  "independent: the two errors in quadrature)", "",
                  "| build | rung | matched pairs | paired | independent |",
                  "| --- | --- | --- | --- | --- |"]
        for build in others:
            for rung in rungs + [None]:
                def pick(name):
                    return {(r["rung"], r["chunk"]): r for r in records
                            if r["build"] == name and (rung is None or r["rung"] == rung)}
                mine, theirs = pick(build), pick(base)
                matched = []
                for key in sorted(set(mine) & set(theirs)):
                    for x, y in zip(mine[key]["pair_points"], theirs[key]["pair_points"]):
                        if x is not None and y is not None:
                            matched.append((x, y))
                independent = rs.diff_independent(rs.pool(r["penta"] for r in mine.values()),
                                                  rs.pool(r["penta"] for r in theirs.values()))
                lines.append(f"| {build} | {rung or '**pooled**'} | {len(matched)} | "
                             f"{fmt_diff(rs.diff_paired(matched))} | {fmt_diff(independent)} |")
    for rung in rungs:
        rec = [r for r in records if r["build"] == base and r["rung"] == rung]
        games = sum(r["w"] + r["d"] + r["l"] for r in rec)
        score = sum(r["w"] + r["d"] / 2 for r in rec) / games if games else 0.5
        if games >= 100 and not 0.35 <= score <= 0.65:
            lines.append(f"\n{base} scores {100 * score:.1f} % on {rung}: outside 35-65 %, "
                         "time to move the rung (a new name with a new clock)")
    wall = sum(r["elapsed_s"] for r in records)
    games = sum(r["w"] + r["d"] + r["l"] for r in records)
    lines += ["", f"{games} games in {wall / 3600:.2f} h of match time ({wall / games:.1f} s a "
              f"game, concurrency {records[-1].get('concurrency', '?')}); machines: "
              + "; ".join(sorted({r["cpu"] for r in records}))]
    return "\n".join(lines)


def remaining_seconds(records: List[Dict], todo: List[Tuple]) -> Optional[float]:
    """The time the rest will take at the mean time of each rung's chunks so far."""
    total = 0.0
    for _, rung, _ in todo:
        times = [r["elapsed_s"] for r in records if r["rung"] == rung["name"]]
        if not times:
            return None
        total += sum(times) / len(times)
    return total


def chunk_range(text: str) -> range:
    """N (chunks 0..N-1) or A-B (chunks A..B)."""
    try:
        if "-" in text:
            first, last = (int(x) for x in text.split("-", 1))
            return range(first, last + 1)
        return range(int(text))
    except ValueError as err:
        raise RefereeError(f"--chunks {text!r}: want N or A-B") from err


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="append", default=[], metavar="NAME=PATH[@COMMIT]")
    ap.add_argument("--chunks", default="1", help="N (chunks 0..N-1) or A-B (default 1)")
    ap.add_argument("--run", help="the run's name, or a results file with --report")
    ap.add_argument("--rungs", default=os.path.join(HERE, "referee-rungs.toml"))
    ap.add_argument("--rung", action="append", default=[], metavar="NAME",
                    help="play and report only these rungs (default: all but the retired)")
    ap.add_argument("--pairs", type=int, help="game pairs a rung in a chunk (default: the file's)")
    ap.add_argument("--tc-scale", type=float, default=1.0,
                    help="scale both clocks (a quick check; results go under other conditions)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--base", help="the build the others are compared with (default the first)")
    ap.add_argument("--report", action="store_true", help="only read the results and report")
    ap.add_argument("--dry-run", action="store_true", help="print the match.py commands only")
    ap.add_argument("--results", default=os.path.join(ROOT, "lab", "tuning", "referee"))
    ap.add_argument("--out", default=os.path.expanduser("~/betacut-referee"))
    ap.add_argument("--tools", default=os.path.join(
        os.environ.get("BETACUT_SHARED") or os.path.join(ROOT, "..", "shared"), "tools"))
    ap.add_argument("--python", default=os.path.expanduser("~/.venv-chess-tools/bin/python"))
    args = ap.parse_args()
    try:
        return run(ap, args)
    except RefereeError as err:
        print(f"referee.py: {err}", file=sys.stderr)
        return 2


def run(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Plays the missing chunks (unless --report) and prints the report."""
    builds = [parse_build(text) for text in args.build]
    if args.report and args.run and args.run.endswith(".jsonl"):
        path = args.run
    else:
        if not args.run and not builds:
            ap.error("give --build NAME=PATH (one or more) or --run NAME")
        if not args.run and any(b.commit == "unknown" for b in builds):
            raise RefereeError("a build's commit is unknown: give NAME=PATH@COMMIT or --run")
        name = args.run or "_".join(f"{b.name}-{b.commit}" for b in builds)
        path = os.path.join(args.results, name + ".jsonl")
    if args.report:
        records = load_results(path)
        check_reported_rungs(records, args.rung, path)
        retired = retired_rungs(load_rungs(args.rungs))
        print(report(only_rungs(records, args.rung, retired), args.base))
        return 0
    if not builds:
        ap.error("give the builds to play (--build NAME=PATH)")
    if len({b.name for b in builds}) != len(builds):
        raise RefereeError("two builds with one name")
    for b in builds:
        if not os.access(b.path, os.X_OK):
            raise RefereeError(f"build {b.name}: {b.path} is not an executable")
    cfg = load_rungs(args.rungs)
    retired = retired_rungs(cfg)
    rungs = [r for r in cfg["rung"]
             if (r["name"] in args.rung if args.rung else r["name"] not in retired)]
    if set(args.rung) - {r["name"] for r in rungs}:
        unknown = sorted(set(args.rung) - {r["name"] for r in rungs})
        raise RefereeError(f"--rung: unknown {unknown}")
    pairs = args.pairs or cfg["pairs_per_chunk"]
    conds = {r["name"]: conditions(cfg, r, pairs, args.tc_scale) for r in rungs}
    for r in rungs:
        if opponent_name(r) in {b.name for b in builds}:
            raise RefereeError(f"build name {opponent_name(r)} is the name of an opponent")
        if not os.access(conds[r["name"]]["engine"], os.X_OK):
            raise RefereeError(f"rung {r['name']}: {conds[r['name']]['engine']} is not an "
                               "executable (../shared/tools/setup.sh installs the engines)")
    records = load_results(path)
    check_fits(records, builds, conds, path)
    done = {(r["build"], r["rung"], r["chunk"]) for r in records}
    run_name = os.path.basename(path)[:-len(".jsonl")]
    lines = book_lines(repo_path(cfg["openings"]))
    todo = [(k, r, b) for k in chunk_range(args.chunks) for r in rungs for b in builds
            if (b.name, r["name"], k) not in done]
    print(f"run {run_name}: {len(todo)} (build, rung, chunk) to play, "
          f"{len(done)} in {path}", flush=True)
    status = 0

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        with contextlib.nullcontext() if args.dry_run or not todo else datagen_paused():
            for index, (k, rung, build) in enumerate(todo):
                chunk_file = os.path.join(args.out, run_name, "openings", f"chunk-{k}.epd")
                os.makedirs(os.path.dirname(chunk_file), exist_ok=True)
                with open(chunk_file, "w", encoding="utf-8") as f:
                    f.write("\n".join(chunk_openings(lines, cfg["book_seed"], k, pairs)) + "\n")
                record = play_chunk(args, cfg, rung, build, k, conds[rung["name"]], run_name,
                                    chunk_file)
                if record is None and not args.dry_run:
                    status = 1
                    break
                if record is not None:
                    append_record(path, record)
                    records.append(record)
                    left = remaining_seconds(records, todo[index + 1:])
                    print(f"  {index + 1} of {len(todo)} done" + (
                        f", about {left / 60:.0f} min left" if left is not None else ""),
                        flush=True)
    except KeyboardInterrupt:
        print("interrupted: the chunk that was playing is not recorded", file=sys.stderr)
        status = 130
    if not args.dry_run:
        print()
        print(report(only_rungs(records, args.rung, retired), args.base))
    return status


if __name__ == "__main__":
    sys.exit(main())
