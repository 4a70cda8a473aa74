"""python-chess, optional: `chess` is the module, or None when it is not installed or the
command line has --no-chess (the entry point re-executes itself in the venv that has it)."""

import sys

chess = None
if "--no-chess" not in sys.argv:
    try:
        import chess  # noqa: F811
    except ImportError:
        chess = None


