"""Chunk exports as CSV or Parquet: a ``text`` column (or ``page_content``), and optional
``source``, ``start``, ``end`` and ``vector`` (or ``embedding``) columns. In a CSV the
vector is a JSON list in its cell; in Parquet a list column."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from ragviz.i18n import Phrase
from ragviz.index.base import FileReader, IndexChunk, IndexInputError, LoadedIndex, as_vector

_TEXT = ("text", "page_content", "document", "chunk")
_VECTOR = ("vector", "embedding", "embeddings")


class TableReader(FileReader):
    """One CSV or Parquet file, seen as a single collection named after the file."""

    def read(self, collection: str | None = None) -> LoadedIndex:
        name = Path(self.path).name
        frame = _frame(self.path)
        text_column = next((c for c in _TEXT if c in frame.columns), None)
        if text_column is None:
            raise IndexInputError(key="index.no_text_column", name=name, columns=", ".join(_TEXT))
        vector_column = next((c for c in _VECTOR if c in frame.columns), None)
        chunks = []
        for number, row in enumerate(frame.to_dict("records"), start=1):
            text = row[text_column]
            if not isinstance(text, str) or not text:
                continue
            where = Phrase("index.row", {"name": name, "row": number})
            raw = _cell_vector(row.get(vector_column) if vector_column else None, where)
            chunks.append(IndexChunk(str(row.get("id", number)), text, _text(row.get("source")),
                                     _int(row.get("start")), _int(row.get("end")), {},
                                     as_vector(raw, where)))
        if not chunks:
            raise IndexInputError(key="index.no_chunk", name=name)
        return LoadedIndex(name, tuple(chunks))


def _frame(path: str) -> pd.DataFrame:
    try:
        if path.lower().endswith(".parquet"):
            return pd.read_parquet(path)
        return pd.read_csv(path, dtype={"text": str, "source": str}, keep_default_na=False)
    except (OSError, ValueError) as error:
        raise IndexInputError(key="index.not_a_table", name=Path(path).name,
                              error=str(error)) from None


def _cell_vector(cell: Any, where: Phrase) -> Any:
    if isinstance(cell, str):
        if not cell.strip():
            return None
        try:
            return json.loads(cell)
        except json.JSONDecodeError:
            raise IndexInputError(key="index.vector_not_json", where=where) from None
    return cell


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if math.isfinite(number) and number >= 0 else None
