"""Typed output (issue 32 item 6): every command with ``--json`` prints what
``ragviz schema COMMAND`` says, with ``schema_version`` and, where it retrieves, the retrieval
settings in its header. One run per command on the bundled article (the default model,
shared with the other CLI tests through the disk cache)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from ragviz.cli.command import build_parser, main
from ragviz.cli.outputs import OUTPUTS, SCHEMA_VERSION, checked, schema
from ragviz.embedding.models import Embedder
from tests.index_fixtures import DOC, QUESTIONS, SOURCE, fixed_120, write_jsonl
from tests.test_question_writing import KEY, MODEL
from tests.test_question_writing import base as base

FIXED = ["--chunker", "fixed", "--size", "120", "--overlap", "0"]
SENTENCE = ["--chunker", "sentence", "--max-chars", "220", "--overlap-sentences", "1"]
LABELLED = [str(DOC), "--questions", str(QUESTIONS)]
SETTINGS = {"model", "chunker", "config", "scorer", "reranker", "rerank_depth", "expand",
            "top_k", "floor"}
RETRIEVING = ("search", "eval", "eval --index", "calibrate", "report", "compare", "sweep",
              "explain")


def _out(*args: str) -> str:
    """``ragviz ARGS``'s standard output (it must succeed)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(list(args)) == 0, args
    return buffer.getvalue()


def _index(folder: Path, embedder: Embedder) -> str:
    """The article's fixed-120 chunks with their vectors, as a LangChain JSONL export."""
    chunks = fixed_120(DOC.read_text(encoding="utf-8"))
    vectors = embedder.encode_documents([c.text for c in chunks])
    path = folder / "chunks.jsonl"
    write_jsonl(path, [{"page_content": c.text, "metadata": {"source": SOURCE},
                        "embedding": v.tolist()} for c, v in zip(chunks, vectors, strict=True)])
    return str(path)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory, use_model: Embedder, base: str
            ) -> dict[str, dict[str, Any]]:
    """Each command's ``--json`` output, by the name ``ragviz schema`` knows it by."""
    folder = tmp_path_factory.mktemp("schema")
    index = _index(folder, use_model)
    runs = {
        "chunk": ["chunk", str(DOC), *FIXED],
        "search": ["search", str(DOC), *FIXED, "--question", "Qual o prazo do reembolso?"],
        "eval": ["eval", *LABELLED, *FIXED, "--expand", "1"],
        "eval --index": ["eval", "--index", index, "--questions", str(QUESTIONS),
                         "--sources", str(DOC)],
        "calibrate": ["calibrate", *LABELLED, *SENTENCE],
        "report": ["report", *LABELLED, *FIXED, "--html", str(folder / "report.html")],
        "compare": ["compare", *LABELLED, *FIXED, *[f"--b-{a[2:]}" if a.startswith("--")
                                                    else a for a in SENTENCE],
                    "--b-scorer", "cosine+rerank(sentence-max)"],
        "sweep": ["sweep", *LABELLED, "--chunkers", "fixed", "--sizes", "120,240", "--overlaps",
                  "0", "--scorers", "cosine,bm25"],
        "index": ["index", index, "--model", "use-multilingual"],
        "explain": ["explain", str(DOC), *FIXED, "--question", "Qual o prazo do reembolso?",
                    "--bot-answer", "Em até 7 dias úteis.", "--expected", "7 dias úteis"],
        "cache info": ["cache", "info"],
        "questions": ["questions", str(DOC), "--llm", f"openai:{MODEL}", "--llm-base", base,
                      "--count", "2", "--out", str(folder / "questions.csv")],
        "labels": ["labels", "--lang", "pt"],
    }
    with pytest.MonkeyPatch.context() as patch:  # the question-writing model's key
        patch.setenv("RAGVIZ_LLM_API_KEY", KEY)
        out = {name: json.loads(_out(*args, "--json")) for name, args in runs.items()}
    previous = os.environ.get("RAGVIZ_CACHE_DIR")
    os.environ["RAGVIZ_CACHE_DIR"] = str(folder / "cache")  # never the session's cache
    try:
        out["cache clear"] = json.loads(_out("cache", "clear", "--json"))
    finally:
        os.environ["RAGVIZ_CACHE_DIR"] = previous or ""
    return out


def _schema(name: str) -> dict[str, Any]:
    return json.loads(_out("schema", *name.split()))  # type: ignore[no-any-return]


def test_every_command_with_json_has_a_definition() -> None:
    parser = build_parser()
    with_json: set[str] = set()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert isinstance(commands, dict)
    for name, command in commands.items():
        actions = next((a.choices for a in command._actions if a.dest == "action"), None)
        for full, sub in ({f"{name} {k}": v for k, v in actions.items()} if actions
                          else {name: command}).items():
            if any("--json" in a.option_strings for a in sub._actions):
                with_json.add(full)
    assert with_json == set(OUTPUTS)
    assert _out("schema").splitlines() == list(OUTPUTS)


@pytest.mark.parametrize("name", [*OUTPUTS, "eval --index"])
def test_json_output_is_valid_by_its_schema(outputs: dict[str, dict[str, Any]],
                                            name: str) -> None:
    schema = _schema(name.removesuffix(" --index"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(outputs[name], schema, cls=jsonschema.Draft202012Validator)
    assert set(schema["required"]) <= set(outputs[name])


@pytest.mark.parametrize("name", [*OUTPUTS, "eval --index"])
def test_every_header_carries_the_version(outputs: dict[str, dict[str, Any]],
                                          name: str) -> None:
    data = outputs[name]
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["command"] == name.removesuffix(" --index")
    assert list(data)[:2] == ["schema_version", "command"]


@pytest.mark.parametrize("name", RETRIEVING)
def test_every_retrieving_header_carries_the_settings(outputs: dict[str, dict[str, Any]],
                                                      name: str) -> None:
    data = outputs[name]
    assert set(data) >= SETTINGS
    assert data["model"] == "use-multilingual"
    assert data["scorer"] == "cosine" and data["reranker"] is None
    assert data["top_k"] == 2 and data["expand"] == (1 if name == "eval" else 0)


def test_the_settings_say_what_ran(outputs: dict[str, dict[str, Any]]) -> None:
    assert outputs["eval"]["config"] == {"chunker": "fixed", "size": 120, "overlap": 0}
    assert outputs["eval"]["floor"] == -1.0  # no --floor: the cosine scale's bottom
    assert outputs["sweep"]["chunker"] is None  # the rows vary it
    assert {row["scorer"] for row in outputs["sweep"]["rows"]} == {"cosine", "bm25"}
    calibrate = outputs["calibrate"]
    assert calibrate["floor_given"] == -1.0 < calibrate["floor"]  # the suggested floor
    b = outputs["compare"]["b_settings"]
    assert (b["scorer"], b["reranker"], b["rerank_depth"]) == (
        "cosine+rerank(sentence-max)", "sentence-max", 20)
    assert b["chunker"] == "sentence(max_chars=220, overlap_sentences=1)"
    assert outputs["report"]["configurations"] == ["fixed(size=120, overlap=0)"]
    assert outputs["index"]["model"] == "use-multilingual"  # the vectors' check


# The schemas ``ragviz schema`` published with ``schema_version`` 1 when each output was a
# pydantic model (``cli/json_models.py``), captured from that code before the outputs became
# dataclasses: a change to one is a change to the contract (bump ``SCHEMA_VERSION`` when a
# field changes meaning or goes away, then record the new schema here).
PUBLISHED = Path(__file__).parent / "data" / "json_schemas_v1.json"


def _shape(schema: Any) -> Any:
    """A schema without its descriptions (prose, free to improve)."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def _descriptions(schema: Any, path: str = "") -> dict[str, str]:
    """Every description in a schema by where it stands."""
    found: dict[str, str] = {}
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                found[path] = value
            else:
                found |= _descriptions(value, f"{path}/{key}")
    return found


@pytest.mark.parametrize("name", list(OUTPUTS))
def test_every_schema_is_the_published_one(name: str) -> None:
    published = json.loads(PUBLISHED.read_text(encoding="utf-8"))[name]
    now = schema(name)
    if name == "sweep":  # a TypedDict key has no default: ``"default": null`` said nothing
        del published["$defs"]["SweepRow"]["properties"]["scorer"]["default"]
    assert _shape(now) == _shape(published)
    # descriptions may be added (a result's own docstring), none is lost or reworded
    assert _descriptions(published).items() <= _descriptions(now).items()


def test_a_null_the_command_gave_stays_and_a_field_it_left_out_stays_out(
        tmp_path: Path, use_model: Embedder) -> None:
    listed = json.loads(_out("index", _index(tmp_path, use_model), "--json"))  # no --model
    collection = listed["collections"][0]
    assert "model" in collection and collection["model"] is None  # said: no model checked
    assert "vector_mismatch_share" not in collection  # never measured: not in the JSON


def test_a_field_without_its_definition_is_refused() -> None:
    payload = {"folder": "/tmp/x", "entries_removed": 0, "bytes_freed": 0}
    assert checked("cache clear", payload)["schema_version"] == SCHEMA_VERSION
    with pytest.raises(ValidationError):
        checked("cache clear", {**payload, "surprise": 1})


def test_report_says_where_it_went_in_the_language_asked(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    said = _out("report", *LABELLED, *FIXED, "--html", str(html), "--lang", "pt")
    characters = f"{len(html.read_text(encoding='utf-8')):,}".replace(",", ".")
    assert said == f"relatório escrito em {html} ({characters} caracteres)\n"


def test_report_has_no_table_and_says_so_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "report.html"
    assert main(["report", *LABELLED, "--html", str(html), "--format", "md"]) == 2
    assert capsys.readouterr().err.startswith("ragviz report: ragviz report has no table")
    assert not html.exists()


def test_schema_of_an_unknown_command_is_one_sentence(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ragviz schema: there is no JSON output named 'nope': give one of ")
    assert "cache info" in err and "Traceback" not in err
