"""What each file of a corpus holds and wins under one configuration: its characters, its
chunks and the questions whose top_k ranks one of its chunks (the app's file overview, the
CLI's ``eval`` lines per file)."""

from __future__ import annotations

from dataclasses import dataclass

from ragviz.evaluation.results import Analysis


@dataclass(frozen=True)
class FileRow:
    """One file of a corpus in the overview: its size, its chunks under one configuration,
    and the questions whose top_k holds at least one of its chunks."""

    name: str
    chars: int
    chunks: int
    questions: tuple[str, ...]

    @property
    def retrieved(self) -> int:
        return len(self.questions)


def corpus_overview(analysis: Analysis) -> list[FileRow]:
    """Per file, in corpus order: characters, chunks, and for which questions retrieval
    ranks one of its chunks in the top_k (floor or not: the ranking is what competes)."""
    picked: dict[str, list[str]] = {source.name: [] for source in analysis.corpus.sources}
    for outcome in analysis.outcomes:
        decision = outcome.decision
        files = {analysis.chunks[i].source for i in decision.ranking[: decision.top_k].tolist()}
        for name in files:
            picked[name].append(outcome.question.question)
    return [
        FileRow(source.name, len(source.text), len(analysis.chunks_of(source.name)),
                tuple(picked[source.name]))
        for source in analysis.corpus.sources
    ]
