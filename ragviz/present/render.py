"""The document drawn with its chunks, as one HTML string built only from escaped text.

Everything is computed from offsets: which chunks cover a character range, where ranges
overlap, where a boundary cuts a word or a sentence, and where the model stops reading a
chunk. The HTML is meant for ``st.html``; no user text reaches it unescaped.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from html import escape
from itertools import pairwise

from ragviz.chunking.base import Chunk
from ragviz.chunking.text import Span, split_sentences
from ragviz.i18n import t

STYLE = """
<style>
.rv-doc{white-space:pre-wrap;font-family:ui-sans-serif,system-ui,sans-serif;font-size:1.05rem;
line-height:2.1;border:1px solid #d0d7de;border-radius:6px;padding:12px 14px;background:#fff;
color:#111827;max-height:560px;overflow-y:auto}
.rv-c0{background:#cfe3ff}
.rv-c1{background:#ffe3b3}
.rv-ov{background:repeating-linear-gradient(135deg,#cfe3ff 0 6px,#ffe3b3 6px 12px);
outline:1px dashed #7c3aed}
.rv-tr{color:#9ca3af;background:#f3f4f6;text-decoration:line-through;text-decoration-color:#d1d5db}
.rv-badge{font-size:.7rem;font-weight:700;color:#fff;background:#374151;border-radius:4px;
padding:0 4px;margin:0 2px;vertical-align:super;cursor:help}
.rv-cut{color:#dc2626;font-weight:900;padding:0 1px;cursor:help}
.rv-cut-s{color:#d97706}
.rv-ctx{color:#6b7280;background:#f9fafb;border:1px dashed #9ca3af;border-radius:3px;
padding:0 3px;margin:0 2px;font-size:.9em;cursor:help}
.rv-ctx b{font-size:.7rem;text-transform:uppercase;letter-spacing:.03em;margin-right:4px}
.rv-legend span{display:inline-block;margin-right:14px;padding:0 6px;border-radius:3px}
</style>
"""


def boundary_kind(
    document: str, position: int, sentences: Sequence[Span] | None = None
) -> str | None:
    """``"word"`` when a boundary splits a word, ``"sentence"`` when it falls strictly inside
    a sentence, None when it sits between sentences (or at the edges of the document)."""
    if position <= 0 or position >= len(document):
        return None
    if document[position - 1].isalnum() and document[position].isalnum():
        return "word"
    spans = split_sentences(document) if sentences is None else sentences
    i = bisect_right(spans, (position, len(document) + 1)) - 1
    if i >= 0 and spans[i][0] < position < spans[i][1]:
        return "sentence"
    return None


def cut_positions(document: str, chunks: Sequence[Chunk]) -> dict[int, str]:
    """Every chunk boundary that cuts a word or a sentence, with its kind."""
    sentences = split_sentences(document)
    out: dict[int, str] = {}
    for chunk in chunks:
        for position in (chunk.start, chunk.end):
            kind = boundary_kind(document, position, sentences)
            if kind is not None:
                out[position] = kind
    return out


def chunk_title(chunk: Chunk, tokens: int | None, lang: str = "en") -> str:
    """Tooltip text of a chunk badge: ``chunk #i · N chars · T tokens``."""
    if tokens is None:
        return t("render.badge_no_tokens", lang, i=chunk.index, n=chunk.chars)
    return t("render.badge", lang, i=chunk.index, n=chunk.chars, tokens=tokens)


def highlight_document(
    document: str,
    chunks: Sequence[Chunk],
    truncation: Sequence[int | None] | None = None,
    cut_marks: bool = True,
    tokens: Sequence[int] | None = None,
    lang: str = "en",
) -> str:
    """The document as HTML: chunks in two alternating colours, overlaps striped, a
    ``#i`` badge at each chunk start, a mark at every boundary that cuts a word or a
    sentence, and the tail the model never reads greyed out."""
    ordered = sorted(chunks, key=lambda c: (c.start, c.end))
    trunc = {c.index: truncation[c.index] for c in ordered} if truncation is not None else {}
    cuts = cut_positions(document, ordered) if cut_marks else {}
    starts: dict[int, list[Chunk]] = {}
    ends: dict[int, list[int]] = {}
    for chunk in ordered:
        starts.setdefault(chunk.start, []).append(chunk)
        ends.setdefault(chunk.end, []).append(chunk.index)
    points = {0, len(document), *starts, *ends, *cuts}
    points.update(v for v in trunc.values() if v is not None)
    ordered_points = sorted(p for p in points if 0 <= p <= len(document))

    active: dict[int, int | None] = {}  # chunk index -> truncation offset
    parts: list[str] = [STYLE, '<div class="rv-doc">']
    for here, nxt in pairwise(ordered_points):
        for index in ends.get(here, ()):
            active.pop(index, None)
        kind = cuts.get(here)
        if kind is not None:
            parts.append(_cut_mark(kind, lang))
        for chunk in starts.get(here, ()):
            active[chunk.index] = trunc.get(chunk.index)
            count = tokens[chunk.index] if tokens is not None else None
            title = escape(chunk_title(chunk, count, lang), quote=True)
            parts.append(f'<span class="rv-badge" title="{title}">#{chunk.index}</span>')
            parts.append(context_mark(chunk, lang))
        parts.append(_segment(document[here:nxt], here, active))
    if cuts.get(len(document)):
        parts.append(_cut_mark(cuts[len(document)], lang))
    parts.append("</div>")
    return "".join(parts)


def context_mark(chunk: Chunk, lang: str = "en") -> str:
    """The text a chunk is embedded with but that is not in its slice (a table's header
    carried into a group of its rows), shown dimmed and marked as context: it is why a
    37-character chunk can weigh 25 tokens. Empty when the chunk carries none."""
    if not chunk.context_prefix:
        return ""
    title = escape(t("render.context_title", lang, i=chunk.index), quote=True)
    label = escape(t("render.context_label", lang))
    return (f'<span class="rv-ctx" title="{title}"><b>{label}</b>'
            f"{escape(chunk.context_prefix, quote=False)}</span>")


def _cut_mark(kind: str, lang: str) -> str:
    css = "rv-cut" if kind == "word" else "rv-cut rv-cut-s"
    title = escape(t(f"render.cut_{kind}", lang), quote=True)
    return f'<span class="{css}" title="{title}">|</span>'


def _segment(text: str, start: int, active: dict[int, int | None]) -> str:
    if not text:
        return ""
    body = escape(text, quote=False)
    if not active:
        return body
    classes: list[str] = []
    if len(active) > 1:
        classes.append("rv-ov")
    else:
        (index,) = active
        classes.append(f"rv-c{index % 2}")
    if any(offset is not None and offset <= start for offset in active.values()):
        classes.append("rv-tr")
    return f'<span class="{" ".join(classes)}">{body}</span>'


def legend(lang: str = "en") -> str:
    """A one-line key to the colours and marks used by :func:`highlight_document`."""
    items = [
        ("rv-c0", t("render.legend_even", lang)),
        ("rv-c1", t("render.legend_odd", lang)),
        ("rv-ov", t("render.legend_overlap", lang)),
        ("rv-tr", t("render.legend_truncated", lang)),
        ("rv-ctx", t("render.legend_context", lang)),
    ]
    spans = "".join(f'<span class="{css}">{escape(label)}</span>' for css, label in items)
    cut_word = f'<span><b class="rv-cut">|</b> {escape(t("render.cut_word", lang))}</span>'
    cut_sentence = (
        f'<span><b class="rv-cut rv-cut-s">|</b> {escape(t("render.cut_sentence", lang))}</span>'
    )
    return f'{STYLE}<div class="rv-legend">{spans}{cut_word}{cut_sentence}</div>'


def bars_key(lang: str = "en") -> str:
    """One key above a page of score bars (drawn without legends, which a half-page chart
    cut): the three bar colours and the green outline of the chunk holding the answer."""
    from ragviz.present.palette import ANSWERABLE, HIT, OTHER, UNDER_FLOOR

    swatch = '<i style="display:inline-block;width:14px;height:12px;margin-right:6px;{}"></i>'
    items = [
        (f"background:{HIT}", t("chart.status_context", lang)),
        (f"background:{UNDER_FLOOR}", t("chart.status_under_floor", lang)),
        (f"background:{OTHER}", t("chart.status_other", lang)),
        (f"border:3px solid {ANSWERABLE};height:8px;width:10px", t("chart.answer_key", lang)),
    ]  # the floor needs no key: its dashed rule is labelled on every chart
    spans = "".join(f"<span>{swatch.format(style)}{escape(label)}</span>"
                    for style, label in items)
    return f'{STYLE}<div class="rv-legend rv-bars-key">{spans}</div>'


WALK_STYLE = """
<style>
.rv-walk{border-left:8px solid #1d4ed8;background:#eff6ff;padding:18px 26px;border-radius:8px;
color:#111827;font-family:ui-sans-serif,system-ui,sans-serif}
.rv-walk .rv-step{font-size:1.1rem;color:#1e40af;font-weight:600;margin:0}
.rv-walk h1{font-size:2.6rem;line-height:1.15;margin:.2rem 0 .6rem;color:#111827}
.rv-walk p{font-size:1.55rem;line-height:1.5;margin:0}
@media (max-height:820px){.rv-walk{padding:10px 20px}
.rv-walk h1{font-size:1.8rem;margin:.1rem 0 .3rem}.rv-walk p{font-size:1.25rem;line-height:1.4}}
</style>
"""


def walkthrough_banner(progress: str, title: str, body: str) -> str:
    """A step of the guided replay in projector-sized type."""
    return (
        f'{WALK_STYLE}<div class="rv-walk"><p class="rv-step">{escape(progress)}</p>'
        f"<h1>{escape(title)}</h1><p>{escape(body)}</p></div>"
    )


def big_note(text: str) -> str:
    """A sentence in projector-sized type (the guided replay's explanations)."""
    return (
        '<p style="font-size:1.35rem;line-height:1.45;color:#374151;margin:.2rem 0 .6rem">'
        f"{escape(text)}</p>"
    )
