"""The one analysis pipeline: chunk, embed, score, decide, diagnose, measure, calibrate.

The app, the CLI and the HTML report all call ``analyse`` (and ``rescore`` when only
top_k or the floor moved, which must feel instant: no re-chunking, no re-embedding).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ragviz.calibration import Calibration, calibrate_outcomes
from ragviz.chunking import Chunk, ChunkerConfig, ChunkingResult, make_chunks
from ragviz.diagnosis import Diagnosis, diagnose
from ragviz.embedders import Embedder
from ragviz.evaluation import (
    Comparison,
    Metrics,
    SweepResult,
    SweepRow,
    WhyFailed,
    compare,
    compute_metrics,
    default_grid,
    sweep,
    why_failed,
)
from ragviz.questions import LabelledQuestion
from ragviz.retrieval import Decision, build_prompt, cosine_scores, decide

__all__ = [
    "Analysis",
    "Comparison",
    "Metrics",
    "QuestionOutcome",
    "SweepResult",
    "SweepRow",
    "WhyFailed",
    "analyse",
    "analyse_chunked",
    "compare",
    "default_grid",
    "embedding_text",
    "rescore",
    "sweep",
    "why_failed",
]

Progress = Callable[[int, int], None]
MAX_CHUNKS = 2_000  # ~10 s of embedding on two CPU cores with the default model
Vectors = npt.NDArray[np.float32]


@dataclass(frozen=True)
class QuestionOutcome:
    """What retrieval did with one question, and why."""

    question: LabelledQuestion
    decision: Decision
    prompt: str | None  # the prompt the language model would get; None when refused
    diagnosis: Diagnosis | None  # None for unlabelled questions

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question.to_dict(),
            "refused": self.decision.refused,
            "best_score": round(self.decision.best_score, 6) if self.decision.ranking else None,
            "ranking": list(self.decision.ranking),
            "scores": [round(s, 6) for s in self.decision.scores],
            "hits": [hit.to_dict() for hit in self.decision.hits],
            "prompt": self.prompt,
            "diagnosis": None if self.diagnosis is None else self.diagnosis.to_dict(),
        }


@dataclass(frozen=True)
class Analysis:
    """Everything the views need for one document, configuration, model and question set."""

    document: str
    config: ChunkerConfig
    model: str
    top_k: int
    floor: float
    language: str
    chunking: ChunkingResult
    chunk_vectors: Vectors = field(compare=False, repr=False)
    chunk_tokens: tuple[int, ...]
    truncation: tuple[int | None, ...]  # document offset where the model stops reading
    outcomes: tuple[QuestionOutcome, ...]
    metrics: Metrics
    calibration: Calibration | None  # None unless both answerable and unanswerable exist

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        return self.chunking.chunks

    @property
    def truncated_count(self) -> int:
        return sum(1 for offset in self.truncation if offset is not None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary (vectors left out)."""
        return {
            "config": self.config.to_dict(),
            "config_label": self.config.label(),
            "model": self.model,
            "top_k": self.top_k,
            "floor": self.floor,
            "language": self.language,
            "chunks": [chunk.to_dict() for chunk in self.chunks],
            "chunk_tokens": list(self.chunk_tokens),
            "truncation": list(self.truncation),
            "outcomes": [outcome.to_dict() for outcome in self.outcomes],
            "metrics": self.metrics.to_dict(),
            "calibration": None if self.calibration is None else self.calibration.to_dict(),
        }


def embedding_text(chunk: Chunk) -> str:
    """The text the model embeds for a chunk: ``embedding_text`` when the chunk has one
    (e.g. a table row with its header as context), else the chunk's own text."""
    value = getattr(chunk, "embedding_text", None)
    return value if isinstance(value, str) else chunk.text


def truncation_offsets(chunks: Sequence[Chunk], embedder: Embedder) -> tuple[int | None, ...]:
    """Per chunk, the document offset where the model stops reading, or None.

    When the embedded text is a context prefix plus the chunk text, the prefix's length is
    taken off, so the offset still points into the chunk.
    """
    out: list[int | None] = []
    for chunk in chunks:
        text = embedding_text(chunk)
        offset = embedder.truncation_offset(text)
        if offset is None:
            out.append(None)
            continue
        prefix = len(text) - len(chunk.text) if text.endswith(chunk.text) else 0
        out.append(chunk.start + max(0, offset - prefix))
    return tuple(out)


def analyse(
    document: str,
    config: ChunkerConfig,
    embedder: Embedder,
    questions: Sequence[LabelledQuestion],
    top_k: int = 2,
    floor: float = 0.0,
    language: str = "en",
    progress: Progress | None = None,
) -> Analysis:
    """Chunk ``document`` with ``config``, embed through the cache, and judge every question."""
    chunking = check_chunk_count(make_chunks(document, config, embedder), config)
    vectors = embedder.encode_documents([embedding_text(c) for c in chunking.chunks], progress)
    query_vectors = _encode_questions(embedder, questions)
    return analyse_chunked(document, config, embedder, questions, chunking, vectors,
                           query_vectors, top_k, floor, language)


def check_chunk_count(chunking: ChunkingResult, config: ChunkerConfig) -> ChunkingResult:
    """Refuse a configuration that would make more chunks than are worth embedding here."""
    count = len(chunking.chunks)
    if count > MAX_CHUNKS:
        raise ValueError(
            f"{config.label()} makes {count:,} chunks; ragviz embeds at most {MAX_CHUNKS:,} "
            "per configuration: choose a larger size"
        )
    return chunking


def _encode_questions(embedder: Embedder, questions: Sequence[LabelledQuestion]) -> Vectors:
    if not questions:
        return np.zeros((0, 0), dtype=np.float32)
    return embedder.encode_queries([q.question for q in questions])


def analyse_chunked(
    document: str,
    config: ChunkerConfig,
    embedder: Embedder,
    questions: Sequence[LabelledQuestion],
    chunking: ChunkingResult,
    chunk_vectors: Vectors,
    query_vectors: Vectors,
    top_k: int = 2,
    floor: float = 0.0,
    language: str = "en",
) -> Analysis:
    """The pipeline after chunking and embedding (sweeps reuse vectors they already have)."""
    chunks = chunking.chunks
    truncation = truncation_offsets(chunks, embedder)
    score_rows = [
        tuple(float(s) for s in cosine_scores(query_vectors[i], chunk_vectors))
        for i in range(len(questions))
    ]
    outcomes = _outcomes(document, chunks, questions, score_rows, truncation, top_k, floor,
                         language)
    return Analysis(
        document=document,
        config=config,
        model=embedder.name,
        top_k=top_k,
        floor=float(floor),
        language=language,
        chunking=chunking,
        chunk_vectors=chunk_vectors,
        chunk_tokens=tuple(embedder.count_tokens(embedding_text(c)) for c in chunks),
        truncation=truncation,
        outcomes=outcomes,
        metrics=compute_metrics(outcomes),
        calibration=_calibration(outcomes),
    )


def rescore(analysis: Analysis, top_k: int, floor: float) -> Analysis:
    """New decisions, prompts, diagnoses and metrics for another top_k or floor, reusing
    the scores already computed."""
    score_rows = [outcome.decision.scores for outcome in analysis.outcomes]
    questions = [outcome.question for outcome in analysis.outcomes]
    outcomes = _outcomes(analysis.document, analysis.chunks, questions, score_rows,
                         analysis.truncation, top_k, floor, analysis.language)
    return replace(analysis, top_k=top_k, floor=float(floor), outcomes=outcomes,
                   metrics=compute_metrics(outcomes), calibration=_calibration(outcomes))


def _outcomes(
    document: str,
    chunks: Sequence[Chunk],
    questions: Sequence[LabelledQuestion],
    score_rows: Sequence[Sequence[float]],
    truncation: Sequence[int | None],
    top_k: int,
    floor: float,
    language: str,
) -> tuple[QuestionOutcome, ...]:
    out: list[QuestionOutcome] = []
    for question, scores in zip(questions, score_rows, strict=True):
        decision = decide(scores, top_k, floor)
        prompt = build_prompt(question.question, chunks, decision.hits, language)
        diagnosis = diagnose(document, chunks, decision, question, truncation, language)
        out.append(QuestionOutcome(question, decision, prompt, diagnosis))
    return tuple(out)


def _calibration(outcomes: Sequence[QuestionOutcome]) -> Calibration | None:
    labels = {o.question.is_answerable for o in outcomes if o.decision.ranking}
    if True not in labels or False not in labels:
        return None
    return calibrate_outcomes([o for o in outcomes if o.decision.ranking])
