"""ragviz eval|report --workspace: an app session exported as a workspace reruns in the CLI
exactly as the app ran it (issue 32 item 5): the same chunks, scores and labels as an
analysis built from the workspace's settings, for each configuration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from article import ARTICLE_FLOOR

from ragviz.chunking import ChunkerConfig
from ragviz.cli.command import main
from ragviz.embedding.models import load_embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.share.samples import get_sample
from ragviz.share.workspace import Settings, Workspace

SEED = get_sample("politica_reembolso")
SETTINGS = Settings(config_a=ChunkerConfig("fixed", size=120, overlap=0),
                    config_b=ChunkerConfig("sentence", max_chars=220, overlap_sentences=1),
                    top_k=1, floor=ARTICLE_FLOOR, scorer_b="bm25", floor_b=1.0, expand_b=1)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "session.json"
    path.write_text(Workspace(SEED.document(), tuple(SEED.questions()), SETTINGS).to_json(),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("side", ["a", "b"])
def test_eval_reruns_each_configuration_of_a_workspace(
        side: str, workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--workspace", str(workspace), "--side", side, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    config = SETTINGS.config_a if side == "a" else SETTINGS.config_b
    expected = analyse(SEED.document(), config, load_embedder(SETTINGS.model_of(side)),
                       SEED.questions(), RetrievalSettings(
                           SETTINGS.top_k, SETTINGS.floor_of(side), SETTINGS.scorer_of(side),
                           SETTINGS.expand_of(side)))
    assert got["chunker"] == config.label() and got["scorer"] == SETTINGS.scorer_of(side)
    assert got["floor"] == SETTINGS.floor_of(side) and got["top_k"] == 1
    assert [q["labels"] for q in got["questions"]] == [
        list(o.diagnosis.labels) if o.diagnosis else [] for o in expected.outcomes]
    assert got["metrics"]["hit_at_1"] == pytest.approx(expected.metrics.values["hit_at_1"])


def test_report_draws_both_configurations(workspace: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "report.html"
    assert main(["report", "--workspace", str(workspace), "--html", str(html)]) == 0
    text = html.read_text(encoding="utf-8")
    assert SETTINGS.config_a.label() in text and SETTINGS.config_b.label() in text


def test_a_workspace_goes_alone(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "sample:politica_reembolso", "--workspace", str(workspace)]) == 2
    assert "give --workspace without paths" in capsys.readouterr().err
    assert main(["eval", "--workspace", str(workspace.with_name("none.json"))]) == 2
    assert "the workspace file" in capsys.readouterr().err
