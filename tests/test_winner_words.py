"""Issue 45 item 6, the winner's words: an outranked answer's explanation quotes the part of
the winner that made it win (its sentence closest to the question with the real default
model, the question's terms it holds with BM25), not its first words; a floor or top_k
step keeps them without embedding."""

from __future__ import annotations

from ragviz.chunking import ChunkerConfig
from ragviz.chunking.text import split_sentences
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse, rescore
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.presentation import diagnosis_text
from tests.index_fixtures import DOC

FIXED = ChunkerConfig.create("fixed", size=120, overlap=0)
PRAZO = LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis")


def test_the_dense_winner_is_quoted_by_its_sentence_sharing_most_words_with_the_question(
        use_model: Embedder) -> None:
    analysis = analyse(DOC.read_text(encoding="utf-8"), FIXED, use_model, [PRAZO],
                       RetrievalSettings(1, -1.0))
    diagnosis = analysis.outcomes[0].diagnosis
    assert diagnosis is not None and diagnosis.outranked is not None
    winner = analysis.chunks[diagnosis.outranked.winner].text
    sentences = [" ".join(winner[a:b].split()) for a, b in split_sentences(winner)]
    assert len(sentences) > 1 and sentences[0] != "Reembolso."  # not simply the first one
    assert diagnosis.outranked.winner_about == "Reembolso."  # the article's cut
    assert 'which is about "Reembolso."' in diagnosis_text(diagnosis, "en")
    moved = rescore(analysis, RetrievalSettings(1, 0.1))  # a floor step: the words kept
    kept = moved.outcomes[0].diagnosis
    assert kept is not None and kept.outranked is not None
    assert kept.outranked.winner_about == "Reembolso."


def test_the_bm25_winner_is_quoted_by_the_terms_it_matched(use_model: Embedder) -> None:
    text = ("Shipping. Orders ship from our warehouse on weekdays and the shipping fee is "
            "fixed. Refunds. Your money comes back within ten business days.")
    question = LabelledQuestion("What is the shipping fee for orders?", "ten business days")
    analysis = analyse(text, ChunkerConfig.create("fixed", size=80, overlap=0), use_model,
                       [question], RetrievalSettings(1, 0.0, scorer="bm25(stopwords=en)"))
    diagnosis = analysis.outcomes[0].diagnosis
    assert diagnosis is not None and diagnosis.outranked is not None
    terms = diagnosis.outranked.winner_about.split(", ")
    winner = analysis.chunks[diagnosis.outranked.winner].text
    assert set(terms) <= set(winner.split()) | {w.strip(".") for w in winner.split()}
    assert {t.lower() for t in terms} <= {"shipping", "fee", "orders"}
    assert "fee" in terms and "the" not in terms  # a stopword is no match
