"""Every row of the bad-input table (tests/bad_inputs.py) gives the user exactly the text the
table says, never a traceback; the rendered table (tests/BAD_INPUTS.md) is in sync."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bad_inputs import MARKDOWN, ROWS, Cell, Cli, Questions, Row, WorkspaceFile, render_markdown

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


def _words(row: Row) -> bool:
    """Whether the row's outcome holds a sentence of ragviz's (not only an exit code, a
    character count or the user's own text echoed on stdout)."""
    if isinstance(row.interface, Questions | WorkspaceFile | Cell):  # core calls: errors only
        return row.seen.startswith("error: ")
    said = re.sub(r"^exit \d+( · )?", "", row.seen)
    return bool(said) and not said.startswith(("stdout: a", "stdout: ok")) and \
        not re.fullmatch(r"[\d,]+ characters", said)


def _english_sentences() -> list[str]:
    """Every stretch of words (three or more) in the English catalog between placeholders."""
    import ragviz_app  # noqa: F401  (registers the app's strings)
    from ragviz.i18n import STRINGS

    pieces = (re.split(r"\{[^}]*\}", entry["en"]) for entry in STRINGS.values())
    return sorted({p.strip(" .,:;()") for parts in pieces for p in parts
                   if len(p.strip().split()) >= 3})


SPOKEN = [r for r in ROWS if _words(r)]


@pytest.mark.parametrize("row", SPOKEN, ids=[_id(r) for r in SPOKEN])
def test_every_sentence_the_cli_and_the_app_say_is_portuguese_in_portuguese(
        row: Row, tmp_path: Path) -> None:
    """Issue 18, part 5: the core raises keys, the CLI (``--lang pt``) and the app say them
    in the user's language; no English sentence of the catalog reaches a Portuguese user."""
    interface = row.interface
    seen = interface.run(tmp_path, "pt").seen() if isinstance(interface, Cli) else \
        interface.seen("pt")
    assert seen != row.seen, "the same text in English and Portuguese"
    english = [s for s in _english_sentences() if s in seen]
    assert english == [], f"English in the Portuguese text: {seen}"
    words = set(_ENGLISH_WORDS.findall(seen.lower())) - _QUOTED_WORDS.get(row.input, set())
    assert words == set(), f"English words {sorted(words)} in: {seen}"


# Words no Portuguese sentence of ragviz holds (the user's own input, or a library's own reason
# quoted in parentheses, aside).
_ENGLISH_WORDS = re.compile(r"\b(the|is|are|not|could|must|give|has|holds|was|were|"
                            r"read|with|cannot|does|file|folder|line|limit|skipped|note)\b")
_SQLITE_REASON = {"file", "is", "not"}  # sqlite's "(code: 26) file is not a database"
_QUOTED_WORDS: dict[str, set[str]] = {
    "a Chroma directory whose chroma.sqlite3 is not a database": _SQLITE_REASON,
    "app: a zip whose chroma.sqlite3 is not a database": _SQLITE_REASON,
}
