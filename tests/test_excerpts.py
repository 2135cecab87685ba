"""Labelled excerpts and the token-level measures of Chroma's chunking report: hand-computed
cases, properties, the benchmark's question format, and ``ragviz eval`` on a corpus folder."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragviz.chunking.base import Chunk
from ragviz.cli.command import main
from ragviz.errors import InputError
from ragviz.evaluation.excerpts import (
    ChunkTable,
    Excerpt,
    resolve_questions,
    token_scores,
)
from ragviz.evaluation.measures import METRICS
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion, Reference, parse_questions_csv
from ragviz.present.presentation import left_out_text
from tests.chroma_questions import chroma_questions

ROOT = Path(__file__).resolve().parent.parent
A = "".join(chr(97 + i % 26) for i in range(100))
B = "".join(chr(65 + i % 26) for i in range(100))
CORPUS = Corpus((Source("a.txt", A), Source("b.md", B)))
# c0 and c1 overlap on a[20:25]; c3 and c4 are b's
CHUNKS = [Chunk(0, 0, 25, A[0:25], source="a.txt"), Chunk(1, 20, 50, A[20:50], source="a.txt"),
          Chunk(2, 50, 100, A[50:], source="a.txt"), Chunk(3, 0, 40, B[:40], source="b.md"),
          Chunk(4, 40, 100, B[40:], source="b.md")]
TABLE = ChunkTable(CHUNKS)
IN_A, IN_B = Excerpt("a.txt", 10, 30), Excerpt("b.md", 50, 60)


def test_two_excerpts_in_two_files_with_overlapping_retrieved_chunks() -> None:
    scores = token_scores([IN_A, IN_B], [0, 1], TABLE)
    assert scores is not None
    assert scores.recall == pytest.approx(20 / 30)
    assert scores.precision == pytest.approx(20 / 55)  # c0 and c1 counted whole, each
    assert scores.iou == pytest.approx(20 / 65)  # 55 retrieved + b's 10 not covered
    assert scores.precision_omega == pytest.approx(30 / 115)  # c0, c1 and c4 hold them
    assert scores.missed_excerpts == (2,)


def test_an_excerpt_cut_by_a_chunk_boundary() -> None:
    scores = token_scores([IN_A], [0], TABLE)  # c0 ends at 25, inside a[10:30]
    assert scores is not None
    assert (scores.recall, scores.precision, scores.iou) == pytest.approx(
        (15 / 20, 15 / 25, 15 / 30))
    assert scores.missed_excerpts == (1,)


def test_a_chunk_of_another_file_counts_in_the_denominators_only() -> None:
    scores = token_scores([IN_A], [0, 4], TABLE)
    assert scores is not None
    assert (scores.recall, scores.precision, scores.iou) == pytest.approx(
        (15 / 20, 15 / 85, 15 / 90))


def test_nothing_retrieved_and_no_excerpt() -> None:
    scores = token_scores([IN_A, IN_B], [], TABLE)
    assert scores is not None and (scores.recall, scores.precision, scores.iou) == (0, 0, 0)
    assert scores.missed_excerpts == (1, 2)
    assert token_scores([], [0], TABLE) is None


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[Chunk], list[Excerpt], list[int]]:
    """Two files of 60 characters cut at drawn points (with drawn overlaps), drawn excerpts
    in the first, a drawn set of retrieved chunks."""
    chunks: list[Chunk] = []
    for name in ("x", "y"):
        cuts = sorted(draw(st.sets(st.integers(1, 59), max_size=6)) | {0, 60})
        for start, end in pairwise(cuts):
            back = draw(st.integers(0, min(5, start)))
            chunks.append(Chunk(len(chunks), start - back, end, "", source=name))
    starts = draw(st.lists(st.integers(0, 58), min_size=1, max_size=3))
    excerpts = [Excerpt("x", s, draw(st.integers(s + 1, 60))) for s in starts]
    retrieved = draw(st.lists(st.sampled_from(range(len(chunks))), unique=True, max_size=5))
    return chunks, excerpts, retrieved


@given(cases())
def test_measures_lie_in_zero_one(case: tuple[list[Chunk], list[Excerpt], list[int]]) -> None:
    chunks, excerpts, retrieved = case
    scores = token_scores(excerpts, retrieved, ChunkTable(chunks))
    assert scores is not None
    for value in (scores.recall, scores.precision, scores.iou, scores.precision_omega):
        assert 0 <= value <= 1
    assert scores.iou <= min(scores.recall, scores.precision) + 1e-12


@given(cases())
def test_excerpt_holding_chunks_give_full_recall_and_precision_omega(
        case: tuple[list[Chunk], list[Excerpt], list[int]]) -> None:
    chunks, excerpts, _ = case
    table = ChunkTable(chunks)
    holding = sorted({i for e in excerpts for i in table.touching(e)})
    scores = token_scores(excerpts, holding, table)
    assert scores is not None
    assert scores.recall == 1 and scores.missed_excerpts == ()
    assert scores.precision == pytest.approx(scores.precision_omega)


@given(cases())
def test_a_chunk_of_another_file_never_raises_recall(
        case: tuple[list[Chunk], list[Excerpt], list[int]]) -> None:
    chunks, excerpts, retrieved = case
    table = ChunkTable(chunks)
    before = token_scores(excerpts, retrieved, table)
    other = [c.index for c in chunks if c.source == "y" and c.index not in retrieved]
    after = token_scores(excerpts, [*retrieved, *other[:1]], table)
    assert before is not None and after is not None
    assert after.recall == before.recall
    assert after.precision <= before.precision


CHROMA = ('question,references,corpus_id\n'
          'Which letters?,"[{""content"": ""klmnopqrst"", ""start_index"": 10, '
          '""end_index"": 20}, {""content"": ""KLMNO"", ""start_index"": 10, '
          '""end_index"": 15, ""source"": ""b""}]",a\n'
          'Bad offsets?,"[{""content"": ""klm"", ""start_index"": 11, ""end_index"": 14}]",a\n'
          'By text?,"[{""content"": ""uvwxy""}]",a.txt\n')


def test_a_file_in_chroma_shape_loads_every_row_answerable() -> None:
    questions = parse_questions_csv(CHROMA)
    assert [q.is_answerable for q in questions] == [True, True, True]
    assert questions[0].references == (Reference("klmnopqrst", 10, 20, "a"),
                                       Reference("KLMNO", 10, 15, "b"))
    assert questions[2].references == (Reference("uvwxy", None, None, "a.txt"),)


def test_an_excerpt_whose_offsets_miss_its_content_is_named_by_line() -> None:
    kept, problems = resolve_questions(parse_questions_csv(CHROMA), CORPUS)
    assert [q.question for q in kept] == ["Which letters?", "By text?"]
    assert len(problems) == 1
    assert left_out_text(problems[0]).startswith("line 3: excerpt 1: offsets 11–14")
    assert left_out_text(problems[0], "pt").startswith("linha 3: trecho 1: os offsets 11–14")
    assert kept[0].references[1].source == "b.md"  # the corpus_id names the file without .md
    assert kept[1].references[0] == Reference("uvwxy", 20, 25, "a.txt")  # found by its text


@pytest.mark.parametrize(("cell", "words"), [
    ("[{", "not valid JSON"), ('{"content": "x"}', "JSON list"),
    ('[{"content": ""}]', 'non-empty "content"'),
    ('[{"content": "x", "start_index": 5, "end_index": 2}]', "the end not before the start"),
    ('[{"content": "x", "start_index": -1, "end_index": 2}]', "whole numbers from 0"),
])
def test_bad_references_cells_say_what_to_change(cell: str, words: str) -> None:
    text = "question,references\n" + f'q,"{cell.replace(chr(34), chr(34) * 2)}"\n'
    with pytest.raises(InputError, match="line 2") as error:
        parse_questions_csv(text)
    assert words in str(error.value)


def test_old_questions_keep_their_dict_and_an_answer_is_one_excerpt() -> None:
    old = LabelledQuestion("q", "klmno", True)
    assert old.to_dict() == {"question": "q", "answer": "klmno", "answerable": True}
    assert {"recall", "precision", "iou", "precision_omega"} <= set(METRICS)


def test_eval_json_on_a_folder_with_a_chroma_question_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = ROOT / "sample_docs" / "help_center"
    questions = tmp_path / "questions.csv"
    questions.write_text(chroma_questions(folder, 300), encoding="utf-8")
    assert main(["eval", str(folder), "--questions", str(questions), "--top-k", "5",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["questions"]) == 300
    assert len({ref["corpus_id"] for ref in _rows(questions)}) >= 4  # several files
    for row in data["questions"]:
        for name in ("recall", "precision", "iou", "precision_omega"):
            assert 0 <= row[name] <= 1
    recalls = [row["recall"] for row in data["questions"]]
    assert data["metrics"]["recall"] == pytest.approx(sum(recalls) / len(recalls))
    assert data["metrics"]["std"]["iou"] is not None
    assert 0 < data["metrics"]["precision_omega"] <= 1


def _rows(path: Path) -> list[dict[str, str]]:
    import csv
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_workspace_keeps_the_excerpts() -> None:
    from ragviz.share.workspace import Workspace

    question = LabelledQuestion("q", "", None, (Reference("klm", 10, 13, "a.txt"),
                                                Reference("uvw")))
    back = Workspace.from_json(Workspace(A, (question,)).to_json())
    assert back.questions == (question,)
    assert back.questions[0].is_answerable is True
