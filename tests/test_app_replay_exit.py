"""Leaving the guided replay (its button or the sidebar toggle) gives every control back
the value in force: the browser mounts each widget from what the server sends with it, so
the tests read that (issue 44.1: the sliders came back at their minimums, B at "fixed")."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.test_app_sharing import APP, TIMEOUT, run

CONTROLS = ("top_k", "floor", "a_size", "a_overlap", "b_max_chars", "b_overlap_sentences")
PICKERS = ("a_chunker", "b_chunker")


def mounted(widget: Any) -> Any:
    """The value a browser that has not got this widget shows: the one sent with it when
    the server says so (``set_value``), else the widget's default."""
    proto = widget.proto
    if widget.type == "selectbox":
        return proto.raw_value if proto.set_value else widget.options[proto.default]
    values = list(proto.value if proto.set_value else proto.default)
    return type(widget.value)(values[0])


def shown(at: AppTest) -> dict[str, Any]:
    """Every control's value as a browser would draw it after this run."""
    sliders = {s.key: mounted(s) for s in at.slider if s.key in CONTROLS}
    pickers = {s.key: mounted(s) for s in at.selectbox if s.key in PICKERS}
    return {**sliders, **pickers}


def in_force(at: AppTest) -> dict[str, Any]:
    return {key: at.session_state[key] for key in (*CONTROLS, *PICKERS)}


def leave_by_button(at: AppTest) -> None:
    at.button(key="walk_exit").click()


def leave_by_toggle(at: AppTest) -> None:
    at.toggle(key="walk_on").set_value(False)


@pytest.mark.parametrize("leave", [leave_by_button, leave_by_toggle])
def test_leaving_the_replay_shows_every_setting_in_force(leave: Any) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    run(at)
    before = in_force(at)
    assert shown(at) == before
    assert before["b_chunker"] == "sentence" and before["a_size"] == 120
    at.toggle(key="walk_on").set_value(True)
    run(at)
    assert not at.slider, "the replay draws no slider of the explorer"
    at.button(key="walk_next").click()
    run(at)
    leave(at)
    run(at)
    assert not at.session_state.walk_on
    assert in_force(at) == before
    assert shown(at) == before, "a browser would draw another value than the one in force"
    # one more ordinary run: the widgets are the browser's again, nothing is re-sent
    at.slider(key="a_size").set_value(121)
    run(at)
    assert in_force(at) == {**before, "a_size": 121}
    assert not at.slider(key="b_max_chars").proto.set_value
