"""The guided replay: every step's text is filled from live analyses of the seed sample."""

from __future__ import annotations

import pytest

from ragviz.embedders import Embedder
from ragviz.i18n import LANGUAGES
from ragviz.pipeline import analyse
from ragviz.questions import LabelledQuestion
from ragviz.results import Analysis
from ragviz.walkthrough import FIXED, REFUND_QUESTION, SENTENCE, STEPS, WIFI_QUESTION, step_values


@pytest.fixture(scope="module")
def pair(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> tuple[Analysis, Analysis]:
    return (
        analyse(seed_doc, FIXED, use_model, seed_questions),
        analyse(seed_doc, SENTENCE, use_model, seed_questions),
    )


def test_step_questions_point_at_the_right_sample_questions(
    seed_questions: list[LabelledQuestion],
) -> None:
    assert "reembolso" in seed_questions[REFUND_QUESTION].question
    assert "wifi" in seed_questions[WIFI_QUESTION].question


def test_the_story_goes_fixed_then_sentence_then_floor() -> None:
    assert [s.config.chunker for s in STEPS[:2]] == ["fixed", "fixed"]
    assert all(s.config.chunker == "sentence" for s in STEPS[2:])
    assert [s.floor for s in STEPS][-1] == "calibrated"
    assert STEPS[1].top_k == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_text_is_filled_from_live_numbers(
    pair: tuple[Analysis, Analysis], lang: str
) -> None:
    values = step_values(*pair)
    for step in STEPS:
        body = step.body(lang, values)
        assert "{" not in body and step.title(lang)
        assert body.count(". ") + body.count(": ") + 1 >= 2


def test_values_tell_the_article_story(pair: tuple[Analysis, Analysis]) -> None:
    fixed, sentence = pair
    values = step_values(fixed, sentence)
    winner = int(values["winner"])
    assert "7 dias úteis" not in fixed.chunks[winner].text
    assert "7 dias úteis" in sentence.chunks[int(values["sentence_winner"])].text
    assert float(values["hit_fixed"]) < float(values["hit_sentence"])
    assert float(values["highest"]) < float(values["floor"]) <= float(values["lowest"])
    assert float(values["wifi_best"]) < float(values["floor"])
