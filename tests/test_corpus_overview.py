"""The file overview of a corpus is one core fact (``ragviz.evaluation.overview``): the app's
"The files" table shows it, and ``ragviz eval`` on several files prints it, line for line."""

from __future__ import annotations

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.evaluation.overview import corpus_overview
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.share.samples import get_sample

SAMPLE = "sample:help_center"


def test_each_file_has_its_characters_chunks_and_the_questions_it_reaches(
        use_model: Embedder) -> None:
    sample = get_sample("help_center")
    corpus, questions = sample.corpus(), sample.questions()
    analysis = analyse(corpus, ChunkerConfig("fixed", size=200, overlap=0), use_model,
                       questions, RetrievalSettings(2))
    rows = corpus_overview(analysis)
    assert [row.name for row in rows] == list(corpus.names)
    assert [row.chars for row in rows] == [len(source.text) for source in corpus.sources]
    assert sum(row.chunks for row in rows) == len(analysis.chunks)
    for outcome in analysis.outcomes:
        reached = {analysis.chunks[i].source for i in outcome.decision.ranking[:2].tolist()}
        for row in rows:
            assert (outcome.question.question in row.questions) == (row.name in reached)


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_eval_on_several_files_prints_the_file_overview(
        use_model: Embedder, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    sample = get_sample("help_center")
    analysis = analyse(sample.corpus(), ChunkerConfig("fixed", size=200, overlap=0), use_model,
                       sample.questions(), RetrievalSettings(2))
    assert main(["eval", SAMPLE, "--questions", SAMPLE, "--chunker", "fixed", "--size", "200",
                 "--overlap", "0", "--top-k", "2", "--model", "use-multilingual",
                 "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = corpus_overview(analysis)
    words = {"en": ("characters", "in the top 2 for"), "pt": ("caracteres", "no top 2 para")}
    for row in rows:
        line = next(line for line in lines if line.startswith(f"  {row.name}: "))
        chars, top = words[lang]
        assert f" {chars}, {row.chunks} chunk" in line
        assert f"{top} {row.retrieved} " in line
        assert line.endswith(f" {len(analysis.outcomes)} " + ("questions" if lang == "en"
                                                               else "perguntas"))
