"""The guided replay in the app: its step lives in the URL, and its words agree with the
numbers on screen."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from ragviz_app.walkthrough import STEPS
from tests.test_app_sharing import APP, TIMEOUT, page_text, run


def test_a_link_with_a_walk_step_reopens_that_step() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"walk": "3", "k": "3"})
    run(at)
    assert at.session_state.walk_on
    assert STEPS[2].title("en") in page_text(at)
    assert at.query_params["walk"] == "3"
    at.button(key="walk_next").click()
    run(at)
    assert STEPS[3].title("en") in page_text(at)
    assert at.query_params["walk"] == "4"
    assert at.query_params["k"] == "3", "the other parameters stay in the link"


def test_leaving_the_replay_takes_the_step_out_of_the_link() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"walk": "2"})
    run(at)
    at.button(key="walk_exit").click()
    run(at)
    assert not at.session_state.walk_on
    assert "walk" not in at.query_params


def test_a_step_without_a_floor_names_the_floor_its_verdicts_use() -> None:
    """Steps 3 and 4 said "floor none" above "passes the floor -0.10": one number now."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"walk": "3"})
    run(at)
    text = page_text(at)
    said = set(re.findall(r"passes the floor (-?\d+\.\d+)", text))
    settings = next(c.value for c in at.caption if c.value.startswith("On screen:"))
    shown = re.search(r"floor (-?\d+\.\d+)", settings)
    assert shown is not None, settings
    assert said == {shown.group(1)}, (said, settings)


def test_the_replay_help_counts_its_steps_and_step_4_draws_its_distances_apart() -> None:
    """Issue 43: the help said "Six steps" over seven; step 4 said 0.552 and 0.566 over a
    map that drew them alike: a strip on an axis zoomed on them draws each apart."""
    from ragviz.i18n import t
    from ragviz_app.walkthrough import distance_domain
    from tests.test_app import charts

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"walk": "4"})
    run(at)
    assert len(STEPS) == 7
    assert at.toggle(key="walk_on").help == t("walk.toggle_help", "en", n=7)
    assert at.toggle(key="walk_on").help.startswith("7 steps")
    strips = [(spec, data) for spec, data in charts(at)
              if t("walk.map.distance_axis", "en") in json.dumps(spec)]
    assert len(strips) == 1
    spec, data = strips[0]
    rows = next(iter(data.values()))
    distances = sorted(rows["distance"].tolist())
    assert len(distances) >= 3  # fixed's winner and holder, sentence's nearest
    low, high = distance_domain(distances)
    assert json.dumps(list(distance_domain(distances))) in json.dumps(spec)
    for _config, pair in rows.groupby("config"):  # the two the text compares, per config
        if len(pair) == 2:
            gap = abs(pair["distance"].iloc[0] - pair["distance"].iloc[1])
            assert gap == 0 or gap / (high - low) >= 0.02  # 12 px of a 600 px axis or more
    assert all(label.endswith(f"{d:.3f}") for label, d in zip(rows["label"],
                                                               rows["distance"], strict=True))
