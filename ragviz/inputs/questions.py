"""Labelled questions: the question, its expected answer text, whether it is answerable, and
any number of labelled excerpts (``references``: text located by file and character offsets,
or by its text), as Chroma's chunking benchmark writes them (``question,references,corpus_id``).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from ragviz.errors import InputError
from ragviz.i18n import Grouped, Message, message
from ragviz.inputs.documents import (
    MAX_ANSWER_CHARS,
    MAX_QUESTION_CHARS,
    MAX_QUESTIONS,
    MAX_REFERENCES,
    DecodedText,
    Named,
    decode_upload,
    shorten,
)

# the columns a questions file may have; ``giveaway`` is read and ignored (``ragviz questions
# --keep-giveaways`` flags the give-aways it kept in it)
FILE_COLUMNS = ("question", "answer", "answerable", "references", "corpus_id", "giveaway")
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
    raise InputError(key="questions.answerable", got=repr(shorten(str(value))))


def line_of(line: int) -> Message:
    """"line 3" in the reader's language: where a questions file's problem is."""
    return message("questions.line", line=line)


def _at(where: str | Message) -> str | Message:
    return message("questions.at", where=where) if where else ""


def check_question(question: LabelledQuestion, where: str | Message = "") -> LabelledQuestion:
    """Enforce the input limits with a message that says where the problem is."""
    text = question.question.strip()
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(key="questions.long_question", at=_at(where), n=len(text),
                         limit=MAX_QUESTION_CHARS)
    if len(question.answer) > MAX_ANSWER_CHARS:
        raise InputError(key="questions.long_answer", at=_at(where),
                         n=len(question.answer), limit=Grouped(MAX_ANSWER_CHARS))
    return LabelledQuestion(text, question.answer.strip(), question.answerable,
                            question.references, question.line)


def read_questions_file(
    data: bytes, filename: Named = "", limit: int = MAX_QUESTIONS, max_bytes: int | None = None
) -> tuple[list[LabelledQuestion], DecodedText]:
    """Questions from a file's bytes (UTF-8, UTF-16 or a legacy encoding), and how they were
    decoded; a file with a header and no question is refused, since it was given on purpose."""
    decoded = decode_upload(data, filename) if max_bytes is None \
        else decode_upload(data, filename, max_bytes)
    questions = parse_questions_csv(decoded.text, limit)
    if not questions:
        raise (InputError(key="questions.none", name=filename) if filename
               else InputError(key="questions.none_unnamed"))
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
        raise InputError(key="questions.semicolons", at=_at(line_of(1)))
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
            raise _csv_problem(self.line, str(error)) from None
        return row


_CSV_PROBLEMS = (  # what Python's csv module says -> the sentence for it
    ("new-line character seen in unquoted field", "questions.csv_lone_cr"),
    ("field larger than field limit", "questions.csv_field_too_long"),
    ("unexpected end of data", "questions.csv_open_quote"),
    ("expected after", "questions.csv_text_after_quote"),
)


def _csv_problem(line: int, error: str) -> InputError:
    """One sentence for what Python's csv module found at ``line``."""
    key = next((key for found, key in _CSV_PROBLEMS if found in error), "questions.csv_other")
    return InputError(key=key, at=_at(line_of(line)), error=error, question=MAX_QUESTION_CHARS,
                      answer=Grouped(MAX_ANSWER_CHARS))


def _parse_rows(rows: _Rows, limit: int) -> list[LabelledQuestion]:
    try:
        header = next(rows)
    except StopIteration:
        raise InputError(key="questions.empty") from None
    columns = _columns(header)
    out: list[LabelledQuestion] = []
    for row in rows:
        if not any(cell.strip() for cell in row):
            continue
        out.append(_question(row, columns, rows.line))
        if len(out) > limit:
            raise InputError(key="questions.too_many", at=_at(line_of(rows.line)),
                             limit=Grouped(limit))
    return out


def _columns(header: list[str]) -> list[str]:
    columns = [h.strip().lower() for h in header]
    shown = shorten(", ".join(columns)) or message("questions.no_column")
    first = _at(line_of(1))
    if len(set(columns)) != len(columns):
        raise InputError(key="questions.column_twice", at=first, columns=shown)
    if "question" not in columns:
        raise InputError(key="questions.no_question_column", at=first, columns=shown)
    unknown = [c for c in columns if c not in FILE_COLUMNS]
    if unknown:
        raise InputError(key="questions.unknown_columns", n=len(unknown), at=first,
                         columns=shorten(", ".join(unknown)))
    return columns


def _question(row: list[str], columns: list[str], line: int) -> LabelledQuestion:
    at = _at(line_of(line))
    if len(row) > len(columns):
        raise InputError(key="questions.too_many_fields", at=at, n=len(row),
                         header=len(columns))
    record = dict(zip(columns, row, strict=False))
    question = record.get("question", "").strip()
    if not question:
        raise InputError(key="questions.empty_question", at=at)
    try:
        answerable = parse_bool(record.get("answerable"))
    except InputError as error:
        raise InputError(key="questions.in_line", at=at, error=error) from None
    answer = record.get("answer", "").strip()
    references = parse_references(record.get("references", ""),
                                  record.get("corpus_id", "").strip(), line)
    if answerable is False and (answer or references):
        raise InputError(key="questions.unanswerable_with_answer", at=at)
    return check_question(LabelledQuestion(question, answer, answerable, references, line),
                          line_of(line))


def parse_references(text: str, corpus_id: str, line: int) -> tuple[Reference, ...]:
    """The ``references`` cell: a JSON list of ``{"content", "start_index", "end_index"}``
    (offsets optional: the text is then looked for), every one in the file ``corpus_id``."""
    if not text.strip():
        return ()
    try:
        raw = json.loads(text)
    except ValueError:
        raise InputError(key="questions.references_json", at=_at(line_of(line))) from None
    return references_from_json(raw, corpus_id, line_of(line))


def references_from_json(raw: Any, corpus_id: str,
                         where: str | Message) -> tuple[Reference, ...]:
    """Excerpts from decoded JSON (a CSV cell, a workspace file); ``where`` starts messages."""
    if not isinstance(raw, list) or len(raw) > MAX_REFERENCES:
        raise InputError(key="questions.references_list", at=_at(where), limit=MAX_REFERENCES)
    return tuple(_reference(item, corpus_id, message("questions.excerpt", where=where, n=n))
                 for n, item in enumerate(raw, start=1))


def _reference(item: Any, corpus_id: str, where: Message) -> Reference:
    if not isinstance(item, dict) or not isinstance(item.get("content"), str) \
            or not item["content"].strip():
        raise InputError(key="questions.excerpt_no_content", where=where)
    if len(item["content"]) > MAX_ANSWER_CHARS:
        raise InputError(key="questions.excerpt_too_long", where=where,
                         n=len(item['content']), limit=Grouped(MAX_ANSWER_CHARS))
    start, end = item.get("start_index"), item.get("end_index")
    source = item["source"] if isinstance(item.get("source"), str) else corpus_id
    if start is None and end is None:
        return Reference(item["content"], source=source)
    if not (isinstance(start, int) and isinstance(end, int) and _offset(start) and _offset(end)) \
            or end < start:
        raise InputError(key="questions.excerpt_offsets", at=_at(where))
    return Reference(item["content"], start, end, source)


def _offset(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
