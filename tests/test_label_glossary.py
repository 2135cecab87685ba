"""Issue 43: every label says what it means where it appears: the glossary in the catalogs
(en, pt), ``ragviz labels`` (text, ``--json``, ``ragviz schema labels``), the badges' hover,
the legends of the Compare tab and the report, and docs/guide/labels.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ragviz.cli.command import main
from ragviz.cli.outputs import OUTPUTS
from ragviz.evaluation.diagnosis import LABELS
from ragviz.i18n import STRINGS
from ragviz.present.label_words import GLOSSARY, badge_html, glossary, hover_text, legend_html

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("label", GLOSSARY)
def test_every_label_has_a_definition_and_a_fix_in_both_languages(label: str) -> None:
    for part in ("label", "label_def", "label_fix"):
        entry = STRINGS[f"{part}.{label}"]
        assert entry["en"].strip() and entry["pt"].strip()
    assert STRINGS[f"label_def.{label}"]["pt"] != STRINGS[f"label_def.{label}"]["en"]


def test_the_glossary_covers_every_question_label() -> None:
    assert set(LABELS) <= set(GLOSSARY)
    assert [e.label for e in glossary("pt")] == list(GLOSSARY)


def test_a_badge_is_escaped_and_carries_its_definition() -> None:
    html = badge_html("outranked", "pt")
    assert 'data-label="outranked"' in html and ">superada</span>" in html
    assert f'title="{hover_text("outranked", "pt")}"'.replace("'", "&#x27;") in html
    assert "Correção:" in html
    legend = legend_html("en")
    assert legend.count("<tr>") == len(LABELS) + 1


def test_ragviz_labels_lists_every_label_with_its_fix(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    main(["labels"])
    text = capsys.readouterr().out
    for entry in glossary("en"):
        assert f"{entry.name}: {entry.definition}\n    fix: {entry.fix}\n" in text
    main(["labels", "--json", "--lang", "pt"])
    data = json.loads(capsys.readouterr().out)
    assert (data["command"], data["language"]) == ("labels", "pt")
    assert [row["label"] for row in data["labels"]] == list(GLOSSARY)
    assert data["labels"][0]["fix"].startswith("nada a corrigir")


def test_schema_labels_describes_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert "labels" in OUTPUTS
    main(["schema", "labels"])
    schema = json.loads(capsys.readouterr().out)
    assert set(schema["properties"]) >= {"schema_version", "command", "language", "labels"}


def test_the_guide_page_says_what_the_catalogs_say() -> None:
    page = (ROOT / "docs" / "guide" / "labels.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", page, re.M))
    assert set(rows) == set(GLOSSARY)
    for entry in glossary("en"):
        definition, fix = rows[entry.label].split(" | ")
        assert definition == entry.definition
        assert fix == entry.fix[0].upper() + entry.fix[1:]


def test_the_report_has_the_legend_and_hover_on_its_badges() -> None:
    from ragviz.present import report

    legend = str(report._labels_legend("en"))
    assert legend.count('<span class="label') == len(LABELS)
    assert "What the labels mean" in legend and "What to change" in legend
    assert 'title="Every expected excerpt reached the context' in legend
