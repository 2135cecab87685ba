"""A floor or top_k move reruns one fragment, not the page (issue 25, item 3), and leaves
nothing stale: in the real Streamlit runtime with the real default model. AppTest's own runs
are full runs; ``step`` sends the rerun the browser sends for a widget of a fragment (its
message names the fragment), so the fragment runs alone, as in the browser.

"Nothing stale" is checked element by element against a full run at the new value: every
element of the page that differs between full runs at the old and the new value must be one
the fragment redrew, and every element the fragment drew must be the full run's.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import partial
from typing import Any
from unittest.mock import patch

import pytest
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import AppTest, local_script_runner

from ragviz.chunking import ChunkerConfig
from ragviz.i18n import t
from ragviz.present import presentation
from ragviz_app.frame import RETRIEVAL_FRAGMENT
from tests.test_app import open_tab, page_text, rerun, run_app

# A download's deferred file id and a styled table's CSS id are drawn at random each run; a
# toast says the model loaded (once per process): none is part of what the page shows for a
# floor (a download made now has a URL from its content: it is compared). A widget's message
# carries its value only when the run set it through the session (the full run's ``persist``
# does, a fragment run does not): its value is compared as the widget holds it instead.
_RANDOM = re.compile(r'deferred_file_id: "[0-9a-f]+"|uuid: "[0-9a-f]+"|T_[0-9a-f]{5}_')
_SET_VALUE = re.compile(r"^(value|set_value|raw_value): .*\n", re.MULTILINE)


def elements(at: AppTest) -> Counter[str]:
    """Every element of the last run's tree (main area and sidebar) as its message text."""
    found: Counter[str] = Counter()

    def walk(node: Any) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)
            return
        kind = type(node).__name__
        text = _RANDOM.sub("", str(getattr(node, "proto", "")))
        if getattr(node, "id", None) and kind in ("Slider", "NumberInput", "Selectbox"):
            text = _SET_VALUE.sub("", text) + f"shown: {node.value!r}"
        if kind != "Toast":
            found[kind + ":" + text] += 1

    walk(at._tree)
    return found


def step(at: AppTest, key: str, value: float) -> AppTest:
    """Move slider ``key`` as the browser does: the rerun names the slider's fragment."""
    at.slider(key=key).set_value(value)
    (fragment,) = at._fragment_storage.resolve_target(RETRIEVAL_FRAGMENT)
    with patch.object(local_script_runner, "RerunData", partial(RerunData, fragment_id=fragment)):
        return rerun(at)


def full_run_at(tab: str, key: str, value: float) -> AppTest:
    """A fresh session's page with ``key`` at ``value``, drawn by a full run."""
    at = open_tab(run_app(tab=None), tab)
    at.session_state[key] = value
    return rerun(at)


@pytest.mark.parametrize(("tab", "key", "value"), [
    ("questions", "floor", 0.5),
    ("questions", "top_k", 3),
    ("calibration", "floor", 0.3),
    ("chunks", "top_k", 2),
    ("compare", "floor", 0.3),
])
def test_a_step_reruns_only_the_fragment_and_leaves_no_stale_element(
    tab: str, key: str, value: float,
) -> None:
    at = open_tab(run_app(tab=None), tab)
    before = elements(at)
    redrawn = elements(step(at, key, value))
    # the fragment alone ran: the configurations' widgets and the editor were not sent again
    assert not [s for s in at.slider if s.key in ("a_size", "b_max_chars")]
    assert at.slider(key=key).value == value
    after = elements(full_run_at(tab, key, value))
    changed = after - before
    assert changed, "the step changes something on the page"
    assert not changed - redrawn, "an element that depends on the value was not redrawn"
    assert not redrawn - after, "the fragment drew something a full run would not"


def test_the_link_follows_a_fragment_step() -> None:
    at = run_app(tab=None)
    step(at, "floor", 0.42)
    assert at.query_params["floor"] == "0.42"
    step(at, "top_k", 3)
    assert at.query_params["k"] == "3" and at.query_params["floor"] == "0.42"


def test_a_fragment_step_after_an_input_of_the_analyses_changed_reruns_the_page() -> None:
    """A widget inside the fragment that changes a configuration (a fix or the sweep's best
    loaded into A) must not leave the page above it describing the old one: the fragment
    sees the inputs moved and asks for a full run before drawing anything."""
    at = run_app(tab=None)
    at.session_state["a_size"] = 100  # as "load into A" does, from inside the fragment
    step(at, "floor", 0.3)
    assert at.slider(key="a_size").value == 100, "the whole page was drawn again"
    label = presentation.config_text(ChunkerConfig("fixed", size=100), "en")
    assert any(c.value.endswith(" chunks · " + label) for c in at.caption)


def test_rows_typed_but_not_applied_survive_fragment_steps() -> None:
    """Issue 19's rule: a floor or top_k step redraws no part of the question editor, and the
    rows typed there are still there, unapplied, at the next full run."""
    at = run_app(tab=None)
    at.session_state["questions_editor"] = {
        "edited_rows": {}, "added_rows": [{"question": "Typed, kept?", "answer": ""}],
        "deleted_rows": []}
    step(at, "floor", 0.3)
    step(at, "top_k", 2)
    assert not at.get("arrow_data_frame"), "the editor is outside the fragment"
    at.session_state["lang"] = "pt"  # the sidebar's picker: a full run
    rerun(at)
    assert t("app.questions_not_applied", "pt") in page_text(at)
    assert "Typed, kept?" in list(at.data_editor(key="questions_editor").value["question"])
