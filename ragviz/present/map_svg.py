"""The map of the embedding space as a static picture (inline SVG, no script) for the HTML
report, and the map's key (lines and marks) that the app shows above its chart.

Every piece of user text (chunk heads, file names, questions) goes through ``html.escape``
here: the SVG is handed to the report's template as already-made markup.
"""

from __future__ import annotations

from html import escape

from markupsafe import Markup

from ragviz.i18n import Grouped, t
from ragviz.present.palette import ANSWERABLE, HIT, UNDER_FLOOR
from ragviz.projection.space import ANSWER, CONTEXT, SpaceMap
from ragviz.projection.space import UNDER_FLOOR as UNDER

LINK_COLOURS = {CONTEXT: HIT, UNDER: UNDER_FLOOR, ANSWER: ANSWERABLE}
LINK_DASH = {ANSWER: "6 4"}  # the answer's line is dashed: it is where retrieval should go
SIDE_COLOURS = {"a": "#7c3aed", "b": "#db2777"}  # violet A, pink B: apart from the lines
QUESTION_COLOUR = "#111827"
MAX_LABELLED = 30  # questions drawn labelled, with their lines; the rest as small marks
WIDTH, HEIGHT, PAD = 640, 420, 28


def map_key(lang: str = "en") -> str:
    """One line naming the map's marks and line colours, in the score bars' words."""
    swatch = ('<span style="margin-right:14px;white-space:nowrap">'
              '<i style="display:inline-block;width:22px;height:0;border-top:3px {dash} {colour};'
              'vertical-align:middle;margin-right:6px"></i>{label}</span>')
    lines = [(HIT, "solid", t("chart.status_context", lang)),
             (UNDER_FLOOR, "solid", t("chart.status_under_floor", lang)),
             (ANSWERABLE, "dashed", t("chart.answer_key", lang))]
    spans = "".join(swatch.format(dash=dash, colour=colour, label=escape(label))
                    for colour, dash, label in lines)
    marks = escape(f"● A  ■ B  ◆ {t('map.key_question', lang)}")
    return f'<div class="rv-map-key" style="font-size:.95rem">{marks} · {spans}</div>'


def _scale(drawn: SpaceMap) -> tuple[float, float, float, float]:
    """x0, y0 and the factors that fit every point into the picture with a margin."""
    xs = [p.x for p in drawn.chunks] + [q.x for q in drawn.questions]
    ys = [p.y for p in drawn.chunks] + [q.y for q in drawn.questions]
    x0, y0 = min(xs, default=0.0), min(ys, default=0.0)
    sx = (WIDTH - 2 * PAD) / ((max(xs, default=1.0) - x0) or 1.0)
    sy = (HEIGHT - 2 * PAD) / ((max(ys, default=1.0) - y0) or 1.0)
    return x0, y0, sx, sy


def map_svg(drawn: SpaceMap, lang: str = "en") -> Markup:
    """Chunks as dots (A) and squares (B) sized by length, questions as labelled diamonds,
    the lines to each question's top_k and answer chunks; hover titles name each point."""
    if not drawn.chunks:
        return Markup("")
    x0, y0, sx, sy = _scale(drawn)

    def at(x: float, y: float) -> tuple[float, float]:
        return PAD + (x - x0) * sx, HEIGHT - PAD - (y - y0) * sy

    longest = max(p.chars for p in drawn.chunks) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'role="img" aria-label="{escape(drawn.method.upper())}">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff" stroke="#e5e7eb"/>']
    labelled = {q.position for q in drawn.questions[:MAX_LABELLED]}
    for link in drawn.links:
        if link.question not in labelled:  # 5,000 questions' lines were a black blob
            continue
        (x1, y1), (x2, y2) = at(link.x1, link.y1), at(link.x2, link.y2)
        dash = f' stroke-dasharray="{LINK_DASH[link.kind]}"' if link.kind in LINK_DASH else ""
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                     f'stroke="{LINK_COLOURS[link.kind]}" stroke-width="2"{dash}/>')
    for point in drawn.chunks:
        x, y = at(point.x, point.y)
        r = 3 + 5 * (point.chars / longest) ** 0.5
        title = escape(f"{point.side.upper()} #{point.index}"
                       f"{' · ' + point.source if point.source else ''} · {point.head}")
        shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"' if point.side == "a" else
                 f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}"')
        parts.append(f'{shape} fill="{SIDE_COLOURS.get(point.side, "#6b7280")}" '
                     f'fill-opacity=".6"><title>{title}</title>'
                     f'{"</circle>" if point.side == "a" else "</rect>"}')
    for question in drawn.questions[MAX_LABELLED:]:  # past the labelled ones: a small mark
        x, y = at(question.x, question.y)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="{QUESTION_COLOUR}" '
                     f'fill-opacity=".5"><title>{escape(question.text)}</title></circle>')
    for question in drawn.questions[:MAX_LABELLED]:
        x, y = at(question.x, question.y)
        parts.append(f'<path d="M{x:.1f} {y - 9:.1f} L{x + 9:.1f} {y:.1f} L{x:.1f} {y + 9:.1f} '
                     f'L{x - 9:.1f} {y:.1f} Z" fill="{QUESTION_COLOUR}"><title>'
                     f'{escape(question.text)}</title></path>'
                     f'<text x="{x + 11:.1f}" y="{y + 5:.1f}" font-size="14" font-weight="bold">'
                     f'Q{question.position + 1}</text>')
    parts.append("</svg>")
    more = len(drawn.questions) - MAX_LABELLED
    note = "" if more <= 0 else (
        f'<p style="margin:4px 0;color:#4b5563;font-size:13px">'
        f'{escape(t("map.more_questions", lang, shown=MAX_LABELLED, more=Grouped(more)))}</p>')
    return Markup("".join(parts) + note + map_key(lang))
