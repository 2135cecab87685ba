"""The analysis pipeline (ragviz.evaluation.pipeline) on the real model: the article's story,
rescoring, truncation."""

from __future__ import annotations

import json

import pytest

from ragviz.chunking import Chunk, ChunkerConfig
from ragviz.cli.payloads import search_payload
from ragviz.embedding.models import Embedder
from ragviz.evaluation import pipeline
from ragviz.evaluation.pipeline import (
    MAX_CHUNKS,
    analyse,
    embedding_text,
    rescore,
    truncation_offsets,
)
from ragviz.evaluation.results import Analysis, QuestionOutcome, RetrievalSettings
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.presentation import diagnosis_text, prompt_text

FIXED_120 = ChunkerConfig("fixed", size=120, overlap=0)
SENTENCE_220 = ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)
REFUND = "Qual o prazo do reembolso?"
HOURS = "Qual o horário de atendimento do suporte?"


@pytest.fixture(scope="module")
def fixed_seed(seed_doc: str, seed_questions: list[LabelledQuestion],
               use_model: Embedder) -> Analysis:
    return analyse(seed_doc, FIXED_120, use_model, seed_questions, RetrievalSettings(top_k=2))


@pytest.fixture(scope="module")
def sentence_seed(seed_doc: str, seed_questions: list[LabelledQuestion],
                  use_model: Embedder) -> Analysis:
    return analyse(seed_doc, SENTENCE_220, use_model, seed_questions, RetrievalSettings(top_k=2))


def _outcome(analysis: Analysis, question: str) -> QuestionOutcome:
    return next(o for o in analysis.outcomes if o.question.question == question)


def test_fixed_120_splits_the_support_hours_between_chunks_3_and_4(fixed_seed: Analysis) -> None:
    """top_k 1 sends one half: ``answer-split``; top_k 2 sends both halves, and an answer
    the model received whole is ``ok`` (issue 43), whatever the cut."""
    one = _outcome(rescore(fixed_seed, RetrievalSettings(top_k=1)), HOURS).diagnosis
    assert one is not None
    assert one.primary == "answer-split"
    assert "chunks #3 and #4" in diagnosis_text(one)
    both = _outcome(fixed_seed, HOURS)
    assert both.diagnosis is not None and both.diagnosis.primary == "ok"
    assert {chunk for chunk, _rank in both.diagnosis.in_context} == {3, 4}
    assert both.tokens is not None and both.tokens.recall == 1.0


def test_fixed_120_hit_at_1_is_under_half(fixed_seed: Analysis) -> None:
    assert fixed_seed.metrics.hit_at_1 is not None
    assert fixed_seed.metrics.hit_at_1 < 0.5


def test_fixed_120_top_chunk_for_refund_lacks_the_deadline(fixed_seed: Analysis) -> None:
    decision = _outcome(fixed_seed, REFUND).decision
    assert decision.best_index is not None
    assert "7 dias úteis" not in fixed_seed.chunks[decision.best_index].text


def test_sentence_220_puts_every_answer_first(sentence_seed: Analysis) -> None:
    assert sentence_seed.metrics.hit_at_1 == 1.0


def test_sentence_220_calibrated_floor_refuses_exactly_the_unanswerable(
    sentence_seed: Analysis,
) -> None:
    calibration = sentence_seed.calibration
    assert calibration is not None
    assert calibration.separable
    floored = rescore(sentence_seed, RetrievalSettings(top_k=2, floor=calibration.floor))
    refused = {o.question.question: o.decision.refused for o in floored.outcomes}
    expected = {o.question.question: o.question.is_answerable is False
                for o in floored.outcomes}
    assert refused == expected
    assert floored.metrics.labels["ok"] == 7


def test_rescore_matches_a_fresh_analysis_at_the_same_settings(
    sentence_seed: Analysis, seed_doc: str, seed_questions: list[LabelledQuestion],
    use_model: Embedder,
) -> None:
    settings = RetrievalSettings(top_k=1, floor=0.3)
    fresh = analyse(seed_doc, SENTENCE_220, use_model, seed_questions, settings)
    assert rescore(sentence_seed, settings) == fresh


def test_rescore_never_calls_the_model(
    sentence_seed: Analysis, use_model: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("rescore must not embed")

    monkeypatch.setattr(use_model, "encode", refuse)
    floored = rescore(sentence_seed, RetrievalSettings(top_k=2, floor=0.9))
    assert floored.metrics.refusal_recall == 1.0


def test_refused_question_has_no_prompt_and_answered_one_has_it_in_its_language(
    seed_doc: str, seed_questions: list[LabelledQuestion], use_model: Embedder,
) -> None:
    analysis = analyse(seed_doc, SENTENCE_220, use_model, seed_questions,
                       RetrievalSettings(floor=0.2))
    refund = _outcome(analysis, REFUND)
    wifi = _outcome(analysis, "Qual a senha do wifi do escritório?")
    prompt = prompt_text(refund, analysis.chunks, "pt")
    assert prompt is not None
    assert prompt.startswith("Responda usando APENAS")
    assert "7 dias úteis" in prompt
    assert prompt_text(wifi, analysis.chunks, "pt") is None
    assert wifi.diagnosis is not None
    assert "o chunk" in diagnosis_text(wifi.diagnosis, "pt")


def test_shapes_and_no_truncation_with_use(sentence_seed: Analysis) -> None:
    n = len(sentence_seed.chunks)
    assert sentence_seed.chunk_vectors.shape[0] == n
    assert len(sentence_seed.chunk_tokens) == n
    assert all(tokens > 0 for tokens in sentence_seed.chunk_tokens)
    assert sentence_seed.truncation == (None,) * n
    assert sentence_seed.truncated_count == 0


def test_unlabelled_question_gets_no_diagnosis_and_no_calibration(
    seed_doc: str, use_model: Embedder
) -> None:
    analysis = analyse(seed_doc, SENTENCE_220, use_model, [LabelledQuestion(REFUND)])
    assert analysis.outcomes[0].diagnosis is None
    assert analysis.calibration is None
    assert analysis.metrics.answerable == 0


def test_the_search_payload_is_json(sentence_seed: Analysis) -> None:
    data = search_payload(sentence_seed)
    assert json.loads(json.dumps(data)) == data
    assert data["config"] == {"chunker": "sentence", "max_chars": 220, "overlap_sentences": 1}


def test_answer_past_minilm_token_limit_is_diagnosed_truncated(minilm_model: Embedder) -> None:
    filler = "The office has plants and a kitchen with coffee for the team. " * 40
    document = filler + "Refunds take seven working days."
    question = LabelledQuestion("How long do refunds take?", "seven working days")
    config = ChunkerConfig("fixed", size=len(document), overlap=0)
    analysis = analyse(document, config, minilm_model, [question])
    assert analysis.truncated_count == 1
    stop = analysis.truncation[0]
    assert stop is not None
    assert stop < document.index("seven working days")
    diagnosis = analysis.outcomes[0].diagnosis
    assert diagnosis is not None
    assert diagnosis.primary == "answer-truncated"
    assert "chunk #0" in diagnosis_text(diagnosis)


def test_embedding_text_uses_the_chunk_context_when_present() -> None:
    plain = Chunk(0, 0, 3, "abc")
    prefixed = Chunk(0, 0, 3, "abc", context_prefix="header: ")
    assert embedding_text(plain) == "abc"
    assert embedding_text(prefixed) == "header: abc"


def test_truncation_offset_discounts_the_context_prefix(minilm_model: Embedder) -> None:
    prefix = "word " * 300  # the model stops reading inside the prefix
    chunk = Chunk(0, 50, 53, "abc", context_prefix=prefix)
    assert truncation_offsets([chunk], minilm_model) == (50,)


def test_a_configuration_with_too_many_chunks_is_refused_before_embedding(
    use_model: Embedder,
) -> None:
    document = "palavra " * (MAX_CHUNKS + 10)
    before = use_model.texts_encoded
    with pytest.raises(ValueError, match="choose a larger size"):
        analyse(document, ChunkerConfig("fixed", size=8), use_model, [])
    assert use_model.texts_encoded == before


def test_language_is_no_part_of_the_analysis() -> None:
    """Sentences are made at display time (ragviz.present.presentation): no analysis, rescore or
    result carries a language, so a language switch can reuse every analysis."""
    import dataclasses
    import inspect

    from ragviz.evaluation.pipeline import analyse_chunked

    for function in (analyse, analyse_chunked, rescore):
        assert "language" not in inspect.signature(function).parameters, function.__name__
    assert "language" not in {f.name for f in dataclasses.fields(Analysis)}
    assert "prompt" not in {f.name for f in dataclasses.fields(QuestionOutcome)}


def test_analyse_takes_chunks_and_question_vectors_it_is_given(
    sentence_seed: Analysis, seed_doc: str, seed_questions: list[LabelledQuestion],
    use_model: Embedder, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The one copy of chunk-embed-analyse: the app hands it the chunks it already drew, a
    sweep the question vectors it shares; neither is made again (the model only embeds
    chunks, from its cache here)."""
    import ragviz.evaluation.pipeline as pipeline

    query_vectors = pipeline.encode_questions(use_model, seed_questions)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("made again")

    monkeypatch.setattr(pipeline, "chunk_corpus", refuse)
    monkeypatch.setattr(use_model, "encode_queries", refuse)
    again = analyse(seed_doc, SENTENCE_220, use_model, seed_questions, RetrievalSettings(top_k=2),
                    chunking=sentence_seed.chunking, query_vectors=query_vectors)
    assert search_payload(again) == search_payload(sentence_seed)


def test_no_floor_set_is_said_not_passed_at_the_scales_bottom() -> None:
    """Issue 36, low: "passes the floor -1.00" when no floor was set."""
    from ragviz.chunking import ChunkerConfig
    from ragviz.embedding.models import load_embedder
    from ragviz.evaluation.pipeline import analyse
    from ragviz.evaluation.results import RetrievalSettings
    from ragviz.inputs.questions import LabelledQuestion
    from ragviz.present.presentation import diagnosis_text

    text = "Refunds take ten days. The office wifi password is on the board."
    questions = [LabelledQuestion("How long do refunds take?", "ten days"),
                 LabelledQuestion("Is there parking?", "", answerable=False)]
    unset = analyse(text, ChunkerConfig("fixed", size=30, overlap=0),
                    load_embedder("use-multilingual"), questions, RetrievalSettings(1, -1.0))
    said = [diagnosis_text(o.diagnosis) for o in unset.outcomes if o.diagnosis]
    assert "ranks first with" in said[0] and "(no floor is set)" in said[0]
    assert "no floor is set, so the language model gets context" in said[1]
    assert not any("floor -1.00" in s for s in said)


def test_analyse_makes_the_corpus_once_and_hands_that_one_down(
        monkeypatch: pytest.MonkeyPatch, seed_doc: str, seed_questions: list[LabelledQuestion],
        use_model: Embedder) -> None:
    """Issue 48 item 4: a pasted text becomes a corpus at the entry, once; chunking, scoring
    and the diagnosis all read that same object (it was made three times on the way down)."""
    made: list[Corpus] = []

    def counted(document: str | Corpus, name: str = "") -> Corpus:
        made.append(as_corpus(document, name))  # the real one, counted
        return made[-1]

    monkeypatch.setattr(pipeline, "as_corpus", counted)
    analysis = analyse(seed_doc, FIXED_120, use_model, seed_questions, RetrievalSettings(top_k=2))
    assert len(made) == 1
    assert analysis.corpus is made[0]
    assert analysis.corpus.sources[0].text == seed_doc
