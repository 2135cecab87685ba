"""Issue 36 items 3 and 9, issue 37 item 9: the numbers ``eval --index`` prints are computed
on the source files or said to be missing, never on a stand-in text made of the chunks.

A LangChain-shaped export (``page_content``, ``metadata.start_index``, stored vectors of the
bundled ``minilm-en``) of a small English text whose answer sits in the overlap of two
chunks: the second chunk, about the question, ranks first and holds the answer whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from tests.index_fixtures import write_jsonl

ANSWER = "Refunds are paid within seven business days."
HEAD = "Cats are small pets that like to sleep in the sun for most of the afternoon. "
TAIL = " The refund deadline: a refund reaches the card seven business days after we approve it."
TEXT = HEAD + ANSWER + TAIL
QUESTION = "How many business days until a refund is paid?"


def export(folder: Path, model: Embedder, text: str = TEXT) -> Path:
    """Two overlapping chunks of ``doc.txt`` as LangChain writes them with
    ``add_start_index=True``, the answer whole in both."""
    first, second = HEAD + ANSWER, ANSWER + TAIL
    vectors = model.encode_documents([first, second])
    path = folder / "chunks.jsonl"
    write_jsonl(path, [{"page_content": chunk, "metadata": {"source": "/srv/docs/doc.txt",
                                                             "start_index": start},
                        "embedding": vector.tolist()}
                       for chunk, start, vector in zip((first, second), (0, len(HEAD)),
                                                       vectors, strict=True)])
    (folder / "doc.txt").write_text(text, encoding="utf-8")
    return path


def questions(folder: Path, rows: list[list[dict[str, Any]]]) -> Path:
    """One question per row of excerpts, in Chroma's ``question,references,corpus_id``."""
    import csv

    path = folder / "questions.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["question", "references", "corpus_id"])
        for n, refs in enumerate(rows):
            writer.writerow([f"{QUESTION} ({n})", json.dumps(refs), "doc"])
    return path


def the_answer() -> dict[str, Any]:
    start = TEXT.index(ANSWER)
    return {"content": ANSWER, "start_index": start, "end_index": start + len(ANSWER)}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--model", "minilm-en", "--json"]) == 0, capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def text_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main([*args, "--model", "minilm-en"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_without_sources_the_answer_is_found_in_the_chunks_own_text_and_no_token_metric(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    index = export(tmp_path, minilm_model)
    asked = questions(tmp_path, [[the_answer()]])
    base = ["eval", "--index", str(index), "--questions", str(asked), "--top-k", "1"]
    sourced = run(capsys, *base, "--sources", str(tmp_path / "doc.txt"))
    bare = run(capsys, *base)
    assert sourced["questions"][0]["diagnosis"]["holding_chunks"] == [0, 1]
    assert sourced["questions"][0]["hits"][0]["index"] == 1  # the second chunk ranks first
    assert [q["labels"] for q in bare["questions"]] == [q["labels"] for q in sourced["questions"]]
    assert bare["questions"][0]["labels"] == ["ok"]
    for name in ("hit_at_1", "mrr"):
        assert bare["metrics"][name] == sourced["metrics"][name] == 1.0
    assert sourced["metrics"]["recall"] == 1.0
    assert all(bare["metrics"][name] is None for name in ("recall", "precision", "iou"))
    assert bare["token_metrics_over"] == 0 and bare["questions"][0]["recall"] is None
    assert any("No source file was given" in w and "own text" in w for w in bare["warnings"])
    assert not any("No source file" in w for w in sourced["warnings"])


def test_without_sources_the_text_output_says_why_the_token_metrics_are_missing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    index = export(tmp_path, minilm_model)
    asked = questions(tmp_path, [[the_answer()]])
    out = text_of(capsys, "eval", "--index", str(index), "--questions", str(asked))
    assert "recall n/a" in out and "No source file was given" in out and "--sources" in out


BAD_EXCERPTS = [
    [{"content": "Cats are", "start_index": 3, "end_index": 11}],  # offsets miss the content
    [{"content": ANSWER, "start_index": 5000, "end_index": 5000 + len(ANSWER)}],  # outside
]


def test_eval_index_leaves_out_bad_excerpts_as_plain_eval_does(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    index = export(tmp_path, minilm_model)
    asked = questions(tmp_path, [[the_answer()], *BAD_EXCERPTS])
    plain = run(capsys, "eval", str(tmp_path / "doc.txt"), "--questions", str(asked),
                "--chunker", "fixed", "--size", "120", "--overlap", "0")
    indexed = run(capsys, "eval", "--index", str(index), "--questions", str(asked),
                  "--sources", str(tmp_path / "doc.txt"))
    for data in (plain, indexed):
        assert (data["questions_given"], data["questions_evaluated"]) == (3, 1)
        assert data["left_out"] == {"offsets": 2}
        assert [q["question"] for q in data["questions"]] == [f"{QUESTION} (0)"]
        assert any(w.startswith("2 questions left out: an excerpt's offsets") and "line 3" in w
                   for w in data["warnings"]), data["warnings"]
    assert indexed["questions"][0]["labels"] == ["ok"]


def test_eval_index_names_an_excerpt_of_a_missing_or_traversing_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    index = export(tmp_path, minilm_model)
    path = tmp_path / "questions.csv"
    path.write_text("question,references,corpus_id\n"
                    f'q1,"[{{""content"": ""{ANSWER}""}}]",doc\n'
                    f'q2,"[{{""content"": ""{ANSWER}""}}]",../etc/passwd\n'
                    f'q3,"[{{""content"": ""{ANSWER}""}}]",other\n', encoding="utf-8")
    data = run(capsys, "eval", "--index", str(index), "--questions", str(path),
               "--sources", str(tmp_path / "doc.txt"))
    assert (data["questions_evaluated"], data["left_out"]) == (1, {"no-file": 2})
    assert [q["question"] for q in data["questions"]] == ["q1"]
    assert "'../etc/passwd'" in data["warnings"][0] and "'other'" in data["warnings"][0]


def test_a_stale_chunk_is_said_in_the_text_with_the_token_metrics_denominator(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    index = export(tmp_path, minilm_model)
    edited = TEXT.replace("Cats are", "Dogs are")  # the first chunk no longer in the file
    (tmp_path / "doc.txt").write_text(edited, encoding="utf-8")
    asked = tmp_path / "answers.csv"
    asked.write_text(f"question,answer,answerable\n{QUESTION},{ANSWER},true\n"
                     "What do cats like?,sleep in the sun,true\n", encoding="utf-8")
    args = ["eval", "--index", str(index), "--questions", str(asked), "--sources",
            str(tmp_path / "doc.txt")]
    out = text_of(capsys, *args)
    assert "Stale: doc.txt changed after indexing, and the text of chunk #0 (in this " \
        "question's top_k or holding its answer) is no longer in it" in out, out
    assert "means over 1 of the 2 questions" in out and "(1 of them held only by a stale " \
        "chunk)" in out, out
    data = run(capsys, *args)
    assert [q["stale_chunks"] for q in data["questions"]] == [[0], [0]]
    assert data["questions"][0]["labels"] == ["ok"] and data["questions"][0]["recall"] == 1.0
    assert data["questions"][1]["recall"] is None and data["token_metrics_over"] == 1


def test_an_excerpt_held_only_by_a_stale_chunk_is_that_chunks_not_split(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    """The file changed around the excerpt (which is still in it): no placed chunk holds
    it, the stale chunk's own text does. Before: "straddles chunks #0 and #0"."""
    index = export(tmp_path, minilm_model)
    (tmp_path / "doc.txt").write_text(TEXT.replace("Cats are", "Dogs are"), encoding="utf-8")
    excerpt = "small pets that like to sleep in the sun"
    start = TEXT.index(excerpt)
    asked = questions(tmp_path, [[{"content": excerpt, "start_index": start,
                                   "end_index": start + len(excerpt)}]])
    data = run(capsys, "eval", "--index", str(index), "--questions", str(asked), "--sources",
               str(tmp_path / "doc.txt"), "--top-k", "1")
    (row,) = data["questions"]
    assert row["labels"] == ["outranked"] and row["diagnosis"]["holding_chunks"] == [0]
    both = run(capsys, "eval", "--index", str(index), "--questions", str(asked), "--sources",
               str(tmp_path / "doc.txt"))  # top_k 2 sends the stale chunk: the model got it
    assert both["questions"][0]["labels"] == ["ok"]
    assert row["stale_chunks"] == [0] and row["recall"] is None
    assert data["metrics"]["mrr"] == 0.5 and data["token_metrics_over"] == 0
