"""Metrics, A/B comparison, sweeps and "why did this fail?"."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from ragviz.chunking import ChunkerConfig, make_chunks, specs
from ragviz.chunking.base import make_chunk
from ragviz.embedding.models import Embedder, EmbeddingCache, Kind, UseMultilingual, Vectors
from ragviz.evaluation.diagnosis import diagnose
from ragviz.evaluation.experiments import compare, config_distance, default_grid, sweep, why_failed
from ragviz.evaluation.measures import metric_names
from ragviz.evaluation.metrics import compute_metrics
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import (
    Metrics,
    QuestionOutcome,
    RetrievalSettings,
    SweepResult,
    SweepRow,
)
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.presentation import why_failed_text
from ragviz.retrieval.decision import decide

FIXED_120 = ChunkerConfig("fixed", size=120, overlap=0)
SENTENCE_220 = ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)
FIXED_GRID = [ChunkerConfig("fixed", size=s, overlap=o) for s in (80, 120, 240) for o in (0, 18)]

# A hand-made case: three chunks, the answer "B" is in chunk #1. Scores are written by hand
# because these tests are about the arithmetic of the metrics, not about the model.
DOC = "aaaa. B bbbb. cccc."
CHUNKS = [make_chunk(DOC, 0, 0, 5), make_chunk(DOC, 1, 6, 13), make_chunk(DOC, 2, 14, 19)]
HOLDS_B = LabelledQuestion("b?", "B")
MISSING = LabelledQuestion("z?", "zzz")
NOT_ANSWERABLE = LabelledQuestion("w?", "", answerable=False)


def outcome(question: LabelledQuestion, scores: Sequence[float], floor: float = 0.5
            ) -> QuestionOutcome:
    decision = decide(scores, 2, floor)
    diagnosis = diagnose(DOC, CHUNKS, decision, question, [None] * 3)
    return QuestionOutcome(question, decision, diagnosis)


def test_hit_rates_and_mrr_from_answer_ranks() -> None:
    metrics = compute_metrics([
        outcome(HOLDS_B, [0.1, 0.9, 0.2]),  # rank 1
        outcome(HOLDS_B, [0.9, 0.8, 0.2]),  # rank 2
        outcome(HOLDS_B, [0.9, 0.1, 0.8]),  # rank 3
        outcome(MISSING, [0.9, 0.8, 0.2]),  # answer not in document: a miss
    ])
    assert metrics.hit_at_1 == 0.25
    assert metrics.hit_at_k == 0.5
    assert metrics.mrr == pytest.approx((1 + 1 / 2 + 1 / 3 + 0) / 4)
    assert metrics.answerable == 4


def test_hit_rates_ignore_the_floor() -> None:
    metrics = compute_metrics([outcome(HOLDS_B, [0.1, 0.3, 0.2], floor=0.5)])
    assert metrics.hit_at_1 == 1.0
    assert metrics.labels["below-floor"] == 1


def test_refusal_precision_is_none_without_refusals() -> None:
    metrics = compute_metrics([outcome(NOT_ANSWERABLE, [0.9, 0.8, 0.7])])
    assert metrics.refusal_precision is None
    assert metrics.refusal_recall == 0.0
    assert metrics.to_dict()["refusal_precision"] is None


def test_refusal_precision_and_recall() -> None:
    metrics = compute_metrics([
        outcome(NOT_ANSWERABLE, [0.1, 0.2, 0.3]),  # right refusal
        outcome(NOT_ANSWERABLE, [0.9, 0.2, 0.3]),  # false context
        outcome(HOLDS_B, [0.1, 0.2, 0.3]),  # wrong refusal
    ])
    assert metrics.refusal_recall == 0.5  # 1 of 2 unanswerable refused
    assert metrics.refusal_precision == 0.5  # 1 of 2 refusals right


def test_unlabelled_questions_do_not_count() -> None:
    metrics = compute_metrics([outcome(LabelledQuestion("?"), [0.1, 0.2, 0.3])])
    assert (metrics.answerable, metrics.unanswerable) == (0, 0)
    assert metrics.hit_at_1 is None
    assert metrics.refusal_precision is None


def test_metrics_to_dict_keys_and_json() -> None:
    data = compute_metrics([outcome(HOLDS_B, [0.1, 0.9, 0.2])]).to_dict()
    # every registered metric, and the counts beside them (a new metric adds a key)
    assert set(metric_names()) <= set(data)
    assert {"hit_at_1", "hit_at_k", "mrr", "refusal_precision", "refusal_recall",
            "recall", "precision", "iou", "precision_omega",
            "answerable", "unanswerable", "answerable_refused", "labels", "std"} <= set(data)
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("length", [480, 5_000, 100_000])
def test_default_grid_has_20_to_40_configs_that_cut_the_document(length: int) -> None:
    grid = default_grid(length)
    assert 20 <= len(grid) <= 40
    assert len(set(grid)) == len(grid)
    swept = {spec.name for spec in specs() if spec.sweep_position}
    assert {"fixed", "recursive", "sentence"} <= swept
    assert {c.chunker for c in grid} == swept


def test_default_grid_scales_sizes_to_the_document() -> None:
    small = max(c.get("size") or 0 for c in default_grid(480) if c.chunker == "fixed")
    large = max(c.get("size") or 0 for c in default_grid(100_000) if c.chunker == "fixed")
    assert small <= 240 < large


def test_default_grid_rejects_a_chunker_without_sizes() -> None:
    with pytest.raises(ValueError, match="semantic"):
        default_grid(480, chunkers=("semantic",))


class CountingEmbedder(UseMultilingual):
    """The real model, counting the document texts actually sent to it."""

    def __init__(self) -> None:
        super().__init__(cache=EmbeddingCache())
        self.sent: list[str] = []

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        if kind == "document":
            self.sent.extend(texts)
        return super()._encode(texts, kind)


def test_sweep_embeds_each_distinct_chunk_text_once(
    seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    embedder = CountingEmbedder()
    grid = [*FIXED_GRID, SENTENCE_220, ChunkerConfig("sentence", max_chars=220,
                                                     overlap_sentences=0)]
    sweep(seed_doc, seed_questions, embedder, grid)
    distinct = {c.text for config in grid for c in make_chunks(seed_doc, config).chunks}
    assert len(embedder.sent) == len(distinct)
    assert set(embedder.sent) == distinct


def test_sweep_progress_counts_configurations(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    calls: list[tuple[int, int]] = []
    result = sweep(seed_doc, seed_questions, use_model, FIXED_GRID,
                   progress=lambda done, total: calls.append((done, total)))
    assert calls == [(i, len(FIXED_GRID)) for i in range(len(FIXED_GRID) + 1)]
    assert [row.config for row in result.rows] == FIXED_GRID


def _metrics(hit_at_1: float, mrr: float) -> Metrics:
    values = {"hit_at_1": hit_at_1, "hit_at_k": hit_at_1, "mrr": mrr,
              "refusal_precision": None, "refusal_recall": None}
    return Metrics(values, 1, 0, {})


def test_best_takes_highest_metric_then_mrr_then_grid_order() -> None:
    rows = (
        SweepRow(ChunkerConfig("fixed", size=80), _metrics(0.5, 0.9)),
        SweepRow(ChunkerConfig("fixed", size=120), _metrics(1.0, 0.5)),
        SweepRow(ChunkerConfig("fixed", size=160), _metrics(1.0, 0.8)),
        SweepRow(ChunkerConfig("fixed", size=240), _metrics(1.0, 0.8)),
    )
    assert SweepResult(rows).best("hit_at_1").config.get("size") == 160
    assert SweepResult(rows).best("mrr").config.get("size") == 80


def test_best_rejects_unknown_metric() -> None:
    rows = (SweepRow(ChunkerConfig(), _metrics(1.0, 1.0)),)
    with pytest.raises(ValueError, match="metric must be one of"):
        SweepResult(rows).best("accuracy")


def test_sweep_best_on_seed_reaches_full_hit_at_1(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    result = sweep(seed_doc, seed_questions, use_model, [FIXED_120, SENTENCE_220])
    assert result.best("hit_at_1").config == SENTENCE_220


def test_compare_flags_questions_whose_outcome_flips(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    one = RetrievalSettings(top_k=1)  # at top_k 2 both halves of the hours are sent: ok
    a = analyse(seed_doc, FIXED_120, use_model, seed_questions, one)
    b = analyse(seed_doc, SENTENCE_220, use_model, seed_questions, one)
    comparison = compare(a, b)
    by_question = {flip.question.question: flip for flip in comparison.flips}
    horario = by_question["Qual o horário de atendimento do suporte?"]
    assert (horario.label_a, horario.label_b) == ("answer-split", "ok")
    assert horario.direction == "fixed"
    assert "Vocês emitem nota fiscal?" not in by_question  # ok under both
    assert comparison.metrics_b.hit_at_1 == 1.0


def test_compare_needs_the_same_questions(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    a = analyse(seed_doc, FIXED_120, use_model, seed_questions)
    b = analyse(seed_doc, FIXED_120, use_model, seed_questions[:2])
    with pytest.raises(ValueError, match="same questions"):
        compare(a, b)


def test_config_distance_prefers_same_chunker_then_smaller_change() -> None:
    current = FIXED_120
    near = ChunkerConfig("fixed", size=120, overlap=18)
    far = ChunkerConfig("fixed", size=240, overlap=36)
    other = ChunkerConfig("sentence", max_chars=120)
    assert config_distance(near, current) < config_distance(far, current)
    assert config_distance(far, current) < config_distance(other, current)


def test_why_failed_finds_closest_fix_that_keeps_the_others(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    failing = seed_questions[3]  # horário: split between #3 and #4 under fixed(120)
    others = [q for q in seed_questions if q != failing]
    one = RetrievalSettings(top_k=1)  # at top_k 2 both halves of the hours are sent: ok
    result = why_failed(seed_doc, failing, others, use_model, FIXED_120, FIXED_GRID, one)
    assert result.diagnosis.primary == "answer-split"
    assert result.fix is not None
    assert result.fix.chunker == "fixed"
    fixed_now = analyse(seed_doc, result.fix, use_model, [failing, *others], one)
    before = analyse(seed_doc, FIXED_120, use_model, [failing, *others], one)
    assert fixed_now.outcomes[0].diagnosis is not None
    assert fixed_now.outcomes[0].diagnosis.ok
    for now, then in zip(fixed_now.outcomes, before.outcomes, strict=True):
        if then.diagnosis is not None and then.diagnosis.ok:
            assert now.diagnosis is not None
            assert now.diagnosis.ok
    assert result.fix.label() in why_failed_text(result)


def test_why_failed_on_a_question_already_ok(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    result = why_failed(seed_doc, seed_questions[1], seed_questions[2:], use_model, FIXED_120,
                        FIXED_GRID)
    assert result.fix is None
    assert "nothing to fix" in why_failed_text(result)


def test_why_failed_says_when_no_configuration_fixes_it(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    question = LabelledQuestion("Qual o prazo?", "30 dias corridos")  # not in the document
    result = why_failed(seed_doc, question, seed_questions, use_model, FIXED_120, FIXED_GRID)
    assert result.fix is None
    assert why_failed_text(result, "pt").startswith("Nenhuma configuração")


def test_why_failed_needs_a_labelled_question(
    seed_doc: str, use_model: Embedder
) -> None:
    with pytest.raises(ValueError, match="expected answer"):
        why_failed(seed_doc, LabelledQuestion("Oi?"), [], use_model, FIXED_120, FIXED_GRID)
