"""The engine process: its stdin written without blocking the fuzz, its stdout and stderr read
by threads (lines with their arrival time, panics), its peak memory, killing it."""

import collections
import os
import queue
import select
import subprocess
import threading
import time

class EngineDied(Exception):
    pass


class EngineProcess:
    def __init__(self, binary, cwd):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self.lines = queue.Queue()
        self.stderr_tail = collections.deque(maxlen=40)
        self.panics = queue.Queue()
        self.fd = self.proc.stdin.fileno()
        os.set_blocking(self.fd, False)
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put((time.monotonic(), raw.rstrip(b"\n").decode("utf-8", "replace")))
        self.lines.put((time.monotonic(), None))

    def _read_err(self):
        for raw in iter(self.proc.stderr.readline, b""):
            text = raw.rstrip(b"\n").decode("utf-8", "replace")
            self.stderr_tail.append(text)
            if "panicked" in text:
                self.panics.put(text)

    def write(self, data, timeout):
        """Writes all of data; raises EngineDied on a broken pipe; returns False if the engine
        did not take it within timeout seconds."""
        view = memoryview(data)
        deadline = time.monotonic() + timeout
        while view:
            try:
                n = os.write(self.fd, view)
                view = view[n:]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                select.select([], [self.fd], [], min(left, 0.5))
            except (BrokenPipeError, OSError) as err:
                raise EngineDied(f"writing to the engine failed: {err}") from err
        return True

    def get(self, timeout):
        try:
            if timeout <= 0:
                return self.lines.get_nowait()
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def peak_rss_mb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) // 1024
        except OSError:
            pass
        return None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
