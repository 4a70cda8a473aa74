"""Data generation waits while timed games are played: the helper lab/scripts/spsa.py and
lab/scripts/time_odds.py share (lab/scripts/sprt.sh does the same in shell)."""
import contextlib
import os
import signal
import subprocess


def datagen_pids():
    """Every running `<binary> datagen ...` (as lab/scripts/sprt.sh finds them)."""
    found = subprocess.run(["pgrep", "-f", "^[^ ]+ datagen "], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


@contextlib.contextmanager
def datagen_paused():
    """Stops (SIGSTOP) every running data generation for the block and continues (SIGCONT)
    it when the block ends, however it ends."""
    paused = datagen_pids()
    for pid in paused:
        os.kill(pid, signal.SIGSTOP)
    if paused:
        print(f"paused data generation (pids {' '.join(map(str, paused))})", flush=True)
    try:
        yield paused
    finally:
        for pid in paused:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
