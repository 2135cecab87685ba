"""The paragraph chunker: its contract (properties and examples) and that registering it
was enough for the CLI, the app, the sweep, workspaces and links to offer it."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from ragviz.chunking import CHUNKER_NAMES, ChunkerConfig, default_grid, make_chunks
from ragviz.chunking.paragraph import split_paragraphs
from ragviz.cli.command import main
from ragviz.present.link_notes import import_link
from ragviz.share.links import settings_to_query
from ragviz.share.workspace import Settings, Workspace

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
PIECES = st.one_of(
    st.sampled_from(["\n\n", "\n \n", "\n\t\n\n", "\n", " ", "\r\n\r\n", ". ", "漢字。", "😀"]),
    st.text(alphabet="abcçãXYZ019", min_size=1, max_size=12),
)
documents = st.one_of(st.lists(PIECES, max_size=50).map("".join), st.text(max_size=200))
DOC = "Primeiro parágrafo, curto.\n\nSegundo parágrafo, um pouco maior que o primeiro.\n\n" \
      "Terceiro.\n  \nQuarto e último parágrafo."


@given(document=documents, max_chars=st.integers(1, 120), overlap=st.integers(0, 3))
def test_paragraph_properties(document: str, max_chars: int, overlap: int) -> None:
    chunks = make_chunks(document,
        ChunkerConfig("paragraph", max_chars=max_chars, overlap_paragraphs=overlap)).chunks
    paragraphs = split_paragraphs(document)
    starts = {a for a, _ in paragraphs}
    ends = {b for _, b in paragraphs}
    covered = [False] * len(document)
    for i, chunk in enumerate(chunks):
        assert chunk.index == i
        assert document[chunk.start : chunk.end] == chunk.text
        assert chunk.text.strip() and chunk.text == chunk.text.strip()
        assert chunk.start in starts and chunk.end in ends, "chunks hold whole paragraphs"
        assert chunk.over_size == (chunk.chars > max_chars)
        if chunk.over_size:
            assert (chunk.start, chunk.end) in paragraphs, "only a lone paragraph is too long"
        for pos in range(chunk.start, chunk.end):
            covered[pos] = True
    assert [c.start for c in chunks] == sorted({c.start for c in chunks})
    assert [c.end for c in chunks] == sorted({c.end for c in chunks})
    assert [i for i, ch in enumerate(document) if not ch.isspace() and not covered[i]] == []


@given(document=documents)
def test_paragraphs_cover_the_text_between_blank_lines(document: str) -> None:
    spans = split_paragraphs(document)
    for (_, end), (start, _) in pairwise(spans):
        gap = document[end:start]
        assert not gap.strip() and gap.count("\n") >= 2


def test_paragraphs_are_packed_up_to_max_chars() -> None:
    texts = [c.text for c in make_chunks(DOC, ChunkerConfig("paragraph", max_chars=80)).chunks]
    assert texts == [
        "Primeiro parágrafo, curto.\n\nSegundo parágrafo, um pouco maior que o primeiro.",
        "Terceiro.\n  \nQuarto e último parágrafo.",
    ]


def test_overlap_repeats_whole_paragraphs() -> None:
    texts = [c.text for c in make_chunks(DOC,
        ChunkerConfig("paragraph", max_chars=60, overlap_paragraphs=1)).chunks]
    assert texts == [
        "Primeiro parágrafo, curto.",
        "Segundo parágrafo, um pouco maior que o primeiro.\n\nTerceiro.",
        "Terceiro.\n  \nQuarto e último parágrafo.",
    ]


def test_a_long_paragraph_is_its_own_over_size_chunk() -> None:
    long = "palavra " * 20
    chunks = make_chunks(f"Curto.\n\n{long.strip()}\n\nOutro.",
                         ChunkerConfig("paragraph", max_chars=30)).chunks
    assert [(c.text, c.over_size) for c in chunks] == [
        ("Curto.", False), (long.strip(), True), ("Outro.", False),
    ]


@pytest.mark.parametrize(
    ("values", "message"),
    [({"max_chars": 0}, "max_chars must be at least 1, got 0"),
     ({"overlap_paragraphs": -1}, "overlap_paragraphs must be at least 0, got -1"),
     ({"max_chars": 2.5}, "max_chars must be a whole number, got 2.5")],
)
def test_bad_parameters_name_the_parameter_and_value(
    values: dict[str, float], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        make_chunks(DOC, ChunkerConfig.create("paragraph", **values))


def test_the_cli_offers_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.txt"
    path.write_text(DOC, encoding="utf-8")
    args = ["chunk", str(path), "--chunker", "paragraph", "--max-chars", "60",
            "--overlap-paragraphs", "1", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    expected = make_chunks(DOC,
                           ChunkerConfig("paragraph", max_chars=60, overlap_paragraphs=1)).chunks
    assert [c["text"] for c in data["chunks"]] == [c.text for c in expected]


def test_the_sweep_includes_it() -> None:
    grid = [c for c in default_grid(5000) if c.chunker == "paragraph"]
    assert {c.get("overlap_paragraphs") for c in grid} == {0, 1}
    assert len({c.get("max_chars") for c in grid}) == 4


def test_workspaces_and_links_round_trip_it() -> None:
    config = ChunkerConfig.create("paragraph", max_chars=300, overlap_paragraphs=2)
    settings = Settings(config_a=config)
    workspace = Workspace(DOC, (), settings)
    assert Workspace.from_json(workspace.to_json()) == workspace
    assert '"overlap_paragraphs": 2' in workspace.to_json()
    restored, problems, _notes = import_link(settings_to_query(settings), Settings())
    assert problems == [] and restored.config_a == config
    _, problems, _notes = import_link({"a": "paragraph", "a_overlap_paragraphs": "99"}, Settings())
    assert problems == ["a_overlap_paragraphs must be at most 10, got 99"]


def test_the_app_offers_it_with_its_own_sliders() -> None:
    assert "paragraph" in CHUNKER_NAMES
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.selectbox(key="a_chunker").select("paragraph")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    labels = {s.key: s.label for s in at.slider}
    assert labels["a_overlap_paragraphs"] == "overlap (paragraphs)"
    max_chars = at.slider(key="a_max_chars")
    assert max_chars.value == min(600, max_chars.max), "the spec default, within the document"
    at.slider(key="a_overlap_paragraphs").set_value(1)
    at.run()
    assert not at.exception
    assert at.query_params["a"] in ("paragraph", ["paragraph"])
    shown = "\n".join(m.value for m in at.markdown) + "\n".join(c.value for c in at.caption)
    assert f"paragraph(max_chars={max_chars.value}, overlap_paragraphs=1)" in shown
