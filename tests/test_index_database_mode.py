"""Database mode on long answers cut between chunks (issue 37, item 7): before, one
``$contains`` query per prefix and suffix length (20 questions with ~2,000-character answers
took 141 s, silently). Now each answer's queries are bounded (the longest piece any chunk
holds found by halving), each question's progress is a line on a terminal, and the labels
are those of the collection loaded whole."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.cli import output as cli_output
from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.evaluation.index_database import analyse_in_database, probes_per_side
from ragviz.evaluation.results import RetrievalSettings
from ragviz.index.chroma import ChromaReader
from ragviz.index.open import open_index
from ragviz.inputs.questions import read_questions_file
from tests.index_fixtures import SAMPLES, chroma_collection

GUIDE = SAMPLES / "residents_guide.txt"
ANSWER_CHARS = 2_000


@pytest.fixture(scope="module")
def long_answers(tmp_path_factory: pytest.TempPathFactory,
                 minilm_model: Embedder) -> tuple[Path, Path]:
    """The residents' guide in 700-character chunks (MiniLM vectors), and three questions
    whose 2,000-character answers start inside a chunk and end inside another."""
    folder = tmp_path_factory.mktemp("long")
    text = GUIDE.read_text(encoding="utf-8")
    chunks = make_chunks(text, ChunkerConfig.create("fixed", size=700, overlap=0)).chunks
    texts = [c.text for c in chunks]
    chroma_collection(folder / "chroma", "guide", texts, minilm_model.encode_documents(texts),
                      [GUIDE.name] * len(texts))
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["question", "answer", "answerable"])
    for n, start in enumerate((350, 2_450, 5_150)):
        writer.writerow([f"what does part {n} of the guide say?",
                         text[start:start + ANSWER_CHARS], "yes"])
    questions = folder / "q.csv"
    questions.write_text(buffer.getvalue(), encoding="utf-8")
    return folder / "chroma", questions


def test_each_answer_asks_the_database_a_bounded_number_of_times(
        long_answers: tuple[Path, Path], minilm_model: Embedder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz.inputs.corpus import load_files

    folder, questions_file = long_answers
    questions, _ = read_questions_file(questions_file.read_bytes(), "q.csv")
    sources = load_files([(GUIDE.name, GUIDE.read_bytes())])
    calls: list[str] = []
    real = ChromaReader.containing

    def counted(self: ChromaReader, collection: str, text: str, limit: int) -> list:  # type: ignore[type-arg]
        calls.append(text)
        return real(self, collection, text, limit)

    monkeypatch.setattr(ChromaReader, "containing", counted)
    per_question: list[int] = []

    def progress(done: int, total: int) -> None:
        per_question.append(len(calls) - sum(per_question))

    reader = open_index(f"chroma:{folder}")
    assert isinstance(reader, ChromaReader)
    run = analyse_in_database(reader, "guide", minilm_model, questions, sources,
                              RetrievalSettings(top_k=1), progress=progress)
    assert len(per_question) == len(questions) == 3
    bound = 2 + 2 * probes_per_side(ANSWER_CHARS)  # the answer as typed and as written
    assert max(per_question) <= bound == 24, per_question
    labels = [o.diagnosis.labels if o.diagnosis else () for o in
              run.index_analysis.analysis.outcomes]
    assert all("answer-split" in found for found in labels), labels


def test_database_mode_keeps_the_labels_and_shows_progress_per_question(
        long_answers: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder, questions = long_answers
    args = ["eval", "--index", f"chroma:{folder}", "--questions", str(questions),
            "--sources", str(GUIDE), "--model", "minilm-en", "--json"]
    assert main([*args, "--index-mode", "memory"]) == 0
    memory = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(cli_output, "stderr_is_terminal", lambda: True)
    assert main([*args, "--index-mode", "database"]) == 0
    captured = capsys.readouterr()
    database = json.loads(captured.out)
    assert [r["labels"] for r in database["questions"]] == [
        r["labels"] for r in memory["questions"]]
    assert "the database: answers looked for, question 1 of 3" in captured.err
    assert "question 3 of 3" in captured.err and captured.err.endswith("\n")
