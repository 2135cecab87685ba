"""Issue 36 item 6: the last value a user set wins, always. A full run must not send the
browser the values its widgets held when it started: a top_k or floor moved while a long
full run was going on (fragment moves do not interrupt one) was set back by that run when it
drew the slider, and the browser's next message then carried the old value to the server.

The browser takes a slider's value from the server only when the element says so
(``set_value``); these tests check, in the real runtime, that a full run says so only for
a value the app itself changed, and that values of widgets a run does not draw are kept."""

from __future__ import annotations

from ragviz.i18n import t
from tests.test_app import rerun, run_app


def test_a_full_run_does_not_send_back_the_sliders_the_user_set() -> None:
    at = run_app(tab="questions")
    at.slider(key="top_k").set_value(3)
    rerun(at)
    at.slider(key="b_max_chars").set_value(300)  # a full run: B is cut again
    rerun(at)
    for key in ("top_k", "floor", "b_max_chars", "a_size"):
        slider = at.slider(key=key)
        assert not slider.proto.set_value, f"{key}: the run sent {slider.value} back"
    assert (at.slider(key="top_k").value, at.slider(key="b_max_chars").value) == (3, 300)


def test_inputs_not_drawn_in_a_run_are_kept() -> None:
    """What ``persist`` is for: the pasted text while the sample is shown, B's sliders of
    another chunker, a language switch."""
    at = run_app(tab="questions")
    at.radio(key="doc_source").set_value("paste")
    rerun(at)
    at.text_area(key="doc_paste").input("Refunds take thirty days. Shipping is free.")
    rerun(at)
    at.radio(key="doc_source").set_value("sample")
    rerun(at)
    at.slider(key="top_k").set_value(4)
    rerun(at)
    at.selectbox(key="lang").set_value("pt")
    rerun(at)
    at.session_state["tab"] = t("tab.questions", "pt")
    rerun(at)
    at.radio(key="doc_source").set_value("paste")
    rerun(at)
    assert at.text_area(key="doc_paste").value == "Refunds take thirty days. Shipping is free."
    assert at.slider(key="top_k").value == 4
