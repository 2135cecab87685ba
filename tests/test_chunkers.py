"""Behaviours of each chunker, one per test; models are the real bundled ones."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.chunking.base import Chunk, make_chunk
from ragviz.chunking.recursive import chunk_recursive
from ragviz.chunking.tokens import chunk_tokens
from ragviz.embedding.models import Embedder


def texts(chunks: list[Chunk] | tuple[Chunk, ...]) -> list[str]:
    return [c.text for c in chunks]


# --- sentence -------------------------------------------------------------------------------


def test_sentence_longer_than_max_is_its_own_over_size_chunk() -> None:
    long = "Esta frase é bem mais longa do que o limite permitido de caracteres."
    doc = f"Curta. {long} Outra curta."
    chunks = make_chunks(doc, ChunkerConfig("sentence", max_chars=30, overlap_sentences=0)).chunks
    assert [(c.text, c.over_size) for c in chunks] == [
        ("Curta.", False),
        (long, True),
        ("Outra curta.", False),
    ]


def test_sentence_overlap_repeats_the_last_sentence() -> None:
    doc = "Um dois. Três quatro. Cinco seis. Sete oito."
    chunks = make_chunks(doc, ChunkerConfig("sentence", max_chars=25, overlap_sentences=1)).chunks
    assert texts(chunks) == [
        "Um dois. Três quatro.",
        "Três quatro. Cinco seis.",
        "Cinco seis. Sete oito.",
    ]


def test_sentence_without_overlap_chunks_do_not_share_text() -> None:
    doc = "Um dois. Três quatro. Cinco seis. Sete oito."
    chunks = make_chunks(doc, ChunkerConfig("sentence", max_chars=25, overlap_sentences=0)).chunks
    assert all(a.end <= b.start for a, b in pairwise(chunks))


def test_sentence_carried_overlap_is_dropped_when_it_would_not_fit() -> None:
    a, b, c = "A" * 49 + ".", "B" * 49 + ".", "C" * 99 + "."
    chunks = make_chunks(f"{a} {b} {c}",
                         ChunkerConfig("sentence", max_chars=110, overlap_sentences=1)).chunks
    assert texts(chunks) == [f"{a} {b}", c]


def test_sentence_never_emits_a_chunk_of_only_carried_sentences() -> None:
    doc = "Frase um aqui. Frase dois aqui. " + "X" * 60 + "."
    chunks = make_chunks(doc, ChunkerConfig("sentence", max_chars=40, overlap_sentences=2)).chunks
    for previous, current in pairwise(chunks):
        assert current.end > previous.end


def test_sentence_keeps_abbreviations_inside_chunks() -> None:
    doc = "O Dr. Silva atende. A Sra. Lima também."
    assert texts(make_chunks(doc,
        ChunkerConfig("sentence", max_chars=20, overlap_sentences=0)).chunks) == [
        "O Dr. Silva atende.",
        "A Sra. Lima também.",
    ]


# --- recursive ------------------------------------------------------------------------------


def test_recursive_prefers_paragraph_boundaries() -> None:
    first = "Primeiro parágrafo com algumas palavras."
    second = "Segundo parágrafo com outras palavras."
    chunks = chunk_recursive(f"{first}\n\n{second}", size=60, overlap=0).chunks
    assert texts(chunks) == [first, second]


def test_recursive_merges_small_pieces_up_to_size() -> None:
    doc = "Um.\n\nDois.\n\nTrês.\n\nQuatro."
    chunks = chunk_recursive(doc, size=12, overlap=0).chunks
    assert texts(chunks) == ["Um.\n\nDois.", "Três.", "Quatro."]


def test_recursive_cuts_a_long_word_into_characters() -> None:
    chunks = chunk_recursive("x" * 25, size=10, overlap=0).chunks
    assert texts(chunks) == ["x" * 10, "x" * 10, "x" * 5]


def test_recursive_overlap_starts_on_a_word_and_stays_within_budget() -> None:
    doc = " ".join(f"palavra{i}" for i in range(30))
    chunks = chunk_recursive(doc, size=50, overlap=20).chunks
    for previous, current in pairwise(chunks):
        shared = previous.end - current.start
        assert 0 < shared <= 20
        assert doc[current.start - 1] == " "
    assert all(c.chars <= 50 for c in chunks)


# --- markdown -------------------------------------------------------------------------------

HANDBOOK = """# Handbook

Welcome to the handbook.

## Refunds

Refunds take 7 days.

### Exceptions

Gift cards are final.

# Other

Last words.
"""


def test_markdown_records_heading_paths() -> None:
    chunks = make_chunks(HANDBOOK, ChunkerConfig("markdown", max_chars=800)).chunks
    assert [c.heading_path for c in chunks] == [
        ("Handbook",),
        ("Handbook", "Refunds"),
        ("Handbook", "Refunds", "Exceptions"),
        ("Other",),
    ]


def test_markdown_heading_belongs_to_its_section_chunk() -> None:
    chunks = make_chunks(HANDBOOK, ChunkerConfig("markdown", max_chars=800)).chunks
    assert chunks[1].text == "## Refunds\n\nRefunds take 7 days."


def test_markdown_text_before_the_first_heading_has_an_empty_path() -> None:
    chunks = make_chunks("Preamble here.\n\n# Title\n\nBody.",
                         ChunkerConfig("markdown", max_chars=800)).chunks
    assert [(c.text, c.heading_path) for c in chunks] == [
        ("Preamble here.", ()),
        ("# Title\n\nBody.", ("Title",)),
    ]


CODE_DOC = """# Setup

Install the tool first.

```bash
# this is a comment, not a heading
pip install tool
tool --init
tool --run
```

Then run it.
"""


def test_markdown_never_cuts_a_code_fence() -> None:
    chunks = make_chunks(CODE_DOC, ChunkerConfig("markdown", max_chars=40)).chunks
    fence = CODE_DOC[CODE_DOC.index("```") : CODE_DOC.rindex("```") + 3]
    assert fence in texts(chunks)


def test_markdown_oversize_code_block_is_flagged() -> None:
    chunks = make_chunks(CODE_DOC, ChunkerConfig("markdown", max_chars=40)).chunks
    flagged = [c for c in chunks if c.over_size]
    assert [c.text.startswith("```bash") for c in flagged] == [True]


def test_markdown_ignores_hash_lines_inside_fences() -> None:
    chunks = make_chunks(CODE_DOC, ChunkerConfig("markdown", max_chars=800)).chunks
    assert {c.heading_path for c in chunks} == {("Setup",)}


TABLE_DOC = """## Prices

| Plan | Price |
|------|------:|
| Basic | 10 |
| Pro | 20 |
| Team | 30 |
| Enterprise | 99 |
"""
TABLE_HEADER = "| Plan | Price |\n|------|------:|\n"


def test_markdown_table_row_groups_carry_the_header_as_context() -> None:
    chunks = make_chunks(TABLE_DOC, ChunkerConfig("markdown", max_chars=50)).chunks
    rows_only = [c for c in chunks if not c.text.startswith(("## ", "| Plan"))]
    assert rows_only
    assert all(c.context_prefix == TABLE_HEADER for c in rows_only)
    assert all(c.embedding_text == TABLE_HEADER + c.text for c in rows_only)


def test_markdown_chunk_with_the_header_has_no_prefix() -> None:
    chunks = make_chunks(TABLE_DOC, ChunkerConfig("markdown", max_chars=50)).chunks
    with_header = [c for c in chunks if "| Plan |" in c.text]
    assert [c.context_prefix for c in with_header] == [""]


def test_markdown_table_groups_fit_max_chars() -> None:
    chunks = make_chunks(TABLE_DOC, ChunkerConfig("markdown", max_chars=50)).chunks
    assert all(c.chars <= 50 for c in chunks)
    assert len(chunks) > 2


def test_chunk_to_dict_includes_context_prefix() -> None:
    chunk = make_chunks(TABLE_DOC, ChunkerConfig("markdown", max_chars=50)).chunks[-1]
    assert chunk.to_dict()["context_prefix"] == TABLE_HEADER


# --- tokens ---------------------------------------------------------------------------------

TOKEN_DOC = (
    "Boil the pasta in salted water. Drain the spaghetti and add tomato sauce. "
    "The telescope pointed at Jupiter's moons. Stars shine brightly in the night sky."
)


@pytest.mark.parametrize("model", ["use_model", "minilm_model"])
def test_token_windows_hold_at_most_size_tokens(
    model: str, request: pytest.FixtureRequest
) -> None:
    embedder: Embedder = request.getfixturevalue(model)
    chunks = chunk_tokens(TOKEN_DOC, embedder, size=8, overlap=0).chunks
    counts = [embedder.count_tokens(c.text) for c in chunks]
    assert max(counts) == 8
    assert all(n <= 8 for n in counts)


@pytest.mark.parametrize("model", ["use_model", "minilm_model"])
def test_token_windows_share_overlap_tokens(model: str, request: pytest.FixtureRequest) -> None:
    embedder: Embedder = request.getfixturevalue(model)
    spans = embedder.token_spans(TOKEN_DOC)
    chunks = chunk_tokens(TOKEN_DOC, embedder, size=8, overlap=3).chunks
    shared = [
        sum(1 for a, b in spans if current.start <= a and b <= previous.end)
        for previous, current in pairwise(chunks)
    ]
    assert shared and all(n == 3 for n in shared)


def test_token_windows_without_overlap_do_not_share_text(use_model: Embedder) -> None:
    chunks = chunk_tokens(TOKEN_DOC, use_model, size=8, overlap=0).chunks
    assert all(a.end <= b.start for a, b in pairwise(chunks))


def test_make_chunks_tokens_needs_a_model() -> None:
    with pytest.raises(ValueError, match="model"):
        make_chunks(TOKEN_DOC, ChunkerConfig(chunker="tokens"))


# --- semantic -------------------------------------------------------------------------------

PASTA = (
    "Boil the pasta in salted water. Drain the spaghetti and add tomato sauce. "
    "Sprinkle grated cheese over the noodles."
)
STARS = (
    "The telescope pointed at Jupiter's moons. Astronomers measured the orbit of the planet. "
    "Stars shine brightly in the night sky."
)
TWO_TOPICS = f"{PASTA} {STARS}"


def test_semantic_breaks_between_the_two_topics(use_model: Embedder) -> None:
    result = make_chunks(TWO_TOPICS,
                         ChunkerConfig("semantic", threshold=None, percentile=None), use_model)
    assert texts(result.chunks) == [PASTA, STARS]


def test_semantic_topic_boundary_has_the_lowest_similarity(use_model: Embedder) -> None:
    result = make_chunks(TWO_TOPICS,
                         ChunkerConfig("semantic", threshold=None, percentile=None), use_model)
    lowest = min(result.boundary_similarities, key=lambda pair: pair[1])
    assert lowest[0] == TWO_TOPICS.index("The telescope")


def test_semantic_reports_one_similarity_per_sentence_boundary(use_model: Embedder) -> None:
    result = make_chunks(TWO_TOPICS,
                         ChunkerConfig("semantic", threshold=0.0, percentile=None), use_model)
    assert len(result.boundary_similarities) == 5
    assert result.breakpoint_threshold == 0.0


def test_semantic_threshold_above_every_similarity_splits_every_sentence(
    use_model: Embedder,
) -> None:
    result = make_chunks(TWO_TOPICS,
                         ChunkerConfig("semantic", threshold=1.0, percentile=None), use_model)
    assert len(result.chunks) == 6


def test_semantic_max_chars_caps_chunks(use_model: Embedder) -> None:
    result = make_chunks(TWO_TOPICS,
        ChunkerConfig("semantic", threshold=-1.0, percentile=None, max_chars=80), use_model)
    assert all(c.chars <= 80 for c in result.chunks)
    assert len(result.chunks) > 2


def test_semantic_single_sentence_has_no_boundaries(use_model: Embedder) -> None:
    result = make_chunks("Only one sentence here.",
                         ChunkerConfig("semantic", threshold=None, percentile=None), use_model)
    assert texts(result.chunks) == ["Only one sentence here."]
    assert result.boundary_similarities == ()


# --- parameter validation -------------------------------------------------------------------


def _chunked(name: str, **values: Any) -> Callable[[], object]:
    return lambda: make_chunks("abc", ChunkerConfig(name, **values)).chunks


def _semantic(**kwargs: Any) -> Callable[[], object]:
    return lambda: make_chunks(TWO_TOPICS, ChunkerConfig("semantic", **kwargs), _NoModel())


class _NoModel(Embedder):
    """Fake embedder: these tests are about validation, which must fail before any encoding."""

    name = "no-model"

    def _encode(self, texts: list[str], kind: Any) -> Any:
        raise AssertionError("validation should fail before encoding")

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        raise AssertionError("validation should fail before tokenizing")


@pytest.mark.parametrize(
    ("call", "parameter", "value"),
    [
        (_chunked("fixed", size=0, overlap=0), "size", "0"),
        (_chunked("fixed", size=10, overlap=10), "overlap", "10"),
        (_chunked("sentence", max_chars=0, overlap_sentences=1), "max_chars", "0"),
        (_chunked("sentence", max_chars=10, overlap_sentences=-1), "overlap_sentences", "-1"),
        (_chunked("sentence", max_chars=2.5, overlap_sentences=1), "max_chars", "2.5"),
        (lambda: chunk_recursive("abc", 0, 0).chunks, "size", "0"),
        (lambda: chunk_recursive("abc", 5, 7).chunks, "overlap", "7"),
        (_chunked("markdown", max_chars=-3, overlap_sentences=0), "max_chars", "-3"),
        (_chunked("markdown", max_chars=100, overlap_sentences=-1), "overlap_sentences", "-1"),
        (lambda: chunk_tokens("abc", _NoModel(), 0, 0).chunks, "size", "0"),
        (lambda: chunk_tokens("abc", _NoModel(), 4, 4).chunks, "overlap", "4"),
        (_semantic(threshold=1.5, percentile=None), "threshold", "1.5"),
        (_semantic(threshold=None, percentile=120.0), "percentile", "120.0"),
        (_semantic(threshold=None, percentile=None, max_chars=0), "max_chars", "0"),
    ],
)
def test_bad_parameters_raise_naming_parameter_and_value(
    call: Callable[[], object], parameter: str, value: str
) -> None:
    with pytest.raises(ValueError) as error:
        call()
    message = str(error.value)
    assert message.startswith(parameter) or f"{parameter}=" in message
    assert message.endswith(f"got {value}") or f"={value}" in message


def test_both_threshold_and_percentile_is_rejected_with_both_values() -> None:
    with pytest.raises(ValueError, match=r"threshold=0\.5, percentile=50\.0"):
        _semantic(threshold=0.5, percentile=50.0)()


def test_make_chunk_builds_the_chunk_the_dataclass_would() -> None:
    """make_chunk skips Chunk's __init__ for speed: the result must be the same object in
    every way the code uses one (fields, equality, hash, repr, replace), defaults included."""
    document = "Reembolso em 7 dias úteis. Fim."
    built = make_chunk(document, 3, 0, 26, heading_path=("Política",), source="a.md")
    direct = Chunk(3, 0, 26, document[:26], heading_path=("Política",), source="a.md")
    assert built == direct and hash(built) == hash(direct) and repr(built) == repr(direct)
    assert built.over_size is False and built.context_prefix == ""
    assert dataclasses.replace(built, index=4) == dataclasses.replace(direct, index=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.text = "changed"  # type: ignore[misc]
    assert not hasattr(Chunk, "__post_init__"), "make_chunk would skip it"


def test_make_chunk_refuses_a_field_chunk_does_not_have() -> None:
    with pytest.raises(TypeError, match="overlap"):
        make_chunk("abc", 0, 0, 3, overlap=1)
