"""Ranking, the decision with a floor, and prompt assembly without repeated overlap."""

from __future__ import annotations

import numpy as np
import pytest

from ragviz.chunking.base import Chunk
from ragviz.retrieval.decision import build_prompt, decide, excerpts, rank
from ragviz.retrieval.scorers import get_scorer


def test_rank_breaks_ties_by_chunk_order() -> None:
    assert rank([0.5, 0.9, 0.5, 0.9]).tolist() == [1, 3, 0, 2]


def test_a_decision_keeps_its_scores_and_ranking_as_arrays() -> None:
    row = np.array([0.5, 0.9, 0.5], dtype=np.float32)
    decision = decide(row, top_k=2, floor=0.0)
    assert isinstance(decision.scores, np.ndarray) and decision.scores.dtype == np.float32
    assert isinstance(decision.ranking, np.ndarray) and decision.rank_of(2) == 3
    assert decision == decide(row.copy(), top_k=2, floor=0.0)
    assert decision != decide(row, top_k=1, floor=0.0)
    assert type(decision.hits[0].score) is float and type(decision.best_index) is int


def test_decide_returns_top_k_above_the_floor() -> None:
    decision = decide([0.1, 0.7, 0.4, 0.65], top_k=2, floor=0.5)
    assert [h.index for h in decision.hits] == [1, 3]
    assert not decision.refused


def test_decide_filters_top_k_by_the_floor() -> None:
    decision = decide([0.1, 0.7, 0.4], top_k=2, floor=0.5)
    assert [h.index for h in decision.hits] == [1]


def test_decide_refuses_when_everything_is_under_the_floor() -> None:
    decision = decide([0.2, 0.3], top_k=2, floor=0.41)
    assert decision.refused
    assert decision.best_score == pytest.approx(0.3)


def test_score_equal_to_the_floor_passes() -> None:
    assert not decide([0.41], top_k=1, floor=0.41).refused


def test_without_a_floor_top_k_always_returns_k() -> None:
    decision = decide([-0.2, -0.1, 0.0], top_k=2, floor=-1.0)
    assert len(decision.hits) == 2


def test_top_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="top_k must be a whole number of at least 1, got 0"):
        decide([0.1], top_k=0, floor=0.0)


def test_cosine_scores_are_dot_products_of_unit_rows() -> None:
    rows = np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32)
    query = np.array([0.6, 0.8], dtype=np.float32)
    cosine = get_scorer("cosine")
    [scores] = cosine.score_rows(cosine.prepare([], rows), ["q"], query[None, :])
    assert scores.tolist() == pytest.approx([0.6, 1.0])


DOC = "Alpha beta. Gamma delta. Epsilon zeta."
CHUNKS = [Chunk(0, 0, 24, DOC[0:24]), Chunk(1, 12, 38, DOC[12:38])]


def test_excerpts_drop_text_repeated_by_overlap() -> None:
    from ragviz.retrieval.decision import Hit

    texts = excerpts(CHUNKS, [Hit(0, 0.9), Hit(1, 0.8)])
    assert texts == ["Alpha beta. Gamma delta.", "Epsilon zeta."]
    assert sum(t.count("Gamma delta.") for t in texts) == 1


def test_excerpts_skip_a_chunk_wholly_inside_an_earlier_one() -> None:
    from ragviz.retrieval.decision import Hit

    inner = Chunk(2, 12, 24, DOC[12:24])
    assert excerpts([*CHUNKS, inner], [Hit(0, 0.9), Hit(2, 0.8)]) == ["Alpha beta. Gamma delta."]


def test_prompt_follows_the_article() -> None:
    from ragviz.retrieval.decision import Hit

    prompt = build_prompt("Qual?", CHUNKS, [Hit(1, 0.9)], language="pt")
    assert prompt == (
        "Responda usando APENAS os trechos abaixo. "
        "Se a resposta não estiver neles, diga que não sabe.\n\n"
        "Trechos:\nGamma delta. Epsilon zeta.\n\nPergunta: Qual?"
    )


def test_refusal_builds_no_prompt() -> None:
    assert build_prompt("Qual?", CHUNKS, []) is None


def test_outcome_in_words() -> None:
    from ragviz.present.presentation import decision_text

    assert decision_text(decide([0.1, 0.5, 0.45], 2, 0.2)) == "context: chunks 1, 2"
    assert decision_text(decide([0.17, 0.1], 2, 0.21)) == (
        "refused: best score 0.17 is under the floor 0.21"
    )
    assert decision_text(decide([0.17], 1, 0.21), "pt").startswith("recusada")


@pytest.mark.parametrize("floor", [float("nan"), float("inf")])
def test_floor_must_be_finite(floor: float) -> None:
    with pytest.raises(ValueError, match="floor must be a finite number"):
        decide([0.1], top_k=1, floor=floor)


def test_outcome_never_prints_equal_numbers_for_unequal_scores() -> None:
    from ragviz.present.presentation import decision_text

    assert decision_text(decide([0.2096], 2, 0.21)) == (
        "refused: best score 0.2096 is under the floor 0.2100"
    )


def test_a_table_rows_chunk_brings_its_header_into_the_prompt() -> None:
    from ragviz.retrieval.decision import Hit

    doc = "| City | Limit |\n|---|---|\n| Lisbon | 120 |\n| Porto | 90 |"
    rows = Chunk(0, 27, len(doc), doc[27:], context_prefix="| City | Limit |\n|---|---|\n")
    (excerpt,) = excerpts([rows], [Hit(0, 0.9)])
    assert excerpt.startswith("| City | Limit |")
    assert "| Porto | 90 |" in excerpt
