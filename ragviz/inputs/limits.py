"""The ranges every shared value must sit in, in one place.

A link, a workspace file and the app's sliders all read these, so a value a link or a
workspace may hold is always a value the widgets accept (a ``?k=11`` that the slider
cannot show would otherwise break the session on every rerun).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

TOP_K_RANGE = (1, 10)
FLOOR_RANGE = (-1.0, 1.0)
MAX_MODEL_CHARS = 300
# Numbers a link or a workspace spells, in ASCII digits only: ``str.isdigit()`` takes "²",
# which ``int()`` refuses, and ``int()`` takes "٣" and "1_000", which no slider writes.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
DECIMAL_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
MAX_INT_DIGITS = 4_000  # int() refuses more than 4,300 digits with advice for programmers

# Local model folders named by a link or a workspace are accepted only under this folder.
MODELS_DIR_ENV = "RAGVIZ_MODELS_DIR"
# owner/name as the Hugging Face hub spells it: no leading dot, slash or tilde, one slash.
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")


def models_dir() -> Path | None:
    """The configured folder of local models, or None when none is configured."""
    configured = os.environ.get(MODELS_DIR_ENV, "").strip()
    return Path(configured).resolve() if configured else None


def in_models_dir(value: str) -> bool:
    """Whether ``value`` names a path strictly inside the configured folder of models."""
    root = models_dir()
    if root is None or "\0" in value:
        return False
    try:
        resolved = Path(value).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    return resolved != root and resolved.is_relative_to(root)
