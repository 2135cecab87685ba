"""Print the path of the torch CPU wheel that pip's find-links folders hold for this Python
and machine (the pinned version), or nothing.

`make` hands that file to uv, which installs it with everything else in one parallel step;
uv does not read pip's configuration, so without the path it would take a multi-GB CUDA
build from the index. When nothing is printed, pip installs the pinned torch first.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

VERSION = "2.13.0"


def find_links() -> list[str]:
    """pip's find-links locations: PIP_FIND_LINKS, else pip's own configuration."""
    raw = os.environ.get("PIP_FIND_LINKS", "")
    if not raw.strip():
        run = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.find-links"],
                             capture_output=True, text=True, check=False)
        raw = run.stdout if run.returncode == 0 else ""
    return raw.split()


def cpu_wheel() -> Path | None:
    """The first ``torch-VERSION+cpu`` wheel for this interpreter and machine, if any."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    pattern = f"torch-{VERSION}+cpu-{tag}-{tag}-*_{platform.machine()}.whl"
    for location in find_links():
        folder = Path(location.removeprefix("file://"))
        if folder.is_dir():
            found = sorted(folder.glob(pattern))
            if found:
                return found[0]
    return None


if __name__ == "__main__":
    wheel = cpu_wheel()
    if wheel is not None:
        print(wheel)
