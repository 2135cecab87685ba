"""CSV downloads of an analysis: the chunk table and the per-question results.

CSV is what support staff paste into a ticket or a spreadsheet; a cell that starts like a
formula (OWASP: ``=``, ``+``, ``-``, ``@``, tab, CR) is prefixed with a quote so a spreadsheet
shows it instead of evaluating it; numbers in numeric columns stay numbers.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence

from ragviz.answering.run import AnswerSet, LLMResult
from ragviz.evaluation.measures import METRICS, metric_names
from ragviz.evaluation.results import Analysis, QuestionOutcome
from ragviz.i18n import render
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.answers import verdict_text
from ragviz.present.presentation import diagnosis_text

# OWASP's list: a spreadsheet may evaluate any cell that starts with one of these.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def guard_cell(value: object, numeric: bool = False) -> object:
    """A text cell that a spreadsheet could evaluate ("=SUM(...)", "+1+cmd|...", "-2+3",
    "@x", a leading tab or CR) gets a leading quote; in a numeric column a plain number such
    as "-0.1234" stays a number, and anything else there is guarded like text."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_STARTS):
        return value
    if numeric and _NUMBER.fullmatch(value):
        return value
    return "'" + value


def _write(
    header: Sequence[str], rows: Sequence[Sequence[object]], numeric: frozenset[str] = frozenset()
) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    numeric_columns = [name in numeric for name in header]
    for row in rows:
        writer.writerow([guard_cell(v, n) for v, n in zip(row, numeric_columns, strict=True)])
    return buffer.getvalue()


def chunks_csv(analysis: Analysis) -> str:
    """index, start, end, characters, tokens, over size, truncated at, text; with several
    files a ``file`` column after the index, since start and end are offsets in that file."""
    multi_file = analysis.corpus.multi_file
    rows = [
        (
            c.index,
            *((c.source,) if multi_file else ()),
            c.start,
            c.end,
            c.chars,
            analysis.chunk_tokens[c.index],
            c.over_size,
            "" if analysis.truncation[c.index] is None else analysis.truncation[c.index],
            " > ".join(c.heading_path),
            c.text,
        )
        for c in analysis.chunks
    ]
    header = ("index", *(("file",) if multi_file else ()), "start", "end", "characters",
              "tokens", "over_size", "truncated_at", "heading_path", "text")
    numeric = frozenset({"index", "start", "end", "characters", "tokens", "truncated_at"})
    return _write(header, rows, numeric)


# The LLM's columns (results_csv with answers, answers_csv), as ``eval --format csv`` names them.
LLM_COLUMNS = ("llm_model", "llm_verdict", "llm_verdict_text", "llm_chunk", "llm_answer",
               "llm_error", "llm_prompt_tokens", "llm_completion_tokens", "llm_latency_s")
_LLM_NUMERIC = frozenset({"llm_chunk", "llm_prompt_tokens", "llm_completion_tokens",
                          "llm_latency_s"})


def _llm_cells(answers: AnswerSet | None, position: int, language: str) -> tuple[object, ...]:
    """One question's LLM cells (all empty when it was not asked yet)."""
    result: LLMResult | None = None if answers is None else answers.results[position]
    if answers is None or result is None:
        return ("" if answers is None else answers.model, *[""] * (len(LLM_COLUMNS) - 1))
    reply = result.reply
    return (answers.model, result.verdict, verdict_text(result, language),
            "" if result.chunk is None else result.chunk,
            "" if result.answer is None else result.answer,
            "" if result.error is None else render(result.error, language),
            "" if reply is None or reply.prompt_tokens is None else reply.prompt_tokens,
            "" if reply is None or reply.completion_tokens is None else reply.completion_tokens,
            "" if reply is None else f"{reply.latency_s:.3f}")


def answers_csv(analyses: Sequence[Analysis], answers: Sequence[AnswerSet | None],
                language: str = "en") -> str:
    """The LLM's answers: one row per question and configuration asked, with the
    question, its expected answer, the verdict (code and words), the answer, the chunk it
    came from when wrong, tokens and latency. The answer is the model's text: guarded like
    any cell a spreadsheet could evaluate."""
    rows = [(analysis.config.label(), analysis.settings.scorer, outcome.question.question,
             outcome.question.answer,
             "" if outcome.question.is_answerable is None else outcome.question.is_answerable,
             *_llm_cells(asked, position, language))
            for analysis, asked in zip(analyses, answers, strict=True) if asked is not None
            for position, outcome in enumerate(analysis.outcomes)]
    header = ("configuration", "scorer", "question", "expected", "answerable", *LLM_COLUMNS)
    return _write(header, rows, _LLM_NUMERIC)


def results_csv(analyses: Sequence[Analysis], language: str = "en",
                answers: Sequence[AnswerSet | None] = ()) -> str:
    """One row per question and configuration: decision, scores, labels, explanation, and
    the question's value for every registered metric (empty where it does not count);
    with ``answers`` (one per analysis, None where not asked), the LLM's columns too."""
    asked = any(a is not None for a in answers)
    sets = list(answers) + [None] * (len(analyses) - len(answers))
    rows = []
    for analysis, answer_set in zip(analyses, sets, strict=True):
        for position, outcome in enumerate(analysis.outcomes):
            question = outcome.question
            decision = outcome.decision
            diagnosis = outcome.diagnosis
            rows.append(
                (
                    analysis.config.label(),
                    analysis.model,
                    question.question,
                    question.answer,
                    "" if question.is_answerable is None else question.is_answerable,
                    "refused" if decision.refused else "context",
                    f"{decision.best_score:.4f}" if decision.ranked else "",
                    " ".join(str(h.index) for h in decision.hits),
                    analysis.top_k,
                    f"{analysis.floor:.2f}",
                    analysis.settings.scorer,  # the scorer spec, its reranker included
                    analysis.settings.expand,
                    " ".join(diagnosis.labels) if diagnosis else "",
                    diagnosis_text(diagnosis, language) if diagnosis else "",
                    *_per_question(outcome),
                    *(_llm_cells(answer_set, position, language) if asked else ()),
                )
            )
    header = ("configuration", "model", "question", "answer", "answerable", "decision",
              "best_score", "hits", "top_k", "floor", "scorer", "expand", "labels",
              "explanation", *metric_names(), *(LLM_COLUMNS if asked else ()))
    return _write(header, rows, frozenset({"best_score", "top_k", "floor", "expand",
                                           *metric_names(), *_LLM_NUMERIC}))


def _per_question(outcome: QuestionOutcome) -> tuple[str, ...]:
    values = (metric.per_question(outcome) for metric in METRICS.values())
    return tuple("" if v is None else f"{v:.4f}" for v in values)


def questions_csv(questions: Iterable[LabelledQuestion]) -> str:
    """The one questions CSV writer (the app's download and ``parse_questions_csv``'s
    inverse): a ``references`` column when a question has excerpts, each keeping its file in
    ``source``; an unlabelled question's ``answerable`` left empty; cells guarded."""
    questions = list(questions)
    with_refs = any(q.references for q in questions)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer", "answerable"] + (["references"] if with_refs else []))
    for q in questions:
        flag = "" if q.answerable is None else ("true" if q.answerable else "false")
        refs = [json.dumps([r.to_dict() for r in q.references], ensure_ascii=False)]
        writer.writerow([guard_cell(q.question), guard_cell(q.answer), flag]
                        + (refs if with_refs else []))
    return buffer.getvalue()
