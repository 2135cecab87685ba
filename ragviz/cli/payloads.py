"""The ``--json`` payloads of search and eval, and every command's header, made of their
definitions (``ragviz.cli.outputs``) from an analysis's facts. The commands add their
optional parts (coverage, ``--llm``, ``--also``, ``--index``) to the data these return;
``output.emit`` validates the whole by the command's definition before printing it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ragviz.chunking import ChunkerConfig
from ragviz.cli.outputs import (
    SCHEMA_VERSION,
    EvalQuestion,
    HitRow,
    Reference,
    SearchQuestion,
    Settings,
    data,
    fields_of,
)
from ragviz.evaluation.diagnosis import Diagnosis
from ragviz.evaluation.excerpts import TokenScores
from ragviz.evaluation.metrics import metrics_per_file
from ragviz.evaluation.results import Analysis, QuestionOutcome, RetrievalSettings
from ragviz.retrieval.decision import with_neighbours
from ragviz.retrieval.rerank import RerankedScorer
from ragviz.retrieval.scorers import get_scorer


def settings_of(retrieval: RetrievalSettings, config: ChunkerConfig | None) -> Settings:
    """The retrieval settings one configuration ran with, as every header says them."""
    scorer = get_scorer(retrieval.scorer)
    reranked = scorer if isinstance(scorer, RerankedScorer) else None
    return Settings(
        chunker=None if config is None else config.label(),
        config=None if config is None else config.to_dict(),
        scorer=retrieval.scorer,
        reranker=None if reranked is None else reranked.reranker.name,
        rerank_depth=None if reranked is None else reranked.depth,
        expand=retrieval.expand, top_k=retrieval.top_k, floor=retrieval.floor)


def header(command: str, retrieval: RetrievalSettings, config: ChunkerConfig | None,
           model: str | None) -> dict[str, Any]:
    """The header of a command that retrieves: version, command, model and settings."""
    return {"schema_version": SCHEMA_VERSION, "command": command, "model": model,
            **fields_of(settings_of(retrieval, config))}


def analysis_header(command: str, analysis: Analysis) -> dict[str, Any]:
    return header(command, analysis.settings, analysis.config, analysis.model)


def json_scores(scores: Any) -> list[float | None]:
    """Scores as JSON writes them: 6 decimals, null for a chunk a reranker did not score."""
    return [round(s, 6) if s == s else None for s in scores.tolist()]


def token_fields(tokens: TokenScores | None) -> dict[str, Any]:
    """Per question ``recall``, ``precision``, ``iou``, ``precision_omega`` (null when the
    question expects no excerpt) and the excerpts missed."""
    if tokens is None:
        return {"recall": None, "precision": None, "iou": None, "precision_omega": None}
    return fields_of(tokens)


def hits(analysis: Analysis, outcome: QuestionOutcome) -> list[HitRow]:
    """A question's hits with the file each chunk comes from."""
    return [HitRow(index=h.index, score=round(h.score, 6), source=analysis.chunks[h.index].source)
            for h in outcome.decision.hits]


def _parts(analysis: Analysis) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return ([c.to_dict() for c in analysis.chunks],
            [s.to_dict() for s in analysis.corpus.sources])


def _decision(outcome: QuestionOutcome) -> Any:
    return "refused" if outcome.decision.refused else "context"


def search_payload(analysis: Analysis) -> dict[str, Any]:
    """``ragviz search --json``: every chunk and, per question, its scores and hits."""
    chunks, sources = _parts(analysis)
    return {**analysis_header("search", analysis), "chunks": chunks, "sources": sources,
            "questions": [data(SearchQuestion(question=o.question.question,
                                              scores=json_scores(o.decision.scores),
                                              hits=hits(analysis, o), decision=_decision(o)))
                          for o in analysis.outcomes]}


def eval_question(analysis: Analysis, outcome: QuestionOutcome, explanation: str
                  ) -> EvalQuestion:
    """One question's row of ``ragviz eval --json``: decision, diagnosis (with the sentence
    the caller made of it in its language) and token measures."""
    diagnosis, question = outcome.diagnosis, outcome.question
    best = outcome.decision.best_score
    return EvalQuestion(
        question=question.question, answer=question.answer, answerable=question.is_answerable,
        decision=_decision(outcome), best_score=round(best, 6) if best == best else None,
        hits=hits(analysis, outcome), labels=list(diagnosis.labels) if diagnosis else [],
        explanation=explanation, diagnosis=diagnosis.to_dict() if diagnosis else None,
        **token_fields(outcome.tokens),
        # left out without references or --expand (what it added to the prompt)
        references=[Reference(**r.to_dict()) for r in question.references] or None,
        expanded=list(with_neighbours(analysis.chunks, outcome.decision,
                                      analysis.settings.expand)[1])
        if analysis.settings.expand else None)


def eval_payload(analysis: Analysis, explain: Callable[[Diagnosis], str]) -> dict[str, Any]:
    """``ragviz eval --json`` before coverage and the optional parts: the metrics and every
    question's row; ``explain`` turns a diagnosis into its sentence."""
    chunks, sources = _parts(analysis)
    rows = [eval_question(analysis, o, explain(o.diagnosis) if o.diagnosis else "")
            for o in analysis.outcomes]
    return {**analysis_header("eval", analysis), "chunks": len(analysis.chunks),
            "chunk_list": chunks, "sources": sources, "metrics": analysis.metrics.to_dict(),
            "questions": [data(row) for row in rows]}


def eval_json(analysis: Analysis, lang: str) -> dict[str, Any]:
    """``ragviz eval --json`` of one analysis before coverage and the optional parts, its
    sentences in ``lang``: what ``eval`` prints and the Python API's ``to_json`` returns."""
    from ragviz.present.presentation import diagnosis_text

    payload = eval_payload(analysis, lambda diagnosis: diagnosis_text(diagnosis, lang))
    payload["per_file"] = {name: m.to_dict() for name, m in
                           metrics_per_file(analysis.outcomes, analysis.corpus).items()}
    return payload
