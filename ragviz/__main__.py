"""``python -m ragviz``: the ``ragviz`` command run by the console script's own entry, for a
Python whose scripts folder is not on PATH (a notebook's kernel, a venv not activated)."""

from __future__ import annotations

import sys

from ragviz.cli.command import main

if __name__ == "__main__":
    sys.exit(main())
