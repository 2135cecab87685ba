"""Property tests for every chunker: offsets, non-empty, order, coverage, size, determinism."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragviz.chunking import ChunkerConfig, make_chunks, markdown
from ragviz.chunking.base import Chunk
from ragviz.chunking.packing import pack_indices
from ragviz.chunking.recursive import chunk_recursive
from ragviz.chunking.tokens import chunk_tokens
from ragviz.embedding.models import Embedder

FRAGMENTS = [
    " ", " ", " ", ". ", "! ", "? ", ".", ",", "\r\n", "\n", "\n\n", "\t", "😀", "漢字。",
    "東京？", "Dr. ", "Sra. ", "R$ 1.000,00", "3.5", "...", "… ", "e-mail.com", "config.yaml",
    "ção", "e\u0301", "\u200b", "J. R. ", "etc. ", "# Título\n", "## Sub\n", "- item\n",
    "```\ncode # x\n```\n", "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n", '"', "(", ")",
]
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzÁÉçãõABCXYZ0123456789", min_size=1, max_size=9)
PIECES = st.one_of(st.sampled_from(FRAGMENTS), WORDS)

documents = st.one_of(
    st.lists(PIECES, max_size=60).map("".join),
    st.text(max_size=200),  # arbitrary unicode, including surrogate-free oddities
)
FIXTURE_OK = [HealthCheck.function_scoped_fixture]
short_documents = st.lists(PIECES, max_size=25).map("".join)  # for the model-backed chunkers


def check_contract(document: str, chunks: Sequence[Chunk], trimmed: bool = True) -> None:
    covered = [False] * len(document)
    for i, chunk in enumerate(chunks):
        assert chunk.index == i
        assert document[chunk.start : chunk.end] == chunk.text
        assert chunk.text.strip(), "chunk is empty or only whitespace"
        if trimmed:
            assert chunk.text == chunk.text.strip()
        for pos in range(chunk.start, chunk.end):
            covered[pos] = True
    starts = [c.start for c in chunks]
    assert starts == sorted(starts)
    missing = [i for i, ch in enumerate(document) if not ch.isspace() and not covered[i]]
    assert missing == []


@given(document=documents, size=st.integers(1, 60), data=st.data())
def test_fixed_properties(document: str, size: int, data: st.DataObject) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    chunks = make_chunks(document, ChunkerConfig("fixed", size=size, overlap=overlap)).chunks
    check_contract(document, chunks, trimmed=False)
    assert all(c.chars <= size for c in chunks)
    assert chunks == make_chunks(document,
                                 ChunkerConfig("fixed", size=size, overlap=overlap)).chunks


@given(document=documents, max_chars=st.integers(1, 80), overlap=st.integers(0, 3))
def test_sentence_properties(document: str, max_chars: int, overlap: int) -> None:
    chunks = make_chunks(document,
        ChunkerConfig("sentence", max_chars=max_chars, overlap_sentences=overlap)).chunks
    check_contract(document, chunks)
    assert all(c.chars <= max_chars or c.over_size for c in chunks)
    assert all(c.over_size == (c.chars > max_chars) for c in chunks)
    assert chunks == make_chunks(document,
        ChunkerConfig("sentence", max_chars=max_chars, overlap_sentences=overlap)).chunks


@given(document=documents, size=st.integers(1, 60), data=st.data())
def test_recursive_properties(document: str, size: int, data: st.DataObject) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    chunks = chunk_recursive(document, size, overlap).chunks
    check_contract(document, chunks)
    assert all(c.chars <= size for c in chunks)
    assert all(a.end - b.start <= overlap for a, b in pairwise(chunks))
    assert chunks == chunk_recursive(document, size, overlap).chunks


@given(document=documents, max_chars=st.integers(1, 120), overlap=st.integers(0, 2))
def test_markdown_properties(document: str, max_chars: int, overlap: int) -> None:
    chunks = make_chunks(document,
        ChunkerConfig("markdown", max_chars=max_chars, overlap_sentences=overlap)).chunks
    check_contract(document, chunks)
    assert all(c.chars <= max_chars or c.over_size for c in chunks)
    assert chunks == make_chunks(document,
        ChunkerConfig("markdown", max_chars=max_chars, overlap_sentences=overlap)).chunks


@pytest.mark.parametrize("model", ["use_model", "minilm_model"])
@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_OK)
@given(document=documents, size=st.integers(1, 20), data=st.data())
def test_tokens_properties(
    model: str, request: pytest.FixtureRequest, document: str, size: int, data: st.DataObject
) -> None:
    embedder: Embedder = request.getfixturevalue(model)
    overlap = data.draw(st.integers(0, size - 1))
    chunks = chunk_tokens(document, embedder, size, overlap).chunks
    check_contract(document, chunks)
    assert all(embedder.count_tokens(c.text) <= size or c.over_size for c in chunks)
    assert chunks == chunk_tokens(document, embedder, size, overlap).chunks


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURE_OK)
@given(
    document=short_documents,
    threshold=st.one_of(st.none(), st.floats(-1.0, 1.0)),
    max_chars=st.one_of(st.none(), st.integers(1, 80)),
)
def test_semantic_properties(
    use_model: Embedder, document: str, threshold: float | None, max_chars: int | None
) -> None:
    limit = {} if max_chars is None else {"max_chars": max_chars}  # None: the app's default
    semantic = ChunkerConfig("semantic", threshold=threshold, percentile=None, **limit)
    result = make_chunks(document, semantic, use_model)
    check_contract(document, result.chunks)
    if max_chars is not None:
        assert all(c.chars <= max_chars or c.over_size for c in result.chunks)
    offsets = [offset for offset, _ in result.boundary_similarities]
    assert offsets == sorted(offsets)
    assert result == make_chunks(document, semantic, use_model)


PATHOLOGICAL = {
    "dots": "." * 30_000 + "x",
    "heading-spaces": "# a" + " " * 30_000 + "b\n",
    "delimiter-spaces": "a|b\n" + " " * 30_000 + "|---|\n",
    "one-long-word": "x" * 30_000,
    "newlines": "\n" * 10_000 + "a",
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
@pytest.mark.parametrize("chunker", ["sentence", "recursive", "markdown"])
def test_pathological_documents_keep_the_contract(name: str, chunker: str) -> None:
    """Inputs that once made the regexes backtrack quadratically (bench/chunking_scaling.py
    measures the time); here only the result is checked."""
    from ragviz.chunking import ChunkerConfig, make_chunks

    document = PATHOLOGICAL[name]
    chunks = make_chunks(document, ChunkerConfig(chunker, size=500, max_chars=500)).chunks
    assert chunks
    for chunk in chunks:
        assert document[chunk.start : chunk.end] == chunk.text and chunk.text
    covered = {i for c in chunks for i in range(c.start, c.end)}
    assert all(i in covered for i, ch in enumerate(document) if not ch.isspace())


def packed_sentence_by_sentence(document: str, max_chars: int) -> list[tuple[int, int, str]]:
    """The markdown chunker's groups with no overlap, the slow way: every block split into
    all its sentences, then ``pack_indices``; the streaming packer must give the same."""
    groups = []
    for section in markdown._sections(document):
        pieces = [p for unit in section.units for p in markdown._sentences(document, unit)]
        spans = [(p.start, p.end) for p in pieces]
        groups.extend(
            (spans[g[0]][0], spans[g[-1]][1], pieces[g[0]].table_header)
            for g in pack_indices(spans, max_chars, 0)
        )
    return groups


long_documents = st.lists(PIECES, max_size=400).map("".join)
# Lines near the markdown rules' edges: fences of other marks and indents, headings without
# a title or indented too far (text then, but a cut for the sentence splitter), pipes that do
# or do not start a table.
MARKDOWN_EDGES = [
    "~~~\n", "````\n", "   ```\n", "    ```\n", "```py\n", "#\n", "###### six\n", "####### 7\n",
    "    # indented\n", "   ## three\n", "#no\n", "a | b\n", "|-|\n", "| --- | :-: |\n", "x|y",
    "- a\n", "1. b\n", "\n\n", "\n", " ", "Fim. ", "Dr. X. ", "ok! ", "e.g. Foo ", "…\n",
]
edge_documents = st.lists(
    st.one_of(st.sampled_from(MARKDOWN_EDGES), st.sampled_from(FRAGMENTS), WORDS),
    min_size=30,
    max_size=300,
).map("".join)


def packed_streaming(document: str, max_chars: int) -> list[tuple[int, int, str]]:
    """The streaming packer's groups, searched for at every size (the chunker does from
    400 characters)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown, "_LOOK_FOR_CUTS_FROM", 0)
        return [
            group
            for section in markdown._sections(document)
            for group in markdown._pack_without_overlap(document, section.units, max_chars)
        ]


@given(document=long_documents, max_chars=st.integers(1, 300))
def test_markdown_streaming_packer_makes_the_groups_of_packing_every_sentence(
    document: str, max_chars: int
) -> None:
    assert packed_streaming(document, max_chars) == packed_sentence_by_sentence(document, max_chars)


@given(document=edge_documents, max_chars=st.integers(1, 300))
def test_markdown_streaming_packer_cuts_after_heading_and_row_lines_in_text(
    document: str, max_chars: int
) -> None:
    """Text blocks holding indented '#' lines and pipe lines: their line ends are cuts that
    a regex match from inside the block cannot see."""
    assert packed_streaming(document, max_chars) == packed_sentence_by_sentence(document, max_chars)


def every_line(document: str) -> list[int]:
    """Every line's start: the sections the slow way, each line classified by the rules."""
    return [0] + [i + 1 for i, ch in enumerate(document) if ch == "\n"]


@given(document=edge_documents)
def test_markdown_sections_are_those_of_visiting_every_line(document: str) -> None:
    """The chunker visits only the lines its regex and the pipe scan pick out; a line they
    missed that opens a fence, heading or table would change the sections."""
    quick = markdown._sections(document)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown, "_special_lines", every_line)
        assert quick == markdown._sections(document)


def fence_end_by_line_regex(document: str, start: int, marker: str) -> int:
    """Where a fence ends, found as before: a multiline regex anchored on line starts."""
    closing = re.compile(rf"^[ ]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[^\S\n]*$", re.M)
    found = closing.search(document, start)
    return len(document) if found is None else found.end()


@given(document=edge_documents, marker=st.sampled_from(["```", "~~~", "````", "~~~~~"]))
def test_markdown_fence_end_is_the_line_regex_s(document: str, marker: str) -> None:
    """From every body start a fence can have: just after a newline, or past the end."""
    for start in [*every_line(document)[1:], len(document) + 1]:
        expected = fence_end_by_line_regex(document, start, marker)
        assert markdown._fence_end(document, start, marker) == expected
