"""Labelled questions: the question, its expected answer text, whether it is answerable, and
any number of labelled excerpts (``references``: text located by file and character offsets,
or by its text), as Chroma's chunking benchmark writes them (``question,references,corpus_id``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ragviz.inputs.documents import (
    MAX_ANSWER_CHARS,
    MAX_QUESTION_CHARS,
    MAX_QUESTIONS,
    MAX_REFERENCES,
    DecodedText,
    InputError,
    decode_upload,
    shorten,
)

_COLUMNS = ("question", "answer", "answerable", "references", "corpus_id")
_TRUE = {"true", "yes", "sim", "1", "y", "s", "t", "verdadeiro"}
_FALSE = {"false", "no", "não", "nao", "0", "n", "f", "falso"}


@dataclass(frozen=True)
class Reference:
    """One labelled excerpt: ``content`` in the file ``source`` (its name without extension or
    its path; "" means any file) at ``[start, end)``; offsets None mean "find the text"."""

    content: str
    start: int | None = None
    end: int | None = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"content": self.content, "start_index": self.start, "end_index": self.end,
                "source": self.source}


@dataclass(frozen=True)
class LabelledQuestion:
    """A question; ``answerable`` None means "true when an answer or an excerpt is given,
    else unlabelled". ``line`` is where a file gave it (for messages only)."""

    question: str
    answer: str = ""
    answerable: bool | None = None
    references: tuple[Reference, ...] = ()
    line: int | None = field(default=None, compare=False, repr=False)

    @property
    def is_answerable(self) -> bool | None:
        """True/False when labelled, None when the question carries no label at all."""
        if self.answerable is not None:
            return self.answerable
        return True if self.answer.strip() or self.references else None

    @property
    def labelled(self) -> bool:
        return self.is_answerable is not None

    @property
    def expected(self) -> str:
        """The text the rank diagnosis looks for: the answer, else the first excerpt's."""
        return self.answer.strip() or (self.references[0].content.strip()
                                       if self.references else "")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question, "answer": self.answer,
                               "answerable": self.answerable}
        if self.references:  # left out otherwise, so old workspaces and links read the same
            out["references"] = [r.to_dict() for r in self.references]
        return out


def parse_bool(value: str | bool | None) -> bool | None:
    """``true/false``, ``yes/no``, ``sim/não``, ``1/0``; empty means unset."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if not text:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(
        f"answerable must be true/false, yes/no, sim/não or 1/0, got {shorten(str(value))!r}"
    )


def check_question(question: LabelledQuestion, where: str = "") -> LabelledQuestion:
    """Enforce the input limits with a message that says where the problem is."""
    prefix = f"{where}: " if where else ""
    text = question.question.strip()
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(
            f"{prefix}the question has {len(text):,} characters; the limit is {MAX_QUESTION_CHARS}."
        )
    if len(question.answer) > MAX_ANSWER_CHARS:
        raise InputError(
            f"{prefix}the expected answer has {len(question.answer):,} characters; "
            f"the limit is {MAX_ANSWER_CHARS:,}."
        )
    return LabelledQuestion(text, question.answer.strip(), question.answerable,
                            question.references, question.line)


def read_questions_file(
    data: bytes, filename: str = "", limit: int = MAX_QUESTIONS, max_bytes: int | None = None
) -> tuple[list[LabelledQuestion], DecodedText]:
    """Questions from a file's bytes (UTF-8, UTF-16 or a legacy encoding), and how they were
    decoded; a file with a header and no question is refused, since it was given on purpose."""
    decoded = decode_upload(data, filename) if max_bytes is None \
        else decode_upload(data, filename, max_bytes)
    questions = parse_questions_csv(decoded.text, limit)
    if not questions:
        name = f"The questions file {filename}" if filename else "The questions file"
        raise InputError(
            f"{name} has no questions: add one per line under the header "
            "question,answer,answerable."
        )
    return questions, decoded


def parse_questions_csv(text: str, limit: int = MAX_QUESTIONS) -> list[LabelledQuestion]:
    """Read ``question,answer,answerable`` rows (comma- or tab-separated); a malformed row gets
    an error naming its line."""
    text = text.removeprefix("\ufeff")
    # newline="": CRLF, LF and a lone CR (classic Mac) all end a line, as a spreadsheet reads it
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text), strict=True)
    return _parse_rows(_Rows(reader), limit)


def _separator(text: str) -> str:
    """Commas, or tabs when the header has tabs and no comma (Excel's "Unicode text" is
    tab-separated UTF-16); a header with semicolons and no comma is refused with a sentence,
    as a spreadsheet in a comma-decimal locale writes it."""
    header = text.split("\n", 1)[0]
    if "," in header:
        return ","
    if "\t" in header:
        return "\t"
    if ";" in header:
        raise InputError(
            "line 1: the columns are separated by semicolons; save the file with commas "
            "(question,answer,answerable)."
        )
    return ","


class _Rows:
    """csv rows with the line each row starts on, and csv's errors said in the user's terms."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader
        self.line = 0

    def __iter__(self) -> _Rows:
        return self

    def __next__(self) -> list[str]:
        self.line = self._reader.line_num + 1
        try:
            row: list[str] = next(self._reader)
        except csv.Error as error:
            raise InputError(_csv_problem(self.line, str(error))) from None
        return row


def _csv_problem(line: int, error: str) -> str:
    """One sentence for what Python's csv module found at ``line``."""
    if "new-line character seen in unquoted field" in error:
        return (
            f"line {line}: a carriage return (CR) without a line feed splits the row; save the "
            "file with ordinary line ends (LF or CRLF)."
        )
    if "field larger than field limit" in error:
        return (
            f"line {line}: a field runs far past the limits (a question may have "
            f"{MAX_QUESTION_CHARS} characters, an answer {MAX_ANSWER_CHARS:,}); look for a "
            'quote (") that is never closed.'
        )
    if "unexpected end of data" in error:
        return f'line {line}: a quote (") opens a field that is never closed; close or remove it.'
    if "expected after" in error:
        return (
            f'line {line}: a quoted field is followed by more text before the next comma; put '
            'the whole field in quotes and double any quote inside it ("").'
        )
    return f"line {line}: not valid CSV ({error})."


def _parse_rows(rows: _Rows, limit: int) -> list[LabelledQuestion]:
    try:
        header = next(rows)
    except StopIteration:
        raise InputError(
            "the questions file is empty: it needs a header row question,answer,answerable"
        ) from None
    columns = _columns(header)
    out: list[LabelledQuestion] = []
    for row in rows:
        if not any(cell.strip() for cell in row):
            continue
        out.append(_question(row, columns, rows.line))
        if len(out) > limit:
            raise InputError(
                f"line {rows.line}: more than {limit:,} questions; the limit is {limit:,}."
            )
    return out


def _columns(header: list[str]) -> list[str]:
    columns = [h.strip().lower() for h in header]
    shown = shorten(", ".join(columns)) or "none"
    if len(set(columns)) != len(columns):
        raise InputError(f"line 1: a column appears twice ({shown}).")
    if "question" not in columns:
        raise InputError(f"line 1: the questions file needs a 'question' column, found {shown}.")
    unknown = [c for c in columns if c not in _COLUMNS]
    if unknown:
        raise InputError(
            f"line 1: unknown column(s) {shorten(', '.join(unknown))}; "
            "use question,answer,answerable (and optionally references,corpus_id)."
        )
    return columns


def _question(row: list[str], columns: list[str], line: int) -> LabelledQuestion:
    if len(row) > len(columns):
        raise InputError(f"line {line}: {len(row)} fields, the header has {len(columns)}.")
    record = dict(zip(columns, row, strict=False))
    question = record.get("question", "").strip()
    if not question:
        raise InputError(f"line {line}: the question is empty.")
    try:
        answerable = parse_bool(record.get("answerable"))
    except ValueError as error:
        raise InputError(f"line {line}: {error}.") from None
    answer = record.get("answer", "").strip()
    references = parse_references(record.get("references", ""),
                                  record.get("corpus_id", "").strip(), line)
    if answerable is False and (answer or references):
        raise InputError(f"line {line}: an unanswerable question cannot have an expected answer.")
    return check_question(LabelledQuestion(question, answer, answerable, references, line),
                          f"line {line}")


def parse_references(text: str, corpus_id: str, line: int) -> tuple[Reference, ...]:
    """The ``references`` cell: a JSON list of ``{"content", "start_index", "end_index"}``
    (offsets optional: the text is then looked for), every one in the file ``corpus_id``."""
    if not text.strip():
        return ()
    try:
        raw = json.loads(text)
    except ValueError:
        raise InputError(f"line {line}: the references are not valid JSON; write a list like "
                         '[{"content": "...", "start_index": 0, "end_index": 10}].') from None
    return references_from_json(raw, corpus_id, f"line {line}")


def references_from_json(raw: Any, corpus_id: str, where: str) -> tuple[Reference, ...]:
    """Excerpts from decoded JSON (a CSV cell, a workspace file); ``where`` starts messages."""
    if not isinstance(raw, list) or len(raw) > MAX_REFERENCES:
        raise InputError(f"{where}: the references must be a JSON list of at most "
                         f"{MAX_REFERENCES} excerpts.")
    return tuple(_reference(item, corpus_id, f"{where}: excerpt {n}")
                 for n, item in enumerate(raw, start=1))


def _reference(item: Any, corpus_id: str, where: str) -> Reference:
    if not isinstance(item, dict) or not isinstance(item.get("content"), str) \
            or not item["content"].strip():
        raise InputError(f"{where} needs a non-empty \"content\" text.")
    if len(item["content"]) > MAX_ANSWER_CHARS:
        raise InputError(f"{where} has {len(item['content']):,} characters; the limit is "
                         f"{MAX_ANSWER_CHARS:,}.")
    start, end = item.get("start_index"), item.get("end_index")
    source = item["source"] if isinstance(item.get("source"), str) else corpus_id
    if start is None and end is None:
        return Reference(item["content"], source=source)
    if not (isinstance(start, int) and isinstance(end, int) and _offset(start) and _offset(end)) \
            or end < start:
        raise InputError(f"{where}: start_index and end_index must be whole numbers from 0, "
                         "the end not before the start.")
    return Reference(item["content"], start, end, source)


def _offset(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def questions_to_csv(questions: Iterable[LabelledQuestion]) -> str:
    """The inverse of parse_questions_csv (a ``references`` column only when one has them;
    each excerpt keeps its file in ``source``)."""
    questions = list(questions)
    with_refs = any(q.references for q in questions)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer", "answerable"] + (["references"] if with_refs else []))
    for q in questions:
        flag = "" if q.answerable is None else ("true" if q.answerable else "false")
        refs = [json.dumps([{"content": r.content, "start_index": r.start, "end_index": r.end,
                             "source": r.source} for r in q.references], ensure_ascii=False)]
        writer.writerow([q.question, q.answer, flag] + (refs if with_refs else []))
    return buffer.getvalue()
