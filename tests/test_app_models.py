"""Two models side by side in the app (AppTest, real models): B's own model and floor, the
floor that says it was set on another model, the OpenAI-compatible API (against the real
local server of tests/openai_server.py) whose key goes nowhere, and model loading shown in
the main area."""

from __future__ import annotations

import csv
import io
import json
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from article import ARTICLE_FLOOR
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.share import links
from ragviz.share.workspace import Settings, Workspace
from ragviz_app import app_state as state
from tests.test_app import APP, page_text, rerun, run_app, shown
from tests.test_openai_embedder import KEY, MODEL
from tests.test_openai_embedder import api_base as api_base  # the real server fixture

WHY = "a floor calibrated on one model is meaningless on another"


def with_b_on_minilm() -> AppTest:
    at = run_app(tab=None)
    at.toggle(key="model_b_on").set_value(True)
    rerun(at)
    at.radio(key="b_model_choice").set_value("minilm-en")
    return rerun(at)


def test_b_gets_its_own_model_floor_and_caption(
    minilm_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion],
    downloads: list[str],
) -> None:
    at = with_b_on_minilm()
    report = next(t for t in reversed(downloads) if t.startswith("<!DOCTYPE html>"))
    assert "Model A use-multilingual, B minilm-en" in report
    text = page_text(at)
    assert "Model: use-multilingual" in text and "Model: minilm-en" in text
    assert WHY in text
    # A keeps the article's floor
    assert at.slider(key="floor").value == pytest.approx(ARTICLE_FLOOR)
    # B's floor was carried over from use-multilingual: the page says so and offers the
    # floor measured on B's labels with minilm-en.
    assert any("was set on use-multilingual, not on minilm-en" in w for w in warnings(at))
    measured = analyse(seed_doc, state.DEFAULT_B, minilm_model, seed_questions,
                       RetrievalSettings(2, 0.0)).calibration
    assert measured is not None
    at.button(key="recalibrate_floor_b").click()
    rerun(at)
    assert at.slider(key="floor_b").value == pytest.approx(state.slider_floor(measured.floor))
    assert at.slider(key="floor").value == pytest.approx(ARTICLE_FLOOR)
    assert not any("was set on" in w for w in warnings(at))
    query = at.query_params
    assert _one(query["model"]) == "use-multilingual" and _one(query["b_model"]) == "minilm-en"
    assert float(_one(query["b_floor"])) == pytest.approx(state.slider_floor(measured.floor))


def warnings(at: AppTest) -> list[str]:
    return [shown(w.value) for w in at.warning]


def _one(value: Any) -> str:
    return str(value[0] if isinstance(value, list) else value)


def test_a_model_switch_says_the_floor_was_set_on_the_other_model() -> None:
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("minilm-en")
    rerun(at)
    assert any("was set on use-multilingual, not on minilm-en" in w for w in warnings(at))
    at.button(key="recalibrate_floor").click()
    rerun(at)
    assert not any("was set on" in w for w in warnings(at))
    assert at.slider(key="floor").value != pytest.approx(ARTICLE_FLOOR)


def test_a_link_with_two_models_reopens_both_and_an_old_link_means_one() -> None:
    settings = Settings(model="use-multilingual", model_b="minilm-en", floor=ARTICLE_FLOOR,
                        floor_b=0.4)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(links.share_query(settings, None).query)
    rerun(at)
    assert at.session_state.model_b_on and at.session_state.b_model_choice == "minilm-en"
    assert at.slider(key="floor_b").value == pytest.approx(0.4)
    assert not any("was set on" in w for w in warnings(at))
    old = AppTest.from_file(APP, default_timeout=120)
    old.query_params.update({"model": "minilm-en", "floor": "0.3"})
    rerun(old)
    assert not old.session_state.model_b_on
    assert "In use: minilm-en" in page_text(old) and WHY not in page_text(old)
    assert "Model: " not in page_text(old)  # one model: named once, in the sidebar
    assert len([s for s in old.slider if s.key in {"floor", "floor_b"}]) == 1


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every file the app offers for download, as text (a spy: the real storage still runs;
    deferred downloads are generated when registered, as a click would)."""
    seen: list[str] = []
    store: Callable[..., str] = MemoryMediaFileStorage.load_and_get_id
    defer: Callable[..., str] = MediaFileManager.add_deferred

    def load(self: Any, data: Any, *args: Any, **kwargs: Any) -> str:
        seen.append(data.decode() if isinstance(data, bytes) else str(data))
        return store(self, data, *args, **kwargs)

    def deferred(self: Any, make: Callable[[], Any], *args: Any, **kwargs: Any) -> str:
        made = make()
        seen.append(made.decode() if isinstance(made, bytes) else str(made))
        return defer(self, make, *args, **kwargs)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load)
    monkeypatch.setattr(MediaFileManager, "add_deferred", deferred)
    yield seen


def _scores(results: str) -> list[tuple[str, str, float]]:
    rows = csv.DictReader(io.StringIO(results))
    return [(r["question"], r["hits"], float(r["best_score"])) for r in rows]


def _results(seen: list[str]) -> str:
    return next(t for t in reversed(seen) if t.startswith("configuration,model,question"))


def test_the_api_model_scores_like_minilm_and_its_key_goes_nowhere(
    api_base: str, downloads: list[str], capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("openai")
    rerun(at)
    at.text_input(key="api_base").input(api_base)
    at.text_input(key="api_model").input(MODEL)
    at.text_input(key="api_key").input(KEY)
    downloads.clear()
    rerun(at)
    name = f"openai:{MODEL}@{api_base}"
    assert f"In use: {name}" in page_text(at)
    assert not at.error, [e.value for e in at.error]
    workspace = next(t for t in downloads if '"format": "ragviz-workspace"' in t)
    assert Workspace.from_json(workspace).settings.model == name
    report = next(t for t in downloads if t.startswith("<!DOCTYPE html>"))
    via_api = _scores(_results(downloads))
    url = json.dumps(at.query_params.to_dict() if hasattr(at.query_params, "to_dict")
                     else dict(at.query_params))
    for written in (*downloads, url, page_text(at), capsys.readouterr().err, caplog.text):
        assert KEY not in written
    assert name in report
    at.radio(key="model_choice").set_value("minilm-en")
    downloads.clear()
    rerun(at)
    in_process = _scores(_results(downloads))
    assert [(q, hits) for q, hits, _ in via_api] == [(q, hits) for q, hits, _ in in_process]
    for (_, _, remote), (_, _, local) in zip(via_api, in_process, strict=True):
        assert remote == pytest.approx(local, abs=1.5e-4)  # the CSV has 4 decimals


def test_a_wrong_key_is_one_sentence_and_the_last_model_stays(api_base: str) -> None:
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("openai")
    rerun(at)
    at.text_input(key="api_base").input(api_base)
    at.text_input(key="api_model").input(MODEL)
    at.text_input(key="api_key").input("sk-wrong-key-3141")
    rerun(at)
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1, errors
    assert "refused the API key" in errors[0] and "Still using use-multilingual" in errors[0]
    assert "sk-wrong-key-3141" not in page_text(at) and "Traceback" not in errors[0]
    at.text_input(key="api_base").input("http://127.0.0.1:9/v1")  # nothing listens on 9
    rerun(at)
    assert any("cannot reach the embedding API" in shown(e.value) for e in at.error)
    at.text_input(key="api_base").input(api_base)
    at.text_input(key="api_key").input(KEY)
    rerun(at)
    assert not at.error and f"In use: openai:{MODEL}@{api_base}" in page_text(at)
    at.text_input(key="api_key").input("sk-changed-2718")  # the key that worked is replaced
    rerun(at)
    assert [shown(e.value).count("refused the API key") for e in at.error] == [1]
    assert "In use: use-multilingual" in page_text(at)


def test_an_api_named_by_a_link_waits_for_connect(api_base: str) -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"model": f"openai:{MODEL}@{api_base}"})
    rerun(at)
    assert any("Connect only if you trust it" in w for w in warnings(at))
    assert "In use: use-multilingual" in page_text(at)
    at.text_input(key="api_key").input(KEY)
    at.button(key="api_connect").click()
    rerun(at)
    assert f"In use: openai:{MODEL}@{api_base}" in page_text(at)


def test_loading_a_model_is_shown_in_the_main_area() -> None:
    from ragviz_app import models

    at = run_app(tab=None)
    models.get_model.clear()  # as in a fresh server process
    models._LOADED.clear()
    at.radio(key="model_choice").set_value("minilm-en")
    rerun(at)
    toasts = [shown(toast.value) for toast in at.toast]  # a toast: no banner takes room
    assert any("Loaded all-MiniLM-L6-v2 in" in text for text in toasts), toasts
    assert not any("Loaded" in s.value for s in at.sidebar.success)


def test_a_base_url_without_http_is_refused_in_the_app(
    api_base: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 24 #3 in the app: a typed base without http:// is one sentence under the picker
    and nothing reaches the default API (here OPENAI_BASE_URL, the counting test server)."""
    monkeypatch.setenv("OPENAI_BASE_URL", api_base)
    before = _stats(api_base)
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("openai")
    rerun(at)
    at.text_input(key="api_base").input(api_base.removeprefix("http://"))
    at.text_input(key="api_model").input(MODEL)
    at.text_input(key="api_key").input(KEY)
    rerun(at)
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and "must start with http:// or https://" in errors[0], errors
    assert "In use: use-multilingual" in page_text(at)
    assert _stats(api_base) == before
    assert KEY not in page_text(at)


def _stats(api_base: str) -> int:
    url = api_base.removesuffix("/v1") + "/control/stats"
    with urllib.request.urlopen(url, timeout=10) as answer:
        return int(json.load(answer)["embedding_requests"])


def _keys_in_order(node: Any) -> list[str]:
    """The widget keys under ``node`` in the order the page draws them."""
    keys: list[str] = []
    for child in getattr(node, "children", {}).values():
        key = getattr(child, "key", None)
        if isinstance(key, str):
            keys.append(key)
        keys += _keys_in_order(child)
    return keys


def test_the_api_url_model_and_key_sit_together() -> None:
    """Issue 19, medium 8: the key field sat apart from the base URL and model name (under
    the B switch), so a user typed those first and met a 401 before seeing the key."""
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("openai")
    rerun(at)
    keys = _keys_in_order(at.sidebar)
    start = keys.index("api_base")
    assert keys[start:start + 3] == ["api_base", "api_model", "api_key"], keys
    at.toggle(key="model_b_on").set_value(True)
    rerun(at)
    assert _keys_in_order(at.sidebar).count("api_key") == 1, "one key for both sides"


def _reopened(at: AppTest) -> AppTest:
    """What an attendee sees on opening the link the page holds now."""
    attendee = AppTest.from_file(APP, default_timeout=120)
    attendee.query_params.update({key: _one(value) for key, value in at.query_params.items()})
    return rerun(attendee)


def test_a_copied_link_after_a_model_switch_shows_the_same_floor_warning() -> None:
    """Issue 19 medium 4: the attendee saw no warning, only 'Apply suggested floor'."""
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("minilm-en")
    rerun(at)
    attendee = _reopened(at)
    assert attendee.session_state.model_choice == "minilm-en"
    assert warnings(attendee) == warnings(at)
    assert any("was set on use-multilingual, not on minilm-en" in w for w in warnings(attendee))
    assert [b.key for b in attendee.button if b.key and "floor" in b.key] == ["recalibrate_floor"]
    attendee.button(key="recalibrate_floor").click()
    rerun(attendee)
    assert not any("was set on" in w for w in warnings(attendee))
    assert not any("was set on" in w for w in warnings(_reopened(attendee)))


def test_a_copied_link_keeps_bs_floor_warning_too() -> None:
    at = with_b_on_minilm()
    attendee = _reopened(at)
    assert any("was set on use-multilingual, not on minilm-en" in w for w in warnings(attendee))
    assert attendee.button(key="recalibrate_floor_b") is not None
