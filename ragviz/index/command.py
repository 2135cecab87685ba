"""The CLI's index parts: ``ragviz index PATH`` (what an index holds) and the ``--index``
options of ``ragviz eval`` (the same JSON as today's eval, plus each chunk's labels)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ragviz.i18n import say as i18n_say
from ragviz.index.base import IndexInputError, LoadedIndex
from ragviz.index.duplicates import duplicate_count, duplicate_groups, near_searched
from ragviz.index.messages import say
from ragviz.index.open import open_index

if TYPE_CHECKING:  # the analysis imports the pipeline: loaded only when an index is used
    from ragviz.index.analysis import IndexAnalysis

# Chunks ragviz loads into memory from one collection in the CLI; past it, the database
# would have to retrieve (a later part of issue 21).
CLI_MAX_CHUNKS = 200_000
INDEX_HELP = "chroma:DIR, chroma+http://HOST:PORT, or a .jsonl, .csv or .parquet chunk export"


def add_eval_options(parser: argparse.ArgumentParser) -> None:
    """``--index``, ``--collection`` and ``--sources`` for ``ragviz eval``."""
    parser.add_argument("--index", help=f"diagnose a production index: {INDEX_HELP}")
    parser.add_argument("--collection", help="the Chroma collection (when there are several)")
    parser.add_argument("--sources", nargs="+", default=[], metavar="FILE",
                        help="the files the index was built from (to place and check chunks)")


Emit = Callable[[argparse.Namespace, dict[str, Any], Callable[[], str]], None]


def add_index_parser(sub: Any, model_options: Callable[[argparse.ArgumentParser], None],
                     emit: Emit, model: Callable[[argparse.Namespace, bool], Any]) -> None:
    """``ragviz index PATH [--collection NAME] [--model M]``; the CLI hands in how it adds
    model options, prints, and loads a model (this module does not import the CLI)."""
    parser = sub.add_parser("index", help="what a production index holds")
    parser.add_argument("path", help=INDEX_HELP)
    parser.add_argument("--collection", help="only this collection")
    model_options(parser)
    parser.set_defaults(handler=lambda args: cmd_index(args, emit, model(args, False)))


def load(spec: str, collection: str | None) -> LoadedIndex:
    """One collection of an index, refused past the CLI's in-memory limit."""
    loaded = open_index(spec).read(collection)
    if len(loaded.chunks) > CLI_MAX_CHUNKS:
        raise IndexInputError(key="index.too_many_chunks", name=loaded.name,
                              n=f"{len(loaded.chunks):,}", limit=f"{CLI_MAX_CHUNKS:,}")
    return loaded


@dataclass(frozen=True)
class IndexRun:
    """An eval on an index, and how it changes today's eval JSON."""

    result: IndexAnalysis
    lang: str

    def decorate(self, payload: dict[str, Any]) -> list[str]:
        """Chunks with their labels and unknown offsets as null, questions with
        duplicate-crowding; returns the sentences to print first."""
        from ragviz.index.analysis import DUPLICATE_CROWDING

        result = self.result
        payload["chunker"] = f"index {result.index.name}"
        payload["index"] = {"collection": result.index.name, "problems":
                            [i18n_say(p, self.lang) for p in result.index.problems],
                            "stored_vectors": result.stored,
                            "vector_mismatch_share": round(result.mismatch_share, 6)}
        payload["chunk_list"] = [self._chunk(i) for i in range(len(result.placed.chunks))]
        for number, row in enumerate(payload["questions"]):
            copies = result.crowding(number)
            if copies and row["diagnosis"] is not None:
                row["labels"].append(DUPLICATE_CROWDING)
                row["duplicate_crowding"] = list(copies)
                row["explanation"] = " ".join(filter(None, (row["explanation"], say(
                    "duplicate_crowding", self.lang, chunks=", ".join(map(str, copies)),
                    places=len(copies), top_k=result.analysis.top_k))))
        warnings = [*payload["index"]["problems"], *result.warnings(self.lang)]
        payload["warnings"] = warnings
        return warnings

    def _chunk(self, i: int) -> dict[str, Any]:
        result = self.result
        chunk, stored = result.placed.chunks[i], result.index.chunks[i]
        known = result.placed.known[i]
        out = {"index": i, "id": stored.id, "source": stored.source or chunk.source,
               "start": chunk.start if known else None, "end": chunk.end if known else None,
               "text": stored.text, "labels": list(result.chunk_labels(i)),
               "vector_agreement": round(result.agreement[i], 6)}
        if result.placed.stale[i] is not None:
            out["stale_in"] = result.placed.stale[i]
            out["explanation"] = say("stale_chunk", self.lang, chunk=i,
                                     file=result.placed.stale[i])
        return out


def run_index_eval(args: argparse.Namespace, questions: Any, embedder: Any, sources: Any,
                   settings: Any, progress: Any) -> IndexRun:
    """``ragviz eval --index ...``: the analysis on the stored vectors."""
    from ragviz.index.analysis import analyse_index

    loaded = load(args.index, args.collection)
    result = analyse_index(loaded, embedder, questions, sources, settings, progress)
    return IndexRun(result, args.lang)


def summary(loaded: LoadedIndex, embedder: Any, lang: str = "en") -> dict[str, Any]:
    """What one collection holds: count, dimension, chunk sizes, copies, and with a
    model the share of stored vectors that do not match their text."""
    from ragviz.index.analysis import MISMATCH_COSINE, check_dimension, stored_matrix

    sizes = np.array([len(c.text) for c in loaded.chunks])
    stored = stored_matrix(loaded)
    out: dict[str, Any] = {
        "collection": loaded.name, "count": len(loaded.chunks),
        "dimension": None if stored is None else int(stored.shape[1]),
        "chunk_chars": {name: int(np.percentile(sizes, q)) for name, q in
                        (("min", 0), ("p10", 10), ("median", 50), ("p90", 90), ("max", 100))},
        "problems": [i18n_say(p, lang) for p in loaded.problems],
    }
    texts = [c.text for c in loaded.chunks]
    groups = duplicate_groups(stored, texts) if stored is not None else duplicate_groups(
        np.zeros((len(texts), 1), dtype=np.float32), texts)
    out["duplicate_groups"], out["duplicate_chunks"] = duplicate_count(groups)
    out["near_duplicates_searched"] = stored is not None and near_searched(len(texts))
    if embedder is not None and stored is not None:
        check_dimension(stored, embedder)
        fresh = embedder.encode_documents(texts)
        share = float(np.mean(np.sum(stored * fresh, axis=1) < MISMATCH_COSINE))
        out["model"], out["vector_mismatch_share"] = embedder.name, round(share, 6)
    return out


def summary_text(item: dict[str, Any]) -> str:
    """``summary`` as a few lines for a terminal."""
    sizes = item["chunk_chars"]
    count = f"{item['count']:,} chunk" + ("" if item["count"] == 1 else "s")
    lines = [*item["problems"], f"{item['collection']}: {count}, dimension "
             f"{item['dimension'] or 'none stored'}",
             "  chunk characters: " + "  ".join(f"{k} {v:,}" for k, v in sizes.items()),
             f"  duplicates: {item['duplicate_chunks']:,} chunks in "
             f"{item['duplicate_groups']:,} groups of copies"
             + ("" if item["near_duplicates_searched"] else " (exact copies only)")]
    if "vector_mismatch_share" in item:
        lines.append(f"  vector mismatch with {item['model']}: "
                     f"{item['vector_mismatch_share']:.0%} of the chunks")
    return "\n".join(lines)


def cmd_index(args: argparse.Namespace, emit: Emit, embedder: Any) -> None:
    """Print what the index holds (JSON with --json)."""
    reader = open_index(args.path)
    names = [args.collection] if args.collection else [c.name for c in reader.collections()]
    if not names:
        raise IndexInputError(key="index.no_collection", where=args.path)
    items = [summary(load(args.path, name), embedder, args.lang) for name in names]
    emit(args, {"index": args.path, "collections": items},
          lambda: "\n".join(summary_text(item) for item in items) + "\n")
