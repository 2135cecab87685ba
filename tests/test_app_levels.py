"""The page's two levels (issue 44.2): by default the first level, its second level's
controls hidden; one switch, "More controls", remembered in the link and the workspace; a
link that uses a second-level setting opens with it on."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.share import links
from ragviz.share.workspace import Settings, Workspace
from ragviz_app import levels
from tests.test_app_sharing import APP, TIMEOUT, run


def first_level_hidden(at: AppTest) -> bool:
    """Whether the page carries the style that hides the second level."""
    return any(levels.FIRST_LEVEL_CSS in str(h.proto.body) for h in at.get("html"))


def test_a_first_visit_shows_the_first_level_and_the_switch_turns_the_second_on() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    run(at)
    assert at.toggle(key=levels.KEY).value is False
    assert first_level_hidden(at)
    assert links.MORE_KEY not in at.query_params
    at.toggle(key=levels.KEY).set_value(True)
    run(at)
    assert not first_level_hidden(at)
    assert at.query_params[links.MORE_KEY] == "1", "the link remembers the switch"
    at.session_state["tab"] = "Map"  # a second-level view open, then back to the first
    run(at)
    at.toggle(key=levels.KEY).set_value(False)
    run(at)
    assert first_level_hidden(at)
    assert links.MORE_KEY not in at.query_params
    assert at.session_state.tab_id == levels.FIRST_TAB, "the first level's one view opens"


@pytest.mark.parametrize("query", [{"more": "1"}, {"scorer": "bm25"}, {"expand": "1"},
                                   {"tab": "calibration"}, {"b_scorer": "bm25"}])
def test_a_link_that_uses_the_second_level_opens_with_it_on(query: dict[str, str]) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    run(at)
    assert at.toggle(key=levels.KEY).value is True
    assert not first_level_hidden(at)


def test_a_link_on_the_first_level_keeps_it_and_a_bad_switch_is_named() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"k": "2", "more": "yes"})
    run(at)
    assert at.toggle(key=levels.KEY).value is False
    assert at.session_state.top_k == 2
    assert any("is not 0 or 1" in w.value and "yes" in w.value for w in at.warning), \
        [w.value for w in at.warning]


def test_the_workspace_remembers_the_switch() -> None:
    on = Workspace("A text.", settings=Settings(more_controls=True))
    assert Workspace.from_json(on.to_json()).settings.more_controls is True
    off = Workspace("A text.")
    assert "more_controls" not in off.to_json(), "files without the switch read as before"
    assert Workspace.from_json(off.to_json()).settings.more_controls is False
    assert links.settings_to_query(Settings(more_controls=True))[links.MORE_KEY] == "1"
    read, problems = links.read_link({links.MORE_KEY: "1"}, Settings())
    assert read.more_controls is True and not problems
