"""The guided replay of the article: six steps, each setting the controls and saying in two
or three sentences what the screen now shows.

Numbers in the texts are never written in: each step's text is filled from the live
analyses (``step_values``), so the story stays true for whatever model is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ragviz.chunking import ChunkerConfig
from ragviz.i18n import t
from ragviz.presentation import decimal
from ragviz.workspace import DEFAULT_CONFIG_A, DEFAULT_CONFIG_B

if TYPE_CHECKING:
    from ragviz.results import Analysis

SAMPLE = "politica_reembolso"
REFUND_QUESTION = 0  # "Qual o prazo do reembolso?" in the sample's questions file
WIFI_QUESTION = 4  # "Qual a senha do wifi do escritório?"
FIXED = DEFAULT_CONFIG_A
SENTENCE = DEFAULT_CONFIG_B

FloorChoice = Literal["none", "calibrated"]


@dataclass(frozen=True)
class Step:
    """What one step sets on the page and where it points the audience."""

    key: str
    config: ChunkerConfig  # shown as configuration A while the step is on screen
    top_k: int
    floor: FloorChoice
    question: int | None  # the question the step is about (index in the sample)
    section: str  # "document", "questions" or "calibration"

    def title(self, lang: str) -> str:
        return t(f"walk.{self.key}.title", lang)

    def body(self, lang: str, values: dict[str, str]) -> str:
        return t(f"walk.{self.key}.body", lang, **values)


STEPS: tuple[Step, ...] = (
    Step("fixed", FIXED, 2, "none", None, "document"),
    Step("cut", FIXED, 1, "none", REFUND_QUESTION, "questions"),
    Step("sentence", SENTENCE, 2, "none", REFUND_QUESTION, "questions"),
    Step("context", SENTENCE, 2, "none", WIFI_QUESTION, "questions"),
    Step("measured", SENTENCE, 2, "none", None, "calibration"),
    Step("refused", SENTENCE, 2, "calibrated", WIFI_QUESTION, "questions"),
)


def step_values(fixed: Analysis, sentence: Analysis, language: str = "en") -> dict[str, str]:
    """Live numbers for the step texts, from the fixed and the sentence analyses of the
    sample (questions in the sample's order), written as ``language`` writes numbers."""

    def _score(value: float | None) -> str:
        return "—" if value is None else decimal(value, 2, language)

    refund_fixed = fixed.outcomes[REFUND_QUESTION].decision
    refund_sentence = sentence.outcomes[REFUND_QUESTION].decision
    wifi = sentence.outcomes[WIFI_QUESTION].decision
    winner = refund_fixed.ranking[0]
    calibration = sentence.calibration
    return {
        "n_fixed": str(len(fixed.chunks)),
        "winner": str(winner),
        "winner_end": fixed.chunks[winner].text[-6:].strip(),
        "winner_score": _score(refund_fixed.best_score),
        "holder": str(_holder(fixed)),
        "sentence_winner": str(refund_sentence.ranking[0]),
        "sentence_score": _score(refund_sentence.best_score),
        "hit_fixed": _score(fixed.metrics.hit_at_1),
        "hit_sentence": _score(sentence.metrics.hit_at_1),
        "wifi_best": _score(wifi.best_score),
        "wifi_hits": str(min(sentence.top_k, len(sentence.chunks))),
        "lowest": _score(calibration.lowest_answerable if calibration else None),
        "highest": _score(calibration.highest_unanswerable if calibration else None),
        "margin": _score(calibration.margin if calibration else None),
        "floor": _score(calibration.floor if calibration else None),
    }


def _holder(analysis: Analysis) -> int | str:
    diagnosis = analysis.outcomes[REFUND_QUESTION].diagnosis
    if diagnosis is None or not diagnosis.holding_chunks:
        return "—"
    return diagnosis.holding_chunks[0]
