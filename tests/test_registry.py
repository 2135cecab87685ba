"""The chunker registry: one default and one range per parameter, used by every interface."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragviz.chunking import CHUNKER_NAMES, ChunkerConfig, check_config, default_grid, specs
from ragviz.chunking.registry import get_spec
from ragviz.chunking.spec import ChunkerSpec
from ragviz.cli.command import build_parser, chunker_config
from ragviz.present.link_notes import import_link
from ragviz.present.param_words import param_label
from ragviz.share.workspace import Settings, Workspace
from ragviz_app import app_state

SPECS = specs()
IDS = [spec.name for spec in SPECS]

HOSTILE = [
    10**400,
    -(10**400),
    "1" + "0" * 400,
    "9" * 5001,
    "-" + "9" * 5001,
    math.nan,
    math.inf,
    -math.inf,
    "nan",
    "inf",
    "big",
    "",
    True,
    False,
    None,
    [],
    {},
    "1e999",
]


def _spec_defaults(spec: ChunkerSpec) -> dict[str, object]:
    return dict(spec.defaults())


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_cli_defaults_are_the_spec_defaults(spec: ChunkerSpec) -> None:
    args = build_parser().parse_args(["chunk", "doc.txt", "--chunker", spec.name])
    assert chunker_config(args).params() == _spec_defaults(spec)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_app_widget_defaults_are_the_spec_defaults(spec: ChunkerSpec) -> None:
    widgets = app_state.param_specs(spec.name, 10**9)
    assert {w.name: w.default for w in widgets} == {p.name: p.default for p in spec.params}
    config = app_state.config_from_values(spec.name, {}, 10**9)
    assert config.params() == _spec_defaults(spec)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_workspace_and_link_defaults_are_the_spec_defaults(spec: ChunkerSpec) -> None:
    data = json.loads(Workspace("Documento.").to_json())
    data["settings"]["config_a"] = {"chunker": spec.name}
    loaded = Workspace.from_json(json.dumps(data)).settings.config_a
    assert loaded.params() == _spec_defaults(spec)
    restored, problems, _notes = import_link({"a": spec.name}, Settings())
    assert problems == []
    expected = {k: v for k, v in _spec_defaults(spec).items() if k not in spec.alternatives}
    assert {k: v for k, v in restored.config_a.params().items() if v is not None} == expected


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_every_widget_range_lies_inside_what_links_accept(spec: ChunkerSpec) -> None:
    """A value a slider can hold is a value a link or workspace may hold, and back."""
    for n_chars in (1, 300, 10**6):
        for widget in app_state.param_specs(spec.name, n_chars):
            assert widget.param.minimum <= widget.low <= widget.default <= widget.high
            assert widget.high <= widget.param.maximum
            for value in (widget.low, widget.high):
                assert widget.param.check(value) == value


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_every_param_has_a_label_in_both_languages(spec: ChunkerSpec) -> None:
    from ragviz.i18n import STRINGS

    for param in spec.params:  # labels are the catalog's, by the parameter's name (issue 18)
        assert param_label(param, "en") and param_label(param, "pt")
        assert set(STRINGS[f"param_label.{param.name}"]) >= {"en", "pt"}


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_hostile_widget_values_are_clamped_never_raised(spec: ChunkerSpec, value: object) -> None:
    values = {p.name: value for p in spec.params}
    config = app_state.config_from_values(spec.name, values, 5000)
    check_config(config)
    for widget in app_state.param_specs(spec.name, 5000):
        got = config.get(widget.name)
        assert got is None or widget.low <= got <= widget.high


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@pytest.mark.parametrize("value", [v for v in HOSTILE if isinstance(v, str)], ids=repr)
def test_hostile_link_values_are_named_short_and_the_rest_applies(
    spec: ChunkerSpec, value: str
) -> None:
    query = {"a": spec.name, "k": "3", **{f"a_{p.name}": value for p in spec.params}}
    restored, problems, _notes = import_link(query, Settings())
    assert restored.top_k == 3
    assert restored.config_a.chunker == spec.name
    check_config(restored.config_a)
    assert len(problems) == len(spec.params)
    assert all(len(p) < 200 for p in problems)
    named = sorted(p.split(" ")[0].split("=")[0] for p in problems)
    assert named == sorted(f"a_{p.name}" for p in spec.params)


def test_an_out_of_range_link_value_is_named_by_its_link_key() -> None:
    restored, problems, _notes = import_link(
        {"a": "fixed", "a_size": "9" * 400, "a_overlap": "5"}, Settings())
    assert problems == [f"a_size='{'9' * 39}…' is not a number the slider can hold"]
    assert restored.config_a.get("overlap") == 5


@pytest.mark.parametrize("raw", ["1" + "0" * 400, "9" * 5001, "1e400", "nan", "true"])
def test_hostile_workspace_values_are_refused_with_a_sentence(raw: str) -> None:
    text = Workspace("Documento.").to_json().replace('"size": 120', f'"size": {raw}')
    with pytest.raises(Exception) as error:
        Workspace.from_json(text)
    assert type(error.value).__name__ == "InputError"
    assert len(str(error.value)) < 300


@given(st.dictionaries(st.sampled_from(["a", "b", "a_size", "a_overlap", "a_max_chars",
                                        "b_percentile", "b_threshold", "a_overlap_sentences",
                                        "k", "floor"]), st.text(max_size=30)))
@settings(max_examples=200)
def test_random_links_never_raise(query: dict[str, str]) -> None:
    restored, _, _notes = import_link(query, Settings())
    assert isinstance(restored, Settings)
    check_config(restored.config_a)
    check_config(restored.config_b)


def test_the_sweep_axes_come_from_the_specs() -> None:
    grid = default_grid(5000, chunkers=tuple(s.name for s in SPECS if s.size_steps))
    assert {c.chunker for c in grid} == {s.name for s in SPECS if s.size_steps}
    for config in grid:
        check_config(config)


def test_names_are_in_menu_order() -> None:
    assert CHUNKER_NAMES[:2] == ("fixed", "sentence")
    assert get_spec("semantic").alternatives == ("percentile", "threshold")


def test_semantic_defaults_agree_everywhere() -> None:
    """The disagreement that started this: semantic percentile 25 in the chunker, 90 in the
    app; markdown 800/0 in the CLI, 220/1 in the app."""
    assert app_state.config_from_values("semantic", {}, 10**6).get("percentile") == 25.0
    markdown = app_state.config_from_values("markdown", {}, 10**6)
    args = build_parser().parse_args(["chunk", "d.txt", "--chunker", "markdown"])
    assert markdown == chunker_config(args) == ChunkerConfig.create("markdown")
    assert (markdown.get("max_chars"), markdown.get("overlap_sentences")) == (800, 0)
