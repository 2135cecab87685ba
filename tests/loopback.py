"""Start one of the tests' loopback servers (chat, question, OpenAI embeddings) as a
process that prints ``PORT n`` when it listens, and stop it afterwards."""

from __future__ import annotations

import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


def serve_script(script: Path, *args: str, wait_s: float = 60) -> Iterator[str]:
    """Run ``script`` on a free port of 127.0.0.1, yield its ``/v1`` base URL, stop it."""
    proc = subprocess.Popen([sys.executable, str(script), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], wait_s)
        line = proc.stdout.readline() if ready else ""
        if not line.startswith("PORT "):
            pytest.fail(f"{script.name} did not start (said {line!r})")
        yield f"http://127.0.0.1:{int(line.split()[1])}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
