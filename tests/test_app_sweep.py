"""The app's sweep (issue 36 item 12) in the real Streamlit runtime with minilm-en on the
article's sample: sizes and overlaps typed (checked, limited in one sentence), run in the
background through the CLI's path with the configurations done and Cancel, which keeps the
rows finished. The job's thread is joined (waited for), never timed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.evaluation.sweeping import SweepStep
from ragviz_app.sweep_job import SweepJob
from ragviz_app.views.sweep import JOB_KEY
from tests.test_app import _kind, charts, layer_data, open_tab, page_text, rerun, run_app

WAIT = 120.0  # longest a test waits for the sweep's thread (a loaded CI machine)


def _on_minilm() -> AppTest:
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("minilm-en")
    rerun(at)
    return open_tab(at, "compare")


def _typed(at: AppTest, sizes: str, overlaps: str = "0") -> AppTest:
    at.multiselect(key="sweep_chunkers").set_value(["fixed"])
    at.text_input(key="sweep_sizes").input(sizes)
    at.text_input(key="sweep_overlaps").input(overlaps)
    return rerun(at)


def _job(at: AppTest) -> SweepJob:
    job = at.session_state[JOB_KEY]
    assert isinstance(job, SweepJob)
    return job


def _join_job(at: AppTest) -> None:
    """Wait for the sweep started by the last click; a sweep whose texts the cache held may
    have ended, and been collected, within the run that followed the click."""
    if JOB_KEY in at.session_state:
        _job(at).join(WAIT)


def _cells(at: AppTest) -> list[tuple[int, str]]:
    heat = [(s, d) for s, d in charts(at) if any(_kind(x) == "rect" for x in s["layer"])]
    assert len(heat) == 1
    cells = layer_data(heat[0][0], heat[0][1], "rect")
    return sorted(zip(cells["size"].tolist(), cells["row"].tolist(), strict=True))


def test_typed_sizes_and_overlaps_are_the_grid_run_in_the_background() -> None:
    at = _typed(_on_minilm(), "150, 300", "0, 10")
    assert at.button(key="run_sweep").label == "Run sweep (4 configurations)"
    at.button(key="run_sweep").click()
    rerun(at)
    _join_job(at)
    rerun(at)
    assert _cells(at) == [(150, "fixed, overlap 0 %"), (150, "fixed, overlap 10 %"),
                          (300, "fixed, overlap 0 %"), (300, "fixed, overlap 10 %")]
    assert "Best for" in page_text(at) and JOB_KEY not in at.session_state


def test_scorers_are_an_axis_and_the_best_loads_with_its_scorer() -> None:
    at = _typed(_on_minilm(), "200")
    at.multiselect(key="sweep_scorers").set_value(["cosine", "bm25"])
    rerun(at)
    assert at.button(key="run_sweep").label == "Run sweep (2 configurations)"
    assert "Rows of another scorer than cosine have no floor" in page_text(at)
    at.button(key="run_sweep").click()
    rerun(at)
    _join_job(at)
    rerun(at)
    assert _cells(at) == [(200, "fixed, overlap 0 % · bm25"), (200, "fixed, overlap 0 % · cosine")]
    result = at.session_state["sweep_result"][1]
    best = result.best("hit_at_1")
    at.button(key="load_best").click()
    rerun(at)
    assert at.session_state["a_scorer"] == best.scorer
    assert at.session_state["a_size"] == 200


@pytest.mark.parametrize(("sizes", "overlaps", "said"), [
    (", ".join(str(100 + 10 * i) for i in range(13)), "0",
     "Sizes: give at most 12 values (you gave 13), so the sweep stays short"),
    ("200, big", "0", "Sizes takes whole numbers separated by commas, e.g. 200, 400, 800; "
     "'big' is not one"),
    ("200", "95", "overlaps are percents of the size, at most 90; 95 is too large"),
    ("1000000", "0", "size must be at most 200000, got 1000000"),
])
def test_a_bad_or_too_big_grid_is_one_sentence_and_runs_nothing(
        sizes: str, overlaps: str, said: str) -> None:
    at = _typed(_on_minilm(), sizes, overlaps)
    assert [e.value for e in at.error] == [said]
    assert at.button(key="run_sweep").disabled


@pytest.fixture
def held_after_first() -> Iterator[threading.Event]:
    """The sweep's reporter holds the job after its first configuration until the test has
    clicked Cancel (the event), so Cancel lands mid-sweep on any machine."""
    gate = threading.Event()
    original = SweepJob.report

    def held(job: SweepJob, step: SweepStep) -> None:
        original(job, step)
        if step.rows_done == 1:
            gate.wait(WAIT)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SweepJob, "report", held)
        yield gate
    gate.set()


def test_cancel_stops_between_configurations_and_keeps_the_rows_finished(
        held_after_first: threading.Event) -> None:
    at = _typed(_on_minilm(), "150, 200, 250, 300")
    at.button(key="run_sweep").click()
    rerun(at)
    job = _job(at)
    deadline = time.monotonic() + WAIT
    while (job.step is None or job.step.rows_done < 1) and time.monotonic() < deadline:
        time.sleep(0.05)  # waits for the state it checks: the first configuration done
    assert job.step is not None and job.step.rows_done == 1
    rerun(at)
    assert "configuration 1 of 4" in next(p.proto.text for p in at.get("progress"))
    at.button(key="sweep_cancel").click()
    rerun(at)
    held_after_first.set()
    job.join(WAIT)
    rerun(at)
    assert "Cancelled after 1 of 4 configurations" in page_text(at)
    assert _cells(at) == [(150, "fixed, overlap 0 %")]
    assert not at.button(key="run_sweep").disabled  # ready to run again


def test_the_sweeps_fields_survive_a_tab_switch() -> None:
    at = open_tab(run_app(tab=None), "compare")
    _typed(at, "150, 300", "0, 10")
    open_tab(open_tab(at, "chunks"), "compare")
    assert at.text_input(key="sweep_sizes").value == "150, 300"
    assert at.text_input(key="sweep_overlaps").value == "0, 10"
    assert at.multiselect(key="sweep_chunkers").value == ["fixed"]
