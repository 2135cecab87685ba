"""Chunk exports as JSON lines, in LangChain's ``Document`` shape (``page_content``,
``metadata.source``, ``metadata.start_index``) or LlamaIndex's node shape (``text``,
``start_char_idx``, ``end_char_idx``, ``metadata.file_name``), with or without an
``embedding`` list. A broken line is named by its number; the other lines still load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragviz.index.base import FileReader, IndexChunk, IndexInputError, LoadedIndex, from_metadata
from ragviz.index.messages import Sentence


class JsonlReader(FileReader):
    """One JSONL file, seen as a single collection named after the file."""

    def read(self, collection: str | None = None) -> LoadedIndex:
        chunks: list[IndexChunk] = []
        problems: list[str] = []
        name = Path(self.path).name
        with Path(self.path).open(encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    chunks.append(parse_record(json.loads(line), f"{name} line {number}"))
                except (json.JSONDecodeError, IndexInputError) as error:
                    problems.append(_problem(name, number, error))
        if not chunks:
            raise IndexInputError(f"{name} holds no readable chunk: {problems[0]}" if problems
                                  else f"{name} holds no chunk")
        problems = [Sentence("left_out", problem=problem) for problem in problems]
        return LoadedIndex(name, tuple(chunks), tuple(problems))


def _problem(name: str, number: int, error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return Sentence("broken_line", name=name, number=number, detail=error.msg)
    said = error.args[0] if error.args else ""
    return said if isinstance(said, Sentence) else str(error)


def parse_record(record: Any, where: str) -> IndexChunk:
    """One chunk from a LangChain or LlamaIndex record; the text is kept as written."""
    if not isinstance(record, dict):
        raise IndexInputError(f"{where} is not a JSON object")
    if isinstance(record.get("kwargs"), dict):  # LangChain's serialised form (lc: 1)
        record = record["kwargs"]
    text = record.get("page_content", record.get("text"))
    if not isinstance(text, str) or not text:
        raise IndexInputError(f"{where} has no page_content or text")
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise IndexInputError(f"{where}: metadata is not an object")
    merged = {**metadata, **{k: record[k] for k in ("start_char_idx", "end_char_idx")
                             if k in record}}
    chunk_id = record.get("id") or record.get("id_") or where
    return from_metadata(str(chunk_id), text, merged, record.get("embedding"), where)
