"""What ``ragviz.evaluate`` returns: one analysis of the pipeline, with the views a notebook
wants (metrics, a DataFrame, the app's score bars, the sentences, the report, the CLI's
JSON). Every view is made by the code the CLI and the app use; nothing is recomputed here."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from ragviz.chunking import Chunk
from ragviz.errors import InputError
from ragviz.evaluation.results import Analysis, Comparison, Coverage

if TYPE_CHECKING:
    import altair as alt
    import pandas as pd

    from ragviz.answering.run import AnswerSet, Asker, LLMMetrics, LLMResult
    from ragviz.cli.index_command import IndexRun

# The columns of ``Evaluation.to_pandas``, one row per question evaluated.
QUESTION_COLUMNS = ("question", "answer", "answerable", "decision", "labels", "rank",
                    "best_score", "answer_score", "hits", "recall", "precision", "iou",
                    "precision_omega", "explanation")


@dataclass(frozen=True)
class Chunks(Sequence[Chunk]):
    """The chunks ``ragviz.chunk`` made: a sequence of ``Chunk`` (``index``, ``source``,
    ``start``, ``end``, ``text``; ``text == corpus text[start:end]``), labelled by the
    configuration that made them."""

    chunks: tuple[Chunk, ...]
    label: str
    sources: tuple[str, ...] = ()

    @overload
    def __getitem__(self, position: int) -> Chunk: ...
    @overload
    def __getitem__(self, position: slice) -> Sequence[Chunk]: ...

    def __getitem__(self, position: int | slice) -> Chunk | Sequence[Chunk]:
        return self.chunks[position]

    def __len__(self) -> int:
        return len(self.chunks)

    def __iter__(self) -> Iterator[Chunk]:
        return iter(self.chunks)

    @property
    def texts(self) -> list[str]:
        """The chunks' texts, in order."""
        return [c.text for c in self.chunks]

    def to_pandas(self) -> pd.DataFrame:
        """One row per chunk: what ``ragviz chunk --json`` lists."""
        import pandas as pd

        return pd.DataFrame([c.to_dict() for c in self.chunks])


@dataclass(frozen=True)
class LLMRun:
    """The answers an ``llm=`` model gave, as ``--llm`` asks them."""

    asker: Asker
    results: list[LLMResult]
    metrics: LLMMetrics


@dataclass(frozen=True)
class Evaluation:
    """One configuration evaluated on a corpus and labelled questions.

    Attributes:
        analysis: the pipeline's result (``ragviz.evaluation.results.Analysis``): chunks,
            every question's scores, decision, diagnosis and token measures.
        coverage: how many questions were given and which were left out, and why (an
            excerpt not in the corpus).
        lang: the language of the sentences (one of ``ragviz.i18n.LANGUAGES``).
        retriever: the name of the user's retriever whose ranking was evaluated (None:
            ragviz's own ranking).
        returned: per question, the chunks the retriever returned, in its order.
    """

    analysis: Analysis
    coverage: Coverage
    lang: str = "en"
    retriever: str | None = None
    returned: tuple[tuple[int, ...], ...] = ()
    index_run: IndexRun | None = field(default=None, repr=False)
    llm: LLMRun | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return (f"Evaluation({self.label!r}, model={self.analysis.model!r}, "
                f"questions={len(self.analysis.outcomes)}, metrics={self.metrics_line()!r})")

    @property
    def label(self) -> str:
        """The configuration's name (``sentence(max_chars=220, overlap_sentences=1)``)."""
        return self.analysis.config.label()

    @property
    def metrics(self) -> dict[str, Any]:
        """Every registered metric (hit@1, hit@k, MRR, refusal precision and recall, token
        recall, precision, IoU...) by name, with the counts behind them: ``eval --json``'s
        ``metrics``."""
        return self.analysis.metrics.to_dict()

    @property
    def chunks(self) -> Chunks:
        """The chunks the questions were ranked against."""
        return Chunks(self.analysis.chunks, self.label, self.analysis.corpus.names)

    @property
    def questions(self) -> list[dict[str, Any]]:
        """One dict per question evaluated: ``eval --json``'s question rows."""
        return copy.deepcopy(self._payload["questions"])

    def metrics_line(self) -> str:
        """The metrics in one line, as ``ragviz eval`` prints them."""
        from ragviz.cli.output import metrics_line

        return metrics_line(self.analysis.metrics, self.lang, self.analysis.top_k)

    def to_pandas(self) -> pd.DataFrame:
        """One row per question: labels, the answer's rank, scores, token recall,
        precision and IoU, the explanation (``explain``; ``QUESTION_COLUMNS``)."""
        import pandas as pd

        rows = []
        for position, row in enumerate(self._payload["questions"]):
            diagnosis = row["diagnosis"] or {}
            rows.append({**{k: row.get(k) for k in QUESTION_COLUMNS},
                         "rank": diagnosis.get("answer_rank"),
                         "answer_score": diagnosis.get("answer_score"),
                         "hits": [hit["index"] for hit in row["hits"]],
                         "explanation": self.explain(position)})
        return pd.DataFrame(rows, columns=list(QUESTION_COLUMNS))

    def _position(self, question: int | str) -> int:
        outcomes = self.analysis.outcomes
        if isinstance(question, str):
            for position, outcome in enumerate(outcomes):
                if outcome.question.question == question:
                    return position
            raise InputError(key="python.no_such_question", question=repr(question[:80]),
                             n=len(outcomes))
        if isinstance(question, bool) or not isinstance(question, int) \
                or not -len(outcomes) <= question < len(outcomes):
            raise InputError(key="python.no_such_question", question=repr(question),
                             n=len(outcomes))
        return question % len(outcomes)

    def chart(self, question: int | str = 0, large: bool = False) -> alt.LayerChart:
        """The app's score bars of one question (its position, or its text): every chunk's
        score, best first, the top_k coloured by the floor, the floor drawn, the chunks
        holding the answer outlined. An Altair chart: it draws itself in Jupyter."""
        from ragviz.present.charts import chunk_labels, score_bars
        from ragviz.retrieval.scorers import get_scorer

        analysis = self.analysis
        outcome = analysis.outcomes[self._position(question)]
        floored = outcome.decision.floored
        return score_bars(outcome.decision, analysis.chunks, analysis.floor if floored else None,
                          outcome.question.question, self.lang, large=large,
                          answer_chunks=outcome.diagnosis.holding_chunks
                          if outcome.diagnosis is not None else (),
                          labels=chunk_labels(analysis),
                          scale=get_scorer(analysis.settings.scorer).scale)

    def explain(self, question: int | str = 0) -> str:
        """The diagnosis of one question in a sentence or two (its position, or its
        text), as ``ragviz eval`` writes it; "" for an unlabelled question."""
        from ragviz.i18n import t
        from ragviz.present.presentation import diagnosis_text

        position = self._position(question)
        outcome = self.analysis.outcomes[position]
        if outcome.diagnosis is None:
            return ""
        said = diagnosis_text(outcome.diagnosis, self.lang)
        holding = outcome.diagnosis.holding_chunks
        if self.retriever is not None and holding \
                and not set(holding) & set(self.returned[position]):
            said += " " + t("python.rank_not_returned", self.lang, retriever=self.retriever)
        return said

    def compare(self, other: Evaluation) -> Comparison:
        """This configuration (A) against ``other`` (B) on the same questions: both metrics
        and the questions whose outcome flips (``Comparison.flips``), as ``ragviz compare``."""
        from ragviz.evaluation.experiments import compare

        if [o.question for o in self.analysis.outcomes] != \
                [o.question for o in other.analysis.outcomes]:
            raise InputError(key="python.compare_questions")
        return compare(self.analysis, other.analysis)

    def report(self, path: str | Path) -> Path:
        """The HTML report ``ragviz report`` writes, at ``path``; returns the path."""
        from ragviz.cli.output import writable_path
        from ragviz.present.report import render_report

        out = writable_path(str(path))
        answers = [None if self.llm is None else self._answer_set()]
        html = render_report([self.analysis], lang=self.lang, coverage=self.coverage,
                             answers=answers)
        out.write_text(html, encoding="utf-8")
        return out

    def _answer_set(self) -> AnswerSet:
        from ragviz.answering.run import AnswerSet

        assert self.llm is not None
        return AnswerSet(self.llm.asker.model.name, tuple(self.llm.results), self.llm.metrics)

    def to_json(self) -> dict[str, Any]:
        """``ragviz eval --json``'s data (``ragviz schema eval``), checked by its definition."""
        return copy.deepcopy(self._payload)

    @cached_property
    def _payload(self) -> dict[str, Any]:
        """The JSON data, made once: the rows, the frame and the questions read it."""
        from ragviz.cli import llm_options
        from ragviz.cli.output import with_coverage
        from ragviz.cli.outputs import checked
        from ragviz.cli.payloads import eval_json

        payload = eval_json(self.analysis, self.lang)
        if self.index_run is not None:
            self.index_run.decorate(payload)
        if self.retriever is not None:
            payload["scorer"] = f"retriever:{self.retriever}"
        with_coverage(payload, self.coverage, self.lang)
        if self.llm is not None:
            llm_options.add_rows(payload["questions"], self.llm.results, self.lang)
            payload["llm"] = llm_options.head(self.llm.asker, self.llm.metrics)
        return checked("eval", payload)

    def _repr_markdown_(self) -> str:
        """How Jupyter shows an evaluation: its configuration and its metrics."""
        return f"**{self.label}** · {self.analysis.model}\n\n{self.metrics_line()}"
