"""CSV downloads: one row per chunk / per question and configuration, spreadsheet-safe."""

from __future__ import annotations

import csv
import io

import pytest
from article import ARTICLE_FLOOR

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.exports import chunks_csv, results_csv


@pytest.fixture(scope="module")
def analysis(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> Analysis:
    return analyse(seed_doc, ChunkerConfig("fixed", size=120), use_model, seed_questions,
                   RetrievalSettings(2, ARTICLE_FLOOR))


def test_chunk_table_rows_are_the_chunks(analysis: Analysis) -> None:
    rows = list(csv.DictReader(io.StringIO(chunks_csv(analysis))))
    assert [r["text"] for r in rows] == [c.text for c in analysis.chunks]
    assert [int(r["start"]) for r in rows] == [c.start for c in analysis.chunks]


def test_results_have_a_row_per_question_and_configuration(analysis: Analysis) -> None:
    rows = list(csv.DictReader(io.StringIO(results_csv([analysis, analysis]))))
    assert len(rows) == 2 * len(analysis.outcomes)
    wifi = next(r for r in rows if "wifi" in r["question"])
    assert wifi["decision"] == "refused" and wifi["labels"] == "ok"


@pytest.mark.parametrize(
    ("text", "guarded"),
    [
        ("=HYPERLINK(1)", True),
        ("+cmd|x", True),
        ("-A1+1", True),
        ("@SUM(A1)", True),
        ("+1+cmd|' /C calc'!A0", True),
        ("-2+3+cmd|' /C calc'!A0", True),
        ("- item one", True),  # OWASP guards every leading "-": only numeric columns are spared
        ("-5", True),
        ("\tTAB=1", True),
        ("Plain text", False),
        ("1+1", False),
    ],
)
def test_formula_like_text_cells_are_guarded(use_model: Embedder, text: str, guarded: bool) -> None:
    result = analyse(text, ChunkerConfig("fixed", size=500), use_model, [])
    (row,) = csv.DictReader(io.StringIO(chunks_csv(result)))
    assert row["text"] == ("'" + text if guarded else text)


def test_negative_numbers_stay_numbers_in_numeric_columns(analysis: Analysis) -> None:
    """A floor of -0.5 is written as the number it is, not as guarded text."""
    from ragviz.evaluation.pipeline import rescore
    from ragviz.evaluation.results import RetrievalSettings

    negative = rescore(analysis, RetrievalSettings(2, -0.5))
    rows = list(csv.DictReader(io.StringIO(results_csv([negative]))))
    assert {r["floor"] for r in rows} == {"-0.50"}


def test_a_corpus_chunk_table_names_each_chunks_file_and_its_offsets_point_there(
    use_model: Embedder,
) -> None:
    from ragviz.inputs.corpus import load_files

    corpus = load_files([("a.md", b"# Refunds\n\nRefunds take 30 days."),
                         ("=b.txt", b"Shipping is free over 50 euros.")])
    result = analyse(corpus, ChunkerConfig("fixed", size=500), use_model, [])
    rows = list(csv.DictReader(io.StringIO(chunks_csv(result))))
    assert [r["file"] for r in rows] == ["a.md", "'=b.txt"]  # a formula-like name is guarded
    for row, source in zip(rows, corpus.sources, strict=True):
        assert source.text[int(row["start"]):int(row["end"])] == row["text"]


def test_a_single_document_chunk_table_has_no_file_column(analysis: Analysis) -> None:
    header = next(csv.reader(io.StringIO(chunks_csv(analysis))))
    assert "file" not in header
