"""Pure helpers behind the explorer: samples, default settings, widget ranges that fit the
document, and the question table <-> LabelledQuestion conversion.

Kept out of ``streamlit_app.py`` so the page stays layout and these rules stay testable.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ragviz.chunking import ChunkerConfig, get_spec
from ragviz.chunking.registry import Param
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

QUESTION_COLUMNS = ("question", "answer", "answerable")


@dataclass(frozen=True)
class ParamSpec:
    """How one chunker parameter is offered: a slider from ``low`` to ``high``, inside the
    range the chunker's spec accepts everywhere (links and workspaces included)."""

    name: str
    low: float
    high: float
    step: float
    default: float
    integer: bool
    param: Param

    def clamp(self, value: Any) -> int | float:
        """``value`` moved into range (and to the right type); the default if unusable.
        Never raises: huge integers, 5,001-digit strings, NaN, inf and bools included."""
        return self.param.clamp(value, self.low, self.high)

    def label(self, lang: str = "en") -> str:
        """The slider label in the interface language, e.g. ``size (tokens)``."""
        return self.param.text(lang)


def _widget(param: Param, n_chars: int) -> ParamSpec:
    low, high = param.widget_range(n_chars)
    default = min(max(param.default, low), high)
    return ParamSpec(param.name, low, high, param.step, default, param.kind == "int", param)


def load_sample(name: str) -> tuple[str, list[LabelledQuestion]]:
    """A sample's text and its labelled questions, by manifest name or file name."""
    sample = get_sample(name)
    return sample.document(), sample.questions()


def param_specs(chunker: str, n_chars: int) -> list[ParamSpec]:
    """The sliders a chunker gets, with ranges fitted to a document of ``n_chars``, derived
    from the chunker's spec. Sizes reach the whole document (capped so a slider stays
    usable); overlap may reach the size on purpose, so an impossible combination gets its
    own message, not a clamp."""
    return [_widget(param, n_chars) for param in get_spec(chunker).params]


def semantic_modes(chunker: str) -> tuple[str, ...]:
    """The parameters of which the chunker reads one (the first is the default), e.g. the
    semantic chunker's percentile or threshold; empty for most chunkers."""
    return get_spec(chunker).alternatives


def floor_range(scores: Iterable[float]) -> tuple[float, float]:
    """Floor slider bounds suited to the model's scale: 0..1, extended below 0 only when the
    model gives negative cosine scores."""
    lowest = min(scores, default=0.0)
    low = 0.0 if lowest >= 0 else max(FLOOR_RANGE[0], math.floor(lowest * 10) / 10)
    return low, FLOOR_RANGE[1]


def questions_frame(questions: Sequence[LabelledQuestion]) -> pd.DataFrame:
    """The editable question table (question, expected answer, answerable)."""
    return table_frame(
        {"question": q.question, "answer": q.answer, "answerable": bool(q.is_answerable)}
        for q in questions
    )


def apply_table_edits(frame: pd.DataFrame, edits: Mapping[str, Any] | None) -> pd.DataFrame:
    """The question table after the editor's pending changes (``st.data_editor``'s
    ``edited_rows`` / ``added_rows`` / ``deleted_rows``, positions in ``frame``), with empty
    cells as "" and fully blank rows dropped. Pure, so the Apply button's effect is testable."""
    rows: list[dict[str, Any]] = [{str(k): v for k, v in record.items()}
                                  for record in frame.to_dict("records")]
    for position, change in (edits or {}).get("edited_rows", {}).items():
        if 0 <= int(position) < len(rows):
            rows[int(position)].update(change)
    deleted = {int(position) for position in (edits or {}).get("deleted_rows", [])}
    kept = [row for position, row in enumerate(rows) if position not in deleted]
    kept.extend(dict(row) for row in (edits or {}).get("added_rows", []))
    return table_frame(kept)


def table_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Rows as the editor's table: text cells never None (an empty cell shows empty), the
    answerable flag True unless unticked, and rows with neither question nor answer dropped."""
    rows = []
    for record in records:
        question, answer = _cell_text(record.get("question")), _cell_text(record.get("answer"))
        if not question and not answer:
            continue
        flag = record.get("answerable")
        answerable = True if flag is None or pd.isna(flag) else bool(flag)
        rows.append({"question": question, "answer": answer, "answerable": answerable})
    return pd.DataFrame(rows, columns=list(QUESTION_COLUMNS)).astype(
        {"question": "string", "answer": "string", "answerable": "bool"}
    )


@dataclass(frozen=True)
class TableNotice:
    """One line under the question table: ``kind`` is "no_question" (a row with an answer
    and no question; not used) or "duplicate" (the same question in several rows)."""

    kind: str
    rows: tuple[int, ...]  # 1-based, as the user counts the table's rows
    question: str = ""


def table_notices(frame: pd.DataFrame) -> list[TableNotice]:
    """What the user should fix in the table; one notice per problem."""
    notices: list[TableNotice] = []
    seen: dict[str, list[int]] = {}
    for number, record in enumerate(frame.to_dict("records"), start=1):
        question = _cell_text(record.get("question"))
        if not question:
            if _cell_text(record.get("answer")):
                notices.append(TableNotice("no_question", (number,)))
            continue
        seen.setdefault(" ".join(question.casefold().split()), []).append(number)
    for rows in seen.values():
        if len(rows) > 1:
            question = _cell_text(frame.iloc[rows[0] - 1]["question"])
            notices.append(TableNotice("duplicate", tuple(rows), question))
    return notices


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

    For a chunker with alternatives (semantic) ``mode`` picks the one in use (threshold or
    percentile); the others are None, as the chunker expects.
    """
    params: dict[str, Any] = {}
    for spec in param_specs(chunker, n_chars):
        params[spec.name] = spec.clamp(values.get(spec.name, spec.default))
    modes = semantic_modes(chunker)
    if modes:
        mode = values.get("mode", modes[0])
        chosen = mode if mode in modes else modes[0]
        params.update({name: None for name in modes if name != chosen})
    return ChunkerConfig.create(chunker, **params)


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
            notice = decoded.notice
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
