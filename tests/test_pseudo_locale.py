"""A pseudo-locale: every English string of the catalogs wrapped in markers (⟦…⟧, placeholders
kept), registered as a language only inside these tests (issue 32, item 2). Adding a language is
one catalog; what the CLI and the app show in it must come from the catalog, so any English word
left outside the markers is a hard-coded string.

What is checked: the text the user reads — the CLI's text output (stdout and stderr) of
``search``, ``eval`` and ``calibrate`` on the bundled article sample, and in the app
(AppTest, every tab) the markdown, captions, titles, alerts, labels, help texts and options of
widgets and buttons, expander and tab labels, metrics, and the charts' titles and tooltip headers
(a tooltip without a title shows its field name). What is not: user data (the document's words,
the questions and answers), numbers, table cells (their headers are column_config labels the
page draws from the catalog), and names from the registries shown as they are typed on the
command line (chunkers and their titles, parameters, scorers, rerankers, models, metrics), the
languages' own names, the product's name and the map's question notation (Q3).
"""

from __future__ import annotations

import argparse
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.chunking.registry import param_names, specs
from ragviz.cli.command import main
from ragviz.embedding.models import BUNDLED_MODELS
from ragviz.evaluation.measures import metric_names
from ragviz.i18n import (
    LANGUAGE_NAMES,
    SOURCE_LANGUAGE,
    STRINGS,
    register_language,
    remove_language,
    t,
)
from ragviz.retrieval.scorers import scorer_names
from ragviz_app.common import RERANKERS
from ragviz_app.frame import chunker_title

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
SAMPLE = "politica_reembolso"
PSEUDO = "qps"  # ISO 639's private-use range (qaa-qtz): never a real language
OPEN, CLOSE = "⟦", "⟧"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
MARKUP = re.compile(r"<style.*?</style>|<[^>]+>|:[a-z]+(?:-[a-z]+)*\[", re.S)  # HTML, :blue[…]
NOTATION = re.compile(r"Q\d+")  # "Q3", question 3 on the map, its picker and the report's map
TABS = ("chunks", "questions", "why", "calibration", "compare", "map")  # the map last: see below


def pseudo_catalog() -> dict[str, str]:
    """Every key's English wrapped in the markers (its placeholders kept inside)."""
    catalog = {key: f"{OPEN}{entry[SOURCE_LANGUAGE]}{CLOSE}" for key, entry in STRINGS.items()
               if SOURCE_LANGUAGE in entry}
    return {**catalog, "language.name": f"{OPEN}Pseudo{CLOSE}"}


@pytest.fixture(scope="module")
def pseudo() -> Iterator[str]:
    register_language(PSEUDO, pseudo_catalog())
    yield PSEUDO
    remove_language(PSEUDO)


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


def _document() -> str:
    """The sample's text, lowercased: a chunk cuts its words ("Pag|amentos"), so a piece of
    one is user data too."""
    return (ROOT / "sample_docs" / f"{SAMPLE}.txt").read_text(encoding="utf-8").lower()


def allowed_words() -> set[str]:
    """User data (the sample's document and questions) and names shown as they are typed."""
    folder = ROOT / "sample_docs"
    allowed = _words((folder / f"{SAMPLE}.txt").read_text(encoding="utf-8"))
    allowed |= _words((folder / f"{SAMPLE}.csv").read_text(encoding="utf-8"))
    for spec in specs():
        allowed |= {spec.name.lower(), *_words(spec.title), *_words(chunker_title(spec.name))}
    allowed |= {name.lower() for name in (*param_names(), *scorer_names(), *BUNDLED_MODELS,
                                          *metric_names(), *RERANKERS)}
    allowed |= {word for name in LANGUAGE_NAMES.values() for word in _words(name)}
    return allowed | {"ragviz"}


def unmarked(text: str, allowed: set[str]) -> list[str]:
    """The words of ``text`` outside every marked string that are not allowed."""
    while MARKED.search(text):
        text = MARKED.sub(" ", text)  # the innermost first: a phrase said inside a sentence
    text = MARKUP.sub(" ", text)
    return [word for word in WORD.findall(text)
            if len(word) > 1 and word.lower() not in allowed and not NOTATION.fullmatch(word)]


def test_the_pseudo_locale_marks_a_sentence_and_keeps_its_placeholders(pseudo: str) -> None:
    said = t("outcome.refused", pseudo, best="0,31", floor="0,50")
    assert said == f"{OPEN}refused: best score 0,31 is under the floor 0,50{CLOSE}"
    assert unmarked(f"{said} 0.682 'Reembolso.' sentence", allowed_words()) == []
    assert unmarked("refused: best score", allowed_words()) == ["refused", "best", "score"]


COMMANDS = {
    "chunk": ["chunk", "--chunker", "fixed", "--size", "120"],
    "search": ["search", "--floor", "0.5", "--top-k", "1"],
    "eval": ["eval"],
    "calibrate": ["calibrate"],
    "compare": ["compare"],
    "sweep": ["sweep", "--chunkers", "fixed,sentence"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_cli_says_nothing_outside_the_catalog(
    command: str, pseudo: str, capsys: pytest.CaptureFixture[str],
) -> None:
    csv = str(ROOT / "sample_docs" / f"{SAMPLE}.csv")
    questions = [] if command == "chunk" else ["--questions", csv]
    argv = [*COMMANDS[command], f"sample:{SAMPLE}", *questions, "--lang", pseudo,
            "--model", "minilm-en"]
    assert main(argv) == 0
    said = capsys.readouterr()
    assert OPEN in said.out, "the command said nothing from the catalog"
    left = unmarked(said.out + said.err, allowed_words())
    assert [word for word in left if word.lower() not in _document()] == []


def _widget_texts(at: AppTest) -> list[str]:
    texts = [str(element.value) for kind in ("markdown", "caption", "title", "header",
                                             "subheader", "info", "warning", "error", "success")
             for element in at.get(kind)]
    for kind in ("button", "download_button", "checkbox", "toggle", "text_input", "text_area",
                 "number_input", "slider", "select_slider", "selectbox", "radio", "multiselect",
                 "expander", "tab", "metric"):
        for element in at.get(kind):
            texts += [str(getattr(element, part, None) or "") for part in ("label", "help")]
            texts += [str(option) for option in getattr(element, "options", None) or ()]
            if kind == "metric":
                texts.append(str(element.value))
    return texts


def _chart_texts(node: Any) -> list[str]:
    """A Vega-Lite spec's titles and tooltip headers (a tooltip without a title shows its
    field's name)."""
    if isinstance(node, list):
        return [text for item in node for text in _chart_texts(item)]
    if not isinstance(node, dict):
        return []
    texts = []
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            texts.append(value)
        if key == "tooltip":
            texts += [tip["field"] for tip in (value if isinstance(value, list) else [value])
                      if isinstance(tip, dict) and "field" in tip and "title" not in tip]
        texts += _chart_texts(value)
    return texts


def test_the_app_shows_nothing_outside_the_catalog(pseudo: str) -> None:
    """Every tab in the pseudo language. The map is visited last: AppTest formats a radio's
    options again on the next run outside the script, where the session's language is not
    readable, so leaving the map for another tab would compare English with pseudo labels."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.selectbox(key="lang").set_value(pseudo)
    at.run()
    found: dict[str, list[str]] = {}
    checked = 0
    allowed = allowed_words()
    for tab in TABS:
        at.session_state["tab"] = t(f"tab.{tab}", pseudo)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        texts = _widget_texts(at) + [text for chart in at.get("vega_lite_chart")
                                     for text in _chart_texts(json.loads(chart.proto.spec))]
        checked += sum(OPEN in text for text in texts)
        for text in texts:
            if words := unmarked(text, allowed):
                found.setdefault(text[:120], words)
    assert checked > 100, "the page said too little from the catalog to prove anything"
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


def test_the_report_says_nothing_outside_the_catalog(pseudo: str, tmp_path: Path) -> None:
    """The HTML report's text (its scripts and styles apart; a file name is user data)."""
    out = tmp_path / "report.html"
    csv = str(ROOT / "sample_docs" / f"{SAMPLE}.csv")
    assert main(["report", f"sample:{SAMPLE}", "--questions", csv, "--lang", pseudo,
                 "--model", "minilm-en", "--html", str(out)]) == 0
    page = re.sub(r"<script.*?</script>|<style.*?</style>", " ", out.read_text(), flags=re.S)
    text = html.unescape(MARKUP.sub(" ", page))
    assert OPEN in text
    allowed = allowed_words() | _words(f"{SAMPLE}.txt")
    assert [word for word in unmarked(text, allowed) if word.lower() not in _document()] == []


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every subcommand's parser under it (``cache info`` included)."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                yield from _parsers(child)


def _typed_words(parser: argparse.ArgumentParser) -> set[str]:
    """What the command line is typed with: flags, metavars, choices, subcommand names, the
    index forms (chroma:DIR, FILE.jsonl…)."""
    from ragviz.index.stores import forms

    typed = _words(forms())
    for each in _parsers(parser):
        for action in each._actions:
            typed |= _words(" ".join([*action.option_strings, action.dest or "",
                                      str(action.metavar or "")]))
            typed |= _words(" ".join(str(choice) for choice in action.choices or ()))
    return typed


def test_the_cli_help_says_nothing_outside_the_catalog(pseudo: str) -> None:
    """``--help`` of every command in the pseudo language: the help texts, argparse's own
    words (usage, the section titles, ``-h``) and the groups' titles come from the catalog;
    left are the flags, metavars and choices typed on the command line, environment
    variables, URLs and file forms (all capitals or inside the marked sentences)."""
    from ragviz.cli.parser import build_parser

    parser = build_parser(pseudo)
    allowed = allowed_words() | _typed_words(parser)
    helps = [each.format_help() for each in _parsers(parser)]
    assert len(helps) >= 12 and all(OPEN in text for text in helps)
    left = {word for text in helps for word in unmarked(text, allowed) if not word.isupper()}
    assert left == set()
    english = "\n".join(each.format_help() for each in _parsers(build_parser("en")))
    assert "show this help message and exit" in english and "usage: ragviz" in english


def failing_runs(folder: Path) -> dict[str, list[str]]:
    """Commands the fault paths refuse (issue 48 item 1): a chunking over the chunk limit,
    a prompt template that is not UTF-8, a file that does not exist."""
    long_doc, template = folder / "long.txt", folder / "template.txt"
    long_doc.write_text("word " * 2_800, encoding="utf-8")  # 11,200 one-letter chunks
    template.write_bytes(b"\xff\xfe\xfa not text {question}")
    sample_csv = str(ROOT / "sample_docs" / f"{SAMPLE}.csv")
    return {
        "too_many_chunks": ["chunk", str(long_doc), "--chunker", "fixed", "--size", "1",
                            "--overlap", "0"],
        "template_not_utf8": ["eval", f"sample:{SAMPLE}", "--questions", sample_csv,
                              "--llm", "openai:gpt-x", "--llm-base", "http://127.0.0.1:9/v1",
                              "--prompt-template", str(template)],
        "missing_file": ["chunk", str(folder / "nowhere.txt")],
    }


@pytest.mark.parametrize("failure", ["too_many_chunks", "template_not_utf8", "missing_file"])
def test_the_cli_says_its_failures_from_the_catalog(
    failure: str, pseudo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 48 item 1: error paths too: each refusal is said in the pseudo-locale, nothing
    in English outside the markers (the paths are user data)."""
    assert main([*failing_runs(tmp_path)[failure], "--lang", pseudo]) != 0
    said = capsys.readouterr()
    assert OPEN in said.err, said.err
    allowed = allowed_words() | _words(str(tmp_path)) | {"txt", *COMMANDS}  # "ragviz eval:"
    assert unmarked(said.out + said.err, allowed) == [], said.err
