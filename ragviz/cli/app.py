"""``ragviz app``: start the explorer from wherever ragviz is installed.

It becomes ``streamlit run`` on the entry file inside the installed ``ragviz_app`` package (the
same page as the repository's ``streamlit_app.py``), in this Python, and passes every other
argument (``--server.port 8600``, ``--server.headless true`` …) to Streamlit unchanged. This
module only starts a process: the core still never imports Streamlit.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ragviz.i18n import t

ENTRY_FILE = "entry.py"
DESCRIPTION = "cli.help.command.app_description"  # its catalog key


def entry_path() -> Path:
    """The installed app's entry file (``ragviz_app/entry.py``)."""
    spec = importlib.util.find_spec("ragviz_app")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the ragviz_app package is not installed")
    return Path(spec.origin).parent / ENTRY_FILE


def streamlit_command(streamlit_args: Sequence[str]) -> list[str]:
    """The command line that starts the explorer with this Python's Streamlit."""
    return [sys.executable, "-m", "streamlit", "run", str(entry_path()), *streamlit_args]


def app_parser(prog: str = "ragviz app") -> argparse.ArgumentParser:
    # ``ragviz app``'s other arguments are Streamlit's, ``--lang`` included: said in English
    return argparse.ArgumentParser(prog=prog, description=t(DESCRIPTION))


def run_app(argv: Sequence[str]) -> NoReturn:
    """Parse ``--help`` here, then become ``streamlit run`` with the rest: the process is
    Streamlit itself, so Ctrl-C, a service manager's stop signal and the exit code need no
    forwarding."""
    _, streamlit_args = app_parser().parse_known_args(list(argv))
    command = streamlit_command(streamlit_args)
    os.execv(command[0], command)
