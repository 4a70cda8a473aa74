"""What both protocols' drivers share: starting and restarting the engine, sending (with the
stream and trace files), reading, the main loop with its sync probes, failures, notes,
latencies and the summary. A protocol's driver adds its model, probe, generator (`step`) and
handshake."""

import collections
import os
import random
import re
import statistics
import subprocess
import sys
import time

from .engine import EngineDied, EngineProcess
from .text import engine_view, shown

def mem_mb(field):
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(p / 100 * (len(ordered) - 1)))))
    return ordered[k]


class Driver:
    PROTOCOL = "?"

    def __init__(self, args, tmp, fixtures):
        self.args = args
        self.tmp = tmp
        self.fixtures = fixtures
        self.rng = random.Random(f"{args.seed}/{self.PROTOCOL}")
        self.engine = None
        self.history = collections.deque(maxlen=20)
        self.sent_log = collections.deque(maxlen=20000)  # (index, text) for contexts
        self.last_hash = None  # (value text, line index) of the last Hash / memory line
        self.hash_requests = collections.deque(maxlen=1000)  # (line index, MB)
        self.lines_sent = 0  # generated lines (the --lines budget)
        self.total_sent = 0  # everything, probes and set-up included
        self.failures = []
        self.fail_counts = collections.Counter()
        self.fail_by_table = collections.Counter()
        self.notes = collections.Counter()
        self.note_examples = {}
        self.latency = collections.defaultdict(list)
        self.probes = 0
        self.output_lines = 0
        self.last_output_t = 0.0
        self.restarts = 0
        self.peak_rss = 0
        self.started = time.monotonic()
        self.next_progress = 1000
        self.lines_since_probe = 0
        self.next_probe = self.draw_probe_gap()
        self.trace = None
        if args.trace:
            path = args.trace
            if args.protocol == "both":
                root, ext = os.path.splitext(path)
                path = f"{root}.{self.PROTOCOL}{ext}"
            self.trace = open(path, "w", encoding="utf-8")
        self.stream = None
        if args.save_stream:
            path = args.save_stream
            if args.protocol == "both":
                root, ext = os.path.splitext(path)
                path = f"{root}.{self.PROTOCOL}{ext}"
            self.stream = open(path, "w", encoding="utf-8")
        mem_total = mem_mb("MemTotal") or 4096
        self.mem_available = mem_mb("MemAvailable") or mem_total // 2
        self.max_hash = args.max_hash or 2 * mem_total

    # ----- process -----

    def start_engine(self):
        if self.engine is not None:
            self.note_rss()
            self.engine.kill()
        self.engine = EngineProcess(self.args.binary, self.tmp)
        self.reset_state()
        self.handshake()

    def note_rss(self):
        if self.engine is not None:
            rss = self.engine.peak_rss_mb()
            if rss:
                self.peak_rss = max(self.peak_rss, rss)

    def restart(self, why):
        self.restarts += 1
        if self.restarts > 50:
            raise SystemExit(f"[{self.PROTOCOL}] more than 50 restarts: giving up")
        self.log(f"restarting the engine ({why})")
        self.start_engine()

    def reset_state(self):
        raise NotImplementedError

    def handshake(self):
        raise NotImplementedError

    def log(self, text):
        print(f"[{self.PROTOCOL}] {text}", file=sys.stderr, flush=True)

    # ----- sending -----

    def send(self, text, count=True, trusted=True, record=True):
        """Sends one line (str or bytes, without the newline)."""
        raw = text.encode("utf-8") if isinstance(text, str) else text
        assert b"\n" not in raw
        view = engine_view(raw)
        self.total_sent += 1
        if count:
            self.lines_sent += 1
            self.lines_since_probe += 1
        if record:
            entry = f"{self.total_sent:>7} > {shown(raw)}"
            self.history.append(entry)
            self.sent_log.append((self.total_sent, entry))
        if self.stream:
            self.stream.write(f"L {raw.hex()}\n")
        t = time.monotonic()
        self.before_send(view, trusted, t)
        if not self.engine.write(raw + b"\n", self.args.hang_timeout):
            self.fail("hang", f"the engine took no input for {self.args.hang_timeout:.0f} s")
            raise EngineDied("stdin blocked")
        self.after_send(view, trusted, t)
        if self.trace:
            self.trace.write(f"{t - self.started:10.3f} {self.total_sent:>7} > {shown(raw)}   "
                             f"{self.model_state()}\n")
        return view

    def model_state(self):
        return ""

    def before_send(self, view, trusted, t):
        pass

    def after_send(self, view, trusted, t):
        pass

    def sleep(self, seconds):
        if self.stream:
            self.stream.write(f"W {seconds:.3f}\n")
        self.pump(seconds)

    # ----- reading -----

    def pump(self, seconds=0.0):
        """Handles output for `seconds` (at least everything already there)."""
        deadline = time.monotonic() + seconds
        while True:
            item = self.engine.get(max(0.0, deadline - time.monotonic()))
            if item is None:
                break
            self.handle(item)
        self.check_panics()

    def handle(self, item):
        t, line = item
        if line is None:
            raise EngineDied("the engine's output ended")
        self.output_lines += 1
        self.last_output_t = t
        self.on_output(t, line)
        if self.trace and not line.startswith(("info depth", "info nodes")) and not re.match(
                r"\d+ -?\d+ \d+ \d+ ", line):
            self.trace.write(f"{t - self.started:10.3f}         < {line[:200]}   "
                             f"{self.model_state()}\n")

    def wait_until(self, done, timeout):
        """Handles output until done() is true; False on timeout."""
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            item = self.engine.get(min(left, 0.25))
            if item is not None:
                self.handle(item)
        return True

    def check_panics(self):
        while not self.engine.panics.empty():
            text = self.engine.panics.get()
            self.fail("panic", f"stderr: {text}")

    def on_output(self, t, line):
        raise NotImplementedError

    # ----- failures and measurements -----

    def context_before(self, index, n=20):
        """The n lines sent up to and including line `index`."""
        lines = [e for i, e in self.sent_log if i <= index]
        return lines[-n:]

    def fail(self, kind, message, context=True, at=None):
        """Records a failure; the context is the last 20 lines sent before it (or before line
        `at`, the line that should have been answered)."""
        self.fail_counts[kind] += 1
        self.fail_by_table[(self.table_class(), kind)] += 1
        if kind in ("probe-timeout", "hang", "slow-stop", "move-now-timeout") and self.last_hash:
            message += f" [last hash size asked for: {self.last_hash[0]} at line {self.last_hash[1]}]"
        if at is None:
            ctx = list(self.history)
        else:
            ctx = self.context_before(at)
        entry = {"kind": kind, "message": message, "at": self.total_sent if at is None else at,
                 "context": ctx if context else []}
        if len(self.failures) < self.args.max_reports or kind in ("crash", "hang", "panic"):
            self.failures.append(entry)
        if self.fail_counts[kind] <= 3 or self.args.verbose:
            self.log(f"FAILURE {kind}: {message} (after line {self.total_sent})")
            if context and (self.fail_counts[kind] <= 1 or self.args.verbose):
                for h in entry["context"]:
                    print(f"    {h}", file=sys.stderr)

    def hash_request(self, text):
        """Notes a line that asks for a table size (Hash / memory)."""
        self.last_hash = (text, self.total_sent)
        m = re.search(r"(\d+)\s*$", text)
        if m:
            self.hash_requests.append((self.total_sent, int(m.group(1))))

    def table_class(self):
        """Whether a table of 1 GiB or more was asked for in the last 300 lines (the engine's
        own size may differ: refused values keep the old one, huge ones are cut to half the
        available memory); failures are broken down by it in the summary."""
        recent = [mb for i, mb in self.hash_requests if i > self.total_sent - 300]
        if recent and max(recent) >= 1024:
            return "a table >= 1 GiB asked for in the last 300 lines"
        if recent:
            return "only tables < 1 GiB asked for in the last 300 lines"
        return "no table size asked for in the last 300 lines"

    def note(self, kind, example):
        self.notes[kind] += 1
        if kind not in self.note_examples:
            self.note_examples[kind] = example
        if self.args.verbose:
            self.log(f"note {kind}: {example}")

    def measure(self, what, seconds):
        self.latency[what].append(seconds * 1000)

    # ----- the main loop -----

    def draw_probe_gap(self):
        every = self.args.probe_every
        return self.rng.randint(1, 2 * every - 1)

    def run(self):
        self.start_engine()
        while self.lines_sent < self.args.lines:
            try:
                self.step()
                self.pump(0)
                if self.lines_since_probe >= self.next_probe:
                    self.probe()
            except EngineDied as died:
                self.on_died(str(died))
            self.progress()
        try:
            self.finish()
        except EngineDied as died:
            self.on_died(str(died), restart=False)
        self.note_rss()
        if self.engine is not None:
            self.engine.kill()
        if self.stream:
            self.stream.close()

    def on_died(self, why, restart=True):
        code = self.engine.proc.poll()
        if code is None:
            try:
                code = self.engine.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None:
            tail = " | ".join(list(self.engine.stderr_tail)[-6:])
            self.fail("crash", f"{why}; exit status {code}; stderr: {tail or '(empty)'}")
        if restart:
            self.restart(why)

    def progress(self):
        if self.lines_sent >= self.next_progress:
            self.next_progress += 1000
            probe = self.latency["probe"]
            stats = (f"probe p50 {percentile(probe, 50):.1f} ms max {max(probe):.1f} ms"
                     if probe else "no probes yet")
            failures = sum(self.fail_counts.values())
            self.log(f"{self.lines_sent}/{self.args.lines} lines, {self.probes} probes, {stats}, "
                     f"{failures} failures, {time.monotonic() - self.started:.0f} s")

    def probe_answered(self, t0, done, label):
        """Waits for a probe's answer; records latency and failures. Returns the time of the
        answer or raises EngineDied after a hang."""
        timeout = self.args.ping_timeout
        if self.wait_until(done, timeout):
            return True
        self.fail("probe-timeout", f"{label} not answered within {timeout:.1f} s")
        seen = self.output_lines
        if self.wait_until(done, self.args.hang_timeout - timeout):
            return True
        alive = self.output_lines - seen
        since = time.monotonic() - self.last_output_t
        how = (f"still writing ({alive} lines during the wait, the last {since:.1f} s ago): "
               f"slow rather than dead" if alive else "silent during the wait")
        self.fail("hang", f"{label} not answered within {self.args.hang_timeout:.0f} s, "
                          f"engine {how}; killed and restarted")
        raise EngineDied(f"{label} unanswered")

    def finish(self):
        raise NotImplementedError

    def quit(self):
        t0 = time.monotonic()
        self.send("quit", count=False)
        try:
            code = self.engine.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.fail("exit", "no exit within 5 s of quit")
            return
        self.measure("quit->exit", time.monotonic() - t0)
        if code != 0:
            self.fail("exit", f"exit status {code} after quit")

    # ----- report -----

    def summary(self):
        out = []
        p = self.PROTOCOL
        elapsed = time.monotonic() - self.started
        out.append(f"== {p}: {self.lines_sent} lines sent ({self.total_sent} with probes and "
                   f"set-up), {self.probes} probes, {self.restarts} restarts, {elapsed:.0f} s")
        for what, values in sorted(self.latency.items()):
            if values:
                out.append(f"   {what:<22} n={len(values):<6} median {statistics.median(values):8.1f}"
                           f" ms  p99 {percentile(values, 99):8.1f} ms  max {max(values):8.1f} ms")
        out.extend(self.extra_summary())
        if self.peak_rss:
            out.append(f"   engine peak RSS {self.peak_rss} MB")
        if self.fail_counts:
            kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.fail_counts.items()))
            out.append(f"   FAILURES: {kinds}")
            for cls in sorted({c for c, _ in self.fail_by_table}):
                kinds = ", ".join(f"{k} {n}" for (c, k), n in sorted(self.fail_by_table.items())
                                  if c == cls)
                out.append(f"     with {cls}: {kinds}")
        else:
            out.append("   failures: none")
        if self.notes:
            out.append("   notes (model disagreements, not failures): " + ", ".join(
                f"{k} {n}" for k, n in sorted(self.notes.items())))
            for k, example in sorted(self.note_examples.items()):
                out.append(f"     {k}: {example}")
        for f in self.failures:
            out.append(f"   -- {f['kind']} after line {f['at']}: {f['message']}")
            for h in f["context"]:
                out.append(f"        {h}")
        return "\n".join(out)

    def extra_summary(self):
        return []
