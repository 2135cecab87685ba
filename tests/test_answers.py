"""Locating expected answers in the document, exactly and forgivingly, by original offsets."""

from __future__ import annotations

import pytest

from ragviz.chunking.base import make_chunk
from ragviz.evaluation.answers import AnswerSpan, locate_answer
from ragviz.evaluation.chunk_table import ChunkTable

DOC = "O prazo é de até 7 dias  úteis após a confirmação. Reembolso em 7 dias úteis."


def test_exact_answer_gives_its_offsets() -> None:
    span = locate_answer(DOC, "até 7 dias")
    assert span == AnswerSpan(13, 23, exact=True)
    assert DOC[span.start : span.end] == "até 7 dias"


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        ("7 DIAS  ÚTEIS", "7 dias  úteis"),  # case
        ("ate 7 dias", "até 7 dias"),  # accents
        ("7 dias úteis após", "7 dias  úteis após"),  # whitespace runs
        ("  CONFIRMACAO ", "confirmação"),  # surrounding spaces, case and accents together
    ],
)
def test_forgiving_match_maps_back_to_original_text(answer: str, found: str) -> None:
    span = locate_answer(DOC, answer)
    assert span is not None
    assert not span.exact
    assert DOC[span.start : span.end] == found


def test_first_occurrence_wins() -> None:
    span = locate_answer("a x b x c", "x")
    assert span is not None
    assert span.start == 2


def test_exact_match_is_preferred_over_an_earlier_forgiving_one() -> None:
    span = locate_answer("Reembolso ... reembolso", "reembolso")
    assert span == AnswerSpan(14, 23, exact=True)


@pytest.mark.parametrize("answer", ["senha do wifi", "", "   "])
def test_missing_or_empty_answer_is_none(answer: str) -> None:
    assert locate_answer(DOC, answer) is None


def test_chunks_holding_need_the_whole_span() -> None:
    doc = "abcdefghij"
    chunks = [make_chunk(doc, 0, 0, 5), make_chunk(doc, 1, 3, 8), make_chunk(doc, 2, 8, 10)]
    span = AnswerSpan(3, 6, exact=True)  # "def"
    assert ChunkTable.of(chunks).holding(span) == (1,)
    assert ChunkTable.of(chunks).touching(span) == (0, 1)


def test_span_ending_at_chunk_end_is_held() -> None:
    doc = "abcdefghij"
    chunks = [make_chunk(doc, 0, 0, 5), make_chunk(doc, 1, 5, 10)]
    assert ChunkTable.of(chunks).holding(AnswerSpan(2, 5, exact=True)) == (0,)


def test_forgiving_match_keeps_a_trailing_combining_accent() -> None:
    import unicodedata

    from ragviz.evaluation.answers import locate_answer

    document = unicodedata.normalize("NFD", "Um texto sobre Café")
    span = locate_answer(document, "CAFE")
    assert span is not None
    assert document[span.start : span.end] == unicodedata.normalize("NFD", "Café")
