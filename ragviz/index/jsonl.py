"""Chunk exports as JSON lines, in LangChain's ``Document`` shape (``page_content``,
``metadata.source``, ``metadata.start_index``) or LlamaIndex's node shape (``text``,
``start_char_idx``, ``end_char_idx``, ``metadata.file_name``), with or without an
``embedding`` list. A broken line is named by its number; the other lines still load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragviz.i18n import Phrase
from ragviz.index.base import FileReader, IndexChunk, IndexInputError, LoadedIndex, from_metadata
from ragviz.inputs.documents import InputError


class JsonlReader(FileReader):
    """One JSONL file, seen as a single collection named after the file."""

    def read(self, collection: str | None = None) -> LoadedIndex:
        chunks: list[IndexChunk] = []
        problems: list[Phrase | InputError] = []
        name = Path(self.path).name
        with Path(self.path).open(encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    chunks.append(parse_record(json.loads(line), _line(name, number)))
                except (json.JSONDecodeError, IndexInputError) as error:
                    problems.append(_problem(name, number, error))
        if not chunks:
            raise (IndexInputError(key="index.no_readable_chunk", name=name, problem=problems[0])
                   if problems else IndexInputError(key="index.no_chunk", name=name))
        left_out = tuple(Phrase("index.left_out", {"problem": p}) for p in problems)
        return LoadedIndex(name, tuple(chunks), left_out)


def _line(name: str, number: int) -> Phrase:
    return Phrase("index.line", {"name": name, "line": number})


def _problem(name: str, number: int, error: Exception) -> Phrase | InputError:
    if isinstance(error, json.JSONDecodeError):
        return Phrase("index.not_json", {"where": _line(name, number), "error": error.msg})
    assert isinstance(error, InputError)
    return error


def parse_record(record: Any, where: str | Phrase) -> IndexChunk:
    """One chunk from a LangChain or LlamaIndex record; the text is kept as written."""
    if not isinstance(record, dict):
        raise IndexInputError(key="index.not_object", where=where)
    if isinstance(record.get("kwargs"), dict):  # LangChain's serialised form (lc: 1)
        record = record["kwargs"]
    text = record.get("page_content", record.get("text"))
    if not isinstance(text, str) or not text:
        raise IndexInputError(key="index.no_text", where=where)
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise IndexInputError(key="index.metadata_not_object", where=where)
    merged = {**metadata, **{k: record[k] for k in ("start_char_idx", "end_char_idx")
                             if k in record}}
    chunk_id = record.get("id") or record.get("id_") or where
    return from_metadata(str(chunk_id), text, merged, record.get("embedding"), where)
