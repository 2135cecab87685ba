"""Each diagnosis label, built on a constructed document, chunks and hand-made scores.

The scores here are written by hand on purpose: the tests are about which label and which
sentence follow from a ranking, not about the model (the seed cases with the real model
are in test_pipeline.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ragviz.chunking.base import Chunk, make_chunk
from ragviz.chunking.config import ChunkerConfig, make_chunks
from ragviz.evaluation.answers import AnswerSpan
from ragviz.evaluation.chunk_table import ChunkTable
from ragviz.evaluation.diagnosis import (
    LABELS,
    Diagnosis,
    about,
    diagnose,
    label_counts,
    with_crowding,
    with_first_stage,
)
from ragviz.evaluation.excerpts import question_excerpts
from ragviz.evaluation.index_analysis import sent_by
from ragviz.evaluation.pipeline import question_outcome
from ragviz.inputs.corpus import Corpus, Source, as_corpus
from ragviz.inputs.questions import LabelledQuestion, Reference
from ragviz.present.presentation import diagnosis_sentences, diagnosis_text
from ragviz.retrieval.decision import Decision, decide, with_neighbours

DOC = "Reembolso. O prazo é de 7 dias úteis. Suporte das 9h às 18h."
ANSWER = "7 dias úteis"
A_START = DOC.index(ANSWER)
A_END = A_START + len(ANSWER)
SENTENCE_CUTS = [(0, 10), (11, 37), (38, len(DOC))]  # #1 holds the answer
SPLIT_CUTS = [(0, A_START + 3), (A_START + 3, len(DOC))]  # cuts inside "7 dias úteis"
ANSWERABLE = LabelledQuestion("Qual o prazo do reembolso?", ANSWER)
UNANSWERABLE = LabelledQuestion("Qual a senha do wifi?", "", answerable=False)


def cut(bounds: Sequence[tuple[int, int]]) -> list[Chunk]:
    return [make_chunk(DOC, i, a, b) for i, (a, b) in enumerate(bounds)]


def run(
    bounds: Sequence[tuple[int, int]],
    scores: Sequence[float],
    question: LabelledQuestion = ANSWERABLE,
    floor: float = 0.4,
    truncation: Sequence[int | None] | None = None,
    top_k: int = 2,
) -> Diagnosis:
    chunks = cut(bounds)
    stops = [None] * len(chunks) if truncation is None else list(truncation)
    result = diagnose(DOC, chunks, decide(scores, top_k, floor), question, stops)
    assert result is not None
    return result


def test_ok_when_top_chunk_holds_answer_and_passes_floor() -> None:
    result = run(SENTENCE_CUTS, [0.3, 0.8, 0.1])
    assert result.labels == ("ok",)
    assert result.answer_rank == 1
    assert result.holding_chunks == (1,)
    assert diagnosis_text(result) == (
        'Chunk #1 holds the answer "7 dias úteis", ranks first with 0.80 and passes the floor 0.40.'
    )


def test_ok_when_unanswerable_is_refused() -> None:
    result = run(SENTENCE_CUTS, [0.2, 0.35, 0.1], question=UNANSWERABLE)
    assert result.labels == ("ok",)
    assert "chunk #1" in diagnosis_text(result)
    assert "0.35" in diagnosis_text(result)
    assert "0.40" in diagnosis_text(result)


def test_answer_split_names_both_chunks_the_part_sent_and_the_part_left_out() -> None:
    """top_k 1 sends #0 ("7 d"); "ias úteis" is in #1, which ranks 2: the part left out
    and the chunk that would have brought it, whose winner holds a quarter of the answer."""
    result = run(SPLIT_CUTS, [0.8, 0.6], top_k=1)
    assert result.labels == ("answer-split", "outranked")
    assert result.holding_chunks == ()
    assert result.answer_rank is None
    assert (result.part_sent, result.part_missing) == ("7 d", "ias úteis")
    assert diagnosis_text(result) == (
        'The answer "7 dias úteis" straddles chunks #0 and #1: no single chunk holds it, '
        'and the context got only "7 d" (25%), not "ias úteis". Chunk #1, which holds the '
        "part left out, ranks 2 with 0.60, outside the top 1; chunk #0, which holds 25% of "
        "the answer, ranks first with 0.80 (0.20 higher)."
    )


def test_an_answer_split_between_two_chunks_both_sent_is_ok() -> None:
    """Issue 43: both halves reached the context (top_k 2): not a failure of retrieval."""
    result = run(SPLIT_CUTS, [0.8, 0.6])
    assert result.labels == ("ok",)
    assert result.in_context == ((0, 1), (1, 2))
    assert diagnosis_text(result) == (
        'The answer "7 dias úteis" is in the context: #0 at rank 1 and #1 at rank 2; '
        "chunk #0 ranks first with 0.80.")


def test_an_answer_the_scores_send_and_the_index_lost_is_ann_miss_never_ok() -> None:
    """Issue 43, database mode: the labels read what the database's own top_k sent. The
    exact scores rank the answer's chunk #1 first; an approximate index returned #0 and #2
    instead: ann-miss leads, names #1 at exact rank 1, and hit@1 stays the ranking's."""
    from ragviz.evaluation.index_analysis import sent_by

    exact = decide([0.3, 0.8, 0.1], 2, 0.2)
    searched = sent_by(exact, [0, 2])
    assert [h.index for h in searched.hits] == [0]  # #2 scores under the floor: not sent
    result = diagnose(DOC, cut(SENTENCE_CUTS), searched, ANSWERABLE, [None] * 3)
    assert result is not None and result.labels == ("ann-miss",)
    assert result.ann_miss is not None and (result.ann_miss.chunk, result.ann_miss.rank) == (1, 1)
    assert result.answer_rank == 1
    both = diagnose(DOC, cut(SENTENCE_CUTS), sent_by(exact, [1, 0]), ANSWERABLE, [None] * 3)
    assert both is not None and both.labels == ("ok",) and both.ann_miss is None


def test_half_an_answer_the_index_lost_is_ann_miss_then_answer_split() -> None:
    """The exact top 2 sends both halves of a cut answer (ok); the index's top_k only the
    first: what is missing is the index's doing first, the cut second."""
    from ragviz.evaluation.index_analysis import sent_by

    exact = decide([0.8, 0.6], 2, 0.4)
    whole = diagnose(DOC, cut(SPLIT_CUTS), exact, ANSWERABLE, [None] * 2)
    assert whole is not None and whole.labels == ("ok",)
    result = diagnose(DOC, cut(SPLIT_CUTS), sent_by(exact, [0]), ANSWERABLE, [None] * 2)
    assert result is not None and result.labels == ("ann-miss", "answer-split")
    assert result.ann_miss is not None and result.ann_miss.chunk == 1


def test_answer_split_in_portuguese() -> None:
    result = run(SPLIT_CUTS, [0.2, 0.3], floor=0.45)
    assert diagnosis_sentences(result, "pt")[0] == (
        'A resposta "7 dias úteis" fica dividida entre os chunks #0 e #1: nenhum chunk a '
        "contém inteira, então nenhum vetor a carrega completa, e nada dela chegou ao "
        "contexto."
    )


def test_answer_split_over_three_chunks_names_first_and_last() -> None:
    bounds = [(0, A_START + 2), (A_START + 2, A_START + 6), (A_START + 6, len(DOC))]
    result = run(bounds, [0.8, 0.6, 0.5])
    assert "chunks #0 and #2" in diagnosis_text(result)


def test_answer_truncated_when_model_stops_reading_before_the_answer_ends() -> None:
    result = run(SENTENCE_CUTS, [0.5, 0.3, 0.6], truncation=[None, A_START + 4, None])
    assert result.labels == ("answer-truncated",)
    assert result.holding_chunks == (1,)
    assert "chunk #1" in diagnosis_text(result)
    assert "token limit" in diagnosis_text(result)


def test_not_truncated_when_another_holding_chunk_reads_it_all() -> None:
    overlapping = [(0, 37), (11, 37), (38, len(DOC))]  # #0 and #1 both hold the answer
    result = run(overlapping, [0.8, 0.7, 0.1], truncation=[A_START, None, None])
    assert result.labels == ("ok",)


def test_a_truncated_answer_chunk_that_was_sent_is_ok() -> None:
    """The vector missed the answer, but the chunk reached the model whole: ``ok``."""
    result = run(SENTENCE_CUTS, [0.3, 0.8, 0.1], truncation=[None, A_START + 4, None])
    assert result.labels == ("ok",)


def test_outranked_gives_rank_gap_and_what_the_winner_is_about() -> None:
    result = run(SENTENCE_CUTS, [0.2, 0.6, 0.9], top_k=1)
    assert result.labels == ("outranked",)
    assert result.answer_rank == 2
    assert diagnosis_text(result) == (
        "Chunk #1 holds the answer but ranks 2 with 0.60, 0.30 below the winner, chunk #2 "
        '(0.90), which is about "Suporte das 9h às 18h.".'
    )


def test_outranked_winner_named_by_heading_path_when_it_has_one() -> None:
    chunk = Chunk(index=0, start=0, end=10, text=DOC[:10], heading_path=("Política", "Suporte"))
    assert about(chunk) == "Política > Suporte"


def test_about_shortens_long_chunks_to_eight_words() -> None:
    text = "um dois três quatro cinco seis sete oito nove dez"
    assert about(Chunk(0, 0, len(text), text)) == "um dois três quatro cinco seis sete oito…"


def test_below_floor_when_every_score_is_under_it() -> None:
    result = run(SENTENCE_CUTS, [0.2, 0.3, 0.1], floor=0.45)
    assert result.labels == ("below-floor",)
    assert result.answer_rank == 1
    assert diagnosis_text(result) == (
        "Every score is under the floor 0.45: the best is 0.30 for chunk #1, "
        "so the question is refused."
    )


def test_split_and_below_floor_together_with_split_first() -> None:
    result = run(SPLIT_CUTS, [0.2, 0.3], floor=0.45)
    assert result.labels == ("answer-split", "below-floor")
    assert len(diagnosis_sentences(result)) == 2
    assert diagnosis_text(result) == " ".join(diagnosis_sentences(result))


def test_false_context_when_unanswerable_passes_the_floor() -> None:
    result = run(SENTENCE_CUTS, [0.2, 0.5, 0.1], question=UNANSWERABLE)
    assert result.labels == ("false-context",)
    assert "chunk #1 scores 0.50" in diagnosis_text(result)
    assert "may invent an answer" in diagnosis_text(result)


def test_false_context_in_portuguese_names_chunk_and_score() -> None:
    result = run(SENTENCE_CUTS, [0.2, 0.5, 0.1], question=UNANSWERABLE)
    assert "o chunk #1 tem score 0,50" in diagnosis_text(result, "pt")
    assert "piso 0,40" in diagnosis_text(result, "pt")


def test_answer_not_in_document() -> None:
    question = LabelledQuestion("Qual o prazo?", "30 dias corridos")
    result = run(SENTENCE_CUTS, [0.3, 0.8, 0.1], question=question)
    assert result.labels == ("answer-not-in-document",)
    assert result.answer_span is None
    assert '"30 dias corridos"' in diagnosis_text(result)


def test_forgiving_match_is_diagnosed_like_an_exact_one() -> None:
    question = LabelledQuestion("Qual o prazo?", "7 DIAS UTEIS")
    result = run(SENTENCE_CUTS, [0.3, 0.8, 0.1], question=question)
    assert result.labels == ("ok",)
    assert result.answer_span is not None
    assert not result.answer_span.exact
    assert '"7 dias úteis"' in diagnosis_text(result)  # quoted as the document writes it


def test_unlabelled_question_has_no_diagnosis() -> None:
    chunks = cut(SENTENCE_CUTS)
    decision = decide([0.3, 0.8, 0.1], 2, 0.4)
    assert diagnose(DOC, chunks, decision, LabelledQuestion("Oi?"), [None] * 3) is None


def test_answerable_without_expected_answer_checks_only_the_floor() -> None:
    question = LabelledQuestion("Qual o prazo?", "", answerable=True)
    assert run(SENTENCE_CUTS, [0.3, 0.8, 0.1], question=question).labels == ("ok",)
    assert run(SENTENCE_CUTS, [0.3, 0.3, 0.1], question=question).labels == ("below-floor",)


OTHER = "Prazos de entrega. A entrega leva 3 dias úteis."
TWO_FILES = Corpus((Source("politica.txt", DOC), Source("entrega.txt", OTHER)))


def run_two_files(scores: Sequence[float], floor: float = 0.4, top_k: int = 1) -> Diagnosis:
    """DOC's three sentence chunks (#0-#2) then OTHER as one chunk (#3), indices global."""
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(OTHER), OTHER, source="entrega.txt"))
    result = diagnose(TWO_FILES, chunks, decide(scores, top_k, floor), ANSWERABLE, [None] * 4)
    assert result is not None
    return result


def test_a_winner_from_another_file_is_its_own_label() -> None:
    result = run_two_files([0.3, 0.6, 0.1, 0.9])
    assert result.labels == ("outranked-by-other-document",)
    assert result.answer_span is not None and result.answer_span.source == "politica.txt"
    assert result.outranked is not None
    assert (result.outranked.source, result.outranked.winner_source) == (
        "politica.txt", "entrega.txt")
    assert diagnosis_text(result) == (
        "Chunk #1 of politica.txt holds the answer but ranks 2 with 0.60, 0.30 below the "
        "winner, chunk #3 of another file, entrega.txt (0.90), which is about "
        '"Prazos de entrega. A entrega leva 3 dias…".'
    )
    assert "de outro arquivo, entrega.txt" in diagnosis_text(result, "pt")


def test_a_winner_from_the_same_file_stays_outranked_in_a_corpus() -> None:
    result = run_two_files([0.7, 0.6, 0.1, 0.2])
    assert result.labels == ("outranked",)
    assert result.holding_chunks == (1,)


def test_an_answer_in_no_file_says_so_for_the_whole_corpus() -> None:
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(OTHER), OTHER, source="entrega.txt"))
    question = LabelledQuestion("Qual o frete?", "frete grátis")
    result = diagnose(TWO_FILES, chunks, decide([0.3, 0.6, 0.1, 0.9], 2, 0.4), question,
                      [None] * 4)
    assert result is not None and result.labels == ("answer-not-in-document",)
    assert "not in any of the 2 files" in diagnosis_text(result)
    assert "em nenhum dos 2 arquivos" in diagnosis_text(result, "pt")


def test_the_same_words_in_the_other_file_are_not_the_answer() -> None:
    """"3 dias úteis" is only in entrega.txt: its chunk holds it, DOC's chunks do not."""
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(OTHER), OTHER, source="entrega.txt"))
    question = LabelledQuestion("Quanto leva a entrega?", "3 dias úteis")
    result = diagnose(TWO_FILES, chunks, decide([0.3, 0.6, 0.1, 0.9], 2, 0.4), question,
                      [None] * 4)
    assert result is not None and result.labels == ("ok",)
    assert result.holding_chunks == (3,)


def reranked_out() -> Diagnosis:
    """The first stage had the answer's chunk #1 first; a reranker put it second, top_k 1."""
    result = with_first_stage(run(SENTENCE_CUTS, [0.2, 0.6, 0.9], top_k=1),
                              decide([0.2, 0.9, 0.3], 1, 0.4))
    assert result is not None
    return result


def test_every_label_has_a_diagnosis_case_above() -> None:
    built = {
        run(SENTENCE_CUTS, [0.3, 0.8, 0.1]).primary,
        run(SPLIT_CUTS, [0.8, 0.6], top_k=1).primary,
        run(SENTENCE_CUTS, [0.5, 0.3, 0.6], truncation=[None, A_START, None]).primary,
        run(SENTENCE_CUTS, [0.2, 0.6, 0.9], top_k=1).primary,
        run(SENTENCE_CUTS, [0.2, 0.3, 0.1], floor=0.45).primary,
        run(SENTENCE_CUTS, [0.2, 0.5, 0.1], question=UNANSWERABLE).primary,
        run(SENTENCE_CUTS, [0.3, 0.8, 0.1], question=LabelledQuestion("?", "xyz")).primary,
        run_two_files([0.3, 0.6, 0.1, 0.9]).primary,
        crowded([0.3, 0.8, 0.75], (-1, 1, 1)).labels[-1],
        reranked_out().primary,
    }
    # ann-miss comes from a database's exact check, not from diagnose(): its case is a real
    # HNSW index in tests/test_index_pgvector.py (test_ann_miss_on_a_real_hnsw_index...)
    assert built | {"ann-miss"} == set(LABELS)


def test_label_counts_count_every_label_and_skip_unlabelled() -> None:
    diagnoses = [
        run(SPLIT_CUTS, [0.2, 0.3], floor=0.45),
        run(SENTENCE_CUTS, [0.3, 0.8, 0.1]),
        None,
    ]
    counts = label_counts(diagnoses)
    assert list(counts) == list(LABELS)
    assert counts["answer-split"] == 1
    assert counts["below-floor"] == 1
    assert counts["ok"] == 1
    assert sum(counts.values()) == 3


def test_sentences_name_the_file_of_a_chunk_when_there_are_several() -> None:
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(OTHER), OTHER, source="entrega.txt"))
    ok = diagnose(TWO_FILES, chunks, decide([0.3, 0.8, 0.1, 0.2], 2, 0.4), ANSWERABLE,
                  [None] * 4)
    assert ok is not None and ok.best_source == "politica.txt"
    assert diagnosis_text(ok).startswith("Chunk #1 (politica.txt) holds the answer")
    false = diagnosis_text(run_unanswerable_two_files([0.3, 0.5, 0.1, 0.6]))
    assert false.startswith("No file answers this, yet chunk #3 (entrega.txt) scores 0.60")
    refused = run_unanswerable_two_files([0.3, 0.2, 0.1, 0.1])
    assert diagnosis_text(refused, "pt").startswith("Nenhum arquivo responde a isto e a busca")
    assert "(" not in diagnosis_text(run(SENTENCE_CUTS, [0.3, 0.8, 0.1]))


def run_unanswerable_two_files(scores: Sequence[float]) -> Diagnosis:
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(OTHER), OTHER, source="entrega.txt"))
    result = diagnose(TWO_FILES, chunks, decide(scores, 2, 0.4), UNANSWERABLE, [None] * 4)
    assert result is not None
    return result


# Issue 19, high 3: which label a ranking earns, every case. The answer is in chunk #1 of
# politica.txt; the winner is #0 (same file) or #3 (entrega.txt). "in top_k" and "above
# floor" are about the answer's chunk. The primary label names what to change: the floor
# when the answer's chunk is inside top_k but under it (raising top_k changes nothing).
PRECEDENCE = [
    # rank, in top_k, above floor, winner's file, labels
    (1, True, True, "-", ("ok",)),
    (1, True, False, "-", ("below-floor",)),
    (2, True, True, "same", ("ok",)),  # in the context at rank 2: not a failure
    (2, True, True, "other", ("ok",)),
    (2, True, False, "same", ("below-floor",)),  # inside top_k, only the floor kept it out
    (2, True, False, "other", ("below-floor",)),
    (2, False, True, "same", ("outranked",)),
    (2, False, True, "other", ("outranked-by-other-document",)),
    (2, False, False, "same", ("outranked", "below-floor")),
    (2, False, False, "other", ("outranked-by-other-document", "below-floor")),
]


@pytest.mark.parametrize(("rank", "in_top_k", "above", "winner_file", "labels"), PRECEDENCE)
def test_label_precedence_table(
    rank: int, in_top_k: bool, above: bool, winner_file: str, labels: tuple[str, ...]
) -> None:
    winner = 3 if winner_file == "other" else 0
    scores = [0.1, 0.6, 0.1, 0.1]
    if rank == 2:
        scores[winner] = 0.9
    floor = 0.4 if above else 0.7
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(OTHER), OTHER, source="entrega.txt"))
    decision = decide(scores, 2 if in_top_k else 1, floor)
    assert decision.rank_of(1) == rank
    result = diagnose(TWO_FILES, chunks, decision, ANSWERABLE, [None] * 4)
    assert result is not None and result.labels == labels
    sentences = diagnosis_sentences(result)
    assert len(sentences) == len(labels)
    if labels[0] == "below-floor" and rank == 2:  # the floor named, not top_k as the fix
        assert "under the floor 0.70" in sentences[0]
        assert "a larger top_k changes nothing" in sentences[0]


def test_an_answer_inside_top_k_under_the_floor_names_the_floor_and_the_gap() -> None:
    """The issue's case: top_k 2, floor 0.42, the answer's chunk ranks 2 with 0.35."""
    result = run(SENTENCE_CUTS, [0.5, 0.35, 0.1], floor=0.42, top_k=2)
    assert result.primary == "below-floor"
    text = diagnosis_sentences(result)[0]
    assert "0.07 under the floor 0.42" in text and "#1" in text and "top_k" in text
    assert "0,07 abaixo do piso 0,42" in diagnosis_sentences(result, "pt")[0]


def test_a_labelled_excerpt_is_diagnosed_where_its_offsets_put_it() -> None:
    """Its words also stand in another file, whose chunk ranks first: that chunk is not the
    labelled excerpt (before issue 20's fast path, the diagnosis took the best-ranked
    occurrence of the words anywhere and said "ok")."""
    copy = "Antigo: O prazo é de 7 dias úteis."
    corpus = Corpus((Source("politica.txt", DOC), Source("copia.txt", copy)))
    chunks = [replace(c, source="politica.txt") for c in cut(SENTENCE_CUTS)]
    chunks.append(Chunk(3, 0, len(copy), copy, source="copia.txt"))
    question = LabelledQuestion("Qual o prazo do reembolso?", references=(
        Reference(ANSWER, A_START, A_END, "politica.txt"),))
    result = diagnose(corpus, chunks, decide([0.3, 0.6, 0.1, 0.9], 1, 0.4), question,
                      [None] * 4)
    assert result is not None and result.labels == ("outranked-by-other-document",)
    assert result.answer_span == AnswerSpan(A_START, A_END, True, "politica.txt")
    assert result.holding_chunks == (1,) and result.answer_rank == 2


def crowded(scores: Sequence[float], groups: Sequence[int], top_k: int = 2) -> Diagnosis:
    decision = decide(scores, top_k, 0.4)
    chunks = cut(SENTENCE_CUTS)
    result = with_crowding(diagnose(DOC, chunks, decision, ANSWERABLE, [None] * 3),
                           decision, groups)
    assert result is not None
    return result


def test_copies_in_the_top_k_add_duplicate_crowding_after_ok() -> None:
    """#1 and #2 are copies (group 1) and take both places of the top 2: the answer is
    still right (ok leads, ``ok`` holds) but the note names the copies."""
    result = crowded([0.3, 0.8, 0.75], (-1, 1, 1))
    assert result.labels == ("ok", "duplicate-crowding") and result.ok
    assert result.crowding == (1, 2)
    assert diagnosis_sentences(result)[1] == (
        "Copies of the same passage (chunks #1, #2) take 2 places of the top 2, "
        "crowding out other passages.")
    assert "duplicatas" not in diagnosis_text(result, "pt")
    assert "Cópias do mesmo trecho (os chunks #1, #2)" in diagnosis_text(result, "pt")
    assert result.to_dict()["duplicate_crowding"] == [1, 2]


@pytest.mark.parametrize(("scores", "groups", "top_k"), [
    ([0.3, 0.8, 0.75], (-1, -1, -1), 2),  # no copies
    ([0.3, 0.8, 0.75], (-1, 1, 1), 1),  # the copy is outside the top 1
    ([0.7, 0.8, 0.1], (0, -1, 0), 2),  # #0 is in the top 2, its copy #2 is not
    ([0.3, 0.8, 0.75], (), 2),  # no groups given (not an index)
    ([0.3, 0.8, 0.35], (-1, 1, 1), 2),  # the copy #2 is in the top 2 but under the floor
])
def test_no_crowding_without_two_copies_in_the_top_k(
        scores: list[float], groups: tuple[int, ...], top_k: int) -> None:
    result = crowded(scores, groups, top_k)
    assert "duplicate-crowding" not in result.labels and result.crowding == ()


@pytest.mark.parametrize(("database_top", "copies"), [
    ([1, 0], ()),  # the exact top 2 holds both copies; the database sent one of them
    ([2, 1], (2, 1)),  # the database's own order, both copies sent
])
def test_crowding_reads_the_database_top_k_in_database_mode(
        database_top: list[int], copies: tuple[int, ...]) -> None:
    """In database mode the context is the database's top_k (``sent_by``), and so is the
    crowding: copies the exact ranking puts first but the database did not send crowd
    nothing (before, the exact top_k was read)."""
    exact = decide([0.5, 0.8, 0.75], 2, 0.4)
    sent = sent_by(exact, database_top)
    result = with_crowding(diagnose(DOC, cut(SENTENCE_CUTS), sent, ANSWERABLE, [None] * 3),
                           sent, (-1, 1, 1))
    assert result is not None and result.crowding == copies
    assert ("duplicate-crowding" in result.labels) == bool(copies)


def test_crowding_follows_a_failure_label() -> None:
    """#0 and #2 are copies ranking above the answer's chunk #1 (outranked, and under
    the floor too): the note comes after every other label."""
    result = crowded([0.8, 0.3, 0.75], (0, -1, 0))
    assert result.labels == ("outranked", "below-floor", "duplicate-crowding")
    assert not result.ok


# Issue 43: labels and token recall read the same context, for any document, chunking,
# ranking, top_k, floor, --expand and excerpts. Checked against an independent count of
# the characters the context's chunks cover.
LETTERS = st.text(alphabet="abcde .\n", min_size=20, max_size=300)


@st.composite
def labelled_cases(draw: st.DrawFn) -> tuple[str, list[Chunk], list[float], LabelledQuestion,
                                              int, float, int]:
    document = draw(LETTERS.filter(lambda text: len(text.strip()) >= 10))
    size = draw(st.integers(8, 80))
    overlap = draw(st.integers(0, size // 2))
    chunker = draw(st.sampled_from(["fixed", "recursive"]))
    config = ChunkerConfig.create(chunker, size=size, overlap=overlap)
    chunks = list(make_chunks(document, config).chunks)
    references = []
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(document) - 1))
        end = draw(st.integers(start + 1, min(len(document), start + 60)))
        if document[start:end].strip():
            references.append(Reference(document[start:end], start, end))
    assume(references)
    scores = draw(st.lists(st.floats(0, 1), min_size=len(chunks), max_size=len(chunks)))
    question = LabelledQuestion("?", references=tuple(references))
    return (document, chunks, scores, question, draw(st.integers(1, 6)),
            draw(st.sampled_from([0.0, 0.3, 0.6])), draw(st.integers(0, 2)))


def covered_characters(chunks: Sequence[Chunk], context: Sequence[int]) -> set[int]:
    return {o for c in chunks if c.index in context for o in range(c.start, c.end)}


def every_excerpt_sent(document: str, chunks: list[Chunk], question: LabelledQuestion,
                       decision: Decision, expand: int) -> bool:
    """Every character of every excerpt lies in the context sent (hits and --expand)."""
    context = [h.index for h in with_neighbours(chunks, decision, expand)[0]]
    sent = covered_characters(chunks, context)
    return all(set(range(e.start, e.end)) <= sent
               for e in question_excerpts(as_corpus(document), question, None))


@settings(max_examples=150, deadline=None)
@given(labelled_cases())
def test_no_failure_label_with_recall_1_and_no_ok_with_a_character_missing(
        case: tuple[str, list[Chunk], list[float], LabelledQuestion, int, float, int]) -> None:
    document, chunks, scores, question, top_k, floor, expand = case
    decision = decide(scores, top_k, floor)
    truncation = [None] * len(chunks)
    found = question_outcome(as_corpus(document), ChunkTable.of(chunks), question, decision,
                             truncation, expand)
    assert found.diagnosis is not None and found.tokens is not None
    every = every_excerpt_sent(document, chunks, question, decision, expand)
    ok = found.diagnosis.primary == "ok"
    assert ok == every
    assert ok == (found.tokens.recall == 1.0)
    assert found.diagnosis.labels[0] in LABELS
    diagnosis_text(found.diagnosis)  # every label of every case has its sentence


@settings(max_examples=100, deadline=None)
@given(labelled_cases(), st.randoms(use_true_random=False))
def test_labels_read_the_hits_another_search_returned(
        case: tuple[str, list[Chunk], list[float], LabelledQuestion, int, float, int],
        chance: Any) -> None:
    """Database mode (issue 43): the hits are an approximate index's top_k, any chunks,
    not the top_k of the scores. Still ``ok`` exactly when every excerpt character was
    sent (recall 1), and where the scores' own top_k sent every excerpt and the index's
    did not, ``ann-miss`` leads (without --expand, which may bring a part from outside)."""
    from ragviz.evaluation.index_analysis import sent_by

    document, chunks, scores, question, top_k, floor, expand = case
    exact = decide(scores, top_k, floor)
    searched = sent_by(exact, chance.sample(range(len(chunks)), min(top_k, len(chunks))))
    table, truncation = ChunkTable.of(chunks), [None] * len(chunks)
    found = question_outcome(as_corpus(document), table, question, searched, truncation, expand)
    assert found.diagnosis is not None and found.tokens is not None
    every = every_excerpt_sent(document, chunks, question, searched, expand)
    ok = found.diagnosis.primary == "ok"
    assert ok == every == (found.tokens.recall == 1.0)
    assert found.diagnosis.labels and set(found.diagnosis.labels) <= set(LABELS)
    whole = question_outcome(as_corpus(document), table, question, exact, truncation, expand)
    if expand == 0 and whole.diagnosis is not None and whole.diagnosis.ok and not ok:
        assert found.diagnosis.primary == "ann-miss", found.diagnosis.labels
    diagnosis_text(found.diagnosis)


def test_a_round_gap_is_not_written_as_a_thousand() -> None:
    """Issue 43: "3.000 below" (reranker scores, three decimals for the floor 1.999) read as
    three thousand; the gap drops its trailing zeros down to two decimals."""
    result = run(SENTENCE_CUTS, [5.0, 2.0, 0.5], floor=1.999, top_k=1)
    text = diagnosis_text(result)
    assert "ranks 2 with 2.000, 3.00 below the winner, chunk #0 (5.000)" in text
    assert "3,00 abaixo do vencedor" in diagnosis_text(result, "pt")
