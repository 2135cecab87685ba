"""Issue 5 in the real Streamlit runtime: settings in the URL, the guided replay, samples,
both interface languages, and the downloads, with the real default model."""

from __future__ import annotations

from pathlib import Path

import pytest
from article import ARTICLE_FLOOR
from streamlit.testing.v1 import AppTest

from ragviz.i18n import t
from ragviz.share.samples import load_samples
from ragviz_app import app_state
from ragviz_app.walkthrough import STEPS

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
TIMEOUT = 120


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_tab(at: AppTest, tab_id: str, lang: str = "en") -> AppTest:
    at.session_state["tab"] = t(f"tab.{tab_id}", lang)
    return run(at)


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [str(h.proto.body) for h in at.get("html")]
    parts += [t.value for t in at.title] + [s.value for s in at.subheader]
    return "\n".join(parts)


def test_a_link_reopens_the_same_view() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(
        {"a": "recursive", "a_size": "200", "a_overlap": "20", "k": "3", "floor": "0.25",
         "lang": "pt", "b": "sentence", "b_max_chars": "300", "b_overlap_sentences": "0"}
    )
    run(at)
    state = at.session_state
    assert (state.a_chunker, state.a_size, state.a_overlap) == ("recursive", 200, 20)
    assert (state.b_max_chars, state.b_overlap_sentences) == (300, 0)
    assert (state.top_k, state.floor, state.lang) == (3, 0.25, "pt")
    assert "Por que a busca devolveu o trecho errado?" in page_text(at)
    assert "recursive(tamanho=200, sobreposição=20)" in page_text(at)  # names in Portuguese


def test_the_url_follows_the_controls() -> None:
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    assert at.query_params["a"] == ["fixed"] or at.query_params["a"] == "fixed"
    at.selectbox(key="b_chunker").set_value("recursive")
    run(at)
    value = at.query_params["b"]
    assert (value[0] if isinstance(value, list) else value) == "recursive"


def test_a_bad_link_value_is_named_and_the_rest_applies() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"a": "magic", "floor": "0.3"})
    run(at)
    assert any("magic" in w.value for w in at.warning)
    assert at.session_state.floor == 0.3
    assert at.session_state.a_chunker == "fixed"


def test_every_sample_loads_with_its_questions_and_comparison() -> None:
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    for sample in load_samples():
        at.radio(key="sample_name").set_value(sample.name)
        run(at)
        config_a, config_b = sample.configs()
        assert at.session_state.a_chunker == config_a.chunker
        assert at.session_state.b_chunker == config_b.chunker
        assert len(at.session_state.questions_base) == len(sample.questions())
        assert str(sample.demonstrates) in page_text(at)


def test_the_guided_replay_walks_the_article_and_keeps_the_users_work() -> None:
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.text_area(key="doc_paste").set_value("My own document. It stays.")
    run(at)
    open_tab(at, "questions")
    at.session_state["questions_editor"] = {
        "edited_rows": {1: {"question": "Does my edit stay?"}}, "added_rows": [],
        "deleted_rows": [],
    }
    at.button(key="apply_questions").click()  # the editor is in a form: edits apply here
    run(at)
    at.toggle(key="walk_on").set_value(True)
    run(at)
    seen = []
    for index, step in enumerate(STEPS):
        text = page_text(at)
        assert step.title("en") in text
        assert f"Step {index + 1} of {len(STEPS)}" in text
        seen.append(text)
        if index < len(STEPS) - 1:
            at.button(key="walk_next").click()
            run(at)
    assert "context: chunk" in seen[1]  # top_k = 1: the subject without the answer
    assert "refused: best score" in seen[-1]  # the wifi question under the measured floor
    at.button(key="walk_exit").click()
    run(at)
    assert at.session_state.tab == t("tab.questions", "en"), "back on the tab the user left"
    assert at.session_state.doc_paste == "My own document. It stays."
    assert at.session_state.doc_source == "paste"
    assert at.session_state.top_k == app_state.DEFAULT_TOP_K
    assert "Does my edit stay?" in list(at.data_editor(key="questions_editor").value["question"])


def test_portuguese_interface_and_explanations() -> None:
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    at.selectbox(key="lang").set_value("pt")
    run(at)
    assert "Configuração A" in page_text(at)
    open_tab(at, "questions", "pt")
    text = page_text(at)
    assert "Configuração A" in text
    assert "contexto: chunk 1" in text
    assert "fica dividida entre os chunks" in text  # the answer-split explanation
    assert "straddles" not in text


@pytest.mark.parametrize("key", ["export_workspace", "download_report", "download_results",
                                 "download_chunks_a", "download_chunks_b"])
def test_downloads_are_offered(key: str) -> None:
    at = open_tab(run(AppTest.from_file(APP, default_timeout=TIMEOUT)), "chunks")
    keys = {getattr(element, "key", None) for element in at.get("download_button")}
    assert key in keys or any(key in str(element.proto) for element in at.get("download_button"))


def test_link_values_cannot_inject_markdown_into_messages() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(
        {"a": "![pixel](http://evil.example/x.png) [click](http://evil.example)",
         "model": "![m](http://evil.example/m.png)"}
    )
    run(at)
    shown = [w.value for w in at.warning] + [e.value for e in at.error]
    assert any("evil" in text for text in shown), shown
    for text in shown:
        assert "](http" not in text, text  # every bracket and parenthesis is escaped


def test_a_link_without_a_floor_gets_the_measured_floor() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"a": "recursive", "a_size": "200"})
    run(at)
    assert at.session_state.a_chunker == "recursive"
    # B's calibrated floor, as by default
    assert at.session_state.floor == pytest.approx(ARTICLE_FLOOR)


def test_a_replay_step_opens_in_the_explorer() -> None:
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.toggle(key="walk_on").set_value(True)
    run(at)
    at.button(key="walk_next").click()  # step 2: fixed chunks, top_k 1
    run(at)
    at.button(key="walk_explore").click()
    run(at)
    state = at.session_state
    assert not state.walk_on
    assert (state.doc_source, state.sample_name, state.a_chunker, state.top_k) == (
        "sample", "politica_reembolso", "fixed", 1,
    )
    assert state.tab == t("tab.questions", "en")
    assert "context: chunk 1" in page_text(at)
