"""Keep what lives as long as the server out of Python's full garbage collections.

Why: Streamlit collects every generation after each script run, a fragment's run included
(``runner.postScriptGC``). A full collection walks every container object the process
tracks: torch, transformers, pandas, Altair, Streamlit and a loaded model are several hundred
thousand of them, 0.08-0.12 s per collection on this kind of machine, and the collection
holds the GIL, so the server sent nothing meanwhile: a floor or top_k step waited ~0.1 s for
it before its last messages left (docs/benchmarks.md, "Stop 20"). The libraries and the
cached models stay until the process ends, so once they are loaded the collector is told to
leave them alone (``gc.freeze``): what the runs create afterwards is collected as before.

The cost: an object alive at a freeze that later becomes garbage inside a reference cycle is
never reclaimed (garbage without a cycle is freed as usual, by its reference count). A freeze
happens only when a model not yet frozen has been loaded, so at most once per model, and the
model cache keeps six.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable

_frozen: set[str] | None = None  # the models frozen so far; None before the first freeze
_LOCK = threading.Lock()


def settle(loaded: Iterable[str]) -> bool:
    """After a run: the first time, and whenever a model not frozen before is loaded,
    collect once and freeze every object alive now. Returns whether it froze."""
    global _frozen
    names = set(loaded)
    with _LOCK:
        if _frozen is not None and names <= _frozen:
            return False
        _frozen = names | (_frozen or set())
    gc.collect()
    gc.freeze()
    return True
