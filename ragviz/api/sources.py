"""The corpus and the questions of a Python call, read through the one reading policy
(``ragviz.inputs.reading``): paths as ``ragviz eval`` reads them, texts as the app reads a
paste, questions from a file, a DataFrame or a list of dicts through the one questions
parser (the same columns)."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from ragviz.errors import InputError
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.documents import (
    MAX_CLI_QUESTIONS,
    MAX_FILE_CHARS,
    check_document,
)
from ragviz.inputs.questions import FILE_COLUMNS, LabelledQuestion, parse_questions_csv
from ragviz.inputs.reading import SAMPLE_PREFIX
from ragviz.inputs.reading import read_corpus as read_paths
from ragviz.inputs.reading import read_questions as read_questions_path
from ragviz.share.samples import find_sample

PathLike: TypeAlias = "str | os.PathLike[str]"
CorpusInput: TypeAlias = "PathLike | Sequence[PathLike] | Mapping[str, str] | Corpus"
QuestionsInput: TypeAlias = "PathLike | Sequence[Mapping[str, Any] | str] | Any"  # Any: a DataFrame
COLUMNS = FILE_COLUMNS  # a DataFrame's or a dict's keys: the questions file's columns


def _is_path(value: object) -> bool:
    """A ``Path``, or a string naming a file, a folder or a packaged sample (``sample:NAME``);
    any other string is a text."""
    if isinstance(value, os.PathLike):
        return True
    if not isinstance(value, str) or "\n" in value or len(value) > 1024:
        return False
    try:
        return value.startswith(SAMPLE_PREFIX) or Path(value).exists()
    except (OSError, ValueError):  # a text too long for a file name, or holding a NUL
        return False


def read_corpus(corpus: CorpusInput) -> Corpus:
    """Paths (one or several: files, folders, ``sample:NAME``) read as ``ragviz eval`` reads
    them; texts (one, a list, or a dict of name -> text) as documents of those names (one
    text alone is named "", as a pasted document)."""
    if isinstance(corpus, Corpus):
        return corpus
    if isinstance(corpus, Mapping):
        return _texts([(str(name), text) for name, text in corpus.items()])
    items = [corpus] if isinstance(corpus, str | os.PathLike) else list(corpus)
    if not items:
        raise InputError(key="python.empty_corpus")
    if all(_is_path(item) for item in items):
        from ragviz.cli.reading import (
            tell_corpus,  # its problems said on stderr, as the CLI says them
        )

        return read_paths([os.fspath(item) for item in items], samples=find_sample,
                          told=tell_corpus)
    if all(isinstance(item, str) for item in items):
        if len(items) == 1:
            return _texts([("", str(items[0]))])
        return _texts([(f"text_{n}", str(text)) for n, text in enumerate(items, start=1)])
    raise InputError(key="python.corpus_type", got=type(corpus).__name__)


def _texts(named: Iterable[tuple[str, Any]]) -> Corpus:
    sources = []
    for name, text in named:
        if not isinstance(text, str):
            raise InputError(key="python.corpus_type", got=type(text).__name__)
        sources.append(Source(name, check_document(text, name or "text", MAX_FILE_CHARS)))
    return Corpus(tuple(sources))


def read_questions(questions: QuestionsInput) -> list[LabelledQuestion]:
    """Labelled questions from a CSV file (``question,answer,answerable`` or Chroma's
    ``question,references,corpus_id``), a DataFrame with those columns, a list of dicts
    with those keys, or a list of plain question strings (unlabelled)."""
    if isinstance(questions, str | os.PathLike):
        return read_questions_path(os.fspath(questions), samples=find_sample)[0]
    if hasattr(questions, "to_dict") and hasattr(questions, "columns"):  # a DataFrame
        return _parsed(questions.to_dict("records"))
    if isinstance(questions, Sequence) and not isinstance(questions, bytes):
        rows = [{"question": q} if isinstance(q, str) else q for q in questions]
        if all(isinstance(row, Mapping) for row in rows):
            return _parsed(rows)
    raise InputError(key="python.questions_type", got=type(questions).__name__)


def _parsed(rows: Sequence[Mapping[str, Any]]) -> list[LabelledQuestion]:
    """Rows written as the CSV the CLI reads, then read by its parser: one set of rules."""
    if not rows:
        raise InputError(key="questions.none_unnamed")
    columns = [c for c in COLUMNS if any(c in row for row in rows)]
    unknown = sorted({str(k) for row in rows for k in row} - set(COLUMNS))
    if unknown or "question" not in columns:
        raise InputError(key="python.question_keys", got=", ".join(unknown) or "-",
                         keys=", ".join(COLUMNS))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in columns])
    return parse_questions_csv(out.getvalue(), MAX_CLI_QUESTIONS)


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):  # NaN: an empty cell
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
