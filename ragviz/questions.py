"""Labelled questions: the question, its expected answer text, and whether it is answerable."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ragviz.documents import MAX_ANSWER_CHARS, MAX_QUESTION_CHARS, MAX_QUESTIONS, InputError

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
    raise ValueError(f"answerable must be true/false, yes/no, sim/não or 1/0, got {value!r}")


def check_question(question: LabelledQuestion, where: str = "") -> LabelledQuestion:
    """Enforce the input limits with a message that says where the problem is."""
    prefix = f"{where}: " if where else ""
    text = question.question.strip()
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(
            f"{prefix}the question has {len(text)} characters; the limit is {MAX_QUESTION_CHARS}."
        )
    if len(question.answer) > MAX_ANSWER_CHARS:
        raise InputError(
            f"{prefix}the expected answer has {len(question.answer)} characters; "
            f"the limit is {MAX_ANSWER_CHARS}."
        )
    return LabelledQuestion(text, question.answer.strip(), question.answerable)


def parse_questions_csv(text: str) -> list[LabelledQuestion]:
    """Read ``question,answer,answerable`` rows; a malformed row gets an error naming its line."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), strict=True)
    try:
        return _parse_rows(reader)
    except csv.Error as error:
        raise InputError(f"line {reader.line_num}: not valid CSV ({error})") from None


def _parse_rows(reader: Any) -> list[LabelledQuestion]:
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(
            "the questions file is empty: it needs a header row question,answer,answerable"
        ) from None
    columns = [h.strip().lower() for h in header]
    if len(columns) == 1 and ";" in columns[0]:
        raise InputError("line 1: columns must be separated by commas, not semicolons")
    if len(set(columns)) != len(columns):
        raise InputError(f"line 1: a column appears twice ({', '.join(columns)})")
    if "question" not in columns:
        raise InputError(
            "line 1: the questions file needs a 'question' column, "
            f"found {', '.join(columns) or 'none'}"
        )
    unknown = [c for c in columns if c not in {"question", "answer", "answerable"}]
    if unknown:
        raise InputError(
            f"line 1: unknown column(s) {', '.join(unknown)}; use question,answer,answerable"
        )
    out: list[LabelledQuestion] = []
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(columns):
            raise InputError(f"line {line}: {len(row)} fields, the header has {len(columns)}")
        record = dict(zip(columns, row, strict=False))
        question = record.get("question", "").strip()
        if not question:
            raise InputError(f"line {line}: the question is empty")
        try:
            answerable = parse_bool(record.get("answerable"))
        except ValueError as error:
            raise InputError(f"line {line}: {error}") from None
        answer = record.get("answer", "").strip()
        if answerable is False and answer:
            raise InputError(
                f"line {line}: an unanswerable question cannot have an expected answer"
            )
        out.append(check_question(LabelledQuestion(question, answer, answerable), f"line {line}"))
        if len(out) > MAX_QUESTIONS:
            raise InputError(
                f"line {line}: more than {MAX_QUESTIONS} questions; the limit is {MAX_QUESTIONS}"
            )
    return out


def questions_to_csv(questions: Iterable[LabelledQuestion]) -> str:
    """The inverse of parse_questions_csv."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "answer", "answerable"])
    for q in questions:
        flag = "" if q.answerable is None else ("true" if q.answerable else "false")
        writer.writerow([q.question, q.answer, flag])
    return buffer.getvalue()
