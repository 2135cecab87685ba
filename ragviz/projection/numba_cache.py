"""UMAP's numba functions compiled once per installation instead of once per process.

umap-learn compiles ~100 numba functions on its first fit in every process (9 s on an idle
machine, a minute on a busy one) because it does not ask numba to keep them on disk. Turning
numba's own on-disk cache on for them makes a later process load them in a fraction of a
second; ``make`` warms the cache at install (``planar.warm_umap``).
numba keys each cached function by its source file's stamp, so an upgraded umap recompiles.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# umap's modules whose jitted functions a fit compiles
UMAP_MODULES = ("umap.umap_", "umap.layouts", "umap.distances", "umap.utils", "umap.spectral",
                "umap.sparse")


def cache_compiled(modules: list[ModuleType]) -> int:
    """Turn numba's disk cache on for every jitted function of ``modules`` that lacks it;
    returns how many were turned on."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    turned_on = 0
    for module in modules:
        for value in vars(module).values():
            uncached = isinstance(getattr(value, "_cache", None), NullCache)
            if isinstance(value, CPUDispatcher) and uncached:
                try:
                    value.enable_caching()
                except RuntimeError:  # no writable cache folder: compiled in memory as before
                    continue
                turned_on += 1
    return turned_on


def cache_umap_compiles() -> int:
    """Turn the disk cache on for umap's functions (idempotent: 0 the second time)."""
    return cache_compiled([importlib.import_module(name) for name in UMAP_MODULES])
