"""Chunk exports as JSON lines, in LangChain's ``Document`` shape (``page_content``,
``metadata.source``, ``metadata.start_index``) or LlamaIndex's node shape (``text``,
``start_char_idx``, ``end_char_idx``, ``metadata.file_name``), with or without an
``embedding`` list. A broken line is named by its number; the other lines still load."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import IO, Any

from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.i18n import Grouped, Message
from ragviz.index.base import (
    MAX_RECORD_BYTES,
    FileReader,
    IndexChunk,
    LoadedIndex,
    ReadBudget,
    from_metadata,
    readable,
    refuse_other_encodings,
)
from ragviz.index.stores import OpenOptions, Store, register


class JsonlReader(FileReader):
    """One JSONL file, seen as a single collection named after the file, streamed line by
    line within its budget: a damaged line (not UTF-8, not JSON, nested too deep, a bad
    vector) is left out and counted, a limit passed refuses the file."""

    def _read(self, budget: ReadBudget) -> LoadedIndex:
        chunks: list[IndexChunk] = []
        with Path(self.path).open("rb") as handle:
            refuse_other_encodings(handle.read(4096), budget.name)
            handle.seek(0)
            _count_records(handle, budget)
            for number, line in bounded_lines(handle, budget.name):
                if not line.strip():
                    continue
                budget.record()
                budget.keep(partial(parse_line, line, _line(budget.name, number), budget,
                                    number == 1), chunks)
        return budget.loaded(chunks)


def _count_records(handle: IO[bytes], budget: ReadBudget) -> None:
    """Refuse a file of more records than the chunk limit before parsing one (counting
    lines costs a fraction of parsing them); the handle is left at the start."""
    records = 0
    for _, line in bounded_lines(handle, budget.name):
        records += bool(line.strip())
        if records > budget.max_chunks:
            raise budget.too_many()
    handle.seek(0)


def bounded_lines(handle: IO[bytes], name: str) -> Iterator[tuple[int, bytes]]:
    """The file's lines with their numbers; a line past ``MAX_RECORD_BYTES`` refuses the
    file (it is never held whole)."""
    number = 0
    while line := handle.readline(MAX_RECORD_BYTES + 1):
        number += 1
        if len(line) > MAX_RECORD_BYTES:
            raise IndexLimitError(key="idx.record_too_long", where=_line(name, number),
                                  limit=Grouped(MAX_RECORD_BYTES))
        yield number, line


def _line(name: str, number: int) -> Message:
    return Message("idx.line", {"name": name, "line": number})


def parse_line(line: bytes, where: Message, budget: ReadBudget, first: bool) -> IndexChunk:
    """One line as a chunk, or the sentence that says why it is left out."""
    try:
        text = line.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError:
        raise IndexInputError(key="idx.not_utf8_record", where=where) from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise IndexInputError(key="idx.not_json", where=where, error=error.msg) from None
    except RecursionError:
        raise IndexInputError(key="idx.nested_too_deep", where=where) from None
    except ValueError:  # an integer of more digits than Python converts
        raise IndexInputError(key="idx.number_too_long", where=where) from None
    return parse_record(record, where, budget)


def parse_record(record: Any, where: str | Message,
                 budget: ReadBudget | None = None) -> IndexChunk:
    """One chunk from a LangChain or LlamaIndex record; the text is kept as written
    (counted against ``budget`` before its vector is read)."""
    if not isinstance(record, dict):
        raise IndexInputError(key="idx.not_object", where=where)
    if isinstance(record.get("kwargs"), dict):  # LangChain's serialised form (lc: 1)
        record = record["kwargs"]
    text = record.get("page_content", record.get("text"))
    if not isinstance(text, str) or not text:
        raise IndexInputError(key="idx.no_text", where=where)
    if budget is not None:
        budget.text(len(text), where)
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise IndexInputError(key="idx.metadata_not_object", where=where)
    merged = {**metadata, **{k: record[k] for k in ("start_char_idx", "end_char_idx")
                             if k in record}}
    chunk_id = str(record.get("id") or record.get("id_") or where)
    chunk = from_metadata(readable(chunk_id, where), readable(text, where), merged,
                          record.get("embedding"), where)
    readable(chunk.source, where)
    return chunk


def _looks_like_jsonl(path: Path) -> bool:
    """A file whose first non-blank byte opens a JSON object (not a CSV or Parquet name)."""
    if not path.is_file() or path.suffix.lower() in (".csv", ".parquet"):
        return False
    with path.open("rb") as handle:
        head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{")


def _open(spec: str, options: OpenOptions) -> JsonlReader:
    return JsonlReader(spec, options.max_chunks, options.progress)


STORE = register(Store("jsonl", _open, detect=_looks_like_jsonl, suffixes=(".jsonl", ".ndjson"),
                       forms=("*.jsonl",)))
