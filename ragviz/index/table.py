"""Chunk exports as CSV or Parquet: a ``text`` column (or ``page_content``), and optional
``id``, ``source``, ``start``, ``end`` and ``vector`` (or ``embedding``) columns. In a CSV
the vector is a JSON list in its cell; in Parquet a list column.

Neither is read whole: a CSV streams row by row, a Parquet file batch by batch of the
columns used, its texts kept dictionary-encoded until their decoded length is counted, so
a small file that unpacks to gigabytes is refused before it does. The rule is the JSONL
reader's: a damaged row is left out and counted, a limit passed refuses the file."""

from __future__ import annotations

import csv
import itertools
import json
import math
import re
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.i18n import Grouped, Message
from ragviz.index.base import (
    MAX_DIMENSION,
    MAX_INDEX_CHARS,
    MAX_RECORD_BYTES,
    MAX_VECTOR_BYTES,
    FileReader,
    IndexChunk,
    LoadedIndex,
    ReadBudget,
    as_vector,
    readable,
    refuse_other_encodings,
)
from ragviz.index.stores import OpenOptions, Store, register

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

_LONE_CR = re.compile(r"(?<=\r)(?!\n)")
_TEXT = ("text", "page_content", "document", "chunk")
_VECTOR = ("vector", "embedding", "embeddings")
_OTHER = ("id", "source", "start", "end")


class TableReader(FileReader):
    """One CSV or Parquet file, seen as a single collection named after the file."""

    def _read(self, budget: ReadBudget) -> LoadedIndex:
        if self.path.lower().endswith(".parquet") or _looks_like_parquet(Path(self.path)):
            return _read_parquet(self.path, budget)
        return _read_csv(self.path, budget)


def text_column(names: Sequence[str], name: str) -> str:
    """The column holding the chunks' texts, or one sentence naming the ones looked for."""
    found = next((c for c in _TEXT if c in names), None)
    if found is None:
        raise IndexInputError(key="idx.no_text_column", name=name, columns=", ".join(_TEXT))
    return found


def used_columns(names: Sequence[str], name: str) -> list[str]:
    """The columns read: the text's, the first vector column, and the optional ones."""
    vector = next((c for c in _VECTOR if c in names), None)
    return [text_column(names, name), *([vector] if vector else []),
            *(c for c in _OTHER if c in names)]


def row_chunk(row: dict[str, Any], number: int, where: Message, budget: ReadBudget) -> IndexChunk:
    """One row as a chunk (its text counted before its vector is read), or the sentence
    that says why it is left out."""
    text = next((row[c] for c in _TEXT if c in row), None)
    if not isinstance(text, str) or not text:
        raise IndexInputError(key="idx.no_text", where=where)
    budget.text(len(text), where)
    vector = next((row[c] for c in _VECTOR if c in row), None)
    chunk_id = row.get("id")
    return IndexChunk(readable(str(number if chunk_id in (None, "") else chunk_id), where),
                      readable(text, where), readable(_text(row.get("source")), where),
                      _int(row.get("start")), _int(row.get("end")), {},
                      as_vector(_cell_vector(vector, where), where))


def _read_csv(path: str, budget: ReadBudget) -> LoadedIndex:
    """The export's rows; csv's field limit (process-wide) raised for its long vector cells
    while it is read, then put back: the questions reader relies on the default to name a
    quote never closed."""
    before = csv.field_size_limit(max(csv.field_size_limit(), MAX_RECORD_BYTES))
    try:
        return _read_csv_rows(path, budget)
    finally:
        csv.field_size_limit(before)


def _read_csv_rows(path: str, budget: ReadBudget) -> LoadedIndex:
    chunks: list[IndexChunk] = []
    with Path(path).open("rb") as handle:
        refuse_other_encodings(handle.read(4096), budget.name)
        _count_rows(handle, budget)
        lines = _Lines(handle, budget.name)
        rows = csv.reader(lines)
        header = _next_row(rows, lines, budget.name)
        if header is None:
            raise IndexInputError(key="idx.no_chunk", name=budget.name)
        used_columns(header, budget.name)
        for number in itertools.count(1):
            cells = _next_row(rows, lines, budget.name)
            if cells is None:
                break
            if not any(cells):
                continue
            budget.record()
            budget.keep(partial(_csv_chunk, header, cells, lines, number, budget), chunks)
    return budget.loaded(chunks)


def _count_rows(handle: IO[bytes], budget: ReadBudget) -> None:
    """Refuse a file of more rows than the chunk limit before a row is made a chunk (the C
    parser counts them in a fraction of the time); the handle is left at the start."""
    handle.seek(0)
    rows = 0
    try:
        for cells in csv.reader(_Lines(handle, budget.name)):
            rows += any(cells)
            if rows > budget.max_chunks + 1:  # (the header is a row)
                raise budget.too_many()
    except csv.Error:
        pass  # said with its line by the reading that follows
    handle.seek(0)


def _csv_chunk(header: list[str], cells: list[str], lines: _Lines, number: int,
               budget: ReadBudget) -> IndexChunk:
    where = Message("idx.row", {"name": budget.name, "row": number})
    if lines.undecodable:
        raise IndexInputError(key="idx.not_utf8_record", where=where)
    if len(cells) != len(header):
        raise IndexInputError(key="idx.cells_mismatch", where=where, n=len(cells),
                              expected=len(header))
    return row_chunk(dict(zip(header, cells, strict=True)), number, where, budget)


def _next_row(rows: Iterator[list[str]], lines: _Lines, name: str) -> list[str] | None:
    """The next row (None at the end), its lines' decoding noted in ``lines``."""
    lines.undecodable = False
    begins = lines.number + 1  # the line the row begins on (where a quote was opened)
    try:
        return next(rows)
    except StopIteration:
        return None
    except csv.Error:
        raise IndexInputError(key="idx.csv_broken", name=name, line=Grouped(begins)) from None


class _Lines:
    """A CSV's lines decoded one by one, each bounded, so a row that is not UTF-8 is known
    (``undecodable``) and left out while the others are read; a lone CR ends a line too
    (files written with old Mac line ends)."""

    def __init__(self, handle: IO[bytes], name: str) -> None:
        self.handle, self.name = handle, name
        self.number = 0
        self.undecodable = False
        self.pending: list[str] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        if self.pending:
            return self.pending.pop()
        line = self.handle.readline(MAX_RECORD_BYTES + 1)
        if not line:
            raise StopIteration
        self.number += 1
        if len(line) > MAX_RECORD_BYTES:
            where = Message("idx.line", {"name": self.name, "line": self.number})
            raise IndexLimitError(key="idx.record_too_long", where=where,
                                  limit=Grouped(MAX_RECORD_BYTES))
        try:
            text = line.decode("utf-8-sig" if self.number == 1 else "utf-8")
        except UnicodeDecodeError:
            self.undecodable = True
            text = line.decode("utf-8", errors="replace")
        first, *rest = _LONE_CR.split(text)
        self.pending = [part for part in reversed(rest) if part]
        return first


# Parquet: rows decoded at once (a batch's texts are counted before they are decoded), the
# longest vector read, and the bytes the columns used may unpack to, said by the footer.
_BATCH_ROWS = 1_024
_MAX_UNPACKED_BYTES = 4 * MAX_INDEX_CHARS + MAX_VECTOR_BYTES


def _read_parquet(path: str, budget: ReadBudget) -> LoadedIndex:
    import pyarrow as pa

    try:
        file, columns = _parquet_file(path, budget)
        chunks: list[IndexChunk] = []
        for batch in file.iter_batches(batch_size=_BATCH_ROWS, columns=columns):
            _parquet_batch(batch, budget, chunks)
    except (pa.ArrowException, OSError, MemoryError, ValueError) as error:
        if isinstance(error, IndexInputError):
            raise
        raise IndexInputError(key="idx.parquet_broken", name=budget.name) from None
    return budget.loaded(chunks)


def _parquet_file(path: str, budget: ReadBudget) -> tuple[pq.ParquetFile, list[str]]:
    """The file opened on its footer, refused there when it holds too many rows, a text
    column that is not text, or columns that unpack past the limit."""
    import pyarrow.parquet as pq

    schema = pq.ParquetFile(path).schema_arrow
    columns = used_columns(schema.names, budget.name)
    twice = next((c for c in columns if schema.names.count(c) > 1), None)
    if twice is not None:
        raise IndexInputError(key="idx.column_twice", name=budget.name, column=twice)
    _check_text_type(schema.field(columns[0]).type, columns[0], budget.name)
    file = pq.ParquetFile(path, read_dictionary=[columns[0]])
    meta = file.metadata
    if meta.num_rows > 2 * budget.max_chunks:
        raise budget.too_many()
    unpacked, text, values = 0, 0, 0
    for group in range(meta.num_row_groups):
        row_group = meta.row_group(group)
        for index in range(row_group.num_columns):
            column = row_group.column(index)
            name = column.path_in_schema.split(".")[0]
            if name in columns:
                unpacked += max(column.total_uncompressed_size, 0)
                text += max(column.total_uncompressed_size, 0) if name == columns[0] else 0
                values = max(values, column.num_values)
    if (unpacked > _MAX_UNPACKED_BYTES or values > meta.num_rows * MAX_DIMENSION
            or text > 4 * budget.max_chars + 8 * meta.num_rows):
        raise IndexLimitError(key="idx.table_too_big", name=budget.name)
    unpacked, text = _declared_by_pages(path, meta, columns)  # what pyarrow will allocate
    if unpacked > _MAX_UNPACKED_BYTES or text > 4 * budget.max_chars + 8 * meta.num_rows:
        raise IndexLimitError(key="idx.table_too_big", name=budget.name)
    return file, columns


def _declared_by_pages(path: str, meta: pq.FileMetaData, columns: list[str]) -> tuple[int, int]:
    """The bytes the used columns' pages (and the text column's alone) declare they unpack
    to, read from each page's header (``parquet_pages``): a footer may say less."""
    from ragviz.index.parquet_pages import MAX_PAGES, column_unpacked_bytes

    unpacked = text = 0
    pages_left = [MAX_PAGES]
    with Path(path).open("rb") as source:
        for group in range(meta.num_row_groups):
            row_group = meta.row_group(group)
            for index in range(row_group.num_columns):
                column = row_group.column(index)
                name = column.path_in_schema.split(".")[0]
                if name not in columns:
                    continue
                start = column.data_page_offset
                if column.has_dictionary_page and column.dictionary_page_offset:
                    start = min(start, column.dictionary_page_offset)
                size, _ = column_unpacked_bytes(source, start, column.total_compressed_size,
                                                pages_left)
                unpacked += size
                text += size if name == columns[0] else 0
    return unpacked, text


def _check_text_type(kind: pa.DataType, column: str, name: str) -> None:
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise IndexInputError(key="idx.text_not_strings", column=column, name=name,
                              kind=str(kind))


def _parquet_batch(batch: pa.RecordBatch, budget: ReadBudget,
                   chunks: list[IndexChunk]) -> None:
    """One batch's rows as chunks: its texts' decoded length and its vectors' length are
    checked on Arrow's arrays, before a Python string or list is made."""
    import pyarrow.compute as pc

    texts = batch.column(0)
    if hasattr(texts, "dictionary"):  # kept encoded: one length per distinct text
        lengths = pc.take(pc.utf8_length(texts.dictionary), texts.indices)
    else:
        lengths = pc.utf8_length(texts)
    longest, total = pc.max(lengths).as_py() or 0, pc.sum(lengths).as_py() or 0
    first = budget.records + 1 + (pc.index(lengths, longest).as_py() if longest else 0)
    budget.ahead(longest, total, Message("idx.row", {"name": budget.name, "row": first}))
    for name in batch.schema.names[1:]:
        if name in _VECTOR:
            _check_dimension(batch.column(name), budget)
    for row in _batch_rows(batch):
        budget.record()
        where = Message("idx.row", {"name": budget.name, "row": budget.records})
        budget.keep(partial(row_chunk, row, budget.records, where, budget), chunks)


def _batch_rows(batch: pa.RecordBatch) -> list[dict[str, Any]]:
    """The batch's rows as dicts, a vector column given as rows of one array when it can be
    (a list of Python floats per row costs more than the rest of the reading)."""
    vector = next((name for name in batch.schema.names if name in _VECTOR), None)
    if vector is None:
        rows: list[dict[str, Any]] = batch.to_pylist()
        return rows
    rows = batch.drop_columns([vector]).to_pylist()
    column = batch.column(vector)
    matrix = _as_matrix(column)
    for row, value in zip(rows, column.to_pylist() if matrix is None else matrix, strict=True):
        row[vector] = value
    return rows


def _as_matrix(column: pa.Array) -> Any:
    """The vectors as the rows of one numpy array when every row holds a list of the same
    length, else None."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    if column.null_count or not (pa.types.is_list(kind) or pa.types.is_large_list(kind)
                                 or pa.types.is_fixed_size_list(kind)):
        return None
    lengths = pc.list_value_length(column)
    dimension = pc.min(lengths).as_py()
    if not dimension or dimension != pc.max(lengths).as_py():
        return None
    flat = pc.list_flatten(column).to_numpy(zero_copy_only=False)
    return flat.reshape(len(column), dimension)


def _check_dimension(vectors: pa.Array, budget: ReadBudget) -> None:
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_fixed_size_list(vectors.type):
        longest = vectors.type.list_size
    elif pa.types.is_list(vectors.type) or pa.types.is_large_list(vectors.type):
        longest = pc.max(pc.list_value_length(vectors)).as_py() or 0
    else:
        return
    if longest > MAX_DIMENSION:
        raise IndexLimitError(key="idx.table_too_big", name=budget.name)


def _cell_vector(cell: Any, where: Message) -> Any:
    if isinstance(cell, str):
        if not cell.strip():
            return None
        try:
            return json.loads(cell)
        except json.JSONDecodeError:
            raise IndexInputError(key="idx.vector_not_json", where=where) from None
        except RecursionError:
            raise IndexInputError(key="idx.nested_too_deep", where=where) from None
        except ValueError:  # an integer of more digits than Python converts
            raise IndexInputError(key="idx.number_too_long", where=where) from None
    return cell


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return int(number) if math.isfinite(number) and number >= 0 else None


def _looks_like_parquet(path: Path) -> bool:
    """A file that starts with Parquet's magic bytes."""
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        return handle.read(4) == b"PAR1"


def _open(spec: str, options: OpenOptions) -> TableReader:
    return TableReader(spec, options.max_chunks, options.progress)


STORE = register(Store("table", _open, detect=_looks_like_parquet,
                       suffixes=(".csv", ".parquet"),
                       forms=("*.csv", "*.parquet")))
