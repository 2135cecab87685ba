"""CSV downloads of an analysis: the chunk table and the per-question results.

CSV is what support staff paste into a ticket or a spreadsheet; a cell that starts like a
formula is prefixed with a quote so a spreadsheet shows it instead of evaluating it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

from ragviz.presentation import diagnosis_text
from ragviz.results import Analysis

_FORMULA = re.compile(r"[=@\t\r]|[+-][^\s\d]")


def _cell(value: object) -> object:
    """A cell a spreadsheet would evaluate ("=SUM(...)", "+cmd", "-A1", "@x") gets a
    leading quote; ordinary text such as "- item" or "-5 %" is left exactly as it is."""
    if isinstance(value, str) and _FORMULA.match(value):
        return "'" + value
    return value


def _write(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return buffer.getvalue()


def chunks_csv(analysis: Analysis) -> str:
    """index, start, end, characters, tokens, over size, truncated at, text."""
    rows = [
        (
            c.index,
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
    header = ("index", "start", "end", "characters", "tokens", "over_size", "truncated_at",
              "heading_path", "text")
    return _write(header, rows)


def results_csv(analyses: Sequence[Analysis], language: str = "en") -> str:
    """One row per question and configuration: decision, scores, labels, explanation."""
    rows = []
    for analysis in analyses:
        for outcome in analysis.outcomes:
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
                    f"{decision.best_score:.4f}" if decision.ranking else "",
                    " ".join(str(h.index) for h in decision.hits),
                    analysis.top_k,
                    f"{analysis.floor:.2f}",
                    " ".join(diagnosis.labels) if diagnosis else "",
                    diagnosis_text(diagnosis, language) if diagnosis else "",
                )
            )
    header = ("configuration", "model", "question", "answer", "answerable", "decision",
              "best_score", "hits", "top_k", "floor", "labels", "explanation")
    return _write(header, rows)
