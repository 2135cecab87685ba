"""Database retrieval on a Chroma server (issue 21, part 8): 50 labelled questions diagnosed
against a 300,000-chunk collection of 384-dimension vectors served by ``chroma run``, in the
mode where the database retrieves (``query`` for top_k plus a margin, ``$contains`` for the
chunks holding each expected answer) and ragviz diagnoses only what came back.

The collection is real varied text (the sample documents, then site-packages' documentation
and docstrings, as in ``chunker_peers.py``) cut on spaces into ~150-character chunks, with
random-but-realistic unit vectors: each source document has a random topic direction, and
its chunks scatter around it (cosine ~0.5 with their topic), so neighbours are the same
document, as with a real model. The 50 questions' own chunks carry all-MiniLM-L6-v2 vectors
of their text (the model ragviz embeds the questions with), so each question has a real
nearest chunk among 300,000. Built once and cached under ``--cache`` (reruns reuse it).

Printed: the time per question spent in the database (query and text filter, measured in
the client) and the rest (ragviz's: embedding the questions, placing, re-embedding the few
chunks fetched, diagnosing); goal here <= 0.2 s per question beyond the database's query.
Peak RSS of ragviz's process and the server's RSS. Nothing asserted.
Usage: ``python bench/index_server.py [--chunks N] [--questions Q] [--cache DIR] [--smoke]``
(``--smoke``: 2,000 chunks, 5 questions, a temporary cache)."""

from __future__ import annotations

import csv
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from chunker_peers import varied_corpus
from machine import bench_parser, on_machine

DIMENSION = 384
BATCH = 5_000
CHUNK_CHARS = 150
MODEL = "minilm-en"
COLLECTION = "bench"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ragviz-bench"


def chunk_texts(count: int, smoke: bool) -> tuple[list[str], list[int]]:
    """``count`` distinct chunks of real text and the document each comes from."""
    parts, described = varied_corpus(1 if smoke else 60)
    print(f"text: {described}", flush=True)
    texts: list[str] = []
    documents: list[int] = []
    shift = 0
    while len(texts) < count:  # past the corpus, cut it again with shifted boundaries
        for number, part in enumerate(parts):
            for piece in _pieces(part[shift:]):
                texts.append(piece)
                documents.append(number)
        shift += CHUNK_CHARS // 3
    return texts[:count], documents[:count]


def _pieces(text: str) -> Iterator[str]:
    """Cuts on spaces into pieces of about ``CHUNK_CHARS`` characters."""
    start = 0
    while start < len(text):
        end = text.find(" ", start + CHUNK_CHARS)
        end = len(text) if end < 0 else end
        piece = text[start:end].strip()
        if len(piece) > 40:
            yield piece
        start = end + 1


def topic_vectors(documents: list[int]) -> np.ndarray:
    """A unit vector per chunk near its document's random topic direction."""
    rng = np.random.default_rng(21)
    topics = rng.normal(size=(max(documents) + 1, DIMENSION)).astype(np.float32)
    topics /= np.linalg.norm(topics, axis=1, keepdims=True)
    noise = rng.normal(size=(len(documents), DIMENSION)).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    vectors = topics[np.asarray(documents)] + noise
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def question_rows(texts: list[str], count: int) -> list[tuple[int, str, str]]:
    """(chunk, question, expected answer): the chunk's first words ask; the answer is four
    words from its middle copied exactly as the text writes them (spacing included), as a
    person labelling from the text would, so the database's exact filter finds them."""
    rows = []
    for chunk in np.linspace(0, len(texts) - 1, count).astype(int).tolist():
        text = texts[chunk]
        words = list(re.finditer(r"\S+", text))
        middle = max(0, len(words) // 2 - 2)
        picked = words[middle:middle + 4]
        answer = text[picked[0].start():picked[-1].end()]
        rows.append((chunk, " ".join(w.group() for w in words[:10]) + "?", answer))
    return rows


def write_questions(path: Path, rows: list[tuple[int, str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer"])
        writer.writerows((question, answer) for _, question, answer in rows)


def build(folder: Path, count: int, questions: int, smoke: bool) -> Path:
    """The collection and the questions' CSV in ``folder`` (reused when already built)."""
    questions_csv = folder / "questions.csv"
    if questions_csv.is_file():
        print(f"collection reused from {folder}", flush=True)
        return questions_csv
    import chromadb

    from ragviz.embedding.models import load_embedder

    shutil.rmtree(folder / "chroma", ignore_errors=True)  # a build that stopped half-way
    started = time.perf_counter()
    texts, documents = chunk_texts(count, smoke)
    vectors = topic_vectors(documents)
    rows = question_rows(texts, questions)
    own = [chunk for chunk, _, _ in rows]
    vectors[own] = load_embedder(MODEL).encode_documents([texts[c] for c in own])
    collection = chromadb.PersistentClient(path=str(folder / "chroma")).get_or_create_collection(
        COLLECTION, embedding_function=None, metadata={"hnsw:space": "cosine"})
    for low in range(0, count, BATCH):
        high = min(count, low + BATCH)
        collection.add(ids=[f"c{i}" for i in range(low, high)], documents=texts[low:high],
                       embeddings=vectors[low:high],
                       metadatas=[{"source": f"doc{d}.txt"} for d in documents[low:high]])
    write_questions(questions_csv, rows)
    print(f"built {count:,} chunks in {time.perf_counter() - started:.0f} s "
          f"(not ragviz's time) in {folder}", flush=True)
    return questions_csv


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``chroma run`` over the cached directory, once it answers."""
    chroma = Path(sys.executable).parent / "chroma"
    port = free_port()
    server = subprocess.Popen([str(chroma), "run", "--path", str(folder / "chroma"),
                               "--port", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
            return server, port
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("chroma run did not start")


def rss_mb(pid: int) -> float:
    """Resident memory of a process (the server's), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def diagnose(port: int, questions_csv: Path) -> None:
    """Run in the child process: ragviz in database mode; prints its figures."""
    from ragviz.embedding.models import load_embedder
    from ragviz.evaluation.index_database import analyse_in_database
    from ragviz.index import open_index
    from ragviz.inputs.questions import parse_questions_csv

    embedder = load_embedder(MODEL)
    embedder.encode_queries(["warm-up"])  # the model's load is not the per-question cost
    questions = parse_questions_csv(questions_csv.read_text(encoding="utf-8"))
    reader = open_index(f"chroma+http://127.0.0.1:{port}")
    checking = _timed(embedder, "encode_documents")
    started = time.perf_counter()
    result = analyse_in_database(reader, COLLECTION, embedder, questions)
    total = time.perf_counter() - started
    database = result.database_seconds
    checked = sum(1 for a in result.index_analysis.agreement if a == a)  # not NaN
    labels = {k: v for k, v in result.index_analysis.analysis.metrics.labels.items() if v}
    per = len(questions)
    print(f"{per} questions on {result.count:,} chunks: {result.fetched:,} chunks fetched; "
          f"per question {total / per:.3f} s in all, {database / per:.3f} s in the database, "
          f"{(total - database) / per:.3f} s beyond it (goal <= 0.2 s); "
          f"ragviz peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB;"
          f" labels {labels}", flush=True)
    print(f"  of which re-embedding the {checked} chunks some top_k hands on (to check their "
          f"stored vectors): {checking[0]:.1f} s", flush=True)


def _timed(owner: object, name: str) -> list[float]:
    """Wraps ``owner.name`` so the seconds spent in it add up in the returned list."""
    spent = [0.0]
    call = getattr(owner, name)

    def timed(*args: object, **kwargs: object) -> object:
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    setattr(owner, name, timed)
    return spent


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--chunks", type=int, default=300_000)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    with on_machine(args.smoke), tempfile.TemporaryDirectory() as scratch:
        count, asked = (2_000, 5) if args.smoke else (args.chunks, args.questions)
        folder = Path(scratch) if args.smoke else args.cache / f"index_server_{count}_{asked}"
        folder.mkdir(parents=True, exist_ok=True)
        questions_csv = build(folder, count, asked, args.smoke)
        server, port = serve(folder)
        try:
            subprocess.run([sys.executable, __file__, "--diagnose", str(port),
                            str(questions_csv)], check=True)
            print(f"server RSS {rss_mb(server.pid):.0f} MB after the questions", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--diagnose"]:
        diagnose(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
