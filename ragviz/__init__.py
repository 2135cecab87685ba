"""ragviz: see why retrieval in a RAG pipeline returns the wrong passage.

The Python API (``ragviz.api``): ``chunk``, ``evaluate``, ``sweep``, ``calibrate`` and what
they return, loaded on first use so ``import ragviz`` stays cheap.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# numba (under UMAP, pynndescent and bm25s) colours its compile errors through colorama, whose
# init/reinit/deinit set sys.stdout and sys.stderr for the whole process to the streams of the
# first time it ran, each time numba words an error, even one it catches while compiling: a
# command's output then goes to a stale stream (seen as tests that read nothing from stdout).
# Turned off before numba is imported, unless the user set it.
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

if TYPE_CHECKING:
    from ragviz.api import (
        Calibration,
        Chunks,
        Comparison,
        Evaluation,
        SweepResult,
        calibrate,
        chunk,
        evaluate,
        sweep,
    )

__all__ = ["Calibration", "Chunks", "Comparison", "Evaluation", "SweepResult", "__version__",
           "calibrate", "chunk", "evaluate", "sweep"]


def __getattr__(name: str) -> Any:
    """The API's names, imported when first asked for (PEP 562)."""
    if name in __all__:
        from ragviz import api

        return getattr(api, name)
    raise AttributeError(f"module 'ragviz' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
