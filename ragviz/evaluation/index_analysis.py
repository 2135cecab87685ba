"""Retrieval exactly as production: questions embedded with the chosen model and scored
against the index's stored vectors; the chunk texts are re-embedded only to check the
vectors (``vector-mismatch``), and near-copies are found on the stored vectors
(``duplicate-crowding``)."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ragviz.chunking import ChunkingResult
from ragviz.embedding.base import Progress
from ragviz.embedding.models import Embedder
from ragviz.errors import IndexInputError
from ragviz.evaluation.chunk_table import ChunkTable
from ragviz.evaluation.diagnosis import OUTRANKED, OUTRANKED_BY_OTHER_DOCUMENT
from ragviz.evaluation.excerpts import resolve_questions
from ragviz.evaluation.metrics import compute_metrics, outcome_calibration
from ragviz.evaluation.pipeline import (
    analyse_chunked,
    encode_questions,
    question_outcome,
    rescore,
)
from ragviz.evaluation.results import Analysis, Coverage, QuestionOutcome, RetrievalSettings
from ragviz.evaluation.winner_words import with_winner_words
from ragviz.i18n import Grouped, Message
from ragviz.index.base import INDEX_CONFIG, LoadedIndex, Vector
from ragviz.index.duplicates import duplicate_groups
from ragviz.index.placement import STALE_SUFFIX, Placed, place
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion, Reference
from ragviz.retrieval.decision import Decision, Hit
from ragviz.retrieval.scorers import get_scorer

STALE_CHUNK = "stale-chunk"
VECTOR_MISMATCH = "vector-mismatch"
MISMATCH_COSINE = 0.99  # a stored vector this far from its text's re-embedding is suspect


@dataclass(frozen=True)
class IndexAnalysis:
    """The pipeline's analysis on the stored vectors, plus what only an index has."""

    analysis: Analysis
    index: LoadedIndex
    placed: Placed
    agreement: tuple[float, ...]  # cosine of each stored vector with its re-embedding (NaN:
    # not checked, when the database retrieved and only the chunks in a top_k were checked)
    groups: tuple[int, ...]  # duplicate group per chunk, -1 when it has no copy
    stored: bool  # False: the index had no vectors, the model's own were used
    # the questions given and those left out (an excerpt not in the source files given)
    coverage: Coverage = field(default_factory=lambda: Coverage(0))

    @property
    def by_text(self) -> bool:
        """No source file was given: excerpts are placed by their text inside the chunks'
        own texts, and the token metrics (offsets into files) are left out."""
        return not self.placed.given

    def chunk_labels(self, index: int) -> tuple[str, ...]:
        labels = []
        if self.placed.stale[index] is not None:
            labels.append(STALE_CHUNK)
        if self.stored and self.agreement[index] < MISMATCH_COSINE:
            labels.append(VECTOR_MISMATCH)
        return tuple(labels)

    @property
    def mismatch_share(self) -> float:
        checked = [a for a in self.agreement if not math.isnan(a)]
        if not self.stored or not checked:
            return 0.0
        return sum(a < MISMATCH_COSINE for a in checked) / len(checked)

    def warnings(self) -> tuple[Message, ...]:
        """The sentences at the top of the page: most vectors do not match; no source file
        was given (what hit@k and MRR then mean, and why the token metrics are left out)."""
        said = [Message("idx.no_sources")] if self.by_text and self.analysis.outcomes else []
        if self.mismatch_share > 0.5:
            said.append(Message("idx.mismatch_warning", {"share": f"{self.mismatch_share:.0%}",
                                                         "model": self.analysis.model}))
        return tuple(said)


def stored_matrix(index: LoadedIndex) -> Vector | None:
    """The stored vectors as unit rows, or None when the index stores none."""
    vectors = [c.vector for c in index.chunks]
    present = [v for v in vectors if v is not None]
    if not present:
        return None
    if len(present) < len(vectors):
        raise IndexInputError(key="idx.vectors_missing", n=len(vectors) - len(present),
                              total=Grouped(len(vectors)), name=index.name)
    sizes = {len(v) for v in present}
    if len(sizes) > 1:
        raise IndexInputError(key="idx.mixed_dimensions", name=index.name,
                              sizes=", ".join(str(s) for s in sorted(sizes)))
    matrix = np.vstack(present).astype(np.float32)
    unit: Vector = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


# The bundled models' vector sizes, so a dimension error names the one that fits (a test
# checks them against the models themselves).
BUNDLED_DIMENSIONS = {"use-multilingual": 512, "minilm-en": 384}


def dimension_sentence(stored: int, model: str, dimension: int,
                       collection: str | None = None) -> Message:
    """Both dimensions in one sentence, naming the bundled model that makes ``stored`` when
    there is one; ``collection``: the listing's line for that collection."""
    key = "dimension" if collection is None else "dimension_in_collection"
    named = {} if collection is None else {"name": collection}
    fits = next((name for name, size in BUNDLED_DIMENSIONS.items() if size == stored), None)
    if fits is not None and fits != model:
        return Message(f"idx.{key}_fits", {"stored": stored, "model": model,
                                           "dimension": dimension, "fits": fits, **named})
    return Message(f"idx.{key}", {"stored": stored, "model": model, "dimension": dimension,
                                  **named})


def check_dimension(stored: Vector, embedder: Embedder) -> None:
    """One sentence naming both dimensions when the model cannot score the stored vectors
    (said in the page's language where it is shown)."""
    if stored.shape[1] != embedder.dimension:
        raise IndexInputError.of(dimension_sentence(int(stored.shape[1]), embedder.name,
                                                    embedder.dimension))


def analyse_index(index: LoadedIndex, embedder: Embedder,
                  questions: Sequence[LabelledQuestion],
                  sources: Corpus | None = None,
                  settings: RetrievalSettings | None = None,
                  progress: Progress | None = None,
                  check: Collection[int] | None = None) -> IndexAnalysis:
    """Rank the stored chunks for every question on the stored vectors (see module note);
    only the chunks in ``check`` are re-embedded to check their vectors (None: all)."""
    stored = stored_matrix(index)
    if stored is not None:
        check_dimension(stored, embedder)
    placed = place(index.chunks, sources, fallback=index.name)
    # plain eval's rule: an excerpt must lie in the source files given (offsets that slice
    # the file to its content, a file that is there); without files, excerpts are text
    kept, left_out = resolve_questions(questions, sources) if sources else (list(questions), [])
    texts = [c.text for c in index.chunks]
    vectors, agreement = _checked(stored, texts, embedder, progress, check)
    groups = duplicate_groups(vectors, texts)
    analysis = analyse_chunked(placed.corpus, INDEX_CONFIG, embedder, kept,
                               ChunkingResult(placed.chunks), vectors,
                               encode_questions(embedder, kept),
                               settings or RetrievalSettings(), groups)
    analysis = on_real_files(analysis, placed)
    return IndexAnalysis(analysis, index, placed, agreement, groups, stored is not None,
                         Coverage(len(questions), tuple(left_out)))


def on_real_files(analysis: Analysis, placed: Placed) -> Analysis:
    """The analysis with no number computed on a stand-in text: without source files, a
    chunk holds an answer when the answer (or one excerpt) is inside its own text; token
    metrics, offsets into files, are only kept for excerpts placed in a real file."""
    standins = _standins(placed)
    if not standins:
        return analysis
    pinned = [_diagnosed_question(o, analysis, placed, standins) for o in analysis.outcomes]
    rescored = rescore(replace(analysis, outcomes=tuple(
        replace(o, question=q) for o, q in zip(analysis.outcomes, pinned, strict=True))),
        analysis.settings)
    outcomes = tuple(_same_file(_real_tokens(replace(new, question=old.question), placed,
                                             standins))
                     for new, old in zip(rescored.outcomes, analysis.outcomes, strict=True))
    return replace(analysis, outcomes=outcomes, metrics=compute_metrics(outcomes),
                   calibration=outcome_calibration(
                       outcomes, get_scorer(analysis.settings.scorer).scale))


def _standins(placed: Placed) -> set[str]:
    """The corpus's stand-in texts: files not given, or a stale chunk's text as indexed."""
    return {s.name for s in placed.corpus.sources} - set(placed.real)


def _diagnosed_question(outcome: QuestionOutcome, analysis: Analysis, placed: Placed,
                        standins: set[str]) -> LabelledQuestion:
    """The question as the diagnosis reads it: pinned by its text inside a chunk when no
    source file was given, or when only a stand-in text holds its answer."""
    if not placed.given or _on_standin(outcome, standins) \
            or _only_stale_holds(outcome, analysis, placed):
        return _pin_by_text(outcome, analysis)
    return outcome.question


def with_hits(result: IndexAnalysis, searched: Mapping[int, Sequence[int]]
              ) -> tuple[QuestionOutcome, ...]:
    """The outcomes when another search picked the chunks sent: ``searched[n]`` is the top_k
    an approximate index returned for question ``n`` (positions among the chunks); those
    reaching the floor are the hits, so the labels and the token measures read what that
    search handed on, by the rules above. The scores stay the exact ones (hit@k and MRR are
    the ranking's); a question not in ``searched`` is kept as it is."""
    analysis, placed = result.analysis, result.placed
    table = ChunkTable.of(analysis.chunks)
    standins = _standins(placed)
    out = list(analysis.outcomes)
    for position, chunks in searched.items():
        old = out[position]
        decision = sent_by(old.decision, chunks)
        rest = (decision, analysis.truncation, analysis.settings.expand,
                analysis.duplicate_groups)
        new = question_outcome(analysis.corpus, table, old.question, *rest)
        if standins:
            pinned = _diagnosed_question(new, analysis, placed, standins)
            if pinned != old.question:
                new = question_outcome(analysis.corpus, table, pinned, *rest)
            new = _same_file(_real_tokens(replace(new, question=old.question), placed,
                                          standins))
        out[position] = with_winner_words((new,), analysis.chunks, analysis.settings.scorer)[0]
    return tuple(out)


def sent_by(decision: Decision, chunks: Sequence[int]) -> Decision:
    """``decision`` with its hits taken from ``chunks`` (another search's top_k, in its
    order), those the decision's own rule would let through: at the floor, above the
    scorer's "shares nothing"."""
    hits = tuple(Hit(i, decision.score(i)) for i in chunks[:decision.top_k]
                 if decision.passes(i))
    return replace(decision, hits=hits)


def _expected_texts(question: LabelledQuestion) -> list[str]:
    if question.answer.strip():
        return [question.answer.strip()]
    return [r.content.strip() for r in question.references if r.content.strip()]


def _pin_by_text(outcome: QuestionOutcome, analysis: Analysis) -> LabelledQuestion:
    """The question as the diagnosis should see it without source files: its expected
    text pinned inside the best-ranked chunk whose own text holds it (any excerpt), else
    its excerpts as text only (their offsets point into files not given)."""
    question = outcome.question
    if question.is_answerable is not True or not question.expected:
        return question
    texts = _expected_texts(question)
    # in rank order, so the first chunk holding a text is the best-ranked one
    found = next(((int(i), t) for i in outcome.decision.ranking for t in texts
                  if t in analysis.chunks[int(i)].text), None)
    if found is None:
        return replace(question, references=tuple(
            replace(r, start=None, end=None) for r in question.references))
    index, text = found
    chunk = analysis.chunks[index]
    start = chunk.start + chunk.text.find(text)
    return replace(question, answer="", answerable=True,
                   references=(Reference(text, start, start + len(text), chunk.source),))


def _on_standin(outcome: QuestionOutcome, standins: set[str]) -> bool:
    """The diagnosis found the answer only in a stand-in text (a stale chunk's, or a chunk
    of a file not given), where its first occurrence need not be the best chunk's."""
    span = None if outcome.diagnosis is None else outcome.diagnosis.answer_span
    return span is not None and span.source in standins


def _only_stale_holds(outcome: QuestionOutcome, analysis: Analysis, placed: Placed) -> bool:
    """No chunk placed in the files holds the answer, and a stale chunk's own text does
    (the file changed around it): the answer's chunk is that stale one, said so."""
    diagnosis = outcome.diagnosis
    if diagnosis is None or diagnosis.holding_chunks or not outcome.question.expected:
        return False
    texts = _expected_texts(outcome.question)
    return any(placed.stale[i] is not None and any(t in chunk.text for t in texts)
               for i, chunk in enumerate(analysis.chunks))


def _same_file(outcome: QuestionOutcome) -> QuestionOutcome:
    """A stale chunk outranked by a chunk of its own file is ``outranked``, not by another
    document: its stand-in text ("file (as indexed)") is the same file as indexed."""
    diagnosis = outcome.diagnosis
    beaten = None if diagnosis is None else diagnosis.outranked
    if diagnosis is None or beaten is None or not beaten.other_document or \
            beaten.source.removesuffix(STALE_SUFFIX) != beaten.winner_source.removesuffix(
                STALE_SUFFIX):
        return outcome
    labels = tuple(OUTRANKED if label == OUTRANKED_BY_OTHER_DOCUMENT else label
                   for label in diagnosis.labels)
    return replace(outcome, diagnosis=replace(
        diagnosis, labels=labels, outranked=replace(beaten, source=beaten.winner_source)))


def _real_tokens(outcome: QuestionOutcome, placed: Placed,
                 standins: set[str]) -> QuestionOutcome:
    """Token metrics only when source files were given and the expected excerpt lies in
    one of them (an answer found only in a stale chunk's text has no place in a file)."""
    if outcome.tokens is None or (placed.given and not _on_standin(outcome, standins)):
        return outcome
    return replace(outcome, tokens=None)


def _checked(stored: Vector | None, texts: Sequence[str], embedder: Embedder,
             progress: Progress | None,
             check: Collection[int] | None) -> tuple[Vector, tuple[float, ...]]:
    """The vectors to rank on, and each stored vector's cosine with its text's re-embedding
    (NaN for a chunk left unchecked); without stored vectors, the re-embeddings are used."""
    if stored is None or check is None:
        fresh = embedder.encode_documents(texts, progress)  # cached by (model, text)
        vectors = fresh if stored is None else stored
        return vectors, tuple(float(a) for a in np.sum(vectors * fresh, axis=1))
    picked = sorted(check)
    agreement = np.full(len(texts), np.nan)
    if picked:
        fresh = embedder.encode_documents([texts[i] for i in picked], progress)
        agreement[picked] = np.sum(stored[picked] * fresh, axis=1)
    return stored, tuple(float(a) for a in agreement)
