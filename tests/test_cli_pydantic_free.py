"""pydantic is loaded by ``--json`` and ``ragviz schema`` only (issue 48 item 3): deriving the
JSON and its schema from the outputs' dataclasses costs nothing to a command that prints
text, nor to ``ragviz --help``. Each check runs in a fresh interpreter, which is the only
place ``sys.modules`` says what a command imported."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.index_fixtures import DOC, QUESTIONS

FIXED = ["--chunker", "fixed", "--size", "120", "--overlap", "0"]


def _loads_pydantic(code: str) -> bool:
    """Whether running ``code`` in a new interpreter imports pydantic."""
    probe = f"{code}\nimport sys\nprint('pydantic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=300, env=os.environ.copy(), check=True)
    return done.stdout.strip().splitlines()[-1] == "True"


def _eval(*extra: str) -> str:
    argv = ["eval", str(DOC), "--questions", str(QUESTIONS), *FIXED, *extra]
    return (f"import contextlib, io\nfrom ragviz.cli.command import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({argv!r}) == 0")


def test_importing_the_command_does_not_import_pydantic() -> None:
    assert not _loads_pydantic("import ragviz.cli.command")


def test_a_text_eval_does_not_import_pydantic_and_its_json_does() -> None:
    assert not _loads_pydantic(_eval())
    assert _loads_pydantic(_eval("--json"))  # the check sees pydantic where it is used
