"""The knowledge base in the explorer (AppTest, real default model): the multi-file
``help_center`` sample and several files uploaded at once, drawn per file.

The expected numbers are computed here independently of the app's views: the corpus is
loaded and analysed with the real pipeline, and chunks and top_k files are counted by hand.
"""

from __future__ import annotations

import html
import re
import threading
from collections import Counter
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.diagnosis import OUTRANKED_BY_OTHER_DOCUMENT
from ragviz.evaluation.pipeline import analyse, chunk_document
from ragviz.evaluation.results import RetrievalSettings
from ragviz.i18n import t
from ragviz.inputs.corpus import Corpus, load_files, short_name
from ragviz.present.charts import FILE_LABEL_CHARS
from ragviz.present.presentation import config_text, label_name
from ragviz.share.samples import get_sample
from ragviz_app.jobs import THREAD_NAME
from tests.test_app import charts, chunk_tables, rerun, run_app

FILES = {
    "faq.md": b"# Returns\n\nYou can return any item within 30 days of delivery. "
              b"Refunds reach your card in five working days.\n",
    "notes.txt": b"Our warehouse ships orders on weekdays. Express delivery costs 9 euros "
                 b"and arrives the next day.\n",
    "store.html": b"<html><head><title>Store</title><script>var x = 1;</script></head><body>"
                  b"<h1>Opening hours</h1><p>The store opens at 9 and closes at 18 on "
                  b"Saturdays.</p></body></html>",
}


def overview_tables(at: AppTest) -> list[pd.DataFrame]:
    return [d.value for d in at.dataframe if "in the top 2" in d.value.columns]


def run_app_top_2() -> AppTest:
    """The app with top_k 2 (the first screen's default is 1, the article's failure): a
    support engineer's corpus is read with a wider window."""
    at = run_app()
    at.slider(key="top_k").set_value(2)
    return rerun(at)


def pick_help_center() -> AppTest:
    at = run_app_top_2()
    at.radio(key="sample_name").set_value("help_center")
    return rerun(at)


def upload(at: AppTest, files: dict[str, bytes]) -> AppTest:
    at.radio(key="doc_source").set_value("upload")
    rerun(at)
    at.file_uploader(key="doc_upload").set_value(
        [(name, data, "application/octet-stream") for name, data in files.items()])
    return rerun(at)


def test_the_help_center_sample_is_in_the_picker_with_its_title() -> None:
    at = run_app()
    picker = at.radio(key="sample_name")
    assert str(get_sample("help_center").title) in picker.options


def test_the_overview_counts_files_chunks_and_top_k_per_file(use_model: Embedder) -> None:
    at = pick_help_center()
    sample = get_sample("help_center")
    corpus = sample.corpus()
    for table, config in zip(overview_tables(at), sample.configs(), strict=True):
        analysis = analyse(corpus, config, use_model, sample.questions(), RetrievalSettings(2))
        chunks = Counter(c.source for c in analysis.chunks)
        retrieved: Counter[str] = Counter()
        for outcome in analysis.outcomes:
            retrieved.update({analysis.chunks[i].source for i in outcome.decision.ranking[:2]})
        assert table["file"].tolist() == list(corpus.names)
        assert table["characters"].tolist() == [len(s.text) for s in corpus.sources]
        assert table["chunks"].tolist() == [chunks[name] for name in corpus.names]
        assert table["in the top 2"].tolist() == [retrieved[name] for name in corpus.names]
        assert sum(table["in the top 2"]) >= len(analysis.outcomes)


def test_the_file_picker_draws_that_files_chunks_from_their_offsets() -> None:
    at = pick_help_center()
    corpus = get_sample("help_center").corpus()
    assert at.selectbox(key="doc_file").options == list(corpus.names)
    at.selectbox(key="doc_file").set_value("shipping.html")
    rerun(at)
    text = corpus.source("shipping.html").text
    tables = chunk_tables(at)
    assert len(tables) == 2
    for table in tables:
        assert set(table["file"]) == {"shipping.html"}
        for start, end, chunk_text in zip(table["start"], table["end"], table["text"],
                                          strict=True):
            assert text[start:end] == chunk_text
    documents = [h.proto.body for h in at.get("html") if '<div class="rv-doc">' in h.proto.body]
    assert len(documents) == 2
    for body, table in zip(documents, tables, strict=True):
        badges = [int(i) for i in re.findall(r'class="rv-badge"[^>]*>#(\d+)<', body)]
        assert badges == table.sort_values(["start", "end"])["chunk"].tolist()


def test_another_article_outranking_the_answer_is_named_for_two_questions() -> None:
    at = pick_help_center()
    at.session_state["tab"] = t("tab.questions", "en")
    rerun(at)
    badge = f">{label_name(OUTRANKED_BY_OTHER_DOCUMENT, 'en')}</span>"
    shown = [m.value for m in at.markdown if badge in m.value]
    assert len(shown) >= 2
    bars = [data for spec, data in charts(at) if str(spec.get("description", "")).startswith("b:")]
    labels = {label for data in bars for frame in data.values() if "chunk" in frame
              for label in frame["chunk"]}
    names = get_sample("help_center").corpus().names
    assert labels and all(any(label.endswith(f" {short_name(n, FILE_LABEL_CHARS)}") for n in names)
                          for label in labels)


def test_the_workspace_says_it_does_not_carry_the_files() -> None:
    at = pick_help_center()
    assert any("holds one document" in i.value for i in at.info)
    assert not [b for b in at.get("download_button") if b.proto.id.endswith("export_workspace")]


def test_three_uploaded_files_become_three_sources_and_a_broken_one_says_why() -> None:
    at = upload(run_app_top_2(), {**FILES, "scan.pdf": b"%PDF-1.4 this is not a real pdf"})
    expected: Corpus = load_files(list(FILES.items()))
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any("scan.pdf" in w for w in warnings)
    (table, _) = overview_tables(at)
    assert table["file"].tolist() == ["faq.md", "notes.txt", "store.html"]
    assert table["characters"].tolist() == [len(s.text) for s in expected.sources]
    assert all(count >= 1 for count in table["chunks"])
    assert any(c.value.startswith("3 files") for c in at.caption)
    at.selectbox(key="doc_file").set_value("store.html")
    rerun(at)
    table_a = chunk_tables(at)[0]
    assert set(table_a["file"]) == {"store.html"}
    assert "var x" not in "".join(table_a["text"])


def test_a_zip_of_files_loads_like_the_files() -> None:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in FILES.items():
            archive.writestr(f"kb/{name}", data)
    at = upload(run_app_top_2(), {"kb.zip": buffer.getvalue()})
    (table, _) = overview_tables(at)
    assert table["file"].tolist() == ["faq.md", "notes.txt", "store.html"]


@pytest.mark.parametrize("name", ["<img src=x onerror=alert(1)>.md", "a*b*_c_.txt"])
def test_file_names_reach_the_page_escaped(name: str) -> None:
    files = {name: b"A short note about refunds.", "other.txt": b"Other text."}
    at = upload(run_app_top_2(), files)
    assert not [h for h in at.get("html") if "<img src=x" in h.proto.body]
    assert name in overview_tables(at)[0]["file"].tolist()


def test_a_size_move_on_a_corpus_shows_the_picked_files_new_chunks_before_any_embedding(
    use_model: Embedder, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The preview (ragviz_app.preview) takes the corpus: with the embedding of A's new
    chunks stopped dead, the page already shows the picked file cut at the new size."""
    at = pick_help_center()
    at.selectbox(key="doc_file").set_value("shipping.html")
    rerun(at)
    encode = Embedder.encode

    def stopped(self: Embedder, texts: Any, kind: str = "document", *args: Any,
                **kwargs: Any) -> Any:
        if kind == "document":
            raise RuntimeError("embedding stopped")
        return encode(self, texts, kind, *args, **kwargs)

    monkeypatch.setattr(Embedder, "encode", stopped)
    at.slider(key="a_max_chars").set_value(150)
    at.run()
    assert [e.value for e in at.exception] and "embedding stopped" in at.exception[0].value
    corpus = get_sample("help_center").corpus()
    config = ChunkerConfig("sentence", max_chars=150, overlap_sentences=1)
    new_chunks = chunk_document(corpus, config, use_model).chunks
    assert f"{len(new_chunks)} chunks · {config_text(config, 'en')}" in [
        c.value for c in at.caption]
    documents = [str(h.proto.body) for h in at.get("html") if "rv-doc" in str(h.proto.body)]
    shipping = [c for c in new_chunks if c.source == "shipping.html"]
    assert len(documents) == 1 and documents[0].count('class="rv-badge"') == len(shipping)
    assert html.escape(shipping[0].text[:40]) in documents[0]


def test_the_background_fill_embeds_a_corpus_at_the_neighbouring_sizes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ragviz_app.background.after_run takes the corpus: after a one-step move it fills the
    cache for the next steps, so the following step sends no chunk to the model."""
    from ragviz.embedding.models import UseMultilingual
    from ragviz_app import background

    monkeypatch.setattr(background, "ENABLED", True)
    monkeypatch.setattr(background, "IDLE_SECONDS", 0.0)
    at = pick_help_center()
    at.slider(key="a_max_chars").set_value(221)
    rerun(at)
    job = at.session_state["_precompute"]
    job.join(120)
    assert isinstance(job.document, Corpus) and job.document.multi_file
    assert job.finished == [ChunkerConfig("sentence", max_chars=220, overlap_sentences=1),
                            ChunkerConfig("sentence", max_chars=222, overlap_sentences=1)]
    assert not job.errors
    sent: list[str] = []
    real = UseMultilingual._encode

    def counting(self: UseMultilingual, batch: list[str], kind: Any) -> Any:
        if kind == "document" and threading.current_thread().name != THREAD_NAME:
            sent.extend(batch)
        return real(self, batch, kind)

    monkeypatch.setattr(UseMultilingual, "_encode", counting)
    at.slider(key="a_max_chars").set_value(222)
    rerun(at)
    assert sent == []  # every chunk of the six files at 222 came from the cache


def test_the_help_center_questions_belong_to_its_files_and_other_files_ask_first() -> None:
    """A corpus sample's questions adopt its files (no "the document changed" offer); files
    uploaded next under those questions get the offer, as a new single document does."""
    at = pick_help_center()
    sample_questions = [q.question for q in get_sample("help_center").questions()]
    assert list(at.session_state.questions_base["question"]) == sample_questions
    assert not [w for w in at.warning if "The document changed" in w.value]
    at = upload(at, FILES)
    assert [w for w in at.warning if "The document changed" in w.value]


def test_every_bar_label_of_a_corpus_shows_its_chunk_number() -> None:
    """Issue 19, medium 6: labels like "troubleshooting.…" hid the chunk number the
    explanation names, and in 40-bar charts only every other bar was labelled."""
    at = pick_help_center()
    at.session_state["tab"] = t("tab.questions", "en")
    rerun(at)
    drawn = charts(at)
    assert drawn
    for spec, data in drawn:
        for frame in data.values():
            if "chunk" not in frame:
                continue
            for label, index in zip(frame["chunk"], frame["index"], strict=True):
                assert str(label).startswith(f"#{index} "), label
                assert len(str(label)) <= len(f"#{index} ") + 16, label
        axes = [layer["encoding"]["y"].get("axis", {}) for layer in spec.get("layer", [])
                if "y" in layer.get("encoding", {})]
        assert axes and axes[0].get("labelOverlap") is False, axes
