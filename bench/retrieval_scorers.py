"""What the lexical and fused scorers cost (issue 33's speed goals), each next to a peer in
the same run, on varied real text (the samples, then installed packages' documentation: never
one text repeated).

- BM25: ragviz's ``bm25`` (bm25s on sparse matrices) indexing 10,000 chunks of 200 characters
  and scoring 1,000 questions, beyond tokenizing, next to ``rank_bm25``'s BM25Okapi (the
  usual pure-Python choice) on the same tokens (timed on ``--peer-questions`` questions and
  scaled to all, said so);
- hybrid against dense: the pipeline after embedding (scores, decisions, diagnoses) with
  ``cosine`` and with ``hybrid``, and the same with the embedding included;
- sentence-max at depth 20: seconds per question, its sentences embedded cold.

    .venv/bin/python bench/retrieval_scorers.py [--chunks 10000] [--questions 1000]
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable

import numpy as np
from chunker_peers import varied_corpus
from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.embedding.models import EmbeddingCache, load_embedder
from ragviz.evaluation.pipeline import (
    analyse,
    analyse_chunked,
    chunk_document,
    embed_chunks,
    encode_questions,
)
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.corpus import as_corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import get_scorer

SENTENCE = re.compile(r"[A-Z][^.!?\n]{40,200}[.!?]")


def median_time(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def questions_from(text: str, count: int) -> list[str]:
    """Questions made of a few words of the corpus's own sentences (seeded)."""
    sentences = SENTENCE.findall(text)
    rng = random.Random(33)
    picked = rng.sample(sentences, min(count, len(sentences)))
    return [" ".join(rng.sample(s.split(), min(6, len(s.split())))) + "?" for s in picked]


def bench_bm25(chunk_texts: list[str], questions: list[str], peer_questions: int,
               repeats: int) -> None:
    import bm25s
    from rank_bm25 import BM25Okapi

    scorer = get_scorer("bm25")
    chunks = make_chunks("\n".join(chunk_texts), ChunkerConfig("fixed", size=200, overlap=0)).chunks
    empty = np.zeros((len(questions), 1), dtype=np.float32)
    tokenize = median_time(lambda: (
        bm25s.tokenize([c.text for c in chunks], stopwords=None, show_progress=False),
        bm25s.tokenize(questions, stopwords=None, return_ids=False, show_progress=False)),
        repeats)
    ours = median_time(lambda: scorer.score_rows(scorer.prepare(chunks, empty), questions,
                                                 empty), repeats)
    corpus_tokens = bm25s.tokenize([c.text for c in chunks], stopwords=None, return_ids=False,
                                   show_progress=False)
    query_tokens = bm25s.tokenize(questions[:peer_questions], stopwords=None, return_ids=False,
                                  show_progress=False)

    def peer() -> None:
        index = BM25Okapi(corpus_tokens)
        for words in query_tokens:
            index.get_scores(words)

    peer_time = median_time(peer, 1) * len(questions) / len(query_tokens)
    beyond = ours - tokenize
    print(f"bm25, {len(chunks):,} chunks x {len(questions):,} questions: ragviz {ours:.2f} s "
          f"in all, tokenizing {tokenize:.2f} s, beyond tokenizing {beyond:.2f} s (goal <= 1 s)")
    print(f"  rank_bm25 BM25Okapi on the same tokens (no tokenizing): {peer_time:.1f} s "
          f"(timed on {len(query_tokens)} questions, scaled); ragviz beyond tokenizing is "
          f"{peer_time / max(beyond, 1e-9):.0f}x faster")


def bench_hybrid(text: str, questions: list[LabelledQuestion], repeats: int) -> None:
    embedder = load_embedder("use-multilingual", cache=EmbeddingCache())
    config = ChunkerConfig("fixed", size=200, overlap=0)
    began = time.perf_counter()
    analyse(text, config, embedder, questions, RetrievalSettings(5, -1.0))
    cold = time.perf_counter() - began
    chunking = chunk_document(text, config, embedder)
    vectors = embed_chunks(chunking, embedder)
    query = encode_questions(embedder, questions)

    def after(scorer: str) -> float:
        return median_time(lambda: analyse_chunked(
            as_corpus(text), config, embedder, questions, chunking, vectors, query,
            RetrievalSettings(5, get_scorer(scorer).scale.low, scorer)), repeats)

    dense, hybrid = after("cosine"), after("hybrid")
    print(f"hybrid against dense, {len(chunking.chunks):,} chunks x {len(questions)} questions: "
          f"after embedding cosine {dense:.2f} s, hybrid {hybrid:.2f} s "
          f"(+{(hybrid - dense) / dense:.0%}); with the cold embedding ({cold:.1f} s) hybrid "
          f"adds {(hybrid - dense) / cold:.1%} (goal <= 10 %)")


def bench_sentence_max(text: str, questions: list[LabelledQuestion]) -> None:
    embedder = load_embedder("use-multilingual", cache=EmbeddingCache())
    config = ChunkerConfig("fixed", size=800, overlap=0)
    chunking = chunk_document(text, config, embedder)
    vectors = embed_chunks(chunking, embedder)
    query = encode_questions(embedder, questions)
    began = time.perf_counter()
    analyse_chunked(as_corpus(text), config, embedder, questions, chunking, vectors, query,
                    RetrievalSettings(5, -1.0, "cosine+rerank(sentence-max,depth=20)"))
    spent = time.perf_counter() - began
    print(f"sentence-max at depth 20, chunks of 800 characters, sentences embedded cold: "
          f"{spent / len(questions) * 1000:.0f} ms per question ({len(questions)} questions)")


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--questions", type=int, default=1_000)
    parser.add_argument("--peer-questions", type=int, default=50)
    args = parser.parse_args()
    chunks, questions, repeats = (args.chunks, args.questions, 3) if not args.smoke \
        else (200, 20, 1)
    with on_machine(args.smoke):
        parts, described = varied_corpus(chunks * 200 / 1_000_000 * 1.1)
        text = "\n\n".join(parts)
        print(f"text: {len(text):,} characters, {described}")
        asked = questions_from(text, questions)
        bench_bm25([text[i:i + 200] for i in range(0, chunks * 200, 200)], asked,
                   min(args.peer_questions, len(asked)), repeats)
        small = text[: (20_000 if args.smoke else 400_000)]
        labelled = [LabelledQuestion(q) for q in questions_from(small, 10 if args.smoke
                                                                 else 200)]
        bench_hybrid(small, labelled, repeats)
        bench_sentence_max(small, labelled[: 5 if args.smoke else 50])


if __name__ == "__main__":
    main()
