"""A self-contained HTML report of an analysis, to attach to a ticket or open offline.

No script and no external resource: charts are inline SVG, styles are inline, and a
Content-Security-Policy forbids scripts, so nothing in the user's text can run even if it
looks like HTML. The page is a Jinja2 template (``report.html.j2``) with autoescape on, so
every value is escaped unless this module marks it as HTML it made (the highlighted document,
the charts' macros).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from jinja2 import Environment, StrictUndefined
from markupsafe import Markup

from ragviz.answering.run import AnswerSet, LLMResult
from ragviz.evaluation.calibration import Calibration
from ragviz.evaluation.diagnosis import LABELS
from ragviz.evaluation.results import Analysis, Comparison, Coverage, Metrics, QuestionOutcome
from ragviz.evaluation.settings_study import SettingStudy
from ragviz.i18n import Grouped, grouped, language_tag, t
from ragviz.present.answers import (
    first_stage_note,
    first_stage_ranks,
    fixed_and_broken,
    llm_metric_items,
    verdict_flip_rows,
    verdict_text,
    verdict_tone,
)
from ragviz.present.label_words import glossary, hover_text
from ragviz.present.map_svg import map_svg
from ragviz.present.palette import FLOOR, HIT, OTHER, UNDER_FLOOR
from ragviz.present.presentation import (
    answerable_refused,
    calibration_message,
    config_text,
    coverage_line,
    coverage_sentences,
    decimal,
    format_score,
    label_name,
    metric_label,
    metric_text,
    numbers,
    outcome_texts,
    prompt_text,
    score_digits,
    share,
    shown_metrics,
)
from ragviz.present.render import highlight_document, legend
from ragviz.projection.space import SpaceMap
from ragviz.retrieval.scorers import get_scorer

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

STYLE = """
body{font-family:system-ui,sans-serif;max-width:1200px;margin:24px auto;padding:0 16px;
color:#111827;line-height:1.45}
h1{font-size:1.8rem;margin-bottom:4px}h2{margin-top:32px;border-bottom:2px solid #e5e7eb}
.meta{color:#4b5563}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:24px}
.metric{display:inline-block;margin:0 18px 8px 0}
.metric b{display:block;font-size:2rem}
.metric.big b{font-size:2.8rem}
.q{border:1px solid #e5e7eb;border-radius:8px;padding:10px 14px;margin:12px 0}
.q h3{margin:0 0 6px;font-size:1.1rem}
.ok{color:#047857}.bad{color:#b91c1c}.quiet{color:#4b5563}
.llm-metrics .metric b{font-size:1.3rem}
.label{display:inline-block;border-radius:10px;padding:0 8px;margin-right:6px;
font-size:.85rem;background:#fee2e2;color:#991b1b;cursor:help}
.label.ok{background:#d1fae5;color:#065f46}
pre{white-space:pre-wrap;background:#f9fafb;border:1px solid #e5e7eb;padding:8px}
table{border-collapse:collapse}td,th{border:1px solid #e5e7eb;padding:4px 8px;text-align:left}
.flip{background:#fef3c7}
body .rv-doc{max-height:none;overflow:visible}
.bars-key{font-size:.85rem;color:#374151;margin:2px 0 6px}
.bars-key span{display:inline-block;margin-right:12px}
.bars-key i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px}
@media print{body{max-width:none;margin:0}.q,svg,table{break-inside:avoid}
h2,h3{break-after:avoid}}
"""
# A report is read top to bottom, printed or shot as one page: the document box of the
# app (560 px, scrolling) is opened up so every chunk is on the page.

# Past this many questions the report lists them in a table and draws only the worst in full
# (a thousand chart pairs make a page no browser scrolls); past this many chunks a question's
# bars are the best ones, the rest counted (as in the app's charts).
DRAWN_QUESTIONS = 20
MAX_BARS = 40
_BAR_HEIGHT = 18
_CHART_WIDTH = 460
_LABEL_WIDTH = 56
_FILE_LABEL_WIDTH = 160
_FILE_LABEL_CHARS = 26


@lru_cache(maxsize=1)
def _macros() -> Any:
    """The template's macros; autoescape on, and a missing value is an error, not ""."""
    env = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True,
                      undefined=StrictUndefined)
    text = resources.files("ragviz.present").joinpath("report.html.j2").read_text("utf-8")
    return env.from_string(text).module


def _metrics_html(metrics: Metrics, top_k: int, lang: str) -> Markup:
    items = [{"name": metric_label(name, lang, short=True, k=top_k),
              "value": "—" if metrics.values.get(name) is None
              else share(metrics.values[name] or 0.0, lang),
              "big": name == "hit_at_1"} for name in shown_metrics(top_k)]
    cost = answerable_refused(metrics, lang)  # the floor's cost, beside the figures
    if cost:
        items.append({"name": cost, "value": "", "big": False})
    labels = [{**_label(k, lang), "count": v} for k, v in metrics.labels.items() if v]
    return Markup(_macros().metrics(items, labels, t("report.labels", lang)))


def _label(label: str, lang: str) -> dict[str, Any]:
    """One label as the template draws it: its name, its definition and fix on hover."""
    return {"label": label, "ok": label == "ok", "name": label_name(label, lang),
            "title": hover_text(label, lang)}


def _labels_html(labels: Sequence[str], lang: str) -> Markup:
    """Labels as the report's chips, each with its definition on hover (escaped)."""
    return Markup(_macros().labels([_label(label, lang) for label in labels]))


def score_svg(outcome: QuestionOutcome, analysis: Analysis, lang: str = "en") -> Markup:
    """Horizontal bars of one question's score against every chunk, sorted, top hits dark,
    the floor as a red line labelled with its value."""
    decision = outcome.decision
    scores: list[float] = decision.scores.tolist()
    # a chunk a reranker did not score (NaN) has no bar; the axis is the scorer's scale
    ranking: list[int] = [i for i in decision.ranking[:MAX_BARS].tolist()
                          if math.isfinite(scores[i])]
    if not ranking:
        return Markup("")
    finite = [scores[i] for i in ranking]
    low = min(0.0, min(finite), analysis.floor)
    high = get_scorer(analysis.settings.scorer).scale.top(max(finite))
    span = high - low or 1.0
    multi = analysis.corpus.multi_file
    label_width = _LABEL_WIDTH + (_FILE_LABEL_WIDTH if multi else 0)
    width = _CHART_WIDTH + (_FILE_LABEL_WIDTH if multi else 0)

    def x(value: float) -> float:
        return label_width + (value - low) / span * (width - label_width - 50)

    hits = {h.index for h in decision.hits}
    top = set(ranking[: decision.top_k])
    digits = score_digits(scores, analysis.floor, decision.top_k)
    firsts = first_stage_ranks(outcome) or {}
    bars = []
    for row, index in enumerate(ranking):
        score = scores[index]
        start, end = sorted((x(0.0), x(score)))
        name = _bar_name(analysis, index)
        bars.append({
            "y": 16 + row * (_BAR_HEIGHT + 4), "start": start, "end": end,
            "width": max(end - start, 1), "name": name, "short": _short(name),
            "colour": HIT if index in hits else UNDER_FLOOR if index in top else OTHER,
            "exact": decimal(score, max(3, digits), lang), "score": decimal(score, digits, lang),
            "first": f" · {t('chart.first_stage', lang)} #{firsts[index]}"
            if index in firsts else "",
        })
    more = "" if len(scores) <= MAX_BARS else t(
        "chart.more_chunks", lang, shown=MAX_BARS, total=Grouped(len(scores)))
    chart = {
        "width": width, "height": 24 + len(ranking) * (_BAR_HEIGHT + 4),
        "bars": bars, "bar_height": _BAR_HEIGHT, "floor_x": x(analysis.floor),
        "floor_colour": FLOOR, "key": bars_key(lang), "more": more,
        "floor_label": t("chart.floor", lang, floor=format_score(analysis.floor, lang)),
    }
    return Markup(_macros().score_svg(chart))


def _bar_name(analysis: Analysis, index: int) -> str:
    """``#i``, followed by the chunk's file when the corpus has several."""
    if not analysis.corpus.multi_file:
        return f"#{index}"
    return f"#{index} {analysis.chunks[index].source}"


def _short(name: str) -> str:
    return name if len(name) <= _FILE_LABEL_CHARS else name[: _FILE_LABEL_CHARS - 1] + "…"


def bars_key(lang: str = "en") -> Markup:
    """The score bars' legend, with the app's colours and words (``charts.score_bars``)."""
    items = [(HIT, t("chart.status_context", lang)),
             (UNDER_FLOOR, t("chart.status_under_floor", lang)),
             (OTHER, t("chart.status_other", lang))]
    floor = t("chart.floor", lang, floor="").strip()
    return Markup(_macros().bars_key(items, FLOOR, floor))


def calibration_svg(
    outcomes: Sequence[QuestionOutcome], calibration: Calibration, lang: str = "en",
    scorer: str = "cosine",
) -> Markup:
    """The best score of every labelled question on one axis (the scorer's scale),
    answerable above, unanswerable below, with the suggested floor as a line."""
    width, left, right = 640, 130, 20
    points = [
        (o.decision.best_score, o.question.is_answerable, o.question.question)
        for o in outcomes
        if o.question.is_answerable is not None and o.decision.ranked
    ]
    values = [p[0] for p in points] + [calibration.floor]
    scale = get_scorer(scorer).scale
    low, high = min(scale.baseline, *values), scale.top(max(values))

    def x(value: float) -> float:
        return left + (value - low) / (high - low) * (width - left - right)

    dots = [{"x": x(score), "y": 30 if answerable else 70,
             "colour": "#047857" if answerable else "#b91c1c",
             "question": question, "score": decimal(score, 3, lang)}
            for score, answerable, question in points]
    low_text, high_text = numbers([low, high], lang)
    chart = {
        "width": width, "left": left, "right": right, "dots": dots,
        "answerable": t("chart.answerable", lang), "unanswerable": t("chart.unanswerable", lang),
        "low": low_text, "high": high_text, "floor_x": x(calibration.floor),
        "floor_label": t("chart.floor", lang, floor=numbers([calibration.floor], lang)[0]),
    }
    return Markup(_macros().calibration_svg(chart))


def _outcome_html(outcome: QuestionOutcome, analysis: Analysis, lang: str,
                  answers: AnswerSet | None = None, position: int = 0) -> Markup:
    diagnosis = outcome.diagnosis
    verdict, sentence = outcome_texts(outcome, lang)
    labels = [] if diagnosis is None else [_label(label, lang) for label in diagnosis.labels]
    prompt = prompt_text(outcome, analysis.chunks, lang, analysis.settings.expand) \
        or t("report.no_llm_call", lang)
    return Markup(_macros().outcome({
        "labels": labels, "verdict": verdict,
        "css": "" if diagnosis is None else ("ok" if diagnosis.ok else "bad"),
        "explanation": None if diagnosis is None else sentence,
        "svg": score_svg(outcome, analysis, lang), "note": first_stage_note(outcome, lang),
        "prompt_title": t("report.prompt", lang), "prompt": prompt,
        "llm": None if answers is None else _answer(answers.results[position], lang),
    }))


def _answer(result: LLMResult | None, lang: str) -> dict[str, Any]:
    """One question's LLM answer: its verdict in words and colour, and the text said."""
    title = t("report.llm_answer", lang)
    if result is None:
        return {"title": title, "tone": "quiet", "verdict": t("report.not_answered_yet", lang),
                "answer": None}
    return {"title": title, "tone": verdict_tone(result.verdict),
            "verdict": verdict_text(result, lang), "answer": result.answer}


def _labels_legend(lang: str) -> Markup:
    """Every question label, what it means and the fix it points at (the glossary)."""
    rows = [{**_label(e.label, lang), "definition": e.definition, "fix": e.fix}
            for e in glossary(lang, LABELS)]
    return Markup(_macros().labels_legend({
        "title": t("labels.legend", lang), "label": t("labels.col_label", lang),
        "definition": t("labels.col_definition", lang), "fix": t("labels.col_fix", lang),
        "rows": rows}))


def render_report(
    analyses: Sequence[Analysis],
    comparison: Comparison | None = None,
    lang: str = "en",
    title: str | None = None,
    maps: Sequence[SpaceMap] = (),
    coverage: Coverage | None = None,
    answers: Sequence[AnswerSet | None] = (),
    study: Sequence[SettingStudy] = (),
) -> str:
    """The whole report: metrics, the document with its chunks, the map of the embedding
    space (``maps``, see ``ragviz.projection.space.static_maps``), every question's bars,
    diagnosis and prompt (past ``DRAWN_QUESTIONS``, a table of every question and the worst
    drawn in full), calibration, and (for two configurations) the flips. ``coverage`` says
    how many of the questions given were evaluated and why the others were left out.
    ``answers`` (one per analysis, None where no LLM was asked) add each answer, its
    verdict and the answers' metrics, and the verdicts that flip from A to B; ``study``
    (``settings_study.study`` on the first analysis) the table of the failures each other
    retrieval setting fixes and breaks."""
    if not analyses:
        raise ValueError("a report needs at least one analysis")
    answers = [*answers, *[None] * (len(analyses) - len(answers))]
    first = analyses[0]
    heading = title or t("report.title", lang)
    meta = t(
        "report.meta",
        lang,
        model=_per_side([a.model for a in analyses]),
        chars=grouped(first.corpus.total_chars if first.corpus.multi_file
                      else len(first.document), lang),
        questions=len(first.outcomes) if coverage is None
        else t("report.evaluated_of", lang, evaluated=grouped(coverage.evaluated, lang),
               given=grouped(coverage.given, lang)),
        top_k=first.top_k,
        floor=_per_side(numbers([a.floor for a in analyses], lang)),
        scorer=_per_side([a.settings.scorer for a in analyses]),  # its reranker included
        expand=_per_side([grouped(a.settings.expand, lang) for a in analyses]),
    )
    page = {
        "html_lang": language_tag(lang), "csp": Markup(CSP),
        "style": Markup(STYLE), "heading": heading, "meta": meta,
        "coverage": [] if coverage is None else [coverage_line(coverage, lang),
                                                 *coverage_sentences(coverage, lang)],
        "metrics_title": t("report.metrics", lang),
        "sides": _sides(analyses, lang, answers),
        "flips": None if comparison is None else _flips_html(comparison, lang),
        "verdict_flips": _verdict_flips_html(analyses, answers, lang),
        "labels_legend": _labels_legend(lang),
        "study": _study_html(analyses[0], study, lang),
        "document_title": t("report.document", lang), "legend": Markup(legend(lang)),
        "questions_title": t("report.questions", lang),
        **_question_sections(analyses, lang, answers),
        "calibration_title": t("report.calibration", lang),
        "calibrations": _calibrations(analyses, lang),
        "map_title": t("report.map", lang),
        "map_caption": f'{t("map.caption", lang)} {t("map.caption_pca", lang)}',
        "maps": [map_svg(drawn, lang) for drawn in maps],
    }
    return str(_macros().page(page))


def _per_side(values: Sequence[str]) -> str:
    """One value when A and B agree (one model, one floor), else "A x, B y"."""
    if len(set(values)) <= 1:
        return values[0] if values else ""
    return ", ".join(f"{side} {value}" for side, value in zip("AB", values, strict=False))


def _sides(analyses: Sequence[Analysis], lang: str,
           answers: Sequence[AnswerSet | None]) -> list[dict[str, Any]]:
    """Each configuration's title, metrics, and chunks over the text, one highlighted text
    per file (with the file's name and chunk count as a heading when there are several)."""
    own_models = len({a.model for a in analyses}) > 1
    sides = []
    for analysis, asked in zip(analyses, answers, strict=True):
        title = config_text(analysis.config, lang)
        files = []
        for source in analysis.corpus.sources:
            chunks = analysis.chunks_of(source.name)
            count = t("report.chunk_count", lang, n=len(chunks))
            files.append({
                "heading": f"{source.name} · {count}" if analysis.corpus.multi_file else None,
                "html": Markup(highlight_document(  # no counts: a user's retriever, no model
                    source.text, chunks, analysis.truncation,
                    tokens=analysis.chunk_tokens or None, lang=lang)),
            })
        sides.append({
            "title": title + (" · " + analysis.model if own_models else ""),
            "title_plain": title, "metrics": _metrics_html(analysis.metrics, analysis.top_k, lang),
            "chunk_count": t("report.chunk_count", lang, n=len(analysis.chunks)), "files": files,
            "llm": None if asked is None else _llm_metrics_html(asked, lang),
        })
    return sides


def _question_sections(analyses: Sequence[Analysis], lang: str,
                       answers: Sequence[AnswerSet | None]) -> dict[str, Any]:
    """Every question drawn in full; past ``DRAWN_QUESTIONS``, a table of them all and only
    the worst drawn in full, with a sentence saying so."""
    total = len(analyses[0].outcomes)
    if total <= DRAWN_QUESTIONS:
        return {"table": None, "questions": _questions(analyses, lang, range(total), answers)}
    drawn = worst_questions(analyses, DRAWN_QUESTIONS)
    return {"table": _question_table(analyses, lang, len(drawn), answers),
            "questions": _questions(analyses, lang, drawn, answers)}


def worst_questions(analyses: Sequence[Analysis], count: int) -> list[int]:
    """The positions of the ``count`` worst questions, worst first: wrong on more sides
    first, then the lowest IoU summed over the sides (a question without excerpts counts 1
    when right, 0 when wrong), then the earlier question."""
    def key(position: int) -> tuple[int, float, int]:
        outcomes = [a.outcomes[position] for a in analyses]
        wrong = sum(1 for o in outcomes if o.diagnosis is not None and not o.diagnosis.ok)
        overlap = sum(o.tokens.iou if o.tokens is not None
                      else float(o.diagnosis is None or o.diagnosis.ok) for o in outcomes)
        return -wrong, overlap, position
    return sorted(range(len(analyses[0].outcomes)), key=key)[:count]


def _question_table(analyses: Sequence[Analysis], lang: str, drawn: int,
                    answers: Sequence[AnswerSet | None] = ()) -> dict[str, Any]:
    """Every question's labels, recall and IoU per configuration, in the order asked (and
    the LLM's verdict where it was asked)."""
    sides = ["A", "B"][: len(analyses)] if len(analyses) > 1 else [""]
    asked = [*answers, *[None] * (len(analyses) - len(answers))]
    names = (t("report.labels", lang), metric_label("recall", lang, short=True),
             metric_label("iou", lang, short=True))
    heads = [f"{name} {side}".strip() for side, answer_set in zip(sides, asked, strict=True)
             for name in (*names, *([t("report.llm_answer", lang)] if answer_set else []))]
    rows = [{"n": position + 1, "question": outcome.question.question,
             "cells": [cell for a, answer_set in zip(analyses, asked, strict=True)
                       for cell in _row_cells(a.outcomes[position], lang)
                       + _verdict_cell(answer_set, position)]}
            for position, outcome in enumerate(analyses[0].outcomes)]
    return {"note": t("report.drawn_worst", lang, total=Grouped(len(rows)), drawn=drawn),
            "question": t("report.question", lang), "rows": rows, "heads": heads,
            "worst": t("report.worst", lang, drawn=drawn)}


def _verdict_cell(answers: AnswerSet | None, position: int) -> list[str]:
    """The LLM's verdict on one question (none without answers; "–": not asked yet)."""
    if answers is None:
        return []
    result = answers.results[position]
    return ["–" if result is None else result.verdict]


def _row_cells(outcome: QuestionOutcome, lang: str) -> list[str]:
    """A question's labels (each with its definition on hover), recall and IoU under one
    configuration ("–": no excerpt)."""
    diagnosis = outcome.diagnosis
    labels = "—" if diagnosis is None else _labels_html(diagnosis.labels, lang)
    tokens = outcome.tokens
    if tokens is None:
        return [labels, "–", "–"]
    return [labels, metric_text("recall", tokens.recall, lang),
            metric_text("iou", tokens.iou, lang)]


def _questions(analyses: Sequence[Analysis], lang: str, positions: Sequence[int],
               answers: Sequence[AnswerSet | None]) -> list[dict[str, Any]]:
    outcomes = analyses[0].outcomes
    return [{
        "question": outcomes[i].question.question, "expected": t("report.expected", lang),
        "answer": outcomes[i].question.answer or None,
        "sides": [{"title": config_text(analysis.config, lang),
                   "html": _outcome_html(analysis.outcomes[i], analysis, lang, asked, i)}
                  for analysis, asked in zip(analyses, answers, strict=True)],
    } for i in positions]


def _calibrations(analyses: Sequence[Analysis], lang: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for analysis in analyses:
        calibration = analysis.calibration
        out.append({
            "title": config_text(analysis.config, lang),
            "message": t("report.no_calibration", lang) if calibration is None
            else calibration_message(calibration, lang),
            "svg": "" if calibration is None
            else calibration_svg(analysis.outcomes, calibration, lang, analysis.settings.scorer),
        })
    return out


def _label_or_dash(label: str | None, lang: str) -> str:
    return "—" if label is None else _labels_html([label], lang)


def _direction(direction: str, lang: str) -> str:
    return t(f"app.direction_{direction}", lang)


def _flips_html(comparison: Comparison, lang: str) -> Markup:
    rows = [{"question": f.question.question, "a": _label_or_dash(f.label_a, lang),
             "b": _label_or_dash(f.label_b, lang), "direction": _direction(f.direction, lang)}
            for f in comparison.flips]
    return Markup(_macros().flips({
        "rows": rows, "none": t("report.no_flips", lang), "title": t("report.flips", lang),
        "question": t("report.question", lang), "change": t("report.change", lang),
        "label_a": comparison.label_a, "label_b": comparison.label_b,
    }))


def _llm_metrics_html(answers: AnswerSet, lang: str) -> Markup:
    """The answers' metrics of one configuration: accuracy, refusal P/R, calls, tokens."""
    items = [{"name": name, "value": value, "big": False}
             for name, value in llm_metric_items(answers.metrics, lang)]
    return Markup(_macros().llm_metrics(t("report.llm_title", lang, model=answers.model),
                                        items))


def _verdict_flips_html(analyses: Sequence[Analysis], answers: Sequence[AnswerSet | None],
                        lang: str) -> Markup | None:
    """The questions whose LLM verdict differs between A and B (both asked), else None."""
    if len(analyses) != 2 or answers[0] is None or answers[1] is None:
        return None
    rows = [{"question": flip.question, "a": flip.a_text, "b": flip.b_text,
             "direction": _direction(flip.direction, lang)}
            for flip in verdict_flip_rows(analyses[0].outcomes, answers[0], answers[1], lang)]
    return Markup(_macros().flips({
        "rows": rows, "none": t("report.no_verdict_flips", lang),
        "title": t("report.verdict_flips", lang), "question": t("report.question", lang),
        "change": t("report.change", lang), "label_a": config_text(analyses[0].config, lang),
        "label_b": config_text(analyses[1].config, lang),
    }))


def _study_html(main: Analysis, study: Sequence[SettingStudy], lang: str) -> Markup | None:
    """What each other retrieval setting fixes and breaks on the first configuration's
    chunks, with the questions (None without a study)."""
    if not study:
        return None
    rows = []
    for item in study:
        fixed, broken = fixed_and_broken(item.comparison)
        rows.append({"setting": item.scorer,
                     "fixes": len(fixed), "fixed": [f.question.question for f in fixed],
                     "breaks": len(broken), "broken": [f.question.question for f in broken],
                     "metrics": _metrics_line(item.analysis.metrics, item.analysis.top_k,
                                              lang)})
    return Markup(_macros().study({
        "title": t("report.study", lang),
        "note": t("report.study_note", lang, setting=main.settings.scorer),
        "setting": t("report.setting", lang), "fixes": t("report.fixes", lang),
        "breaks": t("report.breaks", lang), "metrics": t("report.metrics", lang),
        "rows": rows,
    }))


def _metrics_line(metrics: Metrics, top_k: int, lang: str) -> str:
    """The metrics on one line: "hit@1 50 % · MRR 0.62 …" ("—" where nothing counts)."""
    return " · ".join(
        f"{metric_label(name, lang, short=True, k=top_k)} "
        f"{'—' if metrics.values.get(name) is None else share(metrics.values[name] or 0.0, lang)}"
        for name in shown_metrics(top_k))
