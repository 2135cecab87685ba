"""What each label means and the fix it points at, in the reader's language: the glossary
behind ``ragviz labels``, the badges' hover text in the app and the report, the help of a
table column or tooltip that names labels, and the legends of the Compare tab, the map and
the report. The words live in the catalogs
(``label_def.LABEL``, ``label_fix.LABEL``), never here."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field

from ragviz.evaluation.diagnosis import LABELS, OK
from ragviz.evaluation.index_analysis import STALE_CHUNK, VECTOR_MISMATCH
from ragviz.i18n import t

# Every label a reader can meet: a question's (the diagnosis) and a chunk's (an index's).
GLOSSARY: tuple[str, ...] = (*LABELS, STALE_CHUNK, VECTOR_MISMATCH)


@dataclass(frozen=True)
class LabelEntry:
    """One label: its data name, its name in the reader's language, what it says about
    the context sent, and what to change."""

    # the descriptions ``ragviz schema labels`` publishes
    label: str = field(metadata={"description": "the label as the data names it (every JSON, "
                                                "every CSV)"})
    name: str = field(metadata={"description": "the label in the output's language"})
    definition: str = field(metadata={"description": "what the label says about the context sent"})
    fix: str = field(metadata={"description": "what to change"})


def entry(label: str, language: str = "en") -> LabelEntry:
    return LabelEntry(label, t(f"label.{label}", language), t(f"label_def.{label}", language),
                      t(f"label_fix.{label}", language))


def glossary(language: str = "en", labels: Iterable[str] = GLOSSARY) -> tuple[LabelEntry, ...]:
    """The entries of ``labels`` (every label when left out), in glossary order."""
    wanted = set(labels)
    return tuple(entry(label, language) for label in GLOSSARY if label in wanted)


def hover_text(label: str, language: str = "en") -> str:
    """The definition and the fix in one line: a badge's hover (``title``)."""
    found = entry(label, language)
    return t("labels.hover", language, definition=found.definition, fix=found.fix)


def help_markdown(labels: Iterable[str], language: str = "en") -> str:
    """What each of ``labels`` means and what to change, one paragraph each, in glossary
    order (Markdown): the hover of a table's column or of a line of figures, where a
    badge cannot be drawn."""
    return "\n\n".join(f"**{e.name}**: {hover_text(e.label, language)}"
                       for e in glossary(language, labels))


# A badge's look, inline so the app and the report draw it alike without a stylesheet.
_TONES = {"ok": "background:#dcfce7;color:#166534", "bad": "background:#fee2e2;color:#991b1b"}
_BADGE = "border-radius:.5rem;padding:0 .45rem;font-size:.85em;font-weight:600;cursor:help"


def badge_html(label: str, language: str = "en") -> str:
    """One label as a badge whose hover (``title``) says what it means and what to change
    (escaped: a label is data)."""
    tone = "ok" if label == OK else "bad"
    return (f'<span class="rv-label {tone}" data-label="{html.escape(label)}" '
            f'style="{_TONES[tone]};{_BADGE}" '
            f'title="{html.escape(hover_text(label, language))}">'
            f"{html.escape(t(f'label.{label}', language))}</span>")


def badges_html(labels: Iterable[str], language: str = "en") -> str:
    """A question's labels as badges, in their order."""
    return " ".join(badge_html(label, language) for label in labels)


def legend_html(language: str = "en", labels: Iterable[str] = LABELS) -> str:
    """A legend: each label's badge, what it means and what to change, as a table (every
    text escaped)."""
    head = "".join(f"<th>{html.escape(t(key, language))}</th>" for key in
                   ("labels.col_label", "labels.col_definition", "labels.col_fix"))
    rows = "".join(f"<tr><td>{badge_html(e.label, language)}</td>"
                   f"<td>{html.escape(e.definition)}</td><td>{html.escape(e.fix)}</td></tr>"
                   for e in glossary(language, labels))
    return f'<table class="rv-labels-legend"><tr>{head}</tr>{rows}</table>'
