#!/usr/bin/env python3
"""Writes an SPSA run's values into the search's defaults, or checks that they are there.

The tuned build is rebuilt from the repository alone: the run's state file
(lab/tuning/spsa-state.json, committed as the run goes) holds theta, and this script rounds each
value to the nearest integer and writes it as the default of the tunable of the same name in
src/search/params.rs of the current directory (ranges and steps are left alone).

    lab/scripts/spsa_apply.py lab/tuning/spsa-state.json            # rewrite params.rs
    lab/scripts/spsa_apply.py lab/tuning/spsa-state.json --check    # exit 1 if params.rs differs
    lab/scripts/spsa_apply.py lab/tuning/spsa-state.json --dry-run  # print old -> new, write nothing

A value outside its tunable's range is an error (the tuner clamps, so it means a stale state
file or a changed table).
"""
import argparse
import json
import re
import sys
from pathlib import Path

# The table of the checkout the command runs in (so a worktree's copy is the one rewritten).
PARAMS = Path("src") / "search" / "params.rs"
# `rfp_margin: "rfp_margin" = 75, 30..=160, step 8;`
LINE = re.compile(r'^(\s*\w+: "(?P<name>\w+)" = )(?P<value>[0-9_]+)'
                  r'(, (?P<min>[0-9_]+)\.\.=(?P<max>[0-9_]+), step [0-9_]+;)$')


def rust_int(value):
    """Formats like the table does: thousands separated by '_' from 1_000 up."""
    return f"{value:_}" if value >= 1000 else str(value)


def apply(state, text):
    """Returns (new text, [(name, old, new)]) with theta's rounded values as defaults."""
    theta = state["theta"]
    seen, changes, out = set(), [], []
    for line in text.splitlines(keepends=True):
        m = LINE.match(line.rstrip("\n"))
        if m and m["name"] in theta:
            name = m["name"]
            lo, hi = int(m["min"].replace("_", "")), int(m["max"].replace("_", ""))
            old = int(m["value"].replace("_", ""))
            new = int(round(theta[name]))
            if not lo <= new <= hi:
                raise ValueError(f"{name} = {new} is outside its range {lo}..={hi}")
            seen.add(name)
            changes.append((name, old, new))
            line = m.group(1) + rust_int(new) + m.group(4) + "\n"
        out.append(line)
    missing = sorted(set(theta) - seen)
    if missing:
        raise ValueError(f"not in {PARAMS.name}: {', '.join(missing)}")
    return "".join(out), changes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("state", type=Path, help="an SPSA state file (lab/scripts/spsa.py --state)")
    ap.add_argument("--params", type=Path, default=PARAMS, help="the table to rewrite")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 unless the table has the values")
    mode.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    args = ap.parse_args()
    try:
        state = json.loads(args.state.read_text())
        text = args.params.read_text()
        new_text, changes = apply(state, text)
    except (OSError, ValueError, KeyError) as err:
        sys.exit(f"spsa_apply: {err}")
    print(f"{args.state}: iteration {state.get('k')} of {state.get('iterations')}")
    for name, old, new in changes:
        print(f"  {name:24} {old:6} -> {new:6}" + ("" if old != new else "   (same)"))
    if args.check:
        if new_text != text:
            sys.exit(f"{args.params} does not hold these values")
        print(f"{args.params} holds these values")
    elif not args.dry_run:
        args.params.write_text(new_text)
        print(f"wrote {args.params}")


if __name__ == "__main__":
    main()
