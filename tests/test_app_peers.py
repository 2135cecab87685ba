"""Peer chunkers in the app (real Streamlit runtime, real default model): grouped by library
in the picker, their own parameter names in the tooltips, the same chunks as the library."""

from __future__ import annotations

import pytest
from langchain_text_splitters import RecursiveCharacterTextSplitter

from ragviz.chunking import registry
from ragviz_app import app_state
from tests.test_app import chunk_tables, rerun, run_app


def test_langchain_recursive_in_the_app_gives_langchains_chunks() -> None:
    at = run_app()
    picker = at.selectbox(key="a_chunker")
    # the names short enough to show whole (LangChain · Recursiv… was cut); the class is
    # named in the call under the sliders
    assert "LangChain · Recursive" in picker.options
    assert picker.options.index("Chonkie · Recursive") > picker.options.index(
        "LangChain · Character")
    picker.select("langchain_recursive")
    rerun(at)
    at.slider(key="a_chunk_size").set_value(300)
    at.slider(key="a_chunk_overlap").set_value(60)
    rerun(at)
    size = at.slider(key="a_chunk_size")
    assert "`chunk_size`" in size.help and "RecursiveCharacterTextSplitter" in size.help
    # body text a projector shows readably (it was a small grey caption), as the picker
    # cuts the class name
    calls = [m.value for m in at.markdown if "RecursiveCharacterTextSplitter(" in m.value]
    assert calls == ["The same call in your pipeline: "
                     "`RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=60)`"]
    assert not [c for c in at.caption if "RecursiveCharacterTextSplitter(" in c.value]
    document, _questions = app_state.load_sample(app_state.DEFAULT_SAMPLE)
    theirs = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=60).split_text(document)
    table = chunk_tables(at)[0]
    assert [document[a:b] for a, b in zip(table["start"], table["end"], strict=True)] == theirs


def test_missing_peer_libraries_get_one_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_MISSING", {"llamaindex_sentence": "LlamaIndex"})
    at = run_app()
    hints = [c.value for c in at.caption if "pip install" in c.value]
    assert hints == ["The chunkers of LlamaIndex appear here once installed: "
                     "pip install 'ragviz[peers]'"]


def test_the_call_shown_is_the_call_that_runs_when_the_default_does_not_fit() -> None:
    """Issue 36 item 14: right after picking LangChain's splitter, its default size (1000)
    does not fit the document; the slider, the configuration and the call shown must all
    say the size that runs (it showed chunk_size=1000 beside a slider at 508)."""
    at = run_app()
    at.selectbox(key="a_chunker").select("langchain_recursive")
    rerun(at)
    size, overlap = at.slider(key="a_chunk_size").value, at.slider(key="a_chunk_overlap").value
    assert size < 1000, "the sample is short: the default size cannot fit"
    calls = [m.value for m in at.markdown if "RecursiveCharacterTextSplitter(" in m.value]
    assert calls == ["The same call in your pipeline: "
                     f"`RecursiveCharacterTextSplitter(chunk_size={size}, "
                     f"chunk_overlap={overlap})`"]
    document, _questions = app_state.load_sample(app_state.DEFAULT_SAMPLE)
    theirs = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap
                                            ).split_text(document)
    table = chunk_tables(at)[0]
    assert [document[a:b] for a, b in zip(table["start"], table["end"], strict=True)] == theirs
