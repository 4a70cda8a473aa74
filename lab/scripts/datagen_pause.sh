# Sourced by the shell scripts that play timed games (lab/scripts/sprt.sh, lab/scripts/gauntlet.sh);
# lab/scripts/datagen_pause.py does the same for the Python ones.
#
#   pause_datagen_until_exit CALLER
#
# Stops (SIGSTOP) every running `<binary> datagen ...` and continues it (SIGCONT) when the
# calling script exits, however it exits, so the timed games have the cores to themselves.
# It sets the caller's EXIT trap.
pause_datagen_until_exit() {
    datagen_paused=$(pgrep -f '^[^ ]+ datagen ' || true)
    if [ -n "$datagen_paused" ]; then
        # shellcheck disable=SC2086
        kill -STOP $datagen_paused
        echo "$1: paused data generation (pids $(echo $datagen_paused))"
    fi
    # shellcheck disable=SC2086
    trap '[ -n "$datagen_paused" ] && kill -CONT $datagen_paused 2>/dev/null; true' EXIT
}
