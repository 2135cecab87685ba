"""Pure helpers behind the explorer: samples, default settings, widget ranges that fit the
document, and the question table <-> LabelledQuestion conversion.

Kept out of ``streamlit_app.py`` so the page stays layout and these rules stay testable.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from ragviz.chunking import ChunkerConfig, get_spec
from ragviz.chunking.params import Param
from ragviz.errors import InputError
from ragviz.evaluation.excerpts import LeftOut, Unfound, resolve_questions
from ragviz.i18n import Message, message, t
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.documents import MAX_QUESTIONS, check_document
from ragviz.inputs.questions import (
    LabelledQuestion,
    Reference,
    check_question,
    parse_references,
)
from ragviz.inputs.reading import read_as, read_corpus
from ragviz.present.corpus_notes import notice_sentences, problem_sentences
from ragviz.present.param_words import param_label
from ragviz.present.presentation import left_out_text
from ragviz.retrieval.scorers import CosineScorer, ScoreScale
from ragviz.share.samples import get_sample
from ragviz.share.workspace import DEFAULT_CONFIG_A, DEFAULT_CONFIG_B

DEFAULT_SAMPLE = "politica_reembolso"

# The article's before and after: fixed 120-character windows vs. sentences with overlap.
DEFAULT_A = DEFAULT_CONFIG_A
DEFAULT_B = DEFAULT_CONFIG_B
DEFAULT_TOP_K = 1  # the article's failure on the first screen: A sends only the cut chunk

QUESTION_COLUMNS = ("question", "answer", "answerable")


@dataclass(frozen=True)
class ParamSpec:
    """How one chunker parameter is offered on a document: a slider from ``low`` to
    ``high``, inside the range the chunker's spec accepts everywhere (links and workspaces
    included); the rest (name, step, kind) is the parameter's own."""

    param: Param
    low: float
    high: float
    default: float

    @property
    def name(self) -> str:
        return self.param.name

    @property
    def step(self) -> float:
        return self.param.step

    @property
    def integer(self) -> bool:
        return self.param.kind == "int"

    def clamp(self, value: Any) -> int | float:
        """``value`` moved into range (and to the right type); the default if unusable.
        Never raises: huge integers, 5,001-digit strings, NaN, inf and bools included."""
        return self.param.clamp(value, self.low, self.high)

    def label(self, lang: str = "en") -> str:
        """The slider label in the interface language, e.g. ``size (tokens)``."""
        return param_label(self.param, lang)


def _widget(param: Param, n_chars: int) -> ParamSpec:
    low, high = param.widget_range(n_chars)
    default = min(max(param.default, low), high)
    return ParamSpec(param, low, high, default)


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


COSINE = CosineScorer.scale


def floor_range(scores: Iterable[float], scale: ScoreScale = COSINE,
                highest: float | None = None) -> tuple[float, float]:
    """Floor slider bounds on the scorer's scale: from its baseline (0 for cosine) to its
    top (past it on an unbounded scale when ``highest`` is higher), extended below the
    baseline only when the model gives scores under it."""
    lowest = min(scores, default=scale.baseline)
    top = scale.top(highest)
    if lowest >= scale.baseline:
        return scale.baseline, top
    return max(scale.low, math.floor(lowest * 10) / 10), top


def questions_frame(questions: Sequence[LabelledQuestion]) -> pd.DataFrame:
    """The editable question table (question, expected answer, answerable)."""
    return table_frame(
        {"question": q.question, "answer": q.answer, "answerable": q.is_answerable is not False,
         "references": references_cell(q)}
        for q in questions
    )


def references_cell(question: LabelledQuestion) -> str:
    """A question's labelled excerpts as the JSON text of the table's references column."""
    if not question.references:
        return ""
    return json.dumps([{"content": r.content, "start_index": r.start, "end_index": r.end,
                        "source": r.source} for r in question.references], ensure_ascii=False)


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
        rows.append({"question": question, "answer": answer, "answerable": answerable,
                     "references": _cell_text(record.get("references"))})
    # the references column only when a question has excerpts (a benchmark file's)
    columns = [*QUESTION_COLUMNS, *(["references"] if any(r["references"] for r in rows)
                                    else [])]
    return pd.DataFrame(rows, columns=columns).astype(
        {"question": "string", "answer": "string", "answerable": "bool"}
        | ({"references": "string"} if "references" in columns else {})
    )


def question_key(question: str) -> str:
    """What makes two questions the same one: their words, case and spacing aside."""
    return " ".join(question.casefold().split())


def table_notices(frame: pd.DataFrame) -> list[Message]:
    """What the user should fix in the table, one message per problem: a row with an answer
    and no question (not used), or the same question in several rows (rows counted from 1,
    as the user counts them)."""
    notices: list[Message] = []
    seen: dict[str, list[int]] = {}
    for number, record in enumerate(frame.to_dict("records"), start=1):
        question = _cell_text(record.get("question"))
        if not question:
            if _cell_text(record.get("answer")):
                notices.append(Message("app.row_without_question", {"row": str(number)}))
            continue
        seen.setdefault(question_key(question), []).append(number)
    for rows in seen.values():
        if len(rows) > 1:
            question = _cell_text(frame.iloc[rows[0] - 1]["question"])
            notices.append(Message("app.duplicate_question", {
                "rows": ", ".join(str(row) for row in rows), "question": question}))
    return notices


def frame_questions(frame: pd.DataFrame) -> list[LabelledQuestion]:
    """Rows of the edited table back to questions; blank rows are dropped."""
    out: list[LabelledQuestion] = []
    for row, record in enumerate(frame.to_dict("records"), start=1):
        question = _cell_text(record.get("question"))
        if not question:
            continue
        answer = _cell_text(record.get("answer"))
        flag = record.get("answerable")
        answerable = bool(flag) if flag is not None and not pd.isna(flag) else bool(answer)
        references = _references(_cell_text(record.get("references")), answerable)
        # ticked with nothing to find is no label: never "ok", in no figure (issue 45)
        label = answerable if answer or references or not answerable else None
        out.append(LabelledQuestion(question, answer if answerable else "", label,
                                    references, line=row))
    return out


def placed_questions(questions: Sequence[LabelledQuestion], document: str | Corpus | None
                     ) -> tuple[list[LabelledQuestion], list[LeftOut]]:
    """The questions whose labelled excerpts all lie in the document, and the rows left out
    (an excerpt's text in no file, or offsets that do not slice its file to its content):
    the CLI's rule, so the app evaluates the same questions."""
    if document is None:
        return list(questions), []
    if isinstance(document, str):  # one document: every file an excerpt names is this one
        return _placed_in_one(questions, document)
    _, left_out = resolve_questions(questions, as_corpus(document))
    rows = {(left.line, left.question) for left in left_out}
    return [q for q in questions if (q.line, q.question) not in rows], left_out


def _placed_in_one(questions: Sequence[LabelledQuestion], document: str
                   ) -> tuple[list[LabelledQuestion], list[LeftOut]]:
    """``placed_questions`` on a one-file document (pasted, uploaded, a sample's text), whose
    one source has no name: an excerpt naming a file (a benchmark's ``corpus_id``) is looked
    for here, at its offsets when they slice this text to its content, else by its text.
    One not found is said as its file not being in the document (``no-file``), so the rows
    of the benchmark's other files are left out together, under one sentence."""
    moved = [replace(q, references=tuple(_in_one(r, document) for r in q.references))
             for q in questions]
    _, left_out = resolve_questions(moved, as_corpus(document))
    named = {(q.line, q.question): q.references for q in questions}
    said = [_named_file(left, named[left.line, left.question]) for left in left_out]
    rows = {(left.line, left.question) for left in left_out}
    return [q for q in moved if (q.line, q.question) not in rows], said


def _in_one(reference: Reference, document: str) -> Reference:
    if not reference.source:
        return reference
    start, end = reference.start, reference.end
    if start is not None and end is not None and document[start:end] == reference.content:
        return replace(reference, source="")
    return replace(reference, source="", start=None, end=None)


def _named_file(left: LeftOut, references: tuple[Reference, ...]) -> LeftOut:
    source = references[left.excerpt - 1].source
    return replace(left, why=Unfound("no-file", source)) if source else left


LISTED_FILES = 6  # files named in the sentence of the rows left out for their file


def left_out_sentences(left_out: Sequence[LeftOut], lang: str = "en",
                       one_document: bool = False) -> list[str]:
    """What the table says of the rows left out: one sentence for every row whose excerpt's
    file is not in the document (a benchmark's other files: hundreds of rows, one line),
    naming the files, then one sentence per other row (its excerpt's offsets or text)."""
    files = [left.why.source for left in left_out if left.why.kind == "no-file"]
    said = [left_out_text(left, lang, row=True) for left in left_out
            if left.why.kind != "no-file"]
    if not files:
        return said
    names = sorted(set(files))
    listed = ", ".join(names[:LISTED_FILES])
    if len(names) > LISTED_FILES:
        listed = t("app.more_files", lang, names=listed, n=len(names) - LISTED_FILES)
    key = "app.left_out_files" if one_document else "app.left_out_files_corpus"
    return [t(key, lang, n=len(files), files=listed), *said]


def _references(text: str, answerable: bool) -> tuple[Reference, ...]:
    """A row's excerpts; a cell edited into bad JSON counts as none (the text stays in the
    table, so nothing typed is lost)."""
    if not text or not answerable:
        return ()
    try:
        return parse_references(text, "", 0)
    except InputError:
        return ()


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
    tells the user the upload's encoding had to be guessed. Several files (an upload, a
    ``.zip``, a multi-file sample) also carry their ``corpus``; ``text`` is then its first
    file, and ``problems`` holds one sentence per file that could not be read or was read
    with a caveat (another encoding, pages or nested text left out)."""

    text: str | None
    error: str | None = None
    notice: str | None = None
    corpus: Corpus | None = None
    problems: tuple[str, ...] = ()
    index: Any = None  # a production index (``ragviz_app.index_source.IndexChoice``)

    @property
    def multi_file(self) -> bool:
        return self.corpus is not None and self.corpus.multi_file

    @property
    def analysed(self) -> str | Corpus | None:
        """What the pipeline analyses: the corpus when there are several files (or an
        index's placed chunks), else the text."""
        if self.index is not None:
            corpus: Corpus = self.index.corpus
            return corpus
        return self.corpus if self.multi_file else self.text


def resolve_document(
    source: str,
    sample_text: str,
    pasted: str,
    upload: tuple[str, bytes] | Sequence[tuple[str, bytes]] | None,
    lang: str = "en",
    sample_corpus: Corpus | None = None,
) -> DocumentChoice:
    """Pick the document from the chosen source and check it (empty, oversize, binary).

    The uploads are read by ``ragviz.inputs.reading.read_corpus`` (the CLI's and the Python
    API's reading): one ``.txt``/``.md`` (or unknown-type) upload alone, as a pasted document;
    several files, a ``.zip`` or an ``.html``/``.pdf``/``.docx`` through the corpus loader,
    where a file that cannot be converted gets its sentence and the others load."""
    try:
        if source == "upload":
            files = [upload] if isinstance(upload, tuple) else list(upload or ())
            if not files:
                return DocumentChoice(None, "no-upload")
            corpus = read_corpus(uploads=files)
            if not corpus.alone:
                return corpus_choice(corpus, lang)
            return DocumentChoice(corpus.sources[0].text, None, read_as(corpus.sources[0]))
        if source == "sample" and sample_corpus is not None:
            return corpus_choice(sample_corpus, lang)
        text = pasted if source == "paste" else sample_text
        return DocumentChoice(check_document(text))
    except InputError as error:
        return DocumentChoice(None, error.localized(lang))


def corpus_choice(corpus: Corpus, lang: str = "en") -> DocumentChoice:
    """A loaded corpus as a choice: its first file's text, or no document when none loaded
    (the first problem's sentence then says why), in ``lang``."""
    problems = problem_sentences(corpus, lang)
    if not corpus.sources:
        return DocumentChoice(None, problems[0] if problems else "no-upload", None, None,
                              problems[1:])
    notices = notice_sentences(corpus, lang)
    return DocumentChoice(corpus.sources[0].text, None, None, corpus, problems + notices)


def checked_questions(
    questions: Sequence[LabelledQuestion], lang: str = "en",
) -> tuple[list[LabelledQuestion], list[str]]:
    """The questions that pass the input limits, and one message per question that does not."""
    good: list[LabelledQuestion] = []
    problems: list[str] = []
    for number, question in enumerate(questions, start=1):
        try:
            good.append(check_question(question, message("questions.number", n=number)))
        except InputError as error:
            problems.append(error.localized(lang))
    if len(good) > MAX_QUESTIONS:
        problems.append(t("app.questions_cut", lang, n=len(good), limit=MAX_QUESTIONS))
        good = good[:MAX_QUESTIONS]
    return good, problems


def document_key(document: str | Corpus) -> str:
    """A short fingerprint of the document (every file's name and text for a corpus), so a
    memo never holds the text twice."""
    if isinstance(document, str):
        return hashlib.sha1(document.encode("utf-8"), usedforsecurity=False).hexdigest()
    digest = hashlib.sha1(usedforsecurity=False)
    for source in document.sources:
        for part in (source.name, source.text):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def document_chars(document: str | Corpus) -> int:
    """Characters of a document, or of every file of a corpus (sliders fit to it)."""
    return len(document) if isinstance(document, str) else document.total_chars


def slider_floor(value: float, scale: ScoreScale = COSINE) -> float:
    """A calibrated floor as the floor slider can hold it (the scale's decimals)."""
    return scale.snap(value)


