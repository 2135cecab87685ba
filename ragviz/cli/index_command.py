"""The CLI's index parts: ``ragviz index PATH`` (what an index holds) and the ``--index``
options of ``ragviz eval`` (the same JSON as today's eval, plus each chunk's labels)."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ragviz.cli.reading import cli_say
from ragviz.errors import IndexInputError, InputError
from ragviz.i18n import Grouped, decimal, grouped, render, t
from ragviz.index.base import (
    CLI_MAX_CHUNKS,
    LIMIT_VARIABLE,
    CollectionInfo,
    IndexReader,
    LoadedIndex,
    RetrievingIndex,
    memory_limit,
)
from ragviz.index.duplicates import duplicate_count, duplicate_groups, near_searched
from ragviz.index.open import open_index
from ragviz.index.stores import REQUEST_TIMEOUT_S, forms

if TYPE_CHECKING:  # the analysis imports the pipeline: loaded only when an index is used
    from ragviz.evaluation.index_analysis import IndexAnalysis
    from ragviz.evaluation.index_database import DatabaseAnalysis

MODES = ("auto", "memory", "database")
# The store-specific options (their help: ``cli.help.<name>``); each reaches the store as
# ``OpenOptions.extra``.
STORE_OPTIONS = ("--table", "--text-column", "--vector-column", "--id-column",
                 "--metadata-column", "--vector-name")


def add_eval_options(parser: argparse.ArgumentParser) -> None:
    """``--index``, ``--collection`` and ``--sources`` for ``ragviz eval``."""
    parser.add_argument("--index", help=cli_say("cli.help.index", forms=forms()))
    parser.add_argument("--collection", help=cli_say("cli.help.collection"))
    parser.add_argument("--sources", nargs="+", default=[], metavar="FILE",
                        help=cli_say("cli.help.sources"))
    parser.add_argument("--index-mode", choices=MODES, default="auto",
                        help=cli_say("cli.help.index_mode", n=CLI_MAX_CHUNKS))
    parser.add_argument("--margin", type=_margin, default=None, metavar="N",
                        help=cli_say("cli.help.margin"))
    add_timeout_option(parser)
    add_store_options(parser)


def add_store_options(parser: argparse.ArgumentParser) -> None:
    for flag in STORE_OPTIONS:
        parser.add_argument(flag, help=cli_say(f"cli.help.{_dest(flag)}"))


def store_options(args: argparse.Namespace) -> dict[str, Any]:
    """The store-specific options given (by their ``OpenOptions.extra`` names)."""
    names = (_dest(flag) for flag in STORE_OPTIONS)
    return {name: getattr(args, name, None) for name in names}


def _dest(flag: str) -> str:
    return flag.removeprefix("--").replace("-", "_")


def open_from_args(args: argparse.Namespace, spec: str) -> IndexReader:
    """The index ``spec`` with the command's timeout, store options and, on a terminal, a
    progress line while a file is read."""
    progress = reading_progress(getattr(args, "lang", "en")) if _terminal() else None
    return open_index(spec, getattr(args, "timeout", REQUEST_TIMEOUT_S), progress=progress,
                      **store_options(args))


def _terminal() -> bool:
    return sys.stderr.isatty()


def reading_progress(lang: str) -> Callable[[int], None]:
    """A line on stderr, rewritten as the records of an index are read."""
    def show(records: int) -> None:
        sys.stderr.write(t("idx.read_progress", lang, n=grouped(records, lang)) + "\r")
        sys.stderr.flush()

    return show


def add_timeout_option(parser: argparse.ArgumentParser) -> None:
    """``--timeout``: how long one request to a Chroma server may wait."""
    parser.add_argument("--timeout", type=_timeout, default=REQUEST_TIMEOUT_S, metavar="S",
                        help=cli_say("cli.help.timeout", seconds=f"{REQUEST_TIMEOUT_S:g}",
                                     limit=f"{MAX_TIMEOUT_S:g}"))


MAX_MARGIN = 10_000
MAX_TIMEOUT_S = 3_600.0


def _margin(text: str) -> int:
    """Chunks asked for past top_k: a whole number from 0 to MAX_MARGIN (said by key)."""
    try:
        value = int(text) if len(text) <= 7 else -1
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_MARGIN:
        raise InputError(key="cli.whole_number", low=0, high=MAX_MARGIN, got=repr(text[:20]))
    return value


def _timeout(text: str) -> float:
    """Seconds a server's request may wait: a number from 0.1 to MAX_TIMEOUT_S."""
    try:
        value = float(text) if len(text) <= 12 else -1.0
    except ValueError:
        value = -1.0
    if not 0.1 <= value <= MAX_TIMEOUT_S:  # NaN fails both comparisons
        raise InputError(key="idx.timeout_range", high=f"{MAX_TIMEOUT_S:g}",
                         got=repr(text[:20]))
    return value


Emit = Callable[[argparse.Namespace, dict[str, Any], Callable[[], str]], None]


def add_index_parser(sub: Any, model_options: Callable[[argparse.ArgumentParser], None],
                     emit: Emit, model: Callable[[argparse.Namespace, bool], Any]) -> None:
    """``ragviz index PATH [--collection NAME] [--model M]``; the CLI hands in how it adds
    model options, prints, and loads a model (this module does not import the CLI)."""
    parser = sub.add_parser("index", help=cli_say("cli.help.command.index"))
    parser.add_argument("path", help=forms())
    parser.add_argument("--collection", help=cli_say("cli.help.collection_only"))
    add_timeout_option(parser)
    add_store_options(parser)
    model_options(parser)
    option = next(a for a in parser._actions if "--model" in a.option_strings)
    option.help = cli_say("cli.help.index_model")  # no model, no check: unlike the others
    parser.set_defaults(handler=lambda args: cmd_index(args, emit, model(args, False)))


def load(reader: IndexReader, collection: str | None, lang: str = "en") -> LoadedIndex:
    """One collection of an index, refused past the CLI's in-memory limit (a database is
    asked its count first, so a huge collection is never read)."""
    limit = memory_limit()
    retrieves = isinstance(reader, RetrievingIndex)
    if isinstance(reader, RetrievingIndex):
        info = reader.info(collection)
        if info.count > limit:
            raise _too_large(info.name, info.count, limit, retrieves)
    loaded = reader.read(collection)
    if len(loaded.chunks) > limit:
        raise _too_large(loaded.name, len(loaded.chunks), limit, retrieves)
    return loaded


def _too_large(name: str, count: int, limit: int, retrieves: bool) -> IndexInputError:
    """Past the limit: a store that retrieves is told the database mode; a file (read
    whole, it cannot retrieve) is told what it can do."""
    return IndexInputError(key="idx.too_large" if retrieves else "idx.too_large_file",
                           name=name, count=Grouped(count), limit=Grouped(limit),
                           variable=LIMIT_VARIABLE)


@dataclass(frozen=True)
class IndexRun:
    """An eval on an index, and how it changes today's eval JSON."""

    result: IndexAnalysis
    lang: str
    database: DatabaseAnalysis | None = None  # set when the database retrieved

    def decorate(self, payload: dict[str, Any]) -> list[str]:
        """Chunks with their labels and unknown offsets as null (the questions' labels,
        duplicate-crowding included, come from the diagnosis); returns the sentences to
        print first."""
        result = self.result
        payload["chunker"] = f"index {result.index.name}"
        payload["index"] = {"collection": result.index.name, "problems":
                            [render(p, self.lang) for p in result.index.problems],
                            "stored_vectors": result.stored,
                            "vector_mismatch_share": round(result.mismatch_share, 6),
                            **self._mode()}
        payload["chunk_list"] = [self._chunk(i) for i in range(len(result.placed.chunks))]
        for row in payload["questions"]:
            if row["diagnosis"] is not None and row["diagnosis"]["duplicate_crowding"]:
                row["duplicate_crowding"] = row["diagnosis"]["duplicate_crowding"]
        warnings = [*(render(p, self.lang) for p in result.index.problems),
                    *(render(w, self.lang) for w in result.warnings())]
        payload["warnings"] = warnings
        return [*self._mode_sentence(payload["top_k"]), *warnings]

    def _mode(self) -> dict[str, Any]:
        """Which mode ran: memory (the collection loaded) or database (it retrieved)."""
        run = self.database
        if run is None:
            return {"mode": "memory", "count": len(self.result.index.chunks)}
        past, excess = run.mrr_past_depth()
        return {"mode": "database", "count": run.count, "fetched": run.fetched,
                "margin": run.margin, "memory_limit": memory_limit(), "depth": run.depth,
                "answers_past_depth": past, "mrr_may_exceed_by": round(excess, 6),
                **({} if run.ann is None else {"exact_check": run.ann.to_dict()})}

    def _mode_sentence(self, top_k: int) -> list[str]:
        run = self.database
        if run is None:
            return []
        said = [t("idx.mode_database", self.lang, name=self.result.index.name,
                  count=Grouped(run.count), limit=Grouped(memory_limit()), top_k=top_k,
                  margin=run.margin, fetched=Grouped(run.fetched))]
        past, excess = run.mrr_past_depth()
        if past:
            said.append(t("idx.mrr_past_depth", self.lang, n=past, depth=run.depth,
                          excess=decimal(excess, 3, self.lang)))
        return said

    def _chunk(self, i: int) -> dict[str, Any]:
        result = self.result
        chunk, stored = result.placed.chunks[i], result.index.chunks[i]
        known = result.placed.known[i]
        out = {"index": i, "id": stored.id, "source": stored.source or chunk.source,
               "start": chunk.start if known else None, "end": chunk.end if known else None,
               "text": stored.text, "labels": list(result.chunk_labels(i)),
               "vector_agreement": _rounded(result.agreement[i])}
        if result.placed.stale[i] is not None:
            out["stale_in"] = result.placed.stale[i]
            out["explanation"] = t("idx.stale_chunk", self.lang, chunk=i,
                                   file=result.placed.stale[i])
        return out


def _rounded(value: float) -> float | None:
    """A cosine for JSON; None for a chunk whose vector was not checked."""
    return None if math.isnan(value) else round(value, 6)


def run_index_eval(args: argparse.Namespace, reader: IndexReader, questions: Any,
                   embedder: Any, sources: Any, settings: Any, progress: Any) -> IndexRun:
    """``ragviz eval --index ...``: the analysis on the stored vectors, of the loaded
    collection or of what the database retrieved (``--index-mode``)."""
    from ragviz.evaluation.index_analysis import analyse_index
    from ragviz.evaluation.index_database import MARGIN, analyse_in_database

    set_timeout = getattr(reader, "set_timeout", None)
    if set_timeout is not None:  # a server: every later request bounded by --timeout
        set_timeout(getattr(args, "timeout", REQUEST_TIMEOUT_S))
    if _database_mode(reader, args):
        assert isinstance(reader, RetrievingIndex)
        margin = MARGIN if args.margin is None else args.margin
        run = analyse_in_database(reader, args.collection, embedder, questions, sources,
                                  settings, margin,
                                  None if progress is None else database_progress(args.lang))
        return IndexRun(run.index_analysis, args.lang, run)
    loaded = load(reader, args.collection, args.lang)
    result = analyse_index(loaded, embedder, questions, sources, settings, progress)
    return IndexRun(result, args.lang)


def database_progress(lang: str) -> Callable[[int, int], None]:
    """A line on stderr per question the database was asked about (shown where the CLI
    shows its embedding progress: on a terminal), so minutes of queries are seen working."""
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        line = t("idx.database_progress", lang, done=grouped(done, lang),
                 total=grouped(total, lang), seconds=f"{time.monotonic() - started:.0f}")
        sys.stderr.write(line + ("\n" if done == total else "\r"))
        sys.stderr.flush()

    return show


def _database_mode(reader: IndexReader, args: argparse.Namespace) -> bool:
    """Whether the database retrieves: forced, or auto past the in-memory limit."""
    mode = getattr(args, "index_mode", "auto")
    retrieves = isinstance(reader, RetrievingIndex)
    if mode == "database" and not retrieves:
        raise IndexInputError(key="idx.cannot_retrieve", name=args.index)
    if mode != "auto" or not retrieves:
        return mode == "database"
    assert isinstance(reader, RetrievingIndex)
    return reader.info(args.collection).count > memory_limit()


def summary(loaded: LoadedIndex, embedder: Any, lang: str = "en") -> dict[str, Any]:
    """What one collection holds: count, dimension, chunk sizes, copies, and with a
    model the share of stored vectors that do not match their text."""
    from ragviz.evaluation.index_analysis import (
        MISMATCH_COSINE,
        check_dimension,
        dimension_sentence,
        stored_matrix,
    )

    sizes = np.array([len(c.text) for c in loaded.chunks])
    stored = stored_matrix(loaded)
    out: dict[str, Any] = {
        "collection": loaded.name, "count": len(loaded.chunks),
        "dimension": None if stored is None else int(stored.shape[1]),
        "chunk_chars": {name: int(np.percentile(sizes, q)) for name, q in
                        (("min", 0), ("p10", 10), ("median", 50), ("p90", 90), ("max", 100))},
        "problems": [render(p, lang) for p in loaded.problems],
    }
    texts = [c.text for c in loaded.chunks]
    groups = duplicate_groups(stored, texts) if stored is not None else duplicate_groups(
        np.zeros((len(texts), 1), dtype=np.float32), texts)
    out["duplicate_groups"], out["duplicate_chunks"] = duplicate_count(groups)
    out["near_duplicates_searched"] = stored is not None and near_searched(len(texts))
    out["model"] = None if embedder is None else embedder.name
    if embedder is not None and stored is not None:
        try:
            check_dimension(stored, embedder)
        except IndexInputError:  # this collection is flagged; the listing goes on
            out["vector_check"] = render(dimension_sentence(
                int(stored.shape[1]), embedder.name, embedder.dimension, loaded.name), lang)
            return out
        fresh = embedder.encode_documents(texts)
        share = float(np.mean(np.sum(stored * fresh, axis=1) < MISMATCH_COSINE))
        out["vector_mismatch_share"] = round(share, 6)
    return out


def summary_text(item: dict[str, Any], lang: str = "en") -> str:
    """``summary`` as a few lines for a terminal (one line for a collection not loaded)."""
    if item["empty"]:
        return t("idx.collection_nothing_to_diagnose", lang, name=item["collection"])
    if not item["loaded"]:
        key = "idx.not_loaded" if item["retrieves"] else "idx.not_loaded_file"
        return t(key, lang, name=item["collection"], count=Grouped(item['count']),
                 dimension=item["dimension"] or "—", limit=Grouped(memory_limit()),
                 variable=LIMIT_VARIABLE)
    sizes = item["chunk_chars"]
    names = dict(zip(sizes, t("idx.listing_size_names", lang).split(","), strict=True))
    chunks = t("idx.listing_chunks", lang, n=item["count"])
    head = t("idx.listing_head", lang, name=item["collection"], count=chunks,
             dimension=item["dimension"] or t("idx.listing_no_dimension", lang))
    duplicates = t("idx.listing_duplicates", lang, chunks=grouped(item["duplicate_chunks"], lang),
                   groups=grouped(item["duplicate_groups"], lang)) + (
        "" if item["near_duplicates_searched"] else t("idx.listing_exact_only", lang))
    lines = [*item["problems"], head, "  " + t("idx.listing_sizes", lang, sizes="  ".join(
        f"{names[k]} {grouped(v, lang)}" for k, v in sizes.items())), "  " + duplicates]
    if "vector_mismatch_share" in item:
        lines.append("  " + t("idx.listing_mismatch", lang, model=item["model"],
                              share=f"{item['vector_mismatch_share']:.0%}"))
    elif "vector_check" in item:
        lines.append(f"  {item['vector_check']}")
    elif item.get("model") is None and item["dimension"] is not None:
        lines.append("  " + t("idx.vectors_not_checked", lang))
    return "\n".join(lines)


def cmd_index(args: argparse.Namespace, emit: Emit, embedder: Any) -> None:
    """Print what the index holds (JSON with --json): every collection, an empty one or
    one past the in-memory limit said so in its line rather than stopping the listing."""
    reader = open_from_args(args, args.path)
    infos = reader.collections()
    if args.collection:
        infos = [_info(reader, infos, args.collection)]
    if not infos:
        raise IndexInputError(key="idx.holds_no_collection", where=args.path)
    lang = getattr(args, "lang", "en")
    items = [_item(reader, info, embedder, lang) for info in infos]
    emit(args, {"model": None if embedder is None else embedder.name, "index": args.path,
                "collections": items},
         lambda: "\n".join(summary_text(item, lang) for item in items) + "\n")


def _info(reader: IndexReader, infos: list[CollectionInfo], name: str) -> CollectionInfo:
    """The collection ``--collection`` names (one sentence listing the others when absent)."""
    if isinstance(reader, RetrievingIndex):
        return reader.info(name)
    return next((i for i in infos if i.name == name), infos[0])  # a file is one collection


def _item(reader: IndexReader, info: CollectionInfo, embedder: Any,
          lang: str) -> dict[str, Any]:
    """``summary`` of one collection; only its count and dimension when it is empty or past
    the in-memory limit."""
    retrieves = isinstance(reader, RetrievingIndex)  # whether the database mode can read it
    if info.count == 0 or info.count > memory_limit():
        return {"collection": info.name, "count": info.count, "dimension": info.dimension,
                "empty": info.count == 0, "loaded": False, "retrieves": retrieves}
    return {**summary(load(reader, info.name, lang), embedder, lang), "empty": False,
            "loaded": True, "retrieves": retrieves}
