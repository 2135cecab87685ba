"""What every other retrieval setting does with the same questions on the same chunks: the
fixes teams reach for when the answer's chunk is ``outranked`` (BM25, hybrid search, a
reranker), measured next to the configuration under study. The chunks and their vectors are
reused; only the scores change. A floor does not carry across scales, so each other setting
runs with its scale's bottom (no floor) unless it shares the studied scorer's scale."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ragviz.embedding.models import Embedder
from ragviz.evaluation.diagnosis import OK, OUTRANKED, OUTRANKED_BY_OTHER_DOCUMENT
from ragviz.evaluation.experiments import compare
from ragviz.evaluation.pipeline import analyse_chunked, encode_questions
from ragviz.evaluation.results import Analysis, Comparison
from ragviz.retrieval.scorers import get_scorer

BEATEN = (OUTRANKED, OUTRANKED_BY_OTHER_DOCUMENT)


@dataclass(frozen=True)
class SettingStudy:
    """One other setting: its analysis and how it differs from the studied one."""

    scorer: str
    floor: float
    analysis: Analysis
    comparison: Comparison

    @property
    def fixes(self) -> int:
        return sum(1 for f in self.comparison.flips if f.direction == "fixed")

    @property
    def breaks(self) -> int:
        return sum(1 for f in self.comparison.flips if f.direction == "broken")

    @property
    def outranked_fixed(self) -> int:
        """Questions ``outranked`` in the studied setting that this one gets right."""
        return sum(1 for f in self.comparison.flips
                   if f.label_a in BEATEN and f.label_b == OK)

    def answer_rank(self, number: int) -> int | None:
        """Where this setting ranks question ``number``'s answer chunk (None: no chunk holds it)."""
        diagnosis = self.analysis.outcomes[number].diagnosis
        return None if diagnosis is None else diagnosis.answer_rank

    def to_dict(self) -> dict[str, Any]:
        return {"scorer": self.scorer, "floor": self.floor,
                "metrics": self.analysis.metrics.to_dict(), "fixes": self.fixes,
                "breaks": self.breaks, "outranked_fixed": self.outranked_fixed,
                "flips": [flip.to_dict() for flip in self.comparison.flips],
                "answer_ranks": [self.answer_rank(n) for n in range(len(self.analysis.outcomes))]}


def study(main: Analysis, embedder: Embedder, scorers: Sequence[str]) -> tuple[SettingStudy, ...]:
    """Each scorer spec of ``scorers`` on ``main``'s chunks and questions (specs checked
    first: one sentence for a wrong one before any work)."""
    chosen = [get_scorer(spec) for spec in scorers]
    questions = [outcome.question for outcome in main.outcomes]
    vectors = encode_questions(embedder, questions)
    same_scale = get_scorer(main.settings.scorer).scale
    out: list[SettingStudy] = []
    for scorer in chosen:
        floor = main.settings.floor if scorer.scale == same_scale else scorer.scale.low
        settings = replace(main.settings, scorer=scorer.name, floor=floor)
        other = analyse_chunked(main.corpus, main.config, embedder, questions, main.chunking,
                                main.chunk_vectors, vectors, settings, main.duplicate_groups)
        out.append(SettingStudy(scorer.name, floor, other, compare(main, other)))
    return tuple(out)
