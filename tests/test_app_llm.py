"""Issue 34, the app: "Ask the LLM" in the questions tab (AppTest, the real default model, the
loopback chat server of tests/chat_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from ragviz_app.views.questions import prompt_key
from tests.test_app import rerun, run_app
from tests.test_llm_answer import KEY, MODEL, _calls, _control, serve


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    yield from serve()


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the operator allows the test server
    yield run_app("questions")


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def test_without_a_model_the_page_says_how_to_point_it_at_ollama(app: AppTest) -> None:
    infos = [i.value for i in app.info]
    assert any("ollama serve" in text and "http://localhost:11434/v1" in text for text in infos)
    assert "llm_ask" not in [button.key for button in app.button]  # nothing to ask


def test_ask_answers_each_question_once_and_keeps_the_answers(app: AppTest, base: str
                                                              ) -> None:
    app.text_input(key="llm_model").input(f"openai:{MODEL}")
    app.text_input(key="llm_base").input(base)
    rerun(app)
    assert not any(m.startswith("**LLM** · :green") for m in _markdown(app))  # not asked yet
    before = _calls(base)
    app.button(key="llm_ask").click()
    rerun(app)
    said = [m for m in _markdown(app) if m.startswith("**LLM**")]
    verdicts = "\n".join(said)
    asked = _calls(base) - before
    assert asked > 0
    # the article's refund question: A (fixed 120) from the boleto's chunk, B right
    assert "chunk \\#1" in said[0] and said[0].startswith("**LLM** · :red[answered from")
    assert said[1].startswith("**LLM** · :green[correct]") and "7 dias úteis" in said[1]
    refused = sum(1 for line in said if line.startswith("**LLM** · :gray[not asked"))
    assert refused >= 3 and asked == len(said) - refused  # a refusal costs no call
    assert KEY not in verdicts
    rerun(app)  # a rerun asks nothing again: the answers are kept
    assert _calls(base) - before == asked
    assert [m for m in _markdown(app) if m.startswith("**LLM**")] == said


def test_a_failed_call_is_one_sentence_and_the_others_answer(app: AppTest, base: str) -> None:
    app.text_input(key="llm_model").input(f"openai:{MODEL}")
    app.text_input(key="llm_base").input(base)
    app.text_area(key="llm_template").input(
        "Be brief.\nExcerpts:\n{context}\n\nQuestion: {question}")  # prompts not kept yet
    rerun(app)
    _control(base, "/control/fault", {"kind": "status", "status": 401})
    app.button(key="llm_ask").click()
    rerun(app)
    said = [m for m in _markdown(app) if m.startswith("**LLM**")]
    failed = [line for line in said if "refused the API key" in line]
    assert len(failed) == 1 and KEY not in "\n".join(said)
    assert sum(line.startswith("**LLM** · :green[correct]") for line in said) >= 4
    assert "llm_ask" in [button.key for button in app.button]  # the failed one: ask again


def test_the_preview_shows_the_edited_template_and_the_budgets_cut(app: AppTest) -> None:
    app.session_state[prompt_key("b", 0)] = True
    rerun(app)
    assert app.code[0].value.startswith("Answer using ONLY the excerpts below.")
    app.text_area(key="llm_template").input("Be brief.\nExcerpts:\n{context}\n\nQ: {question}")
    app.number_input(key="llm_budget").set_value(5)
    rerun(app)
    shown = app.code[0].value
    assert shown.startswith("Be brief.\nExcerpts:\n") and shown.endswith("Q: Qual o prazo do "
                                                                        "reembolso?")
    assert len(shown.split("\n")[2].split()) <= 5  # the context: five tokens at most
    assert any("The context was cut to 5 tokens" in c.value for c in app.caption)


def test_the_key_typed_in_the_page_is_used_and_shown_nowhere(
        monkeypatch: pytest.MonkeyPatch, base: str) -> None:
    monkeypatch.delenv("RAGVIZ_LLM_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    at = run_app("questions")
    at.text_input(key="llm_model").input(f"openai:{MODEL}")
    at.text_input(key="llm_base").input(base)
    at.text_input(key="llm_api_key").input(KEY)
    rerun(at)
    at.button(key="llm_ask").click()
    rerun(at)
    said = [m for m in _markdown(at) if m.startswith("**LLM**")]
    assert any(line.startswith("**LLM** · :green[correct]") for line in said)
    shown = [*(m.value for m in at.markdown), *(c.value for c in at.code),
             *(c.value for c in at.caption), str(dict(at.query_params))]
    assert all(KEY not in text for text in shown)
