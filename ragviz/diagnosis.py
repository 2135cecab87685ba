"""Why one labelled question went right or wrong, as labels with a sentence that names
chunks and scores.

The labels answer the support engineer's question "why did the assistant answer that?":
the answer was cut between chunks, read past the model's token limit, beaten by another
chunk, or under the floor; or an unanswerable question got context anyway.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ragviz.answers import AnswerSpan, chunks_holding, chunks_touching, locate_answer
from ragviz.chunking.base import Chunk
from ragviz.i18n import t
from ragviz.questions import LabelledQuestion
from ragviz.retrieval import Decision

OK = "ok"
ANSWER_SPLIT = "answer-split"
ANSWER_TRUNCATED = "answer-truncated"
OUTRANKED = "outranked"
BELOW_FLOOR = "below-floor"
FALSE_CONTEXT = "false-context"
ANSWER_NOT_IN_DOCUMENT = "answer-not-in-document"

LABELS: tuple[str, ...] = (
    OK,
    ANSWER_SPLIT,
    ANSWER_TRUNCATED,
    OUTRANKED,
    BELOW_FLOOR,
    FALSE_CONTEXT,
    ANSWER_NOT_IN_DOCUMENT,
)

_ABOUT_WORDS = 8


@dataclass(frozen=True)
class Diagnosis:
    """Labels (``labels[0]`` is the primary one; ``ok`` always stands alone), one sentence
    per label in ``explanations``, and where the answer is.

    ``answer_rank`` is the 1-based rank of the best chunk holding the whole answer, floor
    ignored (None when no chunk holds it); it is what hit@k and MRR are computed from.
    """

    labels: tuple[str, ...]
    explanation: str
    answer_span: AnswerSpan | None
    holding_chunks: tuple[int, ...]
    answer_rank: int | None
    explanations: tuple[str, ...] = ()

    @property
    def primary(self) -> str:
        return self.labels[0]

    @property
    def ok(self) -> bool:
        return self.labels == (OK,)

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": list(self.labels),
            "explanation": self.explanation,
            "explanations": list(self.explanations),
            "answer_span": None if self.answer_span is None else self.answer_span.to_dict(),
            "holding_chunks": list(self.holding_chunks),
            "answer_rank": self.answer_rank,
        }


def score_text(value: float) -> str:
    """Scores as the interface shows them: two decimals."""
    return f"{value:.2f}"


def chunk_name(index: int) -> str:
    """Chunks are shown by their 0-based index, as the app labels them."""
    return f"#{index}"


def chunk_list(indices: Sequence[int], language: str) -> str:
    names = ", ".join(chunk_name(i) for i in indices)
    key = "diagnosis.chunk_one" if len(indices) == 1 else "diagnosis.chunk_many"
    return t(key, language, chunks=names)


def about(chunk: Chunk) -> str:
    """What a chunk is about, in a few words: its heading path, else its first words."""
    if chunk.heading_path:
        return " > ".join(chunk.heading_path)
    words = chunk.text.split()
    excerpt = " ".join(words[:_ABOUT_WORDS])
    return excerpt + ("…" if len(words) > _ABOUT_WORDS else "")


def diagnose(
    document: str,
    chunks: Sequence[Chunk],
    decision: Decision,
    question: LabelledQuestion,
    truncation: Sequence[int | None],
    language: str = "en",
) -> Diagnosis | None:
    """The diagnosis of one question, or None when the question carries no label.

    ``truncation[i]`` is the document offset where the model stops reading chunk ``i``
    (None when it reads all of it).
    """
    answerable = question.is_answerable
    if answerable is None:
        return None
    if not answerable:
        return _diagnose_unanswerable(decision, language)
    if not question.answer.strip():
        return _diagnose_without_answer(decision, language)
    return _diagnose_answerable(document, chunks, decision, question.answer.strip(),
                                truncation, language)


def _diagnosis(
    parts: Sequence[tuple[str, str]],
    span: AnswerSpan | None = None,
    holding: tuple[int, ...] = (),
    rank: int | None = None,
) -> Diagnosis:
    labels = tuple(label for label, _ in parts)
    sentences = tuple(sentence for _, sentence in parts)
    return Diagnosis(labels, " ".join(sentences), span, holding, rank, sentences)


def _best(decision: Decision) -> dict[str, str]:
    best = decision.best_index
    return {
        "chunk": chunk_name(best) if best is not None else "—",
        "score": score_text(decision.best_score) if best is not None else "—",
        "floor": score_text(decision.floor),
    }


def _diagnose_unanswerable(decision: Decision, language: str) -> Diagnosis:
    if decision.refused:
        return _diagnosis([(OK, t("diagnosis.ok_refused", language, **_best(decision)))])
    return _diagnosis([(FALSE_CONTEXT, t("diagnosis.false_context", language, **_best(decision)))])


def _diagnose_without_answer(decision: Decision, language: str) -> Diagnosis:
    if decision.refused:
        return _diagnosis([(BELOW_FLOOR, t("diagnosis.below_floor", language, **_best(decision)))])
    sentence = t("diagnosis.ok_no_expected_answer", language, **_best(decision))
    return _diagnosis([(OK, sentence)])


def _diagnose_answerable(
    document: str,
    chunks: Sequence[Chunk],
    decision: Decision,
    answer: str,
    truncation: Sequence[int | None],
    language: str,
) -> Diagnosis:
    below = (BELOW_FLOOR, t("diagnosis.below_floor", language, **_best(decision)))
    span = locate_answer(document, answer)
    if span is None:
        missing = (ANSWER_NOT_IN_DOCUMENT,
                   t("diagnosis.answer_not_in_document", language, answer=answer))
        return _diagnosis([missing, below] if decision.refused else [missing])
    shown = document[span.start : span.end]
    holding = chunks_holding(chunks, span)
    rank = min((decision.rank_of(i) for i in holding), default=None)
    parts: list[tuple[str, str]] = []
    if not holding:
        touching = chunks_touching(chunks, span) or (0,)
        parts.append((ANSWER_SPLIT, t("diagnosis.answer_split", language, answer=shown,
                                      first=chunk_name(touching[0]),
                                      last=chunk_name(touching[-1]))))
    elif not _readable(holding, span, truncation):
        parts.append((ANSWER_TRUNCATED, t("diagnosis.answer_truncated", language, answer=shown,
                                          chunks=chunk_list(holding, language))))
    elif rank is not None and rank > 1:
        parts.append((OUTRANKED, _outranked(chunks, decision, rank, language)))
    if decision.refused:
        parts.append(below)
    if not parts:
        top = decision.ranking[0]
        parts.append((OK, t("diagnosis.ok_answered", language, chunk=chunk_name(top),
                            answer=shown, score=score_text(decision.scores[top]),
                            floor=score_text(decision.floor))))
    return _diagnosis(parts, span, holding, rank)


def _readable(
    holding: Sequence[int], span: AnswerSpan, truncation: Sequence[int | None]
) -> tuple[int, ...]:
    """Holding chunks in which the model reads the answer to its end."""
    out = []
    for index in holding:
        stop = truncation[index] if index < len(truncation) else None
        if stop is None or span.end <= stop:
            out.append(index)
    return tuple(out)


def _outranked(chunks: Sequence[Chunk], decision: Decision, rank: int, language: str) -> str:
    by_index = {c.index: c for c in chunks}
    best_holding = decision.ranking[rank - 1]
    winner = decision.ranking[0]
    score = decision.scores[best_holding]
    winner_score = decision.scores[winner]
    return t(
        "diagnosis.outranked",
        language,
        chunk=chunk_name(best_holding),
        rank=rank,
        score=score_text(score),
        gap=score_text(winner_score - score),
        winner=chunk_name(winner),
        winner_score=score_text(winner_score),
        about=about(by_index[winner]),
    )


def label_counts(diagnoses: Iterable[Diagnosis | None]) -> dict[str, int]:
    """How many questions carry each label (every label of a question counts), in LABELS
    order with zeros included; unlabelled questions (None) are skipped."""
    counter: Counter[str] = Counter()
    for diagnosis in diagnoses:
        if diagnosis is not None:
            counter.update(diagnosis.labels)
    return {label: counter[label] for label in LABELS}
