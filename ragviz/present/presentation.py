"""Facts into words: the one place that turns the core's results into English or Brazilian
Portuguese sentences and numbers.

The core (pipeline, diagnosis, calibration, experiments) speaks no language; the app, the
report, the CLI and the guided replay call these functions at display time, so switching
language never re-runs an analysis.

One display rule holds everywhere: numbers that belong together (a best score and the
floor it is compared with, a score and the winner it lost to) are written with the fewest
decimals, from two up to six, at which values that differ look different and no value
that is not zero looks like zero. Portuguese writes a decimal comma.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ragviz.chunking import Chunk, ChunkerConfig, specs
from ragviz.evaluation.calibration import Calibration
from ragviz.evaluation.diagnosis import (
    ANN_MISS,
    ANSWER_NOT_IN_DOCUMENT,
    ANSWER_SPLIT,
    ANSWER_TRUNCATED,
    BELOW_FLOOR,
    DUPLICATE_CROWDING,
    FALSE_CONTEXT,
    NO_EXPECTED_ANSWER,
    OK,
    OUTRANKED,
    OUTRANKED_BY_OTHER_DOCUMENT,
    RERANKED_OUT,
    UNANSWERABLE,
    Diagnosis,
)
from ragviz.evaluation.excerpts import LeftOut, TokenScores, Unfound
from ragviz.evaluation.measures import get_metric, metric_names
from ragviz.evaluation.results import Coverage, Metrics, QuestionOutcome, WhyFailed
from ragviz.i18n import SOURCE_LANGUAGE, STRINGS, grouped, joined, percent, t
from ragviz.i18n import decimal as decimal  # re-exported: the display rule's numbers
from ragviz.index.base import INDEX_CONFIG
from ragviz.inputs.documents import shorten
from ragviz.present.param_words import param_title
from ragviz.retrieval.decision import Decision, build_prompt, with_neighbours

FEWEST_DIGITS = 2
MOST_DIGITS = 6
QUOTED_CHARS = 120  # an excerpt quoted in a sentence


# --- numbers --------------------------------------------------------------------------


def distinct_digits(values: Iterable[float], fewest: int = FEWEST_DIGITS) -> int:
    """The fewest decimals (``fewest`` up to six) at which unequal values print unequal
    and no value that is not zero prints as zero: rounding keeps order, so a comparison's
    direction stays visible too."""
    finite = sorted({float(v) for v in values if math.isfinite(v)})
    for digits in range(fewest, MOST_DIGITS + 1):
        shown = [round(v, digits) for v in finite]
        distinct = len({f"{v:.{digits}f}" for v in finite}) == len(finite)
        if distinct and all(s != 0 or v == 0 for s, v in zip(shown, finite, strict=True)):
            return digits
    return MOST_DIGITS


def numbers(values: Sequence[float], language: str = "en",
            fewest: int = FEWEST_DIGITS) -> list[str]:
    """Related numbers written together under the display rule."""
    digits = distinct_digits(values, fewest)
    return [decimal(v, digits, language) for v in values]


def score_digits(scores: Sequence[float] | npt.NDArray[np.floating[Any]], floor: float, top_k: int,
                 fewest: int = 3) -> int:
    """The decimals of one question's scores: enough to tell apart the ones a reader
    compares (the top_k + 1 best, which decide what is sent, and the floor), not all of a
    long document's thousand, which would need six."""
    ordered = np.sort(np.asarray(scores, dtype=np.float64))  # an array of thousands: no lists
    head = ordered[::-1][: top_k + 1].tolist()
    return distinct_digits([*head, floor], fewest)


def _exact_digits(value: float) -> int:
    return 2 if abs(round(value, 2) - value) < 1e-9 else 3


def format_score(value: float, language: str = "en") -> str:
    """A number shown alone: two decimals when that is exact (0.41), else three (0.128)."""
    return decimal(value, _exact_digits(value), language)


def share(value: float | None, language: str = "en") -> str:
    """A metric between 0 and 1 with two decimals, "–" when there is nothing to measure."""
    return "–" if value is None else decimal(value, 2, language)


def metric_label(name: str, language: str = "en", short: bool = False, k: int = 1) -> str:
    """A registered metric's name in the reader's language (``metric.NAME``, or
    ``metric_short.NAME`` where space is short); a metric the catalog does not know is
    written by its name."""
    key = f"metric_short.{name}" if short else f"metric.{name}"
    return t(key, language, k=k) if key in STRINGS else name


def shown_metrics(top_k: int) -> list[str]:
    """The registered metrics a display lists at ``top_k``: hit@k is hit@1 when k is 1, so
    it is left out there (a report and a table said "hit@1" twice)."""
    return [name for name in metric_names() if not (name == "hit_at_k" and top_k == 1)]


def metric_text(name: str, value: float | None, language: str = "en") -> str:
    """A metric's value as the metric asks to be written: a whole percentage, or a share
    with two decimals; "–" when no question counted."""
    if value is None:
        return "–"
    if get_metric(name).display == "percent":
        return f"{value:.0%}"
    return share(value, language)


def answerable_refused(metrics: Metrics, language: str = "en") -> str:
    """The floor's cost (answerable questions it refuses), written next to the figures in
    the app, the report and the CLI; "" when no question is labelled answerable."""
    if not metrics.answerable:
        return ""
    return t("app.answerable_refused", language, n=metrics.answerable_refused,
             total=metrics.answerable)


# --- names ----------------------------------------------------------------------------


def label_name(label: str, language: str = "en") -> str:
    """A diagnosis label as the reader's language names it (the label stays the data)."""
    return t(f"label.{label}", language)


def param_name(name: str, language: str = "en") -> str:
    """A chunker parameter's display name (``max_chars`` -> "máx. caracteres")."""
    key = f"param_name.{name}"
    if key in STRINGS:
        return t(key, language)
    if language == SOURCE_LANGUAGE:
        return name  # English shows the identifier, as config.label() does
    for spec in specs():  # a newer chunker names its parameters in its own spec
        for param in spec.params:
            if param.name == name:
                return param_title(param, language)
    return name


def config_text(config: ChunkerConfig, language: str = "en") -> str:
    """A configuration for reading: ``config.label()`` in English, translated parameter
    names and decimal commas in Portuguese; a production index's chunks by that name."""
    if config == INDEX_CONFIG:
        return t("idx.index_config", language)
    if language == SOURCE_LANGUAGE:
        return config.label()
    shown = {k: v for k, v in config.params().items() if v is not None}
    inner = ", ".join(
        f"{param_name(k, language)}="
        f"{decimal(v, distinct_digits([v], 1), language) if isinstance(v, float) else v}"
        for k, v in shown.items()
    )
    return f"{config.chunker}({inner})"


def chunk_name(index: int) -> str:
    """Chunks are shown by their 0-based index, as the app labels them."""
    return f"#{index}"


def chunk_list(indices: Sequence[int], language: str) -> str:
    names = ", ".join(chunk_name(i) for i in indices)
    key = "diagnosis.chunk_one" if len(indices) == 1 else "diagnosis.chunk_many"
    return t(key, language, chunks=names)


# --- one question ---------------------------------------------------------------------


def question_numbers(decision: Decision, diagnosis: Diagnosis | None = None) -> list[float]:
    """The numbers said about one question: its best score, the floor, and when the answer
    was outranked its score, the winner's and the gap."""
    values = [decision.floor]
    if decision.ranked:
        values.append(decision.best_score)
    if diagnosis is not None:
        values += _diagnosis_numbers(diagnosis)
    return values


def _diagnosis_numbers(diagnosis: Diagnosis) -> list[float]:
    """The numbers a diagnosis says beyond the best score and the floor."""
    values: list[float] = []
    if diagnosis.outranked is not None:
        lost = diagnosis.outranked
        values += [lost.score, lost.winner_score, lost.gap]
    if diagnosis.floor_gap is not None and diagnosis.missing_score is not None:
        values += [diagnosis.missing_score, diagnosis.floor_gap]
    return values


def question_digits(decision: Decision, diagnosis: Diagnosis | None = None) -> int:
    """Decimals for every number said about one question, verdict and diagnosis alike."""
    return distinct_digits(question_numbers(decision, diagnosis))


def decision_text(decision: Decision, language: str = "en", digits: int | None = None) -> str:
    """The outcome in words: "context: chunks 3, 4" or "refused: best score 0.17 is under
    the floor 0.21"."""
    if decision.nothing_matched:
        return t("outcome.nothing_matched", language)
    if decision.refused:
        digits = question_digits(decision) if digits is None else digits
        best = decimal(decision.best_score, digits, language) if decision.ranked else "—"
        return t("outcome.refused", language, best=best,
                 floor=decimal(decision.floor, digits, language))
    key = "outcome.context_one" if len(decision.hits) == 1 else "outcome.context"
    return t(key, language, chunks=", ".join(str(h.index) for h in decision.hits))


def _in_file(name: str, source: str, diagnosis: Diagnosis) -> str:
    """``#3 (refunds.md)`` when the corpus has several files, else ``#3``."""
    return f"{name} ({source})" if diagnosis.files > 1 and source else name


def _best_values(diagnosis: Diagnosis, digits: int, language: str) -> dict[str, str]:
    best = diagnosis.best_chunk
    return {
        "chunk": _in_file(chunk_name(best), diagnosis.best_source, diagnosis)
        if best is not None else "—",
        "score": "—" if diagnosis.best_score is None
        else decimal(diagnosis.best_score, digits, language),
        "floor": decimal(diagnosis.floor, digits, language),
    }


def _ok_sentence(diagnosis: Diagnosis, best: dict[str, str], language: str) -> str:
    if diagnosis.kind == UNANSWERABLE:
        files = "_files" if diagnosis.files > 1 else ""
        return t(f"diagnosis.ok_refused{files}", language, **best)
    unfloored = "" if diagnosis.floored else "_no_floor"  # "passes the floor -1.00" said nothing
    if diagnosis.kind == NO_EXPECTED_ANSWER:
        return t(f"diagnosis.ok_no_expected_answer{unfloored}", language, **best)
    places = joined((t("diagnosis.at_rank", language, chunk=chunk_name(chunk), rank=rank)
                     for chunk, rank in diagnosis.in_context), language)
    if diagnosis.excerpts > 1:
        return t("diagnosis.ok_excerpts", language, total=diagnosis.excerpts, places=places)
    if diagnosis.answer_rank != 1:  # in the context, but not whole in the first chunk
        return t("diagnosis.ok_in_context", language, answer=_quoted(diagnosis.answer),
                 places=places, **best)
    return t(f"diagnosis.ok_answered{unfloored}", language, answer=diagnosis.answer, **best)


def _quoted(text: str) -> str:
    """An excerpt quoted in a sentence: a long one cut, so a sentence stays one."""
    return shorten(" ".join(text.split()), QUOTED_CHARS)


def _gap(value: float, digits: int, language: str) -> str:
    """A difference under the display rule, its trailing zeros dropped down to two
    decimals: "3.000 below" read as three thousand."""
    while digits > FEWEST_DIGITS and round(value, digits - 1) == round(value, digits):
        digits -= 1
    return decimal(value, digits, language)


def _missing_lead(diagnosis: Diagnosis, language: str) -> str:
    """The sentence before a failure's first: which excerpt did not reach the context whole
    (several excerpts), or how much of the one answer did ("" when none of it did, or when
    ``answer-split`` says it)."""
    share = diagnosis.sent_share
    if diagnosis.missing_excerpt is None or share is None:
        return ""
    if diagnosis.excerpts > 1:
        return t("diagnosis.missing_excerpt", language, n=diagnosis.missing_excerpt,
                 total=diagnosis.excerpts, share=percent(share, language))
    if share > 0 and diagnosis.primary != ANSWER_SPLIT:
        return t("diagnosis.missing_part", language, share=percent(share, language))
    return ""


def _label_sentence(diagnosis: Diagnosis, label: str, digits: int, language: str) -> str:
    best = _best_values(diagnosis, digits, language)
    if label == OK:
        return _ok_sentence(diagnosis, best, language)
    if label == FALSE_CONTEXT:
        files = "_files" if diagnosis.files > 1 else ""
        unfloored = "" if diagnosis.floored else "_no_floor"
        return t(f"diagnosis.false_context{files}{unfloored}", language, **best)
    if label == BELOW_FLOOR and diagnosis.floor_gap is not None and diagnosis.best_score \
            is not None and diagnosis.best_score >= diagnosis.floor:
        return _answer_below_floor(diagnosis, best, digits, language)
    if label in (BELOW_FLOOR, FALSE_CONTEXT):
        return t(f"diagnosis.{label.replace('-', '_')}", language, **best)
    if label == ANSWER_NOT_IN_DOCUMENT and diagnosis.files > 1:
        return t("diagnosis.answer_not_in_any_file", language, answer=diagnosis.answer,
                 files=diagnosis.files)
    if label == ANSWER_NOT_IN_DOCUMENT:
        return t("diagnosis.answer_not_in_document", language, answer=diagnosis.answer)
    if label == ANSWER_SPLIT:
        return _split_sentence(diagnosis, language)
    if label == ANSWER_TRUNCATED:
        source = "" if diagnosis.answer_span is None else diagnosis.answer_span.source
        return t("diagnosis.answer_truncated", language, answer=diagnosis.answer,
                 chunks=_in_file(chunk_list(diagnosis.holding_chunks, language), source,
                                 diagnosis))
    if label == RERANKED_OUT and diagnosis.outranked is not None:
        lost = diagnosis.outranked
        return t("diagnosis.reranked_out", language, chunk=chunk_name(lost.chunk),
                 first=lost.first_rank, rank=lost.rank, top_k=diagnosis.top_k)
    if label == ANN_MISS and diagnosis.ann_miss is not None:
        miss = diagnosis.ann_miss
        return t("diagnosis.ann_miss", language, chunk=chunk_name(miss.chunk), rank=miss.rank,
                 top_k=diagnosis.top_k, recall=decimal(miss.recall, 2, language),
                 settings=miss.settings)
    if label == DUPLICATE_CROWDING:
        return t("diagnosis.duplicate_crowding", language,
                 chunks=chunk_list(diagnosis.crowding, language),
                 places=len(diagnosis.crowding), top_k=diagnosis.top_k)
    if label in (OUTRANKED, OUTRANKED_BY_OTHER_DOCUMENT) and diagnosis.outranked is not None:
        return _outranked_sentence(diagnosis, label, digits, language)
    raise ValueError(f"no sentence for the diagnosis label {label!r}")


def _outranked_sentence(diagnosis: Diagnosis, label: str, digits: int, language: str) -> str:
    """The chunk that should have brought the answer (or its part left out) lost to the
    first; a first chunk that holds part of the answer is said as such, not as a stranger."""
    lost = diagnosis.outranked
    assert lost is not None
    if math.isnan(lost.score):  # never scored: not among what the ranking returned
        return t("diagnosis.outranked_unscored", language, chunk=chunk_name(lost.chunk),
                 winner=chunk_name(lost.winner),
                 winner_score=decimal(lost.winner_score, digits, language))
    key = f"diagnosis.{label.replace('-', '_')}" + ("_part" if lost.part else "")
    if lost.winner_share > 0 and label == OUTRANKED:
        key = "diagnosis.outranked_part_by_part" if lost.part else "diagnosis.outranked_by_part"
    return t(key, language, chunk=chunk_name(lost.chunk), rank=lost.rank,
             score=decimal(lost.score, digits, language), gap=_gap(lost.gap, digits, language),
             winner=chunk_name(lost.winner), top_k=diagnosis.top_k,
             winner_score=decimal(lost.winner_score, digits, language),
             about=lost.winner_about, source=lost.source, winner_source=lost.winner_source,
             share=percent(lost.winner_share, language))


def _split_sentence(diagnosis: Diagnosis, language: str) -> str:
    """No chunk holds the answer whole: which chunks it straddles, and what of it the
    context got and left out."""
    first, last = diagnosis.split_between
    source = "" if diagnosis.answer_span is None else diagnosis.answer_span.source
    values = {"answer": _quoted(diagnosis.answer), "first": chunk_name(first),
              "last": _in_file(chunk_name(last), source, diagnosis)}
    if not diagnosis.part_sent:
        return t("diagnosis.answer_split", language, **values)
    return t("diagnosis.answer_split_part", language, **values,
             sent=_quoted(diagnosis.part_sent), missing=_quoted(diagnosis.part_missing),
             share=percent(diagnosis.sent_share or 0.0, language))


def _answer_below_floor(diagnosis: Diagnosis, best: dict[str, str], digits: int,
                        language: str) -> str:
    """The answer's chunk is under the floor while another chunk passes it: inside top_k
    the floor alone keeps it out; outside, a larger top_k alone would not bring it in."""
    rank = diagnosis.missing_rank or 0
    chunk = diagnosis.outranked.chunk if diagnosis.outranked else diagnosis.best_chunk
    source = diagnosis.outranked.source if diagnosis.outranked else diagnosis.best_source
    key = "diagnosis.answer_below_floor" if rank <= diagnosis.top_k \
        else "diagnosis.answer_below_floor_outside"
    return t(key, language, chunk=_in_file(chunk_name(chunk or 0), source, diagnosis),
             rank=rank, top_k=diagnosis.top_k, floor=best["floor"],
             score=decimal(diagnosis.missing_score or 0.0, digits, language),
             gap=_gap(diagnosis.floor_gap or 0.0, digits, language))


def diagnosis_sentences(
    diagnosis: Diagnosis, language: str = "en", digits: int | None = None
) -> tuple[str, ...]:
    """One sentence per label, numbers under the display rule (``digits`` from
    ``question_digits`` when the verdict is shown next to them)."""
    if digits is None:
        values = [diagnosis.floor]
        if diagnosis.best_score is not None:
            values.append(diagnosis.best_score)
        digits = distinct_digits(values + _diagnosis_numbers(diagnosis))
    said = tuple(_label_sentence(diagnosis, label, digits, language)
                 for label in diagnosis.labels)
    lead = _missing_lead(diagnosis, language)
    if lead:
        said = (f"{lead} {said[0]}", *said[1:])
    moved = diagnosis.first_rank is not None and diagnosis.answer_rank is not None \
        and diagnosis.first_rank != diagnosis.answer_rank and RERANKED_OUT not in diagnosis.labels
    if moved:
        said += (t("diagnosis.reranked_moved", language, first=diagnosis.first_rank,
                   rank=diagnosis.answer_rank),)
    return said


def diagnosis_text(diagnosis: Diagnosis, language: str = "en", digits: int | None = None) -> str:
    """The diagnosis as one paragraph."""
    return " ".join(diagnosis_sentences(diagnosis, language, digits))


def outcome_texts(outcome: QuestionOutcome, language: str = "en") -> tuple[str, str]:
    """(verdict, explanation) of one question with the same decimals in both."""
    digits = question_digits(outcome.decision, outcome.diagnosis)
    verdict = decision_text(outcome.decision, language, digits)
    if outcome.tokens is not None:
        verdict += " · " + token_text(outcome.tokens, language)
    diagnosis = outcome.diagnosis
    return verdict, "" if diagnosis is None else diagnosis_text(diagnosis, language, digits)


def token_text(tokens: TokenScores, language: str = "en") -> str:
    """Recall and IoU of one question, and the excerpts missed when it has several."""
    line = t("tokens.line", language, recall=f"{tokens.recall:.0%}", iou=f"{tokens.iou:.0%}")
    if tokens.excerpts > 1 and tokens.missed_excerpts:
        numbers = ", ".join(str(n) for n in tokens.missed_excerpts)
        line += " · " + t("tokens.missed", language, numbers=numbers, total=tokens.excerpts)
    return line


def unfound_text(why: Unfound, language: str = "en") -> str:
    """Why a labelled excerpt is not in the corpus, in a clause (no line, no full stop)."""
    if why.kind == "no-file":
        return t("excerpt.no_file", language, file=repr(why.source))
    if why.kind == "offsets":
        return t("excerpt.offsets", language, start=shorten(str(why.start), 20),
                 end=shorten(str(why.end), 20),  # a 4,000-digit offset is not echoed whole
                 file=why.source or t("excerpt.the_file", language))
    return t("excerpt.text", language)


def left_out_text(left: LeftOut, language: str = "en", row: bool = False) -> str:
    """One sentence naming a question left out of the evaluation, its line in the file (its
    ``row`` in the app's table) and why its excerpt was not found."""
    why = unfound_text(left.why, language)
    if row and left.line is not None:
        return t("excerpt.left_out_row", language, row=left.line, question=left.question,
                 n=left.excerpt, why=why)
    where = (t("excerpt.line", language, line=left.line) if left.line
             else t("excerpt.question", language, question=repr(left.question)))
    return t("excerpt.left_out", language, where=where, n=left.excerpt, why=why)


def coverage_line(coverage: Coverage, language: str = "en") -> str:
    """How many of the questions given were evaluated: every number is over those."""
    return t("coverage.evaluated", language, evaluated=grouped(coverage.evaluated, language),
             given=grouped(coverage.given, language))


def coverage_sentences(coverage: Coverage, language: str = "en") -> list[str]:
    """Why the questions not evaluated were left out, one sentence per reason (a reason
    with one question names its row, as ``left_out_text``)."""
    said: list[str] = []
    for kind, rows in coverage.groups().items():
        if len(rows) == 1:
            said.append(left_out_text(rows[0], language))
            continue
        first = rows[0]
        where = (t("excerpt.line", language, line=first.line) if first.line
                 else t("excerpt.question", language, question=repr(first.question)))
        names = list(dict.fromkeys(repr(r.why.source) for r in rows))
        files = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
        said.append(t(f"coverage.{kind}", language, n=grouped(len(rows), language),
                      where=where, files=files))
    return said


def prompt_text(outcome: QuestionOutcome, chunks: Sequence[Chunk],
                language: str = "en", expand: int = 0) -> str | None:
    """The prompt the language model would get, with the instructions in ``language`` and
    the ``expand`` neighbours of every hit; None when retrieval refused (no model call)."""
    hits, _added = with_neighbours(chunks, outcome.decision, expand)
    return build_prompt(outcome.question.question, chunks, hits, language)


# --- calibration and experiments ------------------------------------------------------


def calibration_message(calibration: Calibration, language: str = "en") -> str:
    """One plain sentence (two when overlapping) about what the floor does."""
    fewest = _exact_digits(calibration.floor)  # the floor is never shown rounded away
    floor, lowest, highest = numbers(
        [calibration.floor, calibration.lowest_answerable, calibration.highest_unanswerable],
        language, fewest)
    margin = format_score(calibration.margin, language)
    key = "calibration.separable" if calibration.separable else "calibration.overlap"
    return t(key, language, floor=floor, lowest=lowest, highest=highest, margin=margin,
             false_refusals=t("count.false_refusals", language, n=calibration.false_refusals),
             false_answers=t("count.false_answers", language, n=calibration.false_answers))


def why_failed_text(result: WhyFailed, language: str = "en") -> str:
    """What "why did this fail?" found, in words."""
    if result.diagnosis.ok:
        return t("why.already_ok", language, config=config_text(result.current, language))
    if result.fix is None:
        return t("why.no_fix", language)
    detail = "" if result.fix_diagnosis is None else diagnosis_text(result.fix_diagnosis,
                                                                     language)
    return t("why.fix", language, n=result.kept, config=config_text(result.fix, language),
             detail=detail)
