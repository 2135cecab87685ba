"""numba words its compile errors (even those it catches itself while compiling UMAP's and
pynndescent's functions) in colour through colorama, which sets ``sys.stdout`` and
``sys.stderr`` for the whole process each time: thousands of swaps in a test run, the cause
of CLI tests that now and then read nothing from their captured stdout while the command's
JSON went to another stream. Importing ragviz turns the highlighting off before numba is
imported (``NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING``), so numba leaves the streams alone."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import sys, types
{first}
import numba

swaps = []

class Watched(types.ModuleType):
    def __setattr__(self, name, value):
        if name in ("stdout", "stderr"):
            swaps.append(name)
        super().__setattr__(name, value)

@numba.njit
def needs_a_number(x):
    return x + 1

sys.__class__ = Watched
try:
    needs_a_number("text")  # a typing error numba words
except numba.core.errors.TypingError:
    pass
print(type(numba.core.errors.termcolor()).__name__, len(swaps))
"""


def _numba_run(first: str) -> tuple[str, int]:
    """The colour scheme numba picked and how often it set sys.stdout/sys.stderr while
    wording one typing error, in a fresh interpreter (the variable unset, as a user has it)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"}
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(first=first)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    scheme, swaps = done.stdout.split()
    return scheme, int(swaps)


def test_numba_leaves_the_streams_alone_once_ragviz_is_imported() -> None:
    assert _numba_run("import ragviz") == ("NOPColorScheme", 0)


def test_numba_alone_swaps_the_streams_to_word_an_error() -> None:
    """The fault itself, so the test above shows something: colorama is installed here."""
    scheme, swaps = _numba_run("")
    assert scheme == "HighlightColorScheme" and swaps > 0
