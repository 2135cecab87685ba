"""The guided replay of the article: seven steps, each setting the controls and saying in two
or three sentences what the screen now shows.

Numbers in the texts are never written in: each step's text is filled from the live
analyses (``step_values``), and where a model tells another story than the article's (the
answer already wins, the groups overlap, the wifi question passes the floor) the step says
that one instead (``step_variants``), so every sentence stays true for whatever model is
loaded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ragviz.chunking import ChunkerConfig
from ragviz.i18n import t
from ragviz.present.presentation import decimal
from ragviz.present.render import boundary_kind
from ragviz.share.workspace import DEFAULT_CONFIG_A, DEFAULT_CONFIG_B

if TYPE_CHECKING:
    from ragviz.evaluation.calibration import Calibration
    from ragviz.evaluation.results import Analysis
    from ragviz.inputs.questions import LabelledQuestion

SAMPLE = "politica_reembolso"
REFUND_QUESTION = 0  # "Qual o prazo do reembolso?" in the sample's questions file
REFUND_SUBJECT = "Reembolso"  # the refund section's heading word, the question's subject
WIFI_QUESTION = 4  # "Qual a senha do wifi do escritório?"
FIXED = DEFAULT_CONFIG_A
SENTENCE = DEFAULT_CONFIG_B

FloorChoice = Literal["none", "calibrated"]
VARIANT = "variant."  # prefix of the step_values entries that pick a step's text variant
WALK_PARAM = "walk"  # the URL parameter that holds the open step (1-based)
STEP_NUMBER = re.compile(r"[0-9]{1,3}")


@dataclass(frozen=True)
class Step:
    """What one step sets on the page and where it points the audience."""

    key: str
    config: ChunkerConfig  # shown as configuration A while the step is on screen
    top_k: int
    floor: FloorChoice
    question: int | None  # the question the step is about (index in the sample)
    section: str  # "document", "questions", "calibration" or "map"

    def title(self, lang: str) -> str:
        return t(f"walk.{self.key}.title", lang)

    def body(self, lang: str, values: dict[str, str]) -> str:
        """The step's text; ``values[VARIANT + key]`` names the variant the facts call for."""
        variant = values.get(VARIANT + self.key, "")
        return t(f"walk.{self.key}.body{variant}", lang, **values)


STEPS: tuple[Step, ...] = (
    Step("fixed", FIXED, 2, "none", None, "document"),
    Step("cut", FIXED, 1, "none", REFUND_QUESTION, "questions"),
    Step("sentence", SENTENCE, 2, "none", REFUND_QUESTION, "questions"),
    Step("map", SENTENCE, 1, "none", REFUND_QUESTION, "map"),
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
    winner = int(refund_fixed.ranking[0])
    calibration = sentence.calibration
    return {
        "n_fixed": str(len(fixed.chunks)),
        "winner": str(winner),
        "winner_end": fixed.chunks[winner].text[-6:].strip(),
        "winner_score": _score(refund_fixed.best_score),
        "holder": str(_holder(fixed)),
        "sentence_winner": str(int(refund_sentence.ranking[0])),
        "sentence_score": _score(refund_sentence.best_score),
        "hit_fixed": _score(fixed.metrics.hit_at_1),
        "hit_sentence": _score(sentence.metrics.hit_at_1),
        "wifi_best": _score(wifi.best_score),
        "wifi_hits": str(len(wifi.hits)),
        "n_answerable": str(sum(o.question.is_answerable is True for o in sentence.outcomes)),
        **_calibration_values(calibration, language),
        **_cut_facts(fixed, language),
        **map_facts(fixed, sentence, language),
        **step_variants(fixed, sentence),
    }


def _calibration_values(calibration: Calibration | None, language: str) -> dict[str, str]:
    """The measured step's numbers, with as many decimals as make the shown margin the
    difference of the shown scores (0.48 and 0.52 must not give a margin of -0.03)."""
    if calibration is None:
        return {"lowest": "—", "highest": "—", "margin": "—", "floor": "—",
                "false_refusals": t("count.false_refusals", language, n=0),
                "false_answers": t("count.false_answers", language, n=0)}
    low, high = calibration.lowest_answerable, calibration.highest_unanswerable
    digits = next((d for d in range(2, 6)
                   if round(round(low, d) - round(high, d), d) == round(low - high, d)), 6)
    return {
        "lowest": decimal(low, digits, language),
        "highest": decimal(high, digits, language),
        "margin": decimal(low - high, digits, language),
        "floor": decimal(calibration.floor, max(digits, 2), language),
        "false_refusals": t("count.false_refusals", language, n=calibration.false_refusals),
        "false_answers": t("count.false_answers", language, n=calibration.false_answers),
    }


def _cut_facts(fixed: Analysis, language: str) -> dict[str, str]:
    """What the chunk that wins the refund question under fixed chunks holds: the subject
    word or not, and another labelled question's answer (the article's chunk #1 holds the
    boleto's "até três dias úteis": a deadline, the wrong one)."""
    other = _other_answer(fixed)
    subject = "subject" if REFUND_SUBJECT in _refund_winner(fixed) else "no_subject"
    return {
        "refund_answer": fixed.outcomes[REFUND_QUESTION].question.answer,
        "cut_subject": t(f"walk.cut.{subject}", language, word=REFUND_SUBJECT),
        "other_answer": other.answer if other else "",
        "other_question": other.question if other else "",
    }


def _refund_winner(analysis: Analysis) -> str:
    """The text of the chunk that wins the refund question."""
    return analysis.chunks[int(analysis.outcomes[REFUND_QUESTION].decision.ranking[0])].text


def _other_answer(analysis: Analysis) -> LabelledQuestion | None:
    """The first other answerable question whose whole answer the refund's winner holds."""
    winner = _refund_winner(analysis)
    refund = analysis.outcomes[REFUND_QUESTION].question
    return next((o.question for o in analysis.outcomes
                 if o.question.is_answerable and o.question.answer
                 and o.question != refund and o.question.answer in winner), None)


def step_variants(fixed: Analysis, sentence: Analysis) -> dict[str, str]:
    """Which text each step needs, from the measured facts: the article's text (``""``)
    when this model tells the article's story, a variant that says what happened when not."""
    winner = fixed.chunks[int(fixed.outcomes[REFUND_QUESTION].decision.ranking[0])]
    wifi = sentence.outcomes[WIFI_QUESTION].decision
    calibration = sentence.calibration
    return {
        VARIANT + "fixed": ""
        if boundary_kind(fixed.document, winner.end) == "word" else "_whole",
        VARIANT + "cut": _cut_variant(fixed),
        VARIANT + "sentence": "" if _answer_first(sentence) else "_missed",
        VARIANT + "map": "_found" if _answer_first(fixed)
        else "" if _answer_first(sentence) else "_missed",
        VARIANT + "measured": "" if calibration is None or calibration.separable else "_overlap",
        VARIANT + "refused": "" if wifi.refused else "_answered",
    }


def map_facts(fixed: Analysis, sentence: Analysis, language: str) -> dict[str, str]:
    """The map step's numbers: the refund question's cosine distance (1 - score) to each
    configuration's winner and to the nearest chunk holding the deadline, in the model's
    own space (the map only approximates it). Three decimals: the gaps are small."""
    def distance(analysis: Analysis, index: int | str) -> str:
        if not isinstance(index, int):
            return "—"
        score = float(analysis.outcomes[REFUND_QUESTION].decision.scores[index])
        return decimal(1.0 - score, 3, language)

    winner = int(fixed.outcomes[REFUND_QUESTION].decision.ranking[0])
    sentence_winner = int(sentence.outcomes[REFUND_QUESTION].decision.ranking[0])
    holder, sentence_holder = _nearest_holder(fixed), _nearest_holder(sentence)
    return {
        "map_winner_distance": distance(fixed, winner),
        "map_holder": str(holder),
        "map_holder_distance": distance(fixed, holder),
        "map_sentence_winner_distance": distance(sentence, sentence_winner),
        "map_sentence_holder": str(sentence_holder),
        "map_sentence_holder_distance": distance(sentence, sentence_holder),
    }


@dataclass(frozen=True)
class Distance:
    """One chunk the map step names: its configuration (``fixed`` or ``sentence``), its
    name, its cosine distance from the refund question, and whether it holds the deadline."""

    config: str
    chunk: str
    distance: float
    holds: bool


def map_distances(fixed: Analysis, sentence: Analysis) -> list[Distance]:
    """The winner and the nearest holder of the deadline of each configuration, once each."""
    out: list[Distance] = []
    for name, analysis in (("fixed", fixed), ("sentence", sentence)):
        decision = analysis.outcomes[REFUND_QUESTION].decision
        holder = _nearest_holder(analysis)
        for index in dict.fromkeys(i for i in (int(decision.ranking[0]), holder)
                                   if isinstance(i, int)):
            out.append(Distance(name, f"#{index}", 1.0 - decision.score(index),
                                index == holder))
    return out


def distance_domain(values: list[float]) -> tuple[float, float]:
    """The strip's axis: zoomed on the distances, so 0.552 and 0.566 lie a tenth of the
    axis apart or more instead of one pixel (an axis from 0 to 1 drew them on each other)."""
    low, high = min(values), max(values)
    pad = max((high - low) * 0.25, 0.005)
    return round(low - pad, 3), round(high + pad, 3)


def _nearest_holder(analysis: Analysis) -> int | str:
    """The best-ranked chunk holding the refund's deadline ("—" when none holds it)."""
    diagnosis = analysis.outcomes[REFUND_QUESTION].diagnosis
    if diagnosis is None or not diagnosis.holding_chunks:
        return "—"
    rank = {int(i): r for r, i in enumerate(
        analysis.outcomes[REFUND_QUESTION].decision.ranking.tolist())}
    return min(diagnosis.holding_chunks, key=lambda i: rank.get(i, len(rank)))


def step_from_query(query: Mapping[str, str]) -> int | None:
    """The step (0-based) a link's ``walk`` parameter opens, or None when it names none."""
    raw = query.get(WALK_PARAM, "")
    if not STEP_NUMBER.fullmatch(raw) or not 1 <= int(raw) <= len(STEPS):
        return None  # "²" passes str.isdigit() and breaks int(): ASCII digits only
    return int(raw) - 1


def step_query(query: Mapping[str, str], step: int | None) -> dict[str, str]:
    """``query`` with the open step in it (None: without any), every other parameter kept."""
    kept = {key: value for key, value in query.items() if key != WALK_PARAM}
    return kept if step is None else {**kept, WALK_PARAM: str(step + 1)}


def _cut_variant(fixed: Analysis) -> str:
    """The answer wins anyway; the winner holds another question's answer (the article's
    case: a wrong answer is likely); or it holds no labelled answer at all."""
    if _answer_first(fixed):
        return "_found"
    return "" if _other_answer(fixed) is not None else "_no_other"


def _answer_first(analysis: Analysis) -> bool:
    """Whether the refund question's best chunk holds its whole answer."""
    diagnosis = analysis.outcomes[REFUND_QUESTION].diagnosis
    return diagnosis is not None and diagnosis.answer_rank == 1


def _holder(analysis: Analysis) -> int | str:
    diagnosis = analysis.outcomes[REFUND_QUESTION].diagnosis
    if diagnosis is None or not diagnosis.holding_chunks:
        return "—"
    return diagnosis.holding_chunks[0]
