"""The multi-file help center sample: with the default model and chunker, chunks from another
article outrank the one holding the answer for at least two answerable questions.

Checked with the real pipeline (``analyse`` on the corpus) and the bundled default model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.diagnosis import OUTRANKED_BY_OTHER_DOCUMENT
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.corpus import Corpus, load_paths
from ragviz.inputs.questions import LabelledQuestion, parse_questions_csv
from ragviz.present.presentation import diagnosis_text
from ragviz.share.samples import get_sample, load_samples

SAMPLES = Path(__file__).resolve().parent.parent / "sample_docs"
HELP_CENTER = SAMPLES / "help_center"


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_paths([str(HELP_CENTER)])


@pytest.fixture(scope="module")
def questions() -> list[LabelledQuestion]:
    return parse_questions_csv((SAMPLES / "help_center.csv").read_text(encoding="utf-8"))


def test_the_articles_load_as_separate_files(corpus: Corpus) -> None:
    assert corpus.problems == ()
    names = [s.name for s in corpus.sources]
    assert 5 <= len(names) <= 8
    assert {Path(n).suffix for n in names} == {".md", ".txt", ".html"}
    assert all(1_000 <= len(s.text) <= 4_000 for s in corpus.sources)
    shipping = corpus.source("shipping.html").text
    assert "<" not in shipping and "dataLayer" not in shipping


def test_answers_are_verbatim_in_exactly_one_article(
    corpus: Corpus, questions: list[LabelledQuestion]
) -> None:
    answerable = [q for q in questions if q.is_answerable]
    assert 8 <= len(questions) <= 13
    assert len(answerable) < len(questions)
    for question in answerable:
        holders = [s.name for s in corpus.sources if question.answer in s.text]
        assert len(holders) == 1, (question.question, holders)


def test_the_sample_manifest_loads_the_help_center_as_a_corpus(corpus: Corpus) -> None:
    sample = get_sample("help_center")
    assert sample.is_corpus and sample.corpus() == corpus
    assert sample.questions_path == SAMPLES / "help_center.csv"
    assert "help_center" not in {s.name for s in load_samples()}  # single documents only
    assert sample in load_samples(corpora=True)
    with pytest.raises(ValueError, match="several files"):
        sample.document()


def test_another_article_outranks_the_answer_at_least_twice(
    corpus: Corpus, questions: list[LabelledQuestion], use_model: Embedder
) -> None:
    """The real pipeline on the default model and configuration, chunks ranked across the
    six files: the winner of at least two questions comes from another article."""
    analysis = analyse(corpus, ChunkerConfig(), use_model, questions)
    crossed = [o for o in analysis.outcomes
               if o.diagnosis is not None and o.diagnosis.primary == OUTRANKED_BY_OTHER_DOCUMENT]
    assert len(crossed) >= 2, [o.diagnosis for o in analysis.outcomes]
    for outcome in crossed:
        diagnosis = outcome.diagnosis
        assert diagnosis is not None and diagnosis.outranked is not None
        lost = diagnosis.outranked
        winner = analysis.chunks[lost.winner]
        holder = analysis.chunks[lost.chunk]
        assert winner.source == lost.winner_source != lost.source == holder.source
        assert outcome.question.answer in holder.text
        assert outcome.question.answer not in winner.text
        assert outcome.decision.ranking[0] == lost.winner
        assert analysis.source_text(holder)[holder.start:holder.end] == holder.text
        assert f"of another file, {winner.source}" in diagnosis_text(diagnosis)
    assert analysis.metrics.labels[OUTRANKED_BY_OTHER_DOCUMENT] == len(crossed)


def test_the_sample_demonstration_holds(use_model: Embedder) -> None:
    """Both configurations of the manifest keep the cross-article failures at the app's
    top_k 1 (at top_k 2 an answer in the context at rank 2 is ``ok``: issue 43)."""
    sample = get_sample("help_center")
    for config in sample.configs():
        analysis = analyse(sample.corpus(), config, use_model, sample.questions(),
                           RetrievalSettings(top_k=1))
        assert analysis.metrics.labels[OUTRANKED_BY_OTHER_DOCUMENT] >= 2, config.label()
