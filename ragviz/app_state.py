"""Pure helpers behind the explorer: samples, default settings, widget ranges that fit the
document, and the question table <-> LabelledQuestion conversion.

Kept out of ``streamlit_app.py`` so the page stays layout and these rules stay testable.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ragviz.chunking.base import CHUNKER_PARAMS, ChunkerConfig
from ragviz.documents import MAX_QUESTIONS, InputError, check_document, decode_upload
from ragviz.limits import FLOOR_RANGE
from ragviz.questions import LabelledQuestion, check_question
from ragviz.samples import get_sample
from ragviz.workspace import DEFAULT_CONFIG_A, DEFAULT_CONFIG_B

DEFAULT_SAMPLE = "politica_reembolso"

# The article's before and after: fixed 120-character windows vs. sentences with overlap.
DEFAULT_A = DEFAULT_CONFIG_A
DEFAULT_B = DEFAULT_CONFIG_B
DEFAULT_TOP_K = 2
DEFAULT_PERCENTILE = 90.0
DEFAULT_THRESHOLD = 0.5

QUESTION_COLUMNS = ("question", "answer", "answerable")


@dataclass(frozen=True)
class ParamSpec:
    """How one chunker parameter is offered: a slider from ``low`` to ``high``."""

    name: str
    low: float
    high: float
    step: float
    default: float
    integer: bool = True

    def clamp(self, value: Any) -> int | float:
        """``value`` moved into range (and to the right type); the default if unusable."""
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = self.default
        if math.isnan(number):
            number = self.default
        number = min(max(number, self.low), self.high)
        return round(number) if self.integer else round(number, 2)


def load_sample(name: str) -> tuple[str, list[LabelledQuestion]]:
    """A sample's text and its labelled questions, by manifest name or file name."""
    sample = get_sample(name)
    return sample.document(), sample.questions()


def param_specs(chunker: str, n_chars: int) -> list[ParamSpec]:
    """The sliders a chunker gets, with ranges fitted to a document of ``n_chars``.

    Sizes reach the whole document (capped so a slider stays usable); overlap may reach
    the size on purpose, so an impossible combination gets its own message, not a clamp.
    """
    span = max(40, min(n_chars, 4000))
    specs: dict[str, ParamSpec] = {
        "size": ParamSpec("size", 10, span, 1, min(120, span)),
        "overlap": ParamSpec("overlap", 0, max(1, span // 2), 1, 0),
        "max_chars": ParamSpec("max_chars", 20, span, 1, min(220, span)),
        "overlap_sentences": ParamSpec("overlap_sentences", 0, 5, 1, 1),
        "threshold": ParamSpec("threshold", -1.0, 1.0, 0.01, DEFAULT_THRESHOLD, integer=False),
        "percentile": ParamSpec("percentile", 1.0, 99.0, 1.0, DEFAULT_PERCENTILE, integer=False),
    }
    if chunker == "tokens":
        tokens = max(16, min(512, n_chars // 2 + 8))
        specs["size"] = ParamSpec("size", 4, tokens, 1, min(64, tokens))
        specs["overlap"] = ParamSpec("overlap", 0, max(1, tokens // 2), 1, 0)
    if chunker == "semantic":
        specs["max_chars"] = ParamSpec("max_chars", 20, span, 1, min(400, span))
    return [specs[name] for name in CHUNKER_PARAMS.get(chunker, ())]


def floor_range(scores: Iterable[float]) -> tuple[float, float]:
    """Floor slider bounds suited to the model's scale: 0..1, extended below 0 only when the
    model gives negative cosine scores."""
    lowest = min(scores, default=0.0)
    low = 0.0 if lowest >= 0 else max(FLOOR_RANGE[0], math.floor(lowest * 10) / 10)
    return low, FLOOR_RANGE[1]


def questions_frame(questions: Sequence[LabelledQuestion]) -> pd.DataFrame:
    """The editable question table (question, expected answer, answerable)."""
    rows = [
        {"question": q.question, "answer": q.answer, "answerable": bool(q.is_answerable)}
        for q in questions
    ]
    return pd.DataFrame(rows, columns=list(QUESTION_COLUMNS)).astype(
        {"question": "string", "answer": "string", "answerable": "bool"}
    )


def frame_questions(frame: pd.DataFrame) -> list[LabelledQuestion]:
    """Rows of the edited table back to questions; blank rows are dropped."""
    out: list[LabelledQuestion] = []
    for record in frame.to_dict("records"):
        question = _cell_text(record.get("question"))
        if not question:
            continue
        answer = _cell_text(record.get("answer"))
        flag = record.get("answerable")
        answerable = bool(flag) if flag is not None and not pd.isna(flag) else bool(answer)
        out.append(LabelledQuestion(question, answer if answerable else "", answerable))
    return out


def _cell_text(value: Any) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return str(value).strip()


def config_from_values(chunker: str, values: dict[str, Any], n_chars: int) -> ChunkerConfig:
    """A ChunkerConfig from widget values, each moved into its slider's range.

    For the semantic chunker ``mode`` picks an absolute threshold or a percentile; the other
    one is None, as the chunker expects.
    """
    params: dict[str, Any] = {}
    for spec in param_specs(chunker, n_chars):
        params[spec.name] = spec.clamp(values.get(spec.name, spec.default))
    if chunker == "semantic":
        if values.get("mode", "percentile") == "threshold":
            params["percentile"] = None
        else:
            params["threshold"] = None
    return ChunkerConfig(chunker=chunker, **params)


@dataclass(frozen=True)
class DocumentChoice:
    """The document to analyse, or the one sentence that says why there is none; ``notice``
    tells the user the upload's encoding had to be guessed."""

    text: str | None
    error: str | None = None
    notice: str | None = None


def resolve_document(
    source: str,
    sample_text: str,
    pasted: str,
    upload: tuple[str, bytes] | None,
    lang: str = "en",
) -> DocumentChoice:
    """Pick the document from the chosen source and check it (empty, oversize, binary)."""
    try:
        if source == "upload":
            if upload is None:
                return DocumentChoice(None, "no-upload")
            name, data = upload
            decoded = decode_upload(data, name)
            notice = decoded.encoding if decoded.guessed else None
            return DocumentChoice(check_document(decoded.text), None, notice)
        text = pasted if source == "paste" else sample_text
        return DocumentChoice(check_document(text))
    except InputError as error:
        return DocumentChoice(None, error.localized(lang))


def checked_questions(
    questions: Sequence[LabelledQuestion],
) -> tuple[list[LabelledQuestion], list[str]]:
    """The questions that pass the input limits, and one message per question that does not."""
    good: list[LabelledQuestion] = []
    problems: list[str] = []
    for number, question in enumerate(questions, start=1):
        try:
            good.append(check_question(question, f"question {number}"))
        except InputError as error:
            problems.append(str(error))
    if len(good) > MAX_QUESTIONS:
        problems.append(f"{len(good)} questions; only the first {MAX_QUESTIONS} are used.")
        good = good[:MAX_QUESTIONS]
    return good, problems


def document_key(text: str) -> str:
    """A short fingerprint of the document, so a memo never holds the text twice."""
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def slider_floor(value: float) -> float:
    """A calibrated floor as the floor slider can hold it (0.01 steps)."""
    return round(float(value), 2)
