"""Production indexes read as chunks: one module per store behind ``base.IndexReader``.

``open_index`` picks the adapter from what the user typed (a Chroma directory, a Chroma
server address, a JSONL, CSV or Parquet file), so adding a store is one file plus one line.
"""

from ragviz.errors import IndexInputError
from ragviz.index.base import CollectionInfo, IndexChunk, IndexReader, LoadedIndex
from ragviz.index.open import open_index

__all__ = ["CollectionInfo", "IndexChunk", "IndexInputError", "IndexReader", "LoadedIndex",
           "open_index"]
