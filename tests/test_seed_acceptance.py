"""The article's experiment on the real default model, as issue 2 states it."""

from __future__ import annotations

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.inputs.questions import LabelledQuestion

FIXED = ChunkerConfig("fixed", size=120, overlap=0)
SENTENCE = ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)
REFUND = "Qual o prazo do reembolso?"
WIFI = "Qual a senha do wifi do escritório?"


def _best(
    seed_doc: str, config: ChunkerConfig, model: Embedder, questions: list[LabelledQuestion]
) -> dict[str, tuple[float, str]]:
    analysis = analyse(seed_doc, config, model, questions)
    return {
        o.question.question: (o.decision.best_score, analysis.chunks[o.decision.ranking[0]].text)
        for o in analysis.outcomes
    }


def test_fixed_chunks_put_the_deadline_outside_the_top_chunk(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    _, top = _best(seed_doc, FIXED, use_model, seed_questions)[REFUND]
    assert "Reembolso" in top
    assert "7 dias úteis" not in top


def test_sentence_chunks_put_the_deadline_back(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    _, top = _best(seed_doc, SENTENCE, use_model, seed_questions)[REFUND]
    assert "Reembolso" in top and "7 dias úteis" in top


@pytest.mark.parametrize("config", [FIXED, SENTENCE], ids=["fixed", "sentence"])
def test_the_wifi_question_scores_below_every_answerable_question(
    use_model: Embedder,
    seed_doc: str,
    seed_questions: list[LabelledQuestion],
    config: ChunkerConfig,
) -> None:
    best = _best(seed_doc, config, use_model, seed_questions)
    answerable = [best[q.question][0] for q in seed_questions if q.is_answerable]
    assert len(answerable) == 4
    assert best[WIFI][0] < min(answerable)
