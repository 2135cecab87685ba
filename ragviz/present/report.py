"""A self-contained HTML report of an analysis, to attach to a ticket or open offline.

No script and no external resource: charts are inline SVG, styles are inline, and a
Content-Security-Policy forbids scripts, so nothing in the user's text can run even if it
looks like HTML. Every piece of user text goes through ``html.escape``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ragviz.evaluation.calibration import Calibration
from ragviz.evaluation.measures import metric_names
from ragviz.evaluation.results import Analysis, Comparison, Metrics, QuestionOutcome
from ragviz.i18n import t
from ragviz.present.palette import FLOOR, HIT, OTHER, UNDER_FLOOR
from ragviz.present.presentation import (
    calibration_message,
    config_text,
    decimal,
    distinct_digits,
    label_name,
    metric_label,
    numbers,
    outcome_texts,
    prompt_text,
    share,
)
from ragviz.present.render import highlight_document, legend

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
.ok{color:#047857}.bad{color:#b91c1c}
.label{display:inline-block;border-radius:10px;padding:0 8px;margin-right:6px;
font-size:.85rem;background:#fee2e2;color:#991b1b}
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

_BAR_HEIGHT = 18
_CHART_WIDTH = 460
_LABEL_WIDTH = 56


def _metrics_html(metrics: Metrics, top_k: int, lang: str) -> str:
    items = [(metric_label(name, lang, short=True, k=top_k), metrics.values.get(name),
              name == "hit_at_1") for name in metric_names()]
    cells = "".join(
        f'<span class="metric{" big" if big else ""}">{escape(name)}'
        f"<b>{'—' if value is None else share(value, lang)}</b></span>"
        for name, value, big in items
    )
    labels = ", ".join(
        f"{escape(label_name(k, lang))}: {v}" for k, v in metrics.labels.items() if v
    )
    return f"<div>{cells}</div><p>{escape(t('report.labels', lang))}: {labels or '—'}</p>"


def score_svg(outcome: QuestionOutcome, analysis: Analysis, lang: str = "en") -> str:
    """Horizontal bars of one question's score against every chunk, sorted, top hits dark,
    the floor as a red line labelled with its value."""
    decision = outcome.decision
    scores: list[float] = decision.scores.tolist()
    ranking: list[int] = decision.ranking.tolist()
    if not scores:
        return ""
    low = min(0.0, min(scores), analysis.floor)
    high = max(1.0, max(scores))
    span = high - low or 1.0
    multi = analysis.corpus.multi_file
    label_width = _LABEL_WIDTH + (_FILE_LABEL_WIDTH if multi else 0)
    width = _CHART_WIDTH + (_FILE_LABEL_WIDTH if multi else 0)

    def x(value: float) -> float:
        return label_width + (value - low) / span * (width - label_width - 50)

    hits = {h.index for h in decision.hits}
    top = set(ranking[: decision.top_k])
    digits = distinct_digits([*scores, analysis.floor])
    rows = []
    for row, index in enumerate(ranking):
        y = 16 + row * (_BAR_HEIGHT + 4)
        score = scores[index]
        colour = HIT if index in hits else UNDER_FLOOR if index in top else OTHER
        start, end = sorted((x(0.0), x(score)))
        name = _bar_name(analysis, index)
        rows.append(
            f'<text x="0" y="{y + 13}" font-size="12">{escape(_short(name))}</text>'
            f'<rect x="{start:.1f}" y="{y}" width="{max(end - start, 1):.1f}" '
            f'height="{_BAR_HEIGHT}" fill="{colour}"><title>{escape(name)}: '
            f"{decimal(score, max(3, digits), lang)}</title></rect>"
            f'<text x="{end + 4:.1f}" y="{y + 13}" font-size="11">'
            f"{decimal(score, digits, lang)}</text>"
        )
    height = 24 + len(ranking) * (_BAR_HEIGHT + 4)
    floor_x = x(analysis.floor)
    rule = (
        f'<line x1="{floor_x:.1f}" x2="{floor_x:.1f}" y1="12" y2="{height}" stroke="{FLOOR}" '
        f'stroke-width="2" stroke-dasharray="6 3"/><text x="{floor_x + 3:.1f}" y="10" '
        f'font-size="11" fill="{FLOOR}" font-weight="bold">'
        f"{escape(t('chart.floor', lang, floor=decimal(analysis.floor, digits, lang)))}</text>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img">{"".join(rows)}{rule}</svg>{bars_key(lang)}'
    )


_FILE_LABEL_WIDTH = 160
_FILE_LABEL_CHARS = 26


def _bar_name(analysis: Analysis, index: int) -> str:
    """``#i``, followed by the chunk's file when the corpus has several."""
    if not analysis.corpus.multi_file:
        return f"#{index}"
    return f"#{index} {analysis.chunks[index].source}"


def _short(name: str) -> str:
    return name if len(name) <= _FILE_LABEL_CHARS else name[: _FILE_LABEL_CHARS - 1] + "…"


def bars_key(lang: str = "en") -> str:
    """The score bars' legend, with the app's colours and words (``charts.score_bars``)."""
    items = [(HIT, t("chart.status_context", lang)),
             (UNDER_FLOOR, t("chart.status_under_floor", lang)),
             (OTHER, t("chart.status_other", lang))]
    keys = "".join(f'<span><i style="background:{colour}"></i>{escape(label)}</span>'
                   for colour, label in items)
    floor = escape(t("chart.floor", lang, floor="")).strip()
    return (f'<div class="bars-key">{keys}<span><i style="background:{FLOOR};height:3px">'
            f"</i>{floor}</span></div>")


def calibration_svg(
    outcomes: Sequence[QuestionOutcome], calibration: Calibration, lang: str = "en"
) -> str:
    """The best score of every labelled question on one axis, answerable above,
    unanswerable below, with the suggested floor as a line."""
    width, left, right = 640, 130, 20
    points = [
        (o.decision.best_score, o.question.is_answerable, o.question.question)
        for o in outcomes
        if o.question.is_answerable is not None and o.decision.ranked
    ]
    values = [p[0] for p in points] + [calibration.floor]
    low, high = min(0.0, *values), max(1.0, *values)

    def x(value: float) -> float:
        return left + (value - low) / (high - low) * (width - left - right)

    dots = []
    for score, answerable, question in points:
        y = 30 if answerable else 70
        colour = "#047857" if answerable else "#b91c1c"
        dots.append(
            f'<circle cx="{x(score):.1f}" cy="{y}" r="6" fill="{colour}" fill-opacity=".8">'
            f"<title>{escape(question)}: {decimal(score, 3, lang)}</title></circle>"
        )
    fx = x(calibration.floor)
    low_text, high_text = numbers([low, high], lang)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="100" role="img">'
        f'<text x="0" y="34" font-size="13">{escape(t("chart.answerable", lang))}</text>'
        f'<text x="0" y="74" font-size="13">{escape(t("chart.unanswerable", lang))}</text>'
        f'<line x1="{left}" x2="{width - right}" y1="90" y2="90" stroke="#9ca3af"/>'
        f'<text x="{left}" y="99" font-size="10">{low_text}</text>'
        f'<text x="{width - right - 24}" y="99" font-size="10">{high_text}</text>'
        f"{''.join(dots)}"
        f'<line x1="{fx:.1f}" x2="{fx:.1f}" y1="14" y2="88" stroke="#dc2626" stroke-width="2"/>'
        f'<text x="{fx + 4:.1f}" y="12" font-size="11" fill="#dc2626">'
        f"{escape(t('chart.floor', lang, floor=numbers([calibration.floor], lang)[0]))}"
        "</text></svg>"
    )


def _outcome_html(outcome: QuestionOutcome, analysis: Analysis, lang: str) -> str:
    diagnosis = outcome.diagnosis
    labels = ""
    explanation = ""
    if diagnosis is not None:
        labels = "".join(
            f'<span class="label{" ok" if label == "ok" else ""}">'
            f"{escape(label_name(label, lang))}</span>"
            for label in diagnosis.labels
        )
    verdict, sentence = outcome_texts(outcome, lang)
    if diagnosis is not None:
        explanation = f"<p>{escape(sentence)}</p>"
    css = "" if diagnosis is None else ("ok" if diagnosis.ok else "bad")
    prompt = prompt_text(outcome, analysis.chunks, lang) or t("report.no_llm_call", lang)
    return (
        f'<div>{labels}<b class="{css}">{escape(verdict)}</b>{explanation}'
        f"{score_svg(outcome, analysis, lang)}"
        f"<details><summary>{escape(t('report.prompt', lang))}</summary>"
        f"<pre>{escape(prompt)}</pre></details></div>"
    )


def render_report(
    analyses: Sequence[Analysis],
    comparison: Comparison | None = None,
    lang: str = "en",
    title: str | None = None,
) -> str:
    """The whole report: metrics, the document with its chunks, every question's bars,
    diagnosis and prompt, calibration, and (for two configurations) the flips."""
    if not analyses:
        raise ValueError("a report needs at least one analysis")
    first = analyses[0]
    heading = title or t("report.title", lang)
    meta = t(
        "report.meta",
        lang,
        model=_per_side([a.model for a in analyses]),
        chars=f"{first.corpus.total_chars:,}" if first.corpus.multi_file
        else len(first.document),
        questions=len(first.outcomes),
        top_k=first.top_k,
        floor=_per_side(numbers([a.floor for a in analyses], lang)),
    )
    own_models = len({a.model for a in analyses}) > 1
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{"pt-BR" if lang == "pt" else "en"}"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        f"<title>{escape(heading)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f'<p class="meta">{escape(meta)}</p>',
        f"<h2>{escape(t('report.metrics', lang))}</h2>",
        '<div class="cols">',
    ]
    for analysis in analyses:
        parts.append(
            f"<div><h3>{escape(config_text(analysis.config, lang))}"
            f"{escape(' · ' + analysis.model) if own_models else ''}</h3>"
            f"{_metrics_html(analysis.metrics, analysis.top_k, lang)}</div>"
        )
    parts.append("</div>")
    if comparison is not None:
        parts.append(_flips_html(comparison, lang))
    parts += _document_section(analyses, lang)
    parts += _questions_section(analyses, lang)
    parts += _calibration_section(analyses, lang)
    parts.append("</body></html>")
    return "\n".join(parts)


def _per_side(values: Sequence[str]) -> str:
    """One value when A and B agree (one model, one floor), else "A x, B y"."""
    if len(set(values)) <= 1:
        return values[0] if values else ""
    return ", ".join(f"{side} {value}" for side, value in zip("AB", values, strict=False))


def _document_section(analyses: Sequence[Analysis], lang: str) -> list[str]:
    """Each configuration's chunks over the text, one highlighted text per file (with the
    file's name and chunk count as a heading when there are several)."""
    parts = [f"<h2>{escape(t('report.document', lang))}</h2>"]
    for analysis in analyses:
        parts.append(
            f"<h3>{escape(config_text(analysis.config, lang))} · "
            f"{escape(t('report.chunk_count', lang, n=len(analysis.chunks)))}</h3>"
        )
        for source in analysis.corpus.sources:
            chunks = analysis.chunks_of(source.name)
            if analysis.corpus.multi_file:
                count = t("report.chunk_count", lang, n=len(chunks))
                parts.append(f'<h4 class="file">{escape(source.name)} · {escape(count)}</h4>')
            parts.append(highlight_document(source.text, chunks, analysis.truncation,
                                            tokens=analysis.chunk_tokens, lang=lang))
    parts.append(legend(lang))
    return parts


def _questions_section(analyses: Sequence[Analysis], lang: str) -> list[str]:
    parts = [f"<h2>{escape(t('report.questions', lang))}</h2>"]
    for i, outcome in enumerate(analyses[0].outcomes):
        question = outcome.question
        answer = (
            f" — {escape(t('report.expected', lang))}: “{escape(question.answer)}”"
            if question.answer
            else ""
        )
        parts.append(
            f'<div class="q"><h3>{escape(question.question)}{answer}</h3><div class="cols">'
        )
        for analysis in analyses:
            parts.append(
                f"<div><h4>{escape(config_text(analysis.config, lang))}</h4>"
                f"{_outcome_html(analysis.outcomes[i], analysis, lang)}</div>"
            )
        parts.append("</div></div>")
    return parts


def _calibration_section(analyses: Sequence[Analysis], lang: str) -> list[str]:
    parts = [f"<h2>{escape(t('report.calibration', lang))}</h2>"]
    for analysis in analyses:
        parts.append(f"<h3>{escape(config_text(analysis.config, lang))}</h3>")
        if analysis.calibration is None:
            parts.append(f"<p>{escape(t('report.no_calibration', lang))}</p>")
        else:
            parts.append(
                f"<p>{escape(calibration_message(analysis.calibration, lang))}</p>"
                + calibration_svg(analysis.outcomes, analysis.calibration, lang)
            )
    return parts


def _label_or_dash(label: str | None, lang: str) -> str:
    return "—" if label is None else label_name(label, lang)


def _direction(direction: str, lang: str) -> str:
    return t(f"app.direction_{direction}", lang)


def _flips_html(comparison: Comparison, lang: str) -> str:
    if not comparison.flips:
        return f"<p>{escape(t('report.no_flips', lang))}</p>"
    rows = "".join(
        f'<tr class="flip"><td>{escape(f.question.question)}</td>'
        f"<td>{escape(_label_or_dash(f.label_a, lang))}</td>"
        f"<td>{escape(_label_or_dash(f.label_b, lang))}</td>"
        f"<td>{escape(_direction(f.direction, lang))}</td></tr>"
        for f in comparison.flips
    )
    return (
        f"<h3>{escape(t('report.flips', lang))}</h3><table><tr><th>"
        f"{escape(t('report.question', lang))}</th><th>{escape(comparison.label_a)}</th>"
        f"<th>{escape(comparison.label_b)}</th><th></th></tr>{rows}</table>"
    )
