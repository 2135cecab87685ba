"""scripts/torch_wheel.py: the install hands uv the torch CPU wheel pip's find-links folder
holds, and nothing when there is none (then pip installs the pinned torch first)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "torch_wheel.py"
TAG = f"cp{sys.version_info.major}{sys.version_info.minor}"


def _printed(find_links: str) -> str:
    env = {**os.environ, "PIP_FIND_LINKS": find_links}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                         env=env, check=True, timeout=60)
    return run.stdout.strip()


def test_the_cpu_wheel_for_this_python_and_machine_is_found(tmp_path: Path) -> None:
    empty, folder = tmp_path / "empty", tmp_path / "wheels"
    empty.mkdir()
    folder.mkdir()
    machine = platform.machine()
    wanted = folder / f"torch-2.13.0+cpu-{TAG}-{TAG}-manylinux_2_28_{machine}.whl"
    for name in (f"torch-2.13.0-{TAG}-{TAG}-manylinux_2_28_{machine}.whl",  # a CUDA build
                 f"torch-2.14.1+cpu-{TAG}-{TAG}-manylinux_2_28_{machine}.whl",  # another version
                 f"torch-2.13.0+cpu-cp39-cp39-manylinux_2_28_{machine}.whl",  # another Python
                 wanted.name):
        (folder / name).write_bytes(b"")
    assert _printed(f"{empty} file://{folder}") == str(wanted)


def test_nothing_is_printed_without_such_a_wheel(tmp_path: Path) -> None:
    assert _printed(str(tmp_path / "missing")) == ""
    assert _printed(str(tmp_path)) == ""
