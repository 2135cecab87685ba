"""Workspace JSON round trip, refusal of malformed files, and settings in the URL."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragviz.chunking import CHUNKER_NAMES, ChunkerConfig, get_spec
from ragviz.errors import InputError
from ragviz.inputs.documents import looks_binary_text
from ragviz.inputs.limits import TOP_K_RANGE
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.link_notes import import_link
from ragviz.share.links import read_query, settings_to_query
from ragviz.share.workspace import (
    MAX_WORKSPACE_BYTES,
    Settings,
    Workspace,
    check_model,
)

stripped_text = st.text(min_size=1, max_size=80).map(str.strip).filter(bool)
# Text the uploader would take: binary-looking text (NUL, >5% control characters) is refused.
documents = st.text(min_size=1, max_size=400).filter(
    lambda s: bool(s.strip()) and not looks_binary_text(s))
@st.composite
def questions(draw: st.DrawFn) -> LabelledQuestion:
    answerable = draw(st.sampled_from([True, False, None]))
    answer = "" if answerable is False else draw(st.one_of(st.just(""), stripped_text))
    return LabelledQuestion(draw(stripped_text), answer, answerable)


@st.composite
def configs(draw: st.DrawFn) -> ChunkerConfig:
    """Valid configurations only (overlap < size; one semantic breakpoint rule). A peer's
    overlap is drawn below its own size parameter (semchunk's ``overlap`` pairs with its
    ``chunk_size``, not with ``size``)."""
    size = draw(st.integers(1, 5000))
    threshold = draw(st.one_of(st.none(), st.floats(-1, 1, allow_nan=False)))
    percentile = (
        None if threshold is not None else draw(st.one_of(st.none(), st.floats(0, 100)))
    )
    config = ChunkerConfig(
        chunker=draw(st.sampled_from(CHUNKER_NAMES)),
        size=size,
        overlap=draw(st.integers(0, size - 1)),
        max_chars=draw(st.integers(1, 5000)),
        overlap_sentences=draw(st.integers(0, 5)),
        threshold=threshold,
        percentile=percentile,
    )
    spec = get_spec(config.chunker)
    if spec.overlap_is_share() and spec.size_axis != "size":
        limit = int(config.get(spec.size_axis or "") or 1)
        config = config.with_values(**{spec.overlap_axis or "": draw(st.integers(0, limit - 1))})
    return config


all_settings = st.builds(
    Settings,
    config_a=configs(),
    config_b=configs(),
    top_k=st.integers(*TOP_K_RANGE),
    floor=st.floats(-1, 1, allow_nan=False),
    model=st.sampled_from(["use-multilingual", "minilm-en", "intfloat/multilingual-e5-small"]),
    language=st.sampled_from(["en", "pt"]),
    sample=st.one_of(st.none(), st.sampled_from(["politica_reembolso", "x"])),
    model_b=st.one_of(st.none(), st.sampled_from(["minilm-en", "openai:m@http://127.0.0.1:8080/v1"])),
    floor_b=st.one_of(st.none(), st.floats(-1, 1, allow_nan=False)),
)
workspaces = st.builds(
    Workspace,
    document=documents,
    questions=st.lists(questions(), max_size=8).map(tuple),
    settings=all_settings,
    waiting=st.lists(questions(), max_size=3).map(tuple),  # asked to keep or clear
)


@given(workspaces)
@settings(max_examples=150)
def test_export_import_export_gives_the_same_file(workspace: Workspace) -> None:
    exported = workspace.to_json()
    imported = Workspace.from_json(exported)
    assert imported == workspace
    assert imported.to_json() == exported


@given(all_settings)
@settings(max_examples=150)
def test_settings_survive_the_url(original: Settings) -> None:
    # the settings part of a link, as read_link (the app's import_link) reads it
    restored, problems = read_query(settings_to_query(original))
    assert problems == []
    for config_r, config_o in (
        (restored.config_a, original.config_a),
        (restored.config_b, original.config_b),
    ):
        assert config_r.params() == config_o.params()
    assert (restored.top_k, restored.floor, restored.model, restored.language, restored.sample) == (
        original.top_k,
        original.floor,
        original.model,
        original.language,
        original.sample,
    )
    # B's own floor travels where B has its own model or scorer (else one floor for both)
    own = original.model_b is not None or original.scorer_b is not None
    assert (restored.model_b, restored.floor_b) == (
        original.model_b, original.floor_b if own else None)


def test_a_file_from_before_b_had_its_own_model_reads_and_exports_unchanged() -> None:
    old = _valid()
    assert "model_b" not in old["settings"] and "floor_b" not in old["settings"]  # type: ignore[operator]
    text = json.dumps(old, ensure_ascii=False, indent=2) + "\n"
    workspace = Workspace.from_json(text)
    assert workspace.settings.model_of("b") == workspace.settings.model_of("a")
    assert workspace.settings.floor_of("b") == workspace.settings.floor
    assert workspace.to_json() == text


def test_b_model_and_floor_round_trip_and_are_checked() -> None:
    settings = Settings(model="use-multilingual", model_b="minilm-en", floor=0.2, floor_b=0.45)
    restored = Workspace.from_json(Workspace("Documento.", (), settings).to_json()).settings
    assert (restored.model_of("a"), restored.model_of("b")) == ("use-multilingual", "minilm-en")
    assert (restored.floor_of("a"), restored.floor_of("b")) == (0.2, 0.45)
    data = _valid()
    data["settings"].update(model_b="/etc", floor_b=0.1)  # type: ignore[attr-defined]
    with pytest.raises(InputError, match="model '/etc' is not a bundled model"):
        Workspace.from_json(json.dumps(data))
    data["settings"].update(model_b="minilm-en", floor_b=7.0)  # type: ignore[attr-defined]
    with pytest.raises(InputError, match="floor must be between"):
        Workspace.from_json(json.dumps(data))


def _valid() -> dict[str, object]:
    return json.loads(Workspace("Documento.", (LabelledQuestion("Qual?", "x", True),)).to_json())


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda d: d.update(format="other"), "not a ragviz workspace"),
        (lambda d: d.update(version=99), "unsupported workspace version"),
        (lambda d: d.update(document="   "), "empty"),
        (lambda d: d.update(document=5), "'document' must be str"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d["questions"][0].update(answerable="yes"), "'answerable' must be"),
        (lambda d: d["settings"].update(top_k=0), "top_k must be between"),
        (lambda d: d["settings"].update(floor=3.0), "floor must be between"),
        (lambda d: d["settings"]["config_a"].update(chunker="magic"), "unknown chunker"),
        (lambda d: d["settings"].update(language="fr"), "language must be"),
        (lambda d: d["settings"].update(__class__="os.system"), "unknown field"),
        (lambda d: d.update(version=True), "unsupported workspace version"),
        (lambda d: d["questions"][0].update(question="  "), "the question is empty"),
        (lambda d: d.update(waiting_questions="q?"), "'waiting_questions' must be list"),
        (lambda d: d.update(waiting_questions=[{"question": "q?", "answer": "",
                                                "answerable": 1}]), "'answerable' must be"),
        (lambda d: d["questions"][0].update(answerable=False), "cannot have an expected answer"),
        (lambda d: d["settings"]["config_a"].update(size=10, overlap=10), "overlap must be"),
        (lambda d: d["settings"]["config_a"].update(size=-5), "size must be at least 1"),
    ],
)
def test_malformed_workspaces_are_refused(mutate, fragment: str) -> None:  # type: ignore[no-untyped-def]
    data = _valid()
    mutate(data)
    with pytest.raises(InputError, match=fragment):
        Workspace.from_json(json.dumps(data))


def test_a_long_version_is_quoted_short() -> None:
    """Hypothesis found "unsupported workspace version [None, 1e+16, {…}]" 300 characters
    long: the version a file gives is quoted cut, as every other value the user gave."""
    data = _valid()
    data["version"] = [None, 1e16, {"questions": "0" * 400}]
    with pytest.raises(InputError, match="unsupported workspace version") as refused:
        Workspace.from_json(json.dumps(data))
    assert len(str(refused.value)) < 120 and "…" in str(refused.value)


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"format": 1}', ""])
def test_non_workspace_text_is_refused(text: str) -> None:
    with pytest.raises(InputError):
        Workspace.from_json(text)


def test_oversize_workspace_is_refused_before_parsing() -> None:
    with pytest.raises(InputError, match="limit"):
        Workspace.from_json("x" * (MAX_WORKSPACE_BYTES + 1))


def test_bad_url_values_are_reported_and_skipped() -> None:
    restored, problems, _notes = import_link(
        {"a": "magic", "k": "two", "a_size": "big", "floor": "0.3"}, Settings())
    assert restored.config_a.chunker == "fixed"
    assert restored.floor == 0.3
    assert any("magic" in p for p in problems)
    assert any("two" in p for p in problems)


def test_a_lone_surrogate_is_refused_so_export_always_works() -> None:
    data = _valid()
    text = json.dumps(data).replace('"Documento."', '"Docu\\ud800mento."')
    with pytest.raises(InputError, match="not valid Unicode"):
        Workspace.from_json(text)


def test_a_link_model_with_a_bad_api_base_says_why_without_its_credentials() -> None:
    """Issue 24 #17: before, "not a bundled model or a hub id" (and no word on the URL)."""
    for value, says in (("openai:m@http://bob:s3cret@127.0.0.1:9/v1", "user name or password"),
                        ("openai:m@http://127.0.0.1:9/v1?k=1", "query or fragment"),
                        ("openai:m@127.0.0.1:9/v1", "must start with http:// or https://")):
        with pytest.raises(InputError) as refused:
            check_model(value)
        assert says in str(refused.value) and "s3cret" not in str(refused.value)
