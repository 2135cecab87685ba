"""The research benchmark's shape, whole: five files of 40,000 to 737,905 characters, questions
in Chroma's ``question,references,corpus_id`` format with one or two excerpts each. Every file
loads, every question is evaluated, and the token measures equal Chroma's definitions
(``chunking_evaluation``: recall, precision, IoU over character ranges) computed here
independently, character by character with sets; a chunk holding *any* expected excerpt is
an answer's chunk (hit@1, hit@k, MRR, the labels and the outlines)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark_corpus import SIZES, write_benchmark_corpus
from chroma_questions import chroma_questions

from ragviz.chunking.base import make_chunk
from ragviz.evaluation.diagnosis import (
    ANSWER_SPLIT,
    OK,
    OUTRANKED,
    OUTRANKED_BY_OTHER_DOCUMENT,
    diagnose,
)
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion, Reference
from ragviz.retrieval.decision import decide

TOP_K = 5
QUESTIONS = 120


@pytest.fixture(scope="module")
def benchmark(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    folder = tmp_path_factory.mktemp("benchmark")
    write_benchmark_corpus(folder)
    questions = folder.parent / "questions.csv"
    questions.write_text(chroma_questions(folder, QUESTIONS), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "ragviz.cli", "eval", str(folder), "--questions", str(questions),
         "--chunker", "fixed", "--size", "2000", "--overlap", "0", "--top-k", str(TOP_K),
         "--json"], capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout), run.stderr


def test_every_file_of_the_benchmark_loads_and_every_question_is_evaluated(
        benchmark: tuple[dict[str, Any], str]) -> None:
    result, stderr = benchmark
    assert {s["name"]: s["chars"] for s in result["sources"]} == SIZES
    assert {c["source"] for c in result["chunk_list"]} == set(SIZES)
    assert len(result["questions"]) == QUESTIONS
    assert "skipped" not in stderr and "left out" not in stderr


def _chars(ranges: list[tuple[str, int, int]]) -> set[tuple[str, int]]:
    return {(source, i) for source, start, end in ranges for i in range(start, end)}


def _chroma_measures(chunks: list[tuple[str, int, int]],
                     excerpts: list[tuple[str, int, int]]) -> tuple[float, float, float]:
    """recall, precision and IoU as chunking_evaluation defines them: the excerpts' characters
    found in the retrieved chunks, over the excerpts', over every retrieved chunk's length
    (each counted whole), and over those lengths plus the excerpt characters missed."""
    wanted = _chars(excerpts)
    found = wanted & _chars(chunks)
    retrieved = sum(end - start for _, start, end in chunks)
    return (len(found) / len(wanted), len(found) / retrieved,
            len(found) / (retrieved + len(wanted - found)))


def test_token_measures_equal_chromas_definitions_on_every_question(
        benchmark: tuple[dict[str, Any], str]) -> None:
    result, _ = benchmark
    span = {c["index"]: (c["source"], c["start"], c["end"]) for c in result["chunk_list"]}
    means = {"recall": 0.0, "precision": 0.0, "iou": 0.0}
    for question in result["questions"]:
        retrieved = [span[hit["index"]] for hit in question["hits"]]
        assert len(retrieved) == TOP_K
        excerpts = [(r["source"], r["start_index"], r["end_index"])
                    for r in question["references"]]
        expected = _chroma_measures(retrieved, excerpts)
        got = (question["recall"], question["precision"], question["iou"])
        assert got == pytest.approx(expected, abs=1e-12), question["question"]
        for name, value in zip(means, expected, strict=True):
            means[name] += value / len(result["questions"])
    for name, value in means.items():
        assert result["metrics"][name] == pytest.approx(value, abs=1e-12)


def test_a_chunk_holding_any_excerpt_ranks_and_ok_needs_every_excerpt_sent(
        benchmark: tuple[dict[str, Any], str]) -> None:
    result, _ = benchmark
    span = {c["index"]: (c["source"], c["start"], c["end"]) for c in result["chunk_list"]}
    two = [q for q in result["questions"] if len(q["references"]) == 2]
    assert len(two) >= QUESTIONS // 3
    for question in result["questions"]:
        excerpts = [(r["source"], r["start_index"], r["end_index"])
                    for r in question["references"]]

        def holds(index: int, excerpts: list[tuple[str, int, int]] = excerpts) -> bool:
            source, start, end = span[index]
            return any(s == source and start <= a and b <= end for s, a, b in excerpts)

        holding = sorted(i for i in span if holds(i))
        assert question["diagnosis"]["holding_chunks"] == holding, question["question"]
        ranks = [n for n, hit in enumerate(question["hits"], start=1) if holds(hit["index"])]
        if ranks:  # inside the top_k: the rank is the first holding hit's, whichever excerpt
            assert question["diagnosis"]["answer_rank"] == ranks[0], question["question"]
        sent = {(source, o) for hit in question["hits"]  # issue 43: the context decides
                for source, start, end in [span[hit["index"]]] for o in range(start, end)}
        every = all((s, o) in sent for s, a, b in excerpts for o in range(a, b))
        assert (question["labels"][0] == OK) == every, question["question"]
    hit_at_k = sum(1 for q in result["questions"] if (q["diagnosis"]["answer_rank"] or 99) <= TOP_K)
    assert result["metrics"]["hit_at_k"] == pytest.approx(hit_at_k / len(result["questions"]))


# A hand-made case of the report: excerpt 1 in chunk #0 ranks 4th, while the top
# chunk #3 holds excerpt 2. Scores written by hand: the test is about the labels.
A = "First part. The refund takes seven days. Filler text here. More filler words."
B = "Second file. Refunds are paid to the card used. Other things follow here."
EXCERPT_1 = "The refund takes seven days."
EXCERPT_2 = "Refunds are paid to the card used."


def _two_files() -> tuple[Corpus, list[Any]]:
    corpus = Corpus((Source("a.txt", A), Source("b.txt", B)))
    cuts = [("a.txt", A, 0, 41), ("a.txt", A, 41, len(A)), ("b.txt", B, 0, 12),
            ("b.txt", B, 12, len(B))]
    chunks = [make_chunk(text, i, start, end, source=name)
              for i, (name, text, start, end) in enumerate(cuts)]
    return corpus, chunks


def _question(*excerpts: tuple[str, str, str]) -> LabelledQuestion:
    references = tuple(Reference(content, text.index(content), text.index(content) + len(content),
                                 name) for name, text, content in excerpts)
    return LabelledQuestion("How are refunds paid, and when?", "", references=references)


def test_the_top_chunk_holding_the_second_excerpt_does_not_send_the_first() -> None:
    """Issue 43: the question is ``ok`` only once excerpt 1's chunk #0 is sent too (the
    rank hit@1 and MRR read stays the best holding chunk's, #3's)."""
    corpus, chunks = _two_files()
    question = _question(("a.txt", A, EXCERPT_1), ("b.txt", B, EXCERPT_2))
    scores = [0.2, 0.3, 0.25, 0.9]
    diagnosis = diagnose(corpus, chunks, decide(scores, top_k=2, floor=0.0), question,
                         [None] * 4)
    assert diagnosis is not None
    assert diagnosis.labels == (OUTRANKED_BY_OTHER_DOCUMENT,)
    assert (diagnosis.missing_excerpt, diagnosis.answer) == (1, EXCERPT_1)
    assert diagnosis.outranked is not None and diagnosis.outranked.chunk == 0
    assert diagnosis.answer_rank == 1
    assert diagnosis.holding_chunks == (0, 3)
    every = diagnose(corpus, chunks, decide(scores, top_k=4, floor=0.0), question, [None] * 4)
    assert every is not None and every.labels == (OK,)


def test_an_excerpt_cut_between_chunks_with_one_part_sent_is_split() -> None:
    corpus, chunks = _two_files()
    cut = "Second file. Refunds"  # crosses the b.txt cut at 12
    question = _question(("b.txt", B, cut), ("a.txt", A, EXCERPT_1))
    diagnosis = diagnose(corpus, chunks, decide([0.2, 0.3, 0.9, 0.25], top_k=1, floor=0.0),
                         question, [None] * 4)
    assert diagnosis is not None
    assert diagnosis.labels == (ANSWER_SPLIT, OUTRANKED)
    assert (diagnosis.part_sent, diagnosis.part_missing) == ("Second file.", "Refunds")
    assert diagnosis.outranked is not None and diagnosis.outranked.winner_share == 0.6
    assert diagnosis.holding_chunks == (0,)
