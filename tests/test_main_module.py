"""``python -m ragviz`` (issue 47) is the ``ragviz`` console script: the same entry, the
same usage and the same output, run in a subprocess as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("ragviz")  # the console script of this Python's env
CHUNK = ["chunk", str(ROOT / "sample_docs" / "residents_guide.txt"), "--chunker", "fixed",
         "--size", "300", "--json"]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's ragviz, both ways
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env,
                          cwd=ROOT, check=False)


def test_python_m_ragviz_help_prints_the_commands_usage() -> None:
    done = _run([sys.executable, "-m", "ragviz", "--help"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ragviz ")
    assert "chunk" in done.stdout and "eval" in done.stdout


def test_python_m_ragviz_chunk_equals_the_console_script() -> None:
    module = _run([sys.executable, "-m", "ragviz", *CHUNK])
    script = _run([str(SCRIPT), *CHUNK])
    assert module.returncode == script.returncode == 0, module.stderr + script.stderr
    assert module.stdout == script.stdout
    assert '"start"' in module.stdout  # the chunks with their offsets, not an empty run
