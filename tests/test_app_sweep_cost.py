"""The app's sweep says its cost before it starts (issue 44.4): configurations x chunks,
the texts the cache already holds and the time at the model's measured pace; one
estimated past ten minutes waits for a confirmation."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.evaluation import sweep_cost
from tests.test_app import open_tab, rerun, run_app


def _sweep_tab() -> AppTest:
    at = open_tab(run_app(tab=None), "compare")
    at.multiselect(key="sweep_chunkers").set_value(["fixed"])
    at.text_input(key="sweep_sizes").input("150, 300")
    return rerun(at)


def _cost_line(at: AppTest) -> str:
    return next(c.value for c in at.caption if "chunks in all" in c.value)


def test_the_cost_is_said_before_the_sweep_starts() -> None:
    at = _sweep_tab()
    line = _cost_line(at)
    assert at.button(key="run_sweep").label == "Run sweep (4 configurations)"
    assert line.startswith("4 configurations, ") and "on this machine" in line, line
    assert not at.button(key="run_sweep").disabled
    assert not any("would take about" in w.value for w in at.warning)


def test_a_long_sweep_waits_for_a_confirmation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep_cost, "LONG_SECONDS", -1.0)  # any sweep counts as long
    at = _sweep_tab()
    assert any("would take about" in w.value and "labelled answers" in w.value
               for w in at.warning)
    assert at.button(key="run_sweep").disabled
    at.checkbox(key="sweep_confirm").check()
    rerun(at)
    assert not at.button(key="run_sweep").disabled
