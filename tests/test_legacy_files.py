"""Workspace files and links written by the version before ChunkerConfig stored each value
once (tests/data/legacy/, made by that version: every config carried six fixed fields, most of
them placeholders) still open to the same configurations, and re-export round-trips."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.present.link_notes import import_query, work_from_query
from ragviz.share.links import read_workspace
from ragviz.share.workspace import Settings, Workspace

LEGACY = Path(__file__).resolve().parent / "data" / "legacy"
CASES: list[dict[str, Any]] = json.loads((LEGACY / "expected.json").read_text("utf-8"))


def _query(link: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))


def _shown(config: ChunkerConfig) -> dict[str, Any]:
    return {"chunker": config.chunker, **config.params()}


def _same(settings: Settings, case: dict[str, Any]) -> None:
    assert _shown(settings.config_a) == case["config_a"]
    assert _shown(settings.config_b) == case["config_b"]
    assert (settings.top_k, settings.floor, settings.language) == (3, 0.25, "pt")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_an_old_workspace_file_opens_to_the_same_configurations(case: dict[str, Any]) -> None:
    workspace = read_workspace((LEGACY / case["file"]).read_bytes())
    _same(workspace.settings, case)
    again = Workspace.from_json(workspace.to_json())
    assert again == workspace
    assert again.to_json() == workspace.to_json()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_an_old_settings_link_opens_to_the_same_configurations(case: dict[str, Any]) -> None:
    settings, problems = import_query(_query(case["settings_link"]), Settings())
    assert problems == []
    _same(settings, case)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_an_old_link_with_its_work_opens_to_the_same_configurations(case: dict[str, Any]) -> None:
    workspace, problem = work_from_query(_query(case["link"]))
    assert problem is None and workspace is not None
    _same(workspace.settings, case)
    assert workspace.document.startswith("The refund deadline is 30 days.")


def test_a_configuration_holds_each_of_its_values_once() -> None:
    """Before: six named fields on every configuration (placeholders for the chunkers that
    do not read them) plus ``extra``; now one value per parameter of its own chunker."""
    config = ChunkerConfig("fixed", size=150)
    assert config.values == (("overlap", 0), ("size", 150))
    assert config.to_dict() == {"chunker": "fixed", "size": 150, "overlap": 0}
    assert ChunkerConfig("sentence", size=500).to_dict() == ChunkerConfig("sentence").to_dict()
    assert ChunkerConfig.from_dict({"chunker": "fixed", "size": 90, "max_chars": 220,
                                    "threshold": None}) == ChunkerConfig("fixed", size=90)
