"""Chunking a corpus: one index space across files, every chunk located in its own file,
and the chunk limit counted over the whole corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.chunking import ChunkerConfig, chunk_corpus, corpus_chunks, get_spec, make_chunks, specs
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.evaluation.experiments import sweep, why_failed
from ragviz.evaluation.pipeline import MAX_CHUNKS, analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.corpus import Corpus, Source, as_corpus, load_paths
from ragviz.inputs.questions import LabelledQuestion, parse_questions_csv

SAMPLES = Path(__file__).resolve().parent.parent / "sample_docs"
HELP_CENTER = load_paths([str(SAMPLES / "help_center")])
QUESTIONS = parse_questions_csv((SAMPLES / "help_center.csv").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", [s.name for s in specs() if not s.needs_model])
def test_every_chunk_is_its_own_files_slice_and_indices_run_across_files(name: str) -> None:
    config = ChunkerConfig.create(name)
    result = chunk_corpus(HELP_CENTER, config)
    assert [c.index for c in result.chunks] == list(range(len(result.chunks)))
    for chunk in result.chunks:
        assert HELP_CENTER.source(chunk.source).text[chunk.start:chunk.end] == chunk.text
    per_file = [make_chunks(s.text, config).chunks for s in HELP_CENTER.sources]
    assert [(c.start, c.end, c.text) for c in result.chunks] == [
        (c.start, c.end, c.text) for chunks in per_file for c in chunks]
    assert [c.source for c in result.chunks] == [
        s.name for s, chunks in zip(HELP_CENTER.sources, per_file, strict=True) for _ in chunks]


def test_a_single_source_keeps_the_chunkers_own_result() -> None:
    text = HELP_CENTER.sources[0].text
    config = ChunkerConfig()
    assert chunk_corpus(as_corpus(text), config) == make_chunks(text, config)
    assert get_spec(config.chunker).name == "sentence"


def test_the_chunk_limit_counts_the_whole_corpus(use_model: Embedder) -> None:
    half = "palavra " * (MAX_CHUNKS // 2 + 10)  # each file alone is under the limit
    corpus = Corpus((Source("a.txt", half), Source("b.txt", half)))
    config = ChunkerConfig("fixed", size=8)
    assert len(chunk_corpus(Corpus(corpus.sources[:1]), config).chunks) < MAX_CHUNKS
    before = use_model.texts_encoded
    with pytest.raises(ValueError, match=f"at most {MAX_CHUNKS:,} per configuration"):
        analyse(corpus, config, use_model, [])
    assert use_model.texts_encoded == before


def test_sweep_and_why_failed_take_a_corpus(use_model: Embedder) -> None:
    grid = [ChunkerConfig(), ChunkerConfig("markdown", max_chars=500, overlap_sentences=0)]
    result = sweep(HELP_CENTER, QUESTIONS, use_model, grid, RetrievalSettings(top_k=1))
    assert [row.config for row in result.rows] == grid
    assert all(row.metrics.labels["outranked-by-other-document"] >= 2 for row in result.rows)
    assert all(row.chunks == len(chunk_corpus(HELP_CENTER, row.config, use_model).chunks)
               for row in result.rows)
    question = next(q for q in QUESTIONS if q.question.startswith("How do I delete"))
    others: list[LabelledQuestion] = [q for q in QUESTIONS if q is not question]
    found = why_failed(HELP_CENTER, question, others, use_model, grid[0], grid,
                       RetrievalSettings(top_k=1))
    assert found.diagnosis.primary == "outranked-by-other-document"
    assert found.fix is None  # neither configuration fixes a loss to another file


def test_windows_that_would_repeat_the_text_are_refused_before_they_are_made() -> None:
    """Issue 24 #15: 150,000-character windows every 10 characters made 2.9 GB of chunks."""
    corpus = as_corpus("palavra " * 25_000)
    config = ChunkerConfig.create("fixed", size=150_000, overlap=149_990)
    with pytest.raises(InputError) as refused:
        chunk_corpus(corpus, config)
    assert "choose a smaller overlap" in str(refused.value)
    assert "escolha uma sobreposição" in refused.value.localized("pt")
    assert len(chunk_corpus(corpus, ChunkerConfig.create("fixed", size=120, overlap=60)).chunks)


def test_any_chunker_whose_chunks_repeat_the_text_too_often_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Overlaps counted in sentences are not estimated before chunking: the characters the
    chunks hold are counted as each file is chunked (here with the bound lowered to 1x)."""
    monkeypatch.setattr(corpus_chunks, "MAX_CHUNK_REPEAT", 1)
    monkeypatch.setattr(corpus_chunks, "MIN_CHUNK_CHARS", 0)
    corpus = as_corpus("Uma frase curta. " * 50)
    with pytest.raises(InputError, match="repeats the text too often"):
        chunk_corpus(corpus, ChunkerConfig.create("sentence", max_chars=60, overlap_sentences=2))
    assert chunk_corpus(corpus, ChunkerConfig.create("sentence", max_chars=60,
                                                     overlap_sentences=0)).chunks
