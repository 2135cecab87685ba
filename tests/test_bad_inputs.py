"""Every row of the bad-input table (tests/bad_inputs.py) gives the user exactly the text the
table says, never a traceback; the rendered table (tests/BAD_INPUTS.md) is in sync."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bad_inputs import MARKDOWN, ROWS, Cli, Row, render_markdown

from ragviz.inputs.documents import decode_upload

# What may reach the terminal raw: newline and tab only.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _id(row: Row) -> str:
    return f"{row.area}: {row.input}"


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_the_user_sees_what_the_table_says(row: Row, tmp_path: Path) -> None:
    if not isinstance(row.interface, Cli):
        assert row.interface.seen() == row.seen
        return
    run = row.interface.run(tmp_path)
    assert "Traceback" not in run.stderr
    assert run.seen() == row.seen
    if run.code:
        assert run.stdout == "", "a refusal prints nothing on stdout"
    assert not _TERMINAL_CONTROLS.search(run.stdout + run.stderr), "a control character got out"
    if row.offsets_exact:
        document = decode_upload((tmp_path / "doc.txt").read_bytes()).text
        chunks = json.loads(run.stdout)["chunks"]
        assert chunks, "the document gave no chunk"
        for chunk in chunks:
            assert document[chunk["start"]:chunk["end"]] == chunk["text"]


def test_the_table_is_big_enough_and_has_no_duplicate() -> None:
    assert len(ROWS) >= 60
    assert len({_id(r) for r in ROWS}) == len(ROWS)


def test_the_markdown_copy_is_in_sync() -> None:
    assert MARKDOWN.read_text(encoding="utf-8") == render_markdown(), (
        "tests/BAD_INPUTS.md is stale: run `python tests/bad_inputs.py`"
    )
