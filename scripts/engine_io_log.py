#!/usr/bin/env python3
"""Log every line between a chess GUI and an engine.

    engine_io_log.py LOG ENGINE [ARGS...]

Runs ENGINE with ARGS, passes standard input and output through line by line, and appends
each line to LOG as `HH:MM:SS.mmm [PID] < line` (GUI to engine) or `> line` (engine to GUI),
UTC, PID being this logger's, so that the engines of one GUI can share a log. `#` lines note
the start, signals, the GUI closing the pipe and the engine's exit status, which is also this
program's. For GUIs that cannot set Betacut's `Log File` option (GNOME Chess) or that start
the engine before any option (Scid's serious game). Point the GUI at a two-line wrapper:

    #!/bin/sh
    exec python3 /path/to/engine_io_log.py /tmp/gui.log /path/to/betacut "$@"
"""
import os
import signal
import subprocess
import sys
import threading
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    log = open(sys.argv[1], "a", buffering=1)
    lock = threading.Lock()

    def note(direction, line):
        now = time.time()
        stamp = time.strftime("%H:%M:%S", time.gmtime(now))
        with lock:
            log.write("%s.%03d [%d] %s %s\n" % (stamp, int(now * 1000) % 1000, os.getpid(),
                                                direction, line.rstrip("\r\n")))

    note("#", "start " + " ".join(sys.argv[2:]))
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              bufsize=0)

    def forward(signum, _frame):
        note("#", "signal %d" % signum)
        engine.send_signal(signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, forward)

    def gui_to_engine():
        try:
            for line in sys.stdin.buffer:
                note("<", line.decode(errors="replace"))
                engine.stdin.write(line)
                engine.stdin.flush()
        except OSError:
            pass
        note("#", "GUI closed its pipe")
        try:
            engine.stdin.close()
        except OSError:
            pass

    threading.Thread(target=gui_to_engine, daemon=True).start()
    for line in engine.stdout:
        note(">", line.decode(errors="replace"))
        try:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
        except OSError:
            break
    status = engine.wait()
    note("#", "engine exited %d" % status)
    log.close()
    os._exit(status)  # the reading thread may still be blocked on standard input


if __name__ == "__main__":
    main()
