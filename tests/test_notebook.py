"""``examples/quickstart.ipynb`` runs on a real Jupyter kernel (nbclient + ipykernel), cell
after cell, as a reader runs it; git keeps it without outputs."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "quickstart.ipynb"
CELL_TIMEOUT_S = 300


def test_the_quickstart_is_kept_without_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def test_the_quickstart_runs_and_shows_the_articles_story(
        monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    root = str(NOTEBOOK.parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(  # the kernel's ragviz: this checkout's
        filter(None, [root, os.environ.get("PYTHONPATH", "")])))
    NotebookClient(notebook, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    shown = [output for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.outputs]
    text = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                     for o in shown)
    assert not [o for o in shown if o.output_type == "error"]
    assert "fixed(size=120, overlap=0)" in text  # the Evaluation's repr
    assert "outranked" in text and "'ok'" in text  # the flip the article tells
    assert "refused" in text.lower() or "under the floor" in text  # the wifi question
    charts = [o for o in shown if "vegaEmbed" in o.get("data", {}).get("text/html", "")]
    assert len(charts) == 1  # the score bars draw in Jupyter (Altair's HTML renderer)
    assert "Evaluation('VectorStoreRetriever()'" in text  # the LangChain retriever evaluated
