"""What every module of the explorer shares: session state, the language, translated text,
safe Markdown, the two sides A and B, and the model cache."""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from typing import Any

import streamlit as st

from ragviz.evaluation.results import MAX_EXPAND, Analysis, RetrievalSettings
from ragviz.i18n import LANGUAGES, render, t
from ragviz.present.safe_text import visible_controls
from ragviz.retrieval.scorers import DEFAULT_SCORER, SCORERS, ScoreScale, get_scorer

SIDES = ("a", "b")
CUSTOM = "custom"
ss = st.session_state


def lang() -> str:
    value = ss.get("lang", "en")
    return value if value in LANGUAGES else "en"


def tr(key: str, **values: object) -> str:
    return t(key, lang(), **values)


SLIDER_SHAPES = "_slider_shapes"  # slider key -> the (min, max, step) it was last drawn with


def fit_slider(key: str, shape: tuple[float, float, float], fitted: Any) -> None:
    """Before drawing the slider ``key`` with ``shape`` (min, max, step): put ``fitted``
    (its value moved into that range) into the session only when the slider is new to the
    browser (another shape: Streamlit then makes a new widget, which would start at its
    minimum) or the value had to move. Never otherwise: a value put there is sent to the
    browser with the slider, over any newer one the user set while this run was going on
    (a top_k or floor moved during a long full run was set back: issue 36.6)."""
    shapes: dict[str, tuple[float, float, float]] = ss.setdefault(SLIDER_SHAPES, {})
    current = ss.get(key)
    if shapes.get(key) != shape or current != fitted or type(current) is not type(fitted):
        ss[key] = fitted
    shapes[key] = shape


NO_RERANK = "—"  # no rerank stage (a sign, not a word: the same in every language)
RERANKERS = (NO_RERANK, "sentence-max")  # what the app offers (links: APP_RERANKERS)


def scorer_name(side: str = "a") -> str:
    """The scorer spec configuration ``side`` ranks with: its scorer (B: A's until B picks
    one) and, when chosen, the rerank stage."""
    name = ss.get(f"{side}_scorer") or ss.get("a_scorer", DEFAULT_SCORER)
    name = name if name in SCORERS else DEFAULT_SCORER
    rerank = ss.get(f"{side}_rerank", NO_RERANK)
    return f"{name}+rerank({rerank})" if rerank in RERANKERS[1:] else name


def expand_of(side: str = "a") -> int:
    value = ss.get(f"{side}_expand", 0)
    return value if isinstance(value, int) and 0 <= value <= MAX_EXPAND else 0


def retrieval(top_k: int, floor: float, side: str = "a") -> RetrievalSettings:
    """Configuration ``side``'s retrieval settings for a top_k and a floor."""
    return RetrievalSettings(top_k, floor, scorer_name(side), expand_of(side))


def scale_of(analysis: Analysis | None, side: str = "a") -> ScoreScale:
    """The score scale of the scorer behind ``analysis`` (``side``'s chosen one when None)."""
    return get_scorer(analysis.settings.scorer if analysis else scorer_name(side)).scale


# Widget formatters bind the language when they are made: Streamlit may call a formatter
# outside the run that made it, when session state is not at hand.
def translated(prefix: str) -> Callable[[str], str]:
    language = lang()
    return lambda value: t(f"{prefix}{value}", language)


def sample_titles(samples: dict[str, Any]) -> Callable[[str], str]:
    language = lang()
    return lambda name: render(samples[name].title, language)


def side_by_side(analyses: dict[str, Analysis | None],
                 titled: bool = True) -> Iterator[tuple[str, Analysis | None]]:
    """Configurations A and B in two columns (titled, unless the body names its side); the
    loop body draws into each."""
    for side, column in zip(SIDES, st.columns(2, gap="large"), strict=True):
        with column:
            if titled:
                st.markdown(f"**{tr(f'app.config_{side}')}**")
            yield side, analyses[side]


def md(text: str) -> str:
    """User text shown through Markdown: control characters and bidi overrides shown as
    escapes, as the CLI shows them (a heading never reads reversed), then every ASCII
    punctuation mark backslash-escaped (CommonMark allows it for all of them), so no link,
    image, heading, emphasis, entity or HTML can come out of what the user typed."""
    shown = visible_controls(text)
    return "".join("\\" + char if char in _PUNCTUATION else char for char in shown)


_PUNCTUATION = frozenset(string.punctuation)
