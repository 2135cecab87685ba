"""The app's Index source (AppTest, the real default model, real Chroma): a zipped Chroma
directory built here, a LangChain JSONL made by ``langchain-text-splitters``, a real
``chroma run`` server behind the allowed-hosts variable, the faults only an index has, and
the what-if against ragviz's own chunking of the same files.

Expected outcomes are computed here with the pipeline on ragviz's own chunking, never read
back from the app's state."""

from __future__ import annotations

import io
import json
import re
import socket
import zipfile
from pathlib import Path
from typing import Any

import pytest
from article import ARTICLE_FLOOR
from streamlit.testing.v1 import AppTest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.index_analysis import analyse_index
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.i18n import t
from ragviz.index import open_index
from ragviz.inputs.corpus import load_files
from ragviz.inputs.questions import read_questions_file
from ragviz.present.exports import results_csv
from ragviz.present.label_words import help_markdown
from ragviz.present.report import render_report
from ragviz_app.index_source import APP_MAX_CHUNKS, HOSTS_ENV
from tests.index_fixtures import (
    DOC,
    QUESTIONS,
    SOURCE,
    chroma_collection,
    fixed_120,
    other_model_vectors,
)
from tests.test_app import charts, chunk_tables, open_tab, page_text, rerun, run_app, shown
from tests.test_index_server import server  # noqa: F401  (the real `chroma run` fixture)

BADGE = re.compile(r'\*\*Configuration (?P<side>[AB])\*\* · .*?data-label="(?P<label>[^"]+)"')


def zipped(folder: Path, prefix: str = "db") -> bytes:
    """A folder as a browser would upload it: zipped, under one top folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{prefix}/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()


def index_app(upload: tuple[str, bytes] | None, sources: bool = True,
              tab: str = "questions") -> AppTest:
    """The app on the Index source with ``upload`` and, when asked, the policy file."""
    at = run_app(tab=tab)
    at.radio(key="doc_source").set_value("index")
    rerun(at)
    if upload is not None:
        at.file_uploader(key="index_upload").set_value((*upload, "application/octet-stream"))
    if sources:
        at.file_uploader(key="index_sources").set_value(
            [(SOURCE, DOC.read_bytes(), "text/plain")])
    return keep_if_asked(rerun(at))


def keep_if_asked(at: AppTest) -> AppTest:
    """The sample's questions are the article's, which the index holds: the answer to the
    keep-or-clear a new index asks (nothing is scored on it before) is Keep."""
    if any(button.key == "keep_questions" for button in at.button):
        at.button(key="keep_questions").click()
        rerun(at)
    return at


def badges(at: AppTest, side: str) -> list[str]:
    """The diagnosis label shown for each question under one side, in question order."""
    return [m["label"] for m in BADGE.finditer(page_text(at)) if m["side"] == side]


def ragviz_labels(model: Embedder, config: ChunkerConfig, floor: float) -> list[str]:
    """The labels ragviz's own chunking gives the article's questions (top_k 1)."""
    questions, _ = read_questions_file(QUESTIONS.read_bytes(), QUESTIONS.name)
    analysis = analyse(DOC.read_text(encoding="utf-8"), config, model, questions,
                       RetrievalSettings(1, floor))
    return [o.diagnosis.labels[0] for o in analysis.outcomes if o.diagnosis is not None]


@pytest.fixture(scope="module")
def article_zip(tmp_path_factory: pytest.TempPathFactory, use_model: Embedder) -> bytes:
    """The article's case as production built it: fixed 120, default model's vectors."""
    folder = tmp_path_factory.mktemp("article") / "chroma"
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(folder, "refunds", texts, use_model.encode_documents(texts))
    return zipped(folder)


@pytest.fixture(scope="module")
def article(article_zip: bytes) -> AppTest:
    return index_app(("refunds.zip", article_zip))


def test_zipped_chroma_index_fails_as_ragviz_fixed_120_and_b_fixes_it(
        article: AppTest, use_model: Embedder) -> None:
    floor = float(article.slider(key="floor").value)
    fixed = ragviz_labels(use_model, ChunkerConfig.create("fixed", size=120, overlap=0), floor)
    sentence = ragviz_labels(use_model, ChunkerConfig.create(
        "sentence", max_chars=220, overlap_sentences=1), floor)
    assert badges(article, "A") == fixed
    assert {"outranked", "answer-split", "false-context"} <= set(fixed)
    assert badges(article, "B") == sentence == ["ok"] * 7
    text = page_text(article)
    assert "refunds: 5 chunks, stored vectors of dimension 512." in text
    assert "No stale chunk, no vector mismatch, no duplicate crowding." in text


def test_what_if_shows_flips_metrics_and_both_chunk_size_distributions(
        article: AppTest) -> None:
    open_tab(article, "compare")
    flips = next(d.value for d in article.dataframe if "change" in d.value.columns)
    assert set(flips["change"]) == {"fixed by B"} and len(flips) == 4
    metrics = next(d.value for d in article.dataframe if "metric" in d.value.columns)
    hit = metrics[metrics["metric"].str.contains("hit@1")].iloc[0]
    assert (hit["A"], hit["B"]) == ("25%", "100%")
    sizes = [data for _spec, datasets in charts(article) for data in datasets.values()
             if "chars" in data.columns]
    assert sizes, "no chunk-size histogram"
    spec = next(spec for spec, datasets in charts(article)
                if any("chars" in data.columns for data in datasets.values()))
    assert spec["spec"]["encoding"]["y"]["title"] == "number of chunks"  # the y-axis says what
    by_side = sizes[0].groupby("side")["chars"].apply(list).to_dict()
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    assert sorted(by_side["A"]) == sorted(len(t) for t in texts)
    assert len(by_side["B"]) == 4
    open_tab(article, "questions")


def test_an_uploaded_index_says_links_and_workspaces_cannot_carry_it(article: AppTest) -> None:
    assert any("An uploaded index cannot go into a link or a workspace" in i.value
               for i in article.sidebar.info)
    assert not [b for b in article.get("download_button") if b.proto.label ==
                "Export workspace"]


def test_langchain_jsonl_offsets_slice_the_source(tmp_path: Path) -> None:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    text = DOC.read_text(encoding="utf-8")
    splitter = RecursiveCharacterTextSplitter(chunk_size=160, chunk_overlap=30,
                                              add_start_index=True)
    documents = splitter.create_documents([text], metadatas=[{"source": f"/data/{SOURCE}"}])
    lines = [json.dumps({"page_content": d.page_content, "metadata": d.metadata})
             for d in documents]
    at = index_app(("export.jsonl", "\n".join(lines).encode()), tab="chunks")
    table = chunk_tables(at)[0]
    starts = [d.metadata["start_index"] for d in documents]
    assert table["start"].tolist() == starts
    for start, end, chunk in zip(table["start"], table["end"], table["text"], strict=True):
        assert text[start:end] == chunk
    assert "no stored vectors" in page_text(at)


def labels_table(at: AppTest) -> Any:
    """The table of what only an index has (chunk, label, why)."""
    return next(d.value for d in at.dataframe if "label" in d.value.columns)


def jsonl_with_vectors(texts: list[str], vectors: Any) -> bytes:
    return "\n".join(json.dumps({"page_content": t, "metadata": {"source": SOURCE},
                                 "embedding": [float(x) for x in v]})
                     for t, v in zip(texts, vectors, strict=True)).encode()


def policy_chunks() -> list[str]:
    return [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]


def test_vectors_of_another_model_warn_at_the_top(use_model: Embedder,
                                                  minilm_model: Embedder) -> None:
    texts = policy_chunks()
    at = index_app(("other.jsonl", jsonl_with_vectors(
        texts, other_model_vectors(minilm_model, texts, 512))))
    warning = next(shown(e.value) for e in at.error
                   if "probably built with another model" in e.value)
    assert "100%" in warning
    table = labels_table(at)
    assert table["label"].tolist() == ["vector-mismatch"] * len(texts)
    assert all("stored vector differs from use-multilingual" in why for why in table["why"])


def test_another_dimension_is_one_sentence_naming_both(use_model: Embedder,
                                                       minilm_model: Embedder) -> None:
    texts = policy_chunks()
    at = index_app(("small.jsonl", jsonl_with_vectors(texts, minilm_model.encode_documents(
        texts))))
    errors = [shown(e.value) for e in at.error if "dimension" in e.value]
    assert errors and "384-dimension" in errors[0] and "512-dimension" in errors[0]
    assert "(minilm-en makes 384)" in errors[0]  # the bundled model that fits
    assert badges(at, "B") == ["ok"] * 7  # B still works on the source files


def test_an_edited_source_makes_its_chunk_stale(use_model: Embedder) -> None:
    texts = policy_chunks()
    at = index_app(("stale.jsonl", jsonl_with_vectors(texts, use_model.encode_documents(texts))),
                   sources=False)
    edited = DOC.read_text(encoding="utf-8").replace(texts[1][20:60], "texto novo")
    at.file_uploader(key="index_sources").set_value([(SOURCE, edited.encode(), "text/plain")])
    rerun(at)
    table = labels_table(at)
    assert table["label"].tolist() == ["stale-chunk"]
    assert table["why"].tolist() == [
        f"Chunk 1's text is no longer in {SOURCE}: the file changed after indexing."]
    # the label column says on hover what the label means and what to change (issue 43)
    proto = next(d.proto for d in at.dataframe if "label" in d.value.columns)
    assert json.loads(proto.columns)["label"]["help"] == help_markdown(["stale-chunk"], "en")
    assert "Fix: re-index the files that changed" in help_markdown(["stale-chunk"], "en")


def test_a_document_imported_twice_crowds_the_top_k(use_model: Embedder) -> None:
    texts = policy_chunks()
    twice = texts + texts
    at = index_app(("twice.jsonl", jsonl_with_vectors(twice, use_model.encode_documents(twice))),
                   sources=False)
    at.slider(key="top_k").set_value(2)
    rerun(at)
    table = labels_table(at)
    assert "duplicate-crowding" in table["label"].tolist()
    assert any("take 2 places of the top 2" in why for why in table["why"])


def test_a_server_is_refused_unless_the_variable_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(HOSTS_ENV, raising=False)
    at = index_app(None, sources=False)
    at.radio(key="index_from").set_value("server")
    rerun(at)
    at.text_input(key="index_server").set_value("10.0.0.5:8000")
    rerun(at)
    (error,) = [shown(e.value) for e in at.error]
    assert HOSTS_ENV in error and error.count(". ") == 0
    assert at.text_input(key="index_server").value == "10.0.0.5:8000"  # nothing typed lost
    monkeypatch.setenv(HOSTS_ENV, "chroma.internal:8000")
    at.selectbox(key="lang").set_value("pt")
    rerun(at)
    (error,) = [shown(e.value) for e in at.error]
    assert "Este app só acessa" in error and "10.0.0.5:8000" in error
    assert "chroma.internal" not in error  # the allowed list is the admin's (issue 37, 21)


def test_a_real_chroma_server_lists_collections_and_diagnoses(
        server: str, monkeypatch: pytest.MonkeyPatch, use_model: Embedder) -> None:  # noqa: F811
    address = server.removeprefix("chroma+http://")
    monkeypatch.setenv(HOSTS_ENV, address.split(":")[0])
    at = index_app(None)
    at.radio(key="index_from").set_value("server")
    rerun(at)
    at.text_input(key="index_server").set_value(address)
    rerun(at)
    picker = at.radio(key="index_collection")
    assert "refunds (5 chunks, dimension 512)" in picker.options  # (the fixture may hold more)
    picker.set_value("refunds")
    keep_if_asked(rerun(at))
    assert any(i.value.startswith("An index read from a Chroma server goes into no link")
               for i in at.sidebar.info)
    floor = float(at.slider(key="floor").value)
    assert badges(at, "A") == ragviz_labels(
        use_model, ChunkerConfig.create("fixed", size=120, overlap=0), floor)


def silent_port() -> tuple[socket.socket, int]:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    return silent, int(silent.getsockname()[1])


def test_a_server_that_does_not_answer_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    silent, port = silent_port()
    with silent:
        monkeypatch.setenv(HOSTS_ENV, "127.0.0.1")
        at = index_app(None, sources=False)
        at.radio(key="index_from").set_value("server")
        rerun(at)
        at.text_input(key="index_server").set_value(f"127.0.0.1:{port}")
        rerun(at)
    (error,) = [shown(e.value) for e in at.error]
    assert "does not answer" in error and "timed out" in error


def empty_chroma_zip(folder: Path) -> bytes:
    chroma_collection(folder, "empty", [], [])
    return zipped(folder)


@pytest.mark.parametrize(("name", "make", "said"), [
    ("notes.zip", lambda tmp: zipped_text(tmp),
     "notes.zip is not a zipped Chroma or Qdrant folder"),
    ("empty.zip", lambda tmp: empty_chroma_zip(tmp / "c"), "the collection 'empty' in"),
    ("all.jsonl", lambda tmp: b'{"text": "a", "embedding": [NaN, 1.0]}\n',
     "all.jsonl line 1: the stored vector holds NaN"),
    ("big.jsonl", lambda tmp: b"".join(b'{"text": "chunk %d"}\n' % i
                                       for i in range(APP_MAX_CHUNKS + 1)),
     "big.jsonl holds more than 10,000 chunks; the app loads at most 10,000"),
])
def test_bad_index_uploads_are_one_sentence(tmp_path: Path, name: str, make: Any,
                                            said: str) -> None:
    at = index_app((name, make(tmp_path)), sources=False)
    (error,) = [shown(e.value) for e in at.error]
    assert said in error
    assert at.file_uploader(key="index_upload").value is not None  # the upload stays


def zipped_text(folder: Path) -> bytes:
    folder.mkdir(exist_ok=True)
    (folder / "a.txt").write_text("not an index", encoding="utf-8")
    return zipped(folder)


def test_a_broken_jsonl_line_is_named_and_the_others_load() -> None:
    lines = [json.dumps({"page_content": t, "metadata": {"source": SOURCE}})
             for t in policy_chunks()]
    lines.insert(2, '{"page_content": "cut')
    at = index_app(("broken.jsonl", "\n".join(lines).encode()))
    warnings = [shown(w.value) for w in at.warning]
    assert any(w.startswith("broken.jsonl line 3 is not valid JSON") and "left out" in w
               for w in warnings)
    assert "broken.jsonl: 5 chunks, no stored vectors" in page_text(at)


def test_every_tab_and_download_works_on_an_index(article: AppTest) -> None:
    for tab in ("chunks", "calibration", "compare", "why", "questions"):
        open_tab(article, tab)  # asserts the run raised nothing
        if tab == "chunks":
            tables = chunk_tables(article)
            assert [len(t) for t in tables] == [5, 4]  # production's chunks, then B's
        if tab == "why":  # A: the index itself (issue 45); B: a fix on the source files
            assert "under configuration A:" in page_text(article)
            article.radio(key="why_index_side").set_value("b")
            rerun(article)
            assert "A is the production index" in page_text(article)
            assert article.radio(key="why_side").value == "b"
            article.button(key="why_run").click()
            rerun(article)
            assert "Diagnosis of “Qual o prazo do reembolso?” under configuration B:" in (
                page_text(article))
    labels = {b.proto.label for b in article.get("download_button")}
    assert {t("app.download_report", "en"), t("app.download_results", "en")} <= labels


def test_the_report_and_results_csv_carry_the_index(tmp_path: Path, use_model: Embedder) -> None:
    """What the two downloads render, on the index's analysis (the app binds the same)."""
    texts = policy_chunks()
    path = tmp_path / "refunds.jsonl"
    path.write_bytes(jsonl_with_vectors(texts, use_model.encode_documents(texts)))
    questions, _ = read_questions_file(QUESTIONS.read_bytes(), QUESTIONS.name)
    result = analyse_index(open_index(str(path)).read(), use_model, questions,
                           load_files([(SOURCE, DOC.read_bytes())]),
                           RetrievalSettings(1, ARTICLE_FLOOR))
    report = render_report([result.analysis], None, "en")
    assert "Qual o prazo do reembolso?" in report and "answer-split" in report
    rows = results_csv([result.analysis], "en")
    # two answers outranked, and the hours' half left out by top_k 1 (answer-split first)
    assert rows.count("outranked") == 3 and "answer-split outranked" in rows
    assert "false-context" in rows


def test_a_collection_that_went_away_is_named_and_the_first_is_shown(
        server: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    address = server.removeprefix("chroma+http://")
    monkeypatch.setenv(HOSTS_ENV, address)
    at = index_app(None, sources=False)
    at.radio(key="index_from").set_value("server")
    at.session_state["index_collection"] = "faq-2023"  # kept from an earlier pick
    rerun(at)
    at.text_input(key="index_server").set_value(address)
    rerun(at)
    (warning,) = [shown(w.value) for w in at.warning
                  if "were written for the previous one" not in w.value]  # the questions'
    assert warning.startswith(f"{address} has no collection 'faq-2023' (collections: ")
    assert "refunds" in warning
    picker = at.radio(key="index_collection")
    assert picker.value == picker.options[0].split(" (")[0]  # the first one is shown


def test_the_index_page_speaks_portuguese(use_model: Embedder) -> None:
    texts = policy_chunks()
    at = index_app(("refunds.jsonl", jsonl_with_vectors(texts, use_model.encode_documents(
        texts))), sources=False)
    at.selectbox(key="lang").set_value("pt")
    rerun(at)
    text = page_text(at)
    assert "refunds.jsonl: 5 chunks, vetores guardados de dimensão 512." in text
    assert "Envie os arquivos de origem com que o índice foi construído" in text
    assert any(shown(i.value).startswith("Um índice enviado não cabe em um link")
               for i in at.sidebar.info)
