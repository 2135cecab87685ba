"""Issue 24 in the real Streamlit runtime: links that once broke or probed the server
(``?walk=²``, a model path beside the server, a question with a bidi override) now get one
sentence or a confirmation, and the session goes on (a bundled model, another document)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.inputs.questions import LabelledQuestion
from ragviz.share import links
from ragviz.share.workspace import Settings, Workspace
from tests.test_app import APP, TIMEOUT, page_text, rerun, shown


def opened(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    return rerun(at)


def test_a_walk_step_spelt_in_superscript_opens_the_page_without_a_step() -> None:
    at = opened({"walk": "²"})
    assert at.session_state.walk_on is False
    at.radio(key="doc_source").set_value("paste")
    rerun(at)


def _model_failure(at: AppTest, name: str) -> str:
    errors = [e.value for e in at.sidebar.error]
    assert len(errors) == 1, errors
    return shown(str(errors[0])).replace(name, "NAME")


@pytest.mark.parametrize("name", ["ragviz/chunking", "sample_docs/README.md", "zzzz/yyyy"])
def test_a_model_from_a_link_waits_and_reads_the_same_whatever_exists(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first is a folder of this checkout, the second a file, the third nothing: none
    is loaded before the user says so, and each then fails with the same sentence."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    at = opened({"model": name})
    assert any("Load it only if you trust it" in w.value for w in at.sidebar.warning)
    assert "In use: use-multilingual" in page_text(at)
    assert not at.sidebar.error
    at.button(key="model_confirm").click()
    rerun(at)
    failure = _model_failure(at, name)
    assert failure.startswith("cannot download 'NAME': this machine has no access"), failure
    assert "folder" not in failure.split("offline")[0], failure
    at.radio(key="model_choice").set_value("minilm-en")
    rerun(at)
    assert "In use: minilm-en" in page_text(at)


def test_a_bidi_override_in_a_question_is_shown_as_its_escape() -> None:
    question = LabelledQuestion("Qual o prazo \u202eevil bidi?", "", None)
    work = Workspace("Reembolso em 7 dias úteis. Frete grátis.", (question,), Settings())
    at = opened(links.share_query(work.settings, work).query)
    headings = [m.value for m in at.markdown if "Qual o prazo" in m.value]
    assert headings, "the question's heading is drawn"
    assert all("\u202e" not in h and "\\\\u202eevil" in h for h in headings), headings


def test_a_size_the_slider_cannot_hold_is_named_once_then_the_page_goes_on() -> None:
    """The article's policy is short: a link's 100,000/99,980 cannot sit on its sliders."""
    at = opened({"a": "fixed", "a_size": "100000", "a_overlap": "99980"})
    notes = [w.value for w in at.warning if "The link or file sets" in w.value]
    assert len(notes) == 2, notes
    assert "to 100,000;" in notes[0] and "to 99,980;" in notes[1]
    assert f"shows {at.session_state.a_size:,}." in notes[0]
    at.slider(key="top_k").set_value(3)
    rerun(at)
    assert not [w for w in at.warning if "The link or file sets" in w.value]
    at.radio(key="doc_source").set_value("paste")
    rerun(at)


def test_a_link_document_of_control_characters_is_refused_and_the_sample_stays() -> None:
    token = links.encode_work(Workspace("\x01\x02\x03" * 100).to_json().encode())
    at = opened({links.WORK_KEY: token})
    assert any("looks binary, not text" in shown(w.value) for w in at.sidebar.warning)
    assert at.session_state.doc_source == "sample"
