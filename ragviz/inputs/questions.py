"""Labelled questions: the question, its expected answer text, and whether it is answerable."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ragviz.inputs.documents import (
    MAX_ANSWER_CHARS,
    MAX_QUESTION_CHARS,
    MAX_QUESTIONS,
    DecodedText,
    InputError,
    decode_upload,
    shorten,
)

_TRUE = {"true", "yes", "sim", "1", "y", "s", "t", "verdadeiro"}
_FALSE = {"false", "no", "não", "nao", "0", "n", "f", "falso"}


@dataclass(frozen=True)
class LabelledQuestion:
    """A question; ``answerable`` None means "true when an answer is given, else unlabelled"."""

    question: str
    answer: str = ""
    answerable: bool | None = None

    @property
    def is_answerable(self) -> bool | None:
        """True/False when labelled, None when the question carries no label at all."""
        if self.answerable is not None:
            return self.answerable
        return True if self.answer.strip() else None

    @property
    def labelled(self) -> bool:
        return self.is_answerable is not None

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.question, "answer": self.answer, "answerable": self.answerable}


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
    return LabelledQuestion(text, question.answer.strip(), question.answerable)


def read_questions_file(
    data: bytes, filename: str = ""
) -> tuple[list[LabelledQuestion], DecodedText]:
    """Questions from a file's bytes (UTF-8, UTF-16 or a legacy encoding), and how they were
    decoded; a file with a header and no question is refused, since it was given on purpose."""
    decoded = decode_upload(data, filename)
    questions = parse_questions_csv(decoded.text)
    if not questions:
        name = f"The questions file {filename}" if filename else "The questions file"
        raise InputError(
            f"{name} has no questions: add one per line under the header "
            "question,answer,answerable."
        )
    return questions, decoded


def parse_questions_csv(text: str) -> list[LabelledQuestion]:
    """Read ``question,answer,answerable`` rows (comma- or tab-separated); a malformed row gets
    an error naming its line."""
    text = text.removeprefix("\ufeff")
    # newline="": CRLF, LF and a lone CR (classic Mac) all end a line, as a spreadsheet reads it
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text), strict=True)
    return _parse_rows(_Rows(reader))


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


def _parse_rows(rows: _Rows) -> list[LabelledQuestion]:
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
        if len(out) > MAX_QUESTIONS:
            raise InputError(
                f"line {rows.line}: more than {MAX_QUESTIONS} questions; the limit is "
                f"{MAX_QUESTIONS}."
            )
    return out


def _columns(header: list[str]) -> list[str]:
    columns = [h.strip().lower() for h in header]
    shown = shorten(", ".join(columns)) or "none"
    if len(set(columns)) != len(columns):
        raise InputError(f"line 1: a column appears twice ({shown}).")
    if "question" not in columns:
        raise InputError(f"line 1: the questions file needs a 'question' column, found {shown}.")
    unknown = [c for c in columns if c not in {"question", "answer", "answerable"}]
    if unknown:
        raise InputError(
            f"line 1: unknown column(s) {shorten(', '.join(unknown))}; "
            "use question,answer,answerable."
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
    if answerable is False and answer:
        raise InputError(f"line {line}: an unanswerable question cannot have an expected answer.")
    return check_question(LabelledQuestion(question, answer, answerable), f"line {line}")


def questions_to_csv(questions: Iterable[LabelledQuestion]) -> str:
    """The inverse of parse_questions_csv."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer", "answerable"])
    for q in questions:
        flag = "" if q.answerable is None else ("true" if q.answerable else "false")
        writer.writerow([q.question, q.answer, flag])
    return buffer.getvalue()
