"""Labelled excerpts in the corpus and the token-level measures of Chroma's chunking report
("Evaluating Chunking Strategies for Retrieval", Smith and Troynikov, 2024), in characters.

For one question with excerpts E (merged, per file) and retrieved chunks R (the context sent:
the hits and the neighbours ``--expand`` adds):

- recall = |E ∩ R| / |E|;
- precision = |E ∩ R| / Σ len(r) over R (every retrieved chunk counted whole, overlapping
  chunks each time, a chunk of another file only in this sum);
- IoU = |E ∩ R| / (Σ len(r) + |E \\ R|);
- precision Ω = precision when R is exactly the chunks holding an excerpt character: the
  ceiling the chunker allows, whatever the model does. (Chroma's code unions those chunks
  in Ω's denominator; summing them, as precision does, keeps Ω == precision when exactly
  those chunks are retrieved. They differ only when excerpt-holding chunks overlap.)

Chunk offsets sit in numpy arrays per file (``ChunkTable``), so a thousand questions over
ten thousand chunks cost milliseconds, not a Python loop over every chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from ragviz.chunking.spans import Span, intersection, length, union
from ragviz.evaluation.answers import AnswerSpan, locate_answer
from ragviz.evaluation.chunk_table import ChunkTable
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion, Reference


@dataclass(frozen=True)
class Excerpt:
    """A labelled excerpt located in the corpus: ``corpus.source(source).text[start:end]``."""

    source: str
    start: int
    end: int


@dataclass(frozen=True)
class TokenScores:
    """The four measures of one question, and the excerpts (1-based, in the order given) not
    wholly inside the retrieved chunks (each question's row of ``ragviz eval --json`` holds
    these fields)."""

    recall: float
    precision: float
    iou: float
    precision_omega: float
    excerpts: int
    missed_excerpts: tuple[int, ...] = ()


def source_for(corpus: Corpus, name: str) -> str | None:
    """The corpus file ``name`` stands for: its name, its name without extension, or a path
    ending in it (Chroma's ``corpus_id``); "" picks the only file. None: no such file."""
    names = corpus.names
    if name in names:
        return name
    if not name:
        return names[0] if len(names) == 1 else None
    wanted = PurePosixPath(name.replace("\\", "/"))
    for candidate in names:
        path = PurePosixPath(candidate)
        if _bare(wanted) == _bare(path) or str(wanted).endswith("/" + candidate):
            return candidate
    stems = [c for c in names if PurePosixPath(c).stem == wanted.stem]
    return stems[0] if len(stems) == 1 else None


def _bare(path: PurePosixPath) -> PurePosixPath:
    """The path without its extension; a path with no name ("", ".", "/") as it is."""
    return path.with_suffix("") if path.name else path


@dataclass(frozen=True)
class Unfound:
    """Why a labelled excerpt is not in the corpus: ``kind`` is ``no-file`` (no file
    ``source``), ``offsets`` (``start``–``end`` do not slice ``source`` to its content) or
    ``text`` (its text is in no file). Facts: ``presentation.unfound_text`` says them."""

    kind: str
    source: str = ""
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True)
class LeftOut:
    """A question left out of the evaluation: its ``line`` in the questions file (or its
    row in the app's table; None when neither), the question, and its first excerpt not in
    the corpus (1-based) with why."""

    question: str
    line: int | None
    excerpt: int
    why: Unfound


def locate_reference(corpus: Corpus, reference: Reference) -> Excerpt | Unfound:
    """The excerpt in the corpus, or why not."""
    if reference.source and source_for(corpus, reference.source) is None:
        return Unfound("no-file", reference.source)
    names = [source_for(corpus, reference.source)] if reference.source else list(corpus.names)
    for name in (n for n in names if n is not None):
        text = corpus.source(name).text
        if reference.start is not None and reference.end is not None:
            if text[reference.start:reference.end] == reference.content:
                return Excerpt(name, reference.start, reference.end)
            continue
        span = locate_answer(text, reference.content)
        if span is not None:
            return Excerpt(name, span.start, span.end)
    if reference.start is not None:
        return Unfound("offsets", reference.source, reference.start, reference.end)
    return Unfound("text", reference.source)


def resolve_questions(questions: Sequence[LabelledQuestion], corpus: Corpus
                      ) -> tuple[list[LabelledQuestion], list[LeftOut]]:
    """The questions whose excerpts all lie in the corpus (each pinned to its file and
    offsets), and the rows left out, with their line and their first unfound excerpt."""
    kept: list[LabelledQuestion] = []
    left_out: list[LeftOut] = []
    for question in questions:
        located = [locate_reference(corpus, r) for r in question.references]
        bad = [(n, why) for n, why in enumerate(located, start=1) if isinstance(why, Unfound)]
        if bad:
            left_out.append(LeftOut(question.question, question.line, *bad[0]))
            continue
        pinned = tuple(replace(r, start=e.start, end=e.end, source=e.source)
                       for r, e in zip(question.references, located, strict=True)
                       if isinstance(e, Excerpt))
        kept.append(replace(question, references=pinned))
    return kept, left_out


def question_excerpts(corpus: Corpus, question: LabelledQuestion,
                      answer_span: AnswerSpan | None) -> tuple[Excerpt, ...]:
    """The excerpts a question expects: its references located in the corpus (whitespace at
    their ends left out), else the located expected answer; () when it expects none (or
    none is in the corpus). Labels and token recall both judge these."""
    if question.references:
        found = (locate_reference(corpus, r) for r in question.references)
        trimmed = (stripped(corpus, e) for e in found if isinstance(e, Excerpt))
        return tuple(e for e in trimmed if e.end > e.start)
    if answer_span is None or question.is_answerable is not True:
        return ()
    return (Excerpt(answer_span.source, answer_span.start, answer_span.end),)


def stripped(corpus: Corpus, excerpt: Excerpt) -> Excerpt:
    """The excerpt without the whitespace at its ends: a chunker trims it, so a label and
    recall judge the words a reader sees (an all-space excerpt ends where it starts)."""
    content = corpus.source(excerpt.source).text[excerpt.start:excerpt.end]
    start = excerpt.start + len(content) - len(content.lstrip())
    end = max(start, excerpt.end - (len(content) - len(content.rstrip())))
    return Excerpt(excerpt.source, start, end)


def token_scores(excerpts: Sequence[Excerpt], retrieved: Sequence[int],
                 table: ChunkTable) -> TokenScores | None:
    """The four measures for chunks ``retrieved`` (indices), None without excerpts."""
    if not excerpts:
        return None
    holding = sorted({i for e in excerpts for i in table.touching(e)})
    recall, precision, iou, missed = _measure(excerpts, retrieved, table)
    omega = _measure(excerpts, holding, table)[1]
    return TokenScores(recall, precision, iou, omega, len(excerpts), missed)


def _measure(excerpts: Sequence[Excerpt], retrieved: Sequence[int],
             table: ChunkTable) -> tuple[float, float, float, tuple[int, ...]]:
    spans = [table.span(i) for i in retrieved]
    chunk_chars = sum(end - start for _, (start, end) in spans)
    wanted = _by_file([(e.source, (e.start, e.end)) for e in excerpts])
    got = _by_file(spans)
    wanted_chars = sum(length(v) for v in wanted.values())
    covered = sum(length(intersection(v, got.get(name, []))) for name, v in wanted.items())
    missed = tuple(n for n, e in enumerate(excerpts, start=1)
                   if length(intersection([(e.start, e.end)], got.get(e.source, [])))
                   < e.end - e.start)
    recall = covered / wanted_chars if wanted_chars else 0.0
    precision = covered / chunk_chars if chunk_chars else 0.0
    iou_denominator = chunk_chars + wanted_chars - covered
    return recall, precision, covered / iou_denominator if iou_denominator else 0.0, missed


def _by_file(spans: Sequence[tuple[str, Span]]) -> dict[str, list[Span]]:
    out: dict[str, list[Span]] = {}
    for name, span in spans:
        out.setdefault(name, []).append(span)
    return {name: union(v) for name, v in out.items()}
