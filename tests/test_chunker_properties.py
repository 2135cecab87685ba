"""Property tests for every chunker: offsets, non-empty, order, coverage, size, determinism."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragviz.chunking import markdown
from ragviz.chunking.base import Chunk
from ragviz.chunking.fixed import chunk_fixed
from ragviz.chunking.markdown import chunk_markdown
from ragviz.chunking.packing import pack_indices
from ragviz.chunking.recursive import chunk_recursive
from ragviz.chunking.semantic import chunk_semantic
from ragviz.chunking.sentence import chunk_sentences
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
    chunks = chunk_fixed(document, size, overlap).chunks
    check_contract(document, chunks, trimmed=False)
    assert all(c.chars <= size for c in chunks)
    assert chunks == chunk_fixed(document, size, overlap).chunks


@given(document=documents, max_chars=st.integers(1, 80), overlap=st.integers(0, 3))
def test_sentence_properties(document: str, max_chars: int, overlap: int) -> None:
    chunks = chunk_sentences(document, max_chars, overlap).chunks
    check_contract(document, chunks)
    assert all(c.chars <= max_chars or c.over_size for c in chunks)
    assert all(c.over_size == (c.chars > max_chars) for c in chunks)
    assert chunks == chunk_sentences(document, max_chars, overlap).chunks


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
    chunks = chunk_markdown(document, max_chars, overlap).chunks
    check_contract(document, chunks)
    assert all(c.chars <= max_chars or c.over_size for c in chunks)
    assert chunks == chunk_markdown(document, max_chars, overlap).chunks


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
    result = chunk_semantic(document, use_model, threshold, None, max_chars)
    check_contract(document, result.chunks)
    if max_chars is not None:
        assert all(c.chars <= max_chars or c.over_size for c in result.chunks)
    offsets = [offset for offset, _ in result.boundary_similarities]
    assert offsets == sorted(offsets)
    assert result == chunk_semantic(document, use_model, threshold, None, max_chars)


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


@settings(suppress_health_check=FIXTURE_OK)
@given(document=long_documents, max_chars=st.integers(1, 300), window=st.sampled_from([1, 7, 256]))
def test_markdown_streaming_packer_makes_the_groups_of_packing_every_sentence(
    document: str, max_chars: int, window: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Searched for at every size here (the chunker does from 400 characters); a small
    search window makes the packer widen it, as long sentences do at size 1000."""
    monkeypatch.setattr(markdown, "_LOOK_FOR_CUTS_FROM", 0)
    monkeypatch.setattr(markdown, "_WINDOW", window)
    streamed = [
        group
        for section in markdown._sections(document)
        for group in markdown._pack_without_overlap(document, section.units, max_chars)
    ]
    assert streamed == packed_sentence_by_sentence(document, max_chars)
