"""What a command writes: JSON (terminal-safe) or text on stdout, progress on a
terminal's stderr, and where an output file may go."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragviz.chunking import Chunk
from ragviz.cli.reading import CLI_LANG
from ragviz.embedding.base import Progress
from ragviz.embedding.models import Embedder
from ragviz.errors import UserError
from ragviz.evaluation.results import Coverage, Metrics
from ragviz.i18n import grouped, t
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.safe_text import visible_controls as terminal_safe

# Embedding, override and isolate marks: they reorder what the terminal shows (Trojan Source).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def source_prefix(chunk: Chunk, corpus: Corpus) -> str:
    """``name `` before a chunk's offsets when the corpus has several files, else nothing."""
    return f"{chunk.source} " if corpus.multi_file else ""


def command_name(args: argparse.Namespace) -> str:
    """The command as its JSON and ``ragviz schema`` name it (``cache info``)."""
    action = getattr(args, "action", None)
    return f"{args.command} {action}" if action else str(args.command)


def emit(args: argparse.Namespace, payload: dict[str, Any], text: Callable[[], str]) -> None:
    """Prints ``payload`` as ``--format`` says: JSON validated by the command's definition
    (``ragviz.cli.outputs``), its tables, or ``text()``."""
    shape = getattr(args, "format", None)
    if shape in ("md", "csv"):
        from ragviz.cli.tables import csv_text, markdown, tables

        titled = tables(args.command, payload)
        if not titled:
            raise UserError(key="cli.no_table", command=args.command)
        written = (markdown(titled, getattr(args, "lang", "en")) if shape == "md"
                   else csv_text(titled))
        sys.stdout.write(terminal_safe(written, keep="\n"))
        return
    if args.json or shape == "json":
        # json escapes C0 controls itself; DEL, C1 and bidi marks become \\u escapes here
        from ragviz.cli.outputs import checked

        typed = checked(command_name(args), payload)
        dumped = json.dumps(typed, ensure_ascii=False, indent=2)
        sys.stdout.write(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped) + "\n")
    else:
        sys.stdout.write(terminal_safe(text()))


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def progress_line(embedder: Embedder) -> Progress | None:
    """Batch-by-batch progress on a terminal's stderr (never in pipes, files or tests'
    captures), so a slow embedding API is seen working, not hanging."""
    if not stderr_is_terminal():
        return None
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        if total == 0:
            return
        seconds = time.monotonic() - started
        end = "\n" if done == total else "\r"
        lang = CLI_LANG.get()
        line = t("cli.embedded", lang, done=grouped(done, lang), total=grouped(total, lang),
                 model=terminal_safe(embedder.name, keep=""), seconds=f"{seconds:.0f}")
        sys.stderr.write(line + end)
        sys.stderr.flush()

    return show


def writable_path(path: str) -> Path:
    """The output file, or a sentence saying why it cannot be written there."""
    out = Path(path)
    if out.is_dir():
        raise UserError(key="cli.html_folder", path=path, example=out / "report.html")
    folder = out.parent
    if not folder.is_dir():
        raise UserError(key="cli.html_no_folder", path=path, folder=folder)
    if not os.access(folder, os.W_OK):
        raise UserError(key="cli.html_read_only", path=path, folder=folder)
    return out


def metrics_line(metrics: Metrics, lang: str, top_k: int) -> str:
    """Every registered metric in one line ("n/a": no evaluated question counts for it),
    as eval, compare and sweep print them."""
    from ragviz.present.presentation import metric_label, share, shown_metrics

    def shown(value: float | None) -> str:
        return t("value.not_available", lang) if value is None else share(value, lang)

    names = shown_metrics(top_k)
    return "  ".join(f"{metric_label(name, lang, short=True, k=top_k)} "
                     f"{shown(metrics.values.get(name))}" for name in names)


def with_coverage(payload: dict[str, Any], coverage: Coverage, lang: str) -> list[str]:
    """Adds how many questions were evaluated of how many given, and why the others were
    left out (``warnings``, first), to a command's JSON; returns the same as text lines."""
    from ragviz.present.presentation import coverage_line, coverage_sentences

    said = coverage_sentences(coverage, lang)
    payload.update(coverage.to_dict())
    payload["warnings"] = [*said, *payload.get("warnings", [])]
    return [coverage_line(coverage, lang), *said]


def resolved_questions(questions: list[LabelledQuestion], corpus: Corpus
              ) -> tuple[list[LabelledQuestion], Coverage]:
    """The questions whose labelled excerpts lie in the corpus, and which were left out
    and why (said grouped by every output; on stderr when none is left to evaluate)."""
    from ragviz.evaluation.excerpts import resolve_questions
    from ragviz.present.presentation import coverage_sentences

    kept, left_out = resolve_questions(questions, corpus)
    coverage = Coverage(len(questions), tuple(left_out))
    if questions and not kept:
        for sentence in coverage_sentences(coverage, CLI_LANG.get()):
            sys.stderr.write(terminal_safe(f"ragviz: {sentence}", keep="") + "\n")
        raise UserError(key="cli.no_excerpt_in_corpus")
    return kept, coverage
