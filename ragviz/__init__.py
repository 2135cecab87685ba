"""ragviz: see why retrieval in a RAG pipeline returns the wrong passage."""

import os

__version__ = "0.1.0"

# numba (under UMAP, pynndescent and bm25s) colours its compile errors through colorama, whose
# init/reinit/deinit set sys.stdout and sys.stderr for the whole process to the streams of the
# first time it ran, each time numba words an error, even one it catches while compiling: a
# command's output then goes to a stale stream (seen as tests that read nothing from stdout).
# Turned off before numba is imported, unless the user set it.
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
