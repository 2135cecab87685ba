"""The LLM's answers and the other retrieval settings as people read them, in the report,
the downloads and the app: a verdict in words, the answers' metrics, the questions whose
verdict flips, what each setting fixes and breaks, and where a reranker moved a chunk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragviz.answering.run import AnswerSet, LLMMetrics, LLMResult, verdict_flips
from ragviz.answering.verdict import FAILED, NOT_ASKED, REFUSED_BY_LLM, WRONG_CHUNK
from ragviz.evaluation.results import Comparison, Flip, QuestionOutcome
from ragviz.i18n import decimal, grouped, render, t
from ragviz.retrieval.decision import rank

OK_VERDICTS = ("correct",)
QUIET_VERDICTS = ("not-asked", "answered")  # neither right nor wrong


def verdict_text(result: LLMResult, lang: str) -> str:
    """The verdict in words (a failed call: the sentence saying why)."""
    if result.verdict == FAILED:
        return t("llm.verdict.failed", lang, error=render(result.error, lang) if result.error
                 else "")
    if result.verdict == WRONG_CHUNK:
        return t(f"llm.verdict.{WRONG_CHUNK}", lang, chunk=f"#{result.chunk}")
    return t(f"llm.verdict.{result.verdict}", lang)


def right_verdict(verdict: str, answerable: bool | None) -> bool:
    """What should happen: a correct answer, or no answer to an unanswerable question."""
    if answerable is False:
        return verdict in (NOT_ASKED, REFUSED_BY_LLM)
    return verdict in OK_VERDICTS


def verdict_tone(verdict: str) -> str:
    """``ok``, ``quiet`` or ``bad``: the colour a verdict is shown in."""
    return "ok" if verdict in OK_VERDICTS else "quiet" if verdict in QUIET_VERDICTS else "bad"


def llm_metric_items(metrics: LLMMetrics, lang: str) -> list[tuple[str, str]]:
    """(name, value) of the answers' metrics: accuracy, the LLM's refusal precision and
    recall, calls and tokens ("—" where a metric has nothing to count)."""
    def part(value: float | None) -> str:
        return "—" if value is None else decimal(value, 2, lang)

    return [(t("llm.metric.accuracy", lang), part(metrics.answer_accuracy)),
            (t("llm.metric.refusal_precision", lang), part(metrics.refusal_precision)),
            (t("llm.metric.refusal_recall", lang), part(metrics.refusal_recall)),
            (t("llm.metric.calls", lang), grouped(metrics.calls, lang)),
            (t("llm.metric.tokens", lang), t("llm.metric.tokens_value", lang,
                                               prompt=grouped(metrics.prompt_tokens, lang),
                                               completion=grouped(metrics.completion_tokens,
                                                                  lang)))]


@dataclass(frozen=True)
class VerdictFlip:
    """A question whose verdict differs between A and B, in words."""

    position: int
    question: str
    a: str
    b: str
    a_text: str
    b_text: str
    direction: str  # fixed (right only in B), broken (right only in A) or changed


def verdict_flip_rows(outcomes: Sequence[QuestionOutcome], a: AnswerSet, b: AnswerSet,
                      lang: str) -> list[VerdictFlip]:
    """The questions whose verdict changes from A to B (both answered)."""
    rows = []
    for position, ra, rb in verdict_flips(a, b):
        answerable = outcomes[position].question.is_answerable
        right_a, right_b = (right_verdict(r.verdict, answerable) for r in (ra, rb))
        direction = "fixed" if right_b and not right_a else "broken" \
            if right_a and not right_b else "changed"
        rows.append(VerdictFlip(position, outcomes[position].question.question, ra.verdict,
                                rb.verdict, verdict_text(ra, lang), verdict_text(rb, lang),
                                direction))
    return rows


def fixed_and_broken(comparison: Comparison) -> tuple[list[Flip], list[Flip]]:
    """The flips B fixes (wrong in A, ok in B) and those it breaks."""
    return ([f for f in comparison.flips if f.direction == "fixed"],
            [f for f in comparison.flips if f.direction == "broken"])


def setting_sentence(setting: str, comparison: Comparison, lang: str) -> str:
    """"B's hybrid+rerank(sentence-max) fixes 2, breaks 0": what B's retrieval ``setting``
    does to A's failures (``setting`` as the caller made it safe to show)."""
    fixed, broken = fixed_and_broken(comparison)
    return t("app.setting_fixes_breaks", lang, setting=setting, fixes=len(fixed),
             breaks=len(broken))


def first_stage_ranks(outcome: QuestionOutcome) -> dict[int, int] | None:
    """Each chunk's rank before the reranker (None: the scorer has no rerank stage)."""
    if outcome.first_stage is None:
        return None
    return {int(index): position for position, index in
            enumerate(rank(outcome.first_stage).tolist(), start=1)}


def first_stage_note(outcome: QuestionOutcome, lang: str) -> str:
    """"the answer's chunk: first stage #7 → #1 after reranking" ("" without a reranker or
    without a chunk holding the answer)."""
    diagnosis = outcome.diagnosis
    if diagnosis is None or diagnosis.first_rank is None or diagnosis.answer_rank is None:
        return ""
    return t("chart.first_stage_note", lang, first=diagnosis.first_rank,
             rank=diagnosis.answer_rank)
