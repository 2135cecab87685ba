"""The Python API (``ragviz.api``, issue 47): the CLI's pipeline called with the user's own
splitter, retriever and vector store objects; its numbers are the CLI's and, for a user's
retriever, the token metrics computed here by hand from the offsets it returned."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ragviz
from ragviz.cli.command import main
from ragviz.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "sample_docs" / "residents_guide.txt"
GUIDE_QUESTIONS = ROOT / "sample_docs" / "residents_guide.csv"

# Two small files of paragraphs, and Chroma-format questions (excerpts at exact offsets).
BOILER = ("The boiler room is in the basement, behind the green door.\n\n"
          "Heating runs from October to April; report a cold radiator to the caretaker.\n\n"
          "The caretaker can be reached on 555-0199 between 8:00 and 16:00.")
BINS = ("Recycling bins are emptied every Tuesday morning.\n\n"
        "Garden waste goes in the brown bin, collected on the first Friday of the month.\n\n"
        "Bulky items need a booking with the council, which costs 20 euros.")
CORPUS = {"boiler.txt": BOILER, "bins.txt": BINS}


def _excerpt(source: str, content: str) -> dict[str, Any]:
    start = CORPUS[source].index(content)
    return {"content": content, "start_index": start, "end_index": start + len(content),
            "source": source}


QUESTIONS = [
    {"question": "When is the heating on?", "corpus_id": "boiler.txt",
     "references": [_excerpt("boiler.txt", "from October to April")]},
    {"question": "What number do I call for the caretaker?", "corpus_id": "boiler.txt",
     "references": [_excerpt("boiler.txt", "555-0199")]},
    {"question": "When are recycling bins emptied?", "corpus_id": "bins.txt",
     "references": [_excerpt("bins.txt", "every Tuesday morning")]},
    {"question": "How much does a bulky item booking cost?", "corpus_id": "bins.txt",
     "references": [_excerpt("bins.txt", "costs 20 euros")]},
]


def paragraphs() -> list[tuple[str, int, str]]:
    """(file, start, text) of every paragraph, found here with ``str.find``."""
    out = []
    for name, text in CORPUS.items():
        cursor = 0
        for part in text.split("\n\n"):
            start = text.index(part, cursor)
            out.append((name, start, part))
            cursor = start + len(part)
    return out


def overlap_ranking(question: str, count: int = 2) -> list[tuple[str, int, str]]:
    """The ``count`` paragraphs sharing most words with the question (ties: corpus order)."""
    words = {w.strip("?.,;").lower() for w in question.split()}
    scored = [(len(words & {w.strip("?.,;").lower() for w in p[2].split()}), -n, p)
              for n, p in enumerate(paragraphs())]
    return [p for _, _, p in sorted(scored, reverse=True)[:count]]


def by_hand(returned: Sequence[Sequence[tuple[str, int, str]]]) -> dict[str, float]:
    """Chroma's token measures from character sets: recall = |E ∩ R| / |E|, precision =
    |E ∩ R| / the characters returned, IoU = |E ∩ R| / |E ∪ R|, averaged over questions."""
    totals = {"recall": 0.0, "precision": 0.0, "iou": 0.0}
    for question, got in zip(QUESTIONS, returned, strict=True):
        wanted = {(r["source"], i) for r in question["references"]
                  for i in range(r["start_index"], r["end_index"])}
        chars = {(name, i) for name, start, text in got for i in range(start, start + len(text))}
        both = len(wanted & chars)
        totals["recall"] += both / len(wanted)
        totals["precision"] += both / sum(len(text) for _, _, text in got)
        totals["iou"] += both / len(wanted | chars)
    return {k: v / len(QUESTIONS) for k, v in totals.items()}


def _cli_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


# --- the package ------------------------------------------------------------------------


def test_importing_ragviz_loads_no_part_of_the_pipeline() -> None:
    code = ("import sys, ragviz; print(sorted(m for m in sys.modules if m.startswith('ragviz')),"
            " 'numpy' in sys.modules); ragviz.evaluate; print('ragviz.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split("\n")
    assert out[:2] == ["['ragviz'] False", "True"]


def test_the_api_is_the_packages_top_level() -> None:
    from ragviz import api

    for name in ("chunk", "evaluate", "sweep", "calibrate", "Evaluation", "Chunks"):
        assert getattr(ragviz, name) is getattr(api, name)
    assert "evaluate" in dir(ragviz)
    with pytest.raises(AttributeError, match="no attribute 'evaluat'"):
        ragviz.evaluat  # noqa: B018


# --- a user's splitter ------------------------------------------------------------------


@pytest.fixture(scope="module")
def langchain_run() -> ragviz.Evaluation:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=400, chunk_overlap=60)
    return ragviz.evaluate([GUIDE], GUIDE_QUESTIONS, chunker=splitter, top_k=3)


def test_a_langchain_splitter_object_gives_the_clis_peer_chunker_numbers(
        langchain_run: ragviz.Evaluation, capsys: pytest.CaptureFixture[str]) -> None:
    cli = _cli_json(capsys, ["eval", str(GUIDE), "--questions", str(GUIDE_QUESTIONS),
                             "--chunker", "langchain_recursive", "--chunk-size", "400",
                             "--chunk-overlap", "60", "--top-k", "3"])
    api = langchain_run.to_json()
    assert api["metrics"] == cli["metrics"]
    assert api["chunk_list"] == cli["chunk_list"]
    assert [q["labels"] for q in api["questions"]] == [q["labels"] for q in cli["questions"]]
    assert [q["explanation"] for q in api["questions"]] == \
        [q["explanation"] for q in cli["questions"]]
    assert api["chunker"] == "RecursiveCharacterTextSplitter(chunk_overlap=60, chunk_size=400)"


def test_to_pandas_has_one_row_per_question_and_chart_is_the_apps_bars(
        langchain_run: ragviz.Evaluation) -> None:
    import altair as alt

    frame = langchain_run.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert len(frame) == len(pd.read_csv(GUIDE_QUESTIONS)) == len(langchain_run.questions)
    assert {"labels", "rank", "recall", "precision", "iou", "explanation"} <= set(frame.columns)
    assert frame["labels"].tolist() == [q["labels"] for q in langchain_run.questions]
    chart = langchain_run.chart(question=1)
    assert isinstance(chart, alt.LayerChart)
    spec = chart.to_dict()
    bars = next(iter(spec["datasets"].values()))
    assert len(bars) == len(langchain_run.chunks)
    assert langchain_run.questions[1]["question"] in json.dumps(spec["title"], ensure_ascii=False)


def test_explain_is_the_clis_sentence_and_bad_positions_say_so(
        langchain_run: ragviz.Evaluation) -> None:
    rows = langchain_run.questions
    assert langchain_run.explain(2) == rows[2]["explanation"]
    assert langchain_run.explain(rows[2]["question"]) == rows[2]["explanation"]
    with pytest.raises(InputError, match="no question 99"):
        langchain_run.explain(99)


def test_a_callable_splitter_is_located_and_a_chunk_not_in_the_text_named() -> None:
    text = "First part here. Second part there. Third."
    chunks = ragviz.chunk(text, lambda t: [t[:16], t[16:35], t[35:]])
    assert [(c.start, c.end) for c in chunks] == [(0, 16), (16, 35), (35, 42)]
    assert all(text[c.start:c.end] == c.text for c in chunks)
    with pytest.raises(InputError, match="'Fourth part'"):
        ragviz.chunk(text, lambda t: ["First part here.", "Fourth part"])


def test_a_chonkie_chunker_object_cuts_as_the_chonkie_peer() -> None:
    from chonkie import RecursiveChunker

    text = GUIDE.read_text(encoding="utf-8")
    mine = ragviz.chunk(text, RecursiveChunker(tokenizer="character", chunk_size=300))
    peer = ragviz.chunk(text, "chonkie_recursive", chunk_size=300)
    assert [(c.start, c.end) for c in mine] == [(c.start, c.end) for c in peer]


def test_a_llamaindex_node_parser_object_keeps_offsets() -> None:
    from llama_index.core.node_parser import MarkdownNodeParser

    text = "# Rent\n\nRent is due on the 1st.\n\n# Keys\n\nA new fob costs 35 euros.\n"
    chunks = ragviz.chunk(text, MarkdownNodeParser())
    assert len(chunks) == 2
    assert all(text[c.start:c.end] == c.text for c in chunks)
    assert "35 euros" in chunks[1].text


def test_registered_chunker_parameters_are_checked() -> None:
    with pytest.raises(InputError, match="fixed does not take max_chars"):
        ragviz.chunk("Some text.", "fixed", max_chars=10)


# --- a user's retriever -----------------------------------------------------------------


def test_a_langchain_retriever_is_scored_by_the_offsets_it_returned() -> None:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    class WordOverlap(BaseRetriever):
        """Paragraphs by shared words, with LangChain's ``add_start_index`` metadata."""

        def _get_relevant_documents(self, query: str, *,
                                    run_manager: CallbackManagerForRetrieverRun
                                    ) -> list[Document]:
            return [Document(page_content=text, metadata={"source": name, "start_index": start})
                    for name, start, text in overlap_ranking(query)]

    result = ragviz.evaluate(CORPUS, QUESTIONS, retriever=WordOverlap(), top_k=5)
    expected = by_hand([overlap_ranking(q["question"]) for q in QUESTIONS])
    for name, value in expected.items():
        assert result.metrics[name] == pytest.approx(value)
    assert 0 < expected["iou"] < expected["recall"]  # values that could be told apart
    hits = [[(result.chunks[h["index"]].source, result.chunks[h["index"]].start)
             for h in q["hits"]] for q in result.questions]
    assert hits == [[(n, s) for n, s, _ in overlap_ranking(q["question"])] for q in QUESTIONS]
    assert result.to_json()["scorer"] == "retriever:WordOverlap"


def test_a_llamaindex_retriever_with_rejoined_lines_and_its_own_scores() -> None:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

    class LinesJoined(BaseRetriever):
        """The best paragraph first, its whitespace changed, with falling scores."""

        def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
            ranked = overlap_ranking(query_bundle.query_str, 2)
            return [NodeWithScore(node=TextNode(text=" ".join(text.split()).replace(" ", "  ")),
                                  score=0.9 - 0.2 * n) for n, (_, _, text) in enumerate(ranked)]

    result = ragviz.evaluate(CORPUS, QUESTIONS, retriever=LinesJoined(), top_k=1)
    expected = by_hand([overlap_ranking(q["question"], 1) for q in QUESTIONS])
    for name, value in expected.items():
        assert result.metrics[name] == pytest.approx(value)
    assert [q["hits"][0]["score"] for q in result.questions] == [0.9] * len(QUESTIONS)


def test_a_callable_retriever_returning_texts_not_in_the_corpus_is_told_which() -> None:
    def made_up(question: str) -> list[Any]:
        return [("The boiler is red.", 0.8), "Recycling bins are emptied every Tuesday morning."]

    with pytest.raises(InputError) as caught:
        ragviz.evaluate(CORPUS, QUESTIONS, retriever=made_up)
    said = str(caught.value)
    assert "'The boiler is red.'" in said and "not in the corpus" in said
    assert "Tuesday" not in said


def test_an_answer_the_retriever_never_returned_is_said_so(tmp_path: Path) -> None:
    returned = BOILER.split("\n\n")[0] + "\n\n"  # its whitespace is part of what it sent

    def first_paragraph(question: str) -> list[str]:
        return [returned]

    result = ragviz.evaluate(CORPUS, QUESTIONS[:1], retriever=first_paragraph, top_k=1)
    assert result.questions[0]["recall"] == 0.0
    assert result.chunks[result.questions[0]["hits"][0]["index"]].text == returned
    assert "did not return the answer's chunk" in result.explain(0)
    assert result.to_pandas()["explanation"].tolist() == [result.explain(0)]
    assert len(result.chart(0).to_dict()["datasets"]) >= 1  # unscored chunks drawn too
    assert "555-0199" in result.report(tmp_path / "r.html").read_text(encoding="utf-8")
    assert all(CORPUS[c.source][c.start:c.end] == c.text for c in result.chunks)


def test_an_answer_never_returned_counts_zero_for_mrr_and_hit_at_k() -> None:
    """A retriever that did not return the answer's chunk ranked it nowhere: reciprocal rank
    0 and hit@k false for that question (NaN sorts it after the returned ones, which read
    as rank 2 or 3 before), recall and precision on what it returned."""
    boiler, bins = BOILER.split("\n\n"), BINS.split("\n\n")
    lists = {q["question"]: texts for q, texts in zip(QUESTIONS, [
        [boiler[0], boiler[1]],  # the heating answer second: 1/2
        [boiler[0]],  # the caretaker's number never returned: 0
        [bins[0]],  # the bins' day first: 1
        [bins[1], boiler[0]],  # the booking's cost never returned: 0
    ], strict=True)}

    def fixed_lists(question: str) -> list[str]:
        return lists[question]

    result = ragviz.evaluate(CORPUS, QUESTIONS, retriever=fixed_lists, top_k=3)
    assert result.metrics["mrr"] == pytest.approx((1 / 2 + 0 + 1 + 0) / 4)
    assert result.metrics["hit_at_k"] == pytest.approx(2 / 4)
    assert [q["diagnosis"]["answer_rank"] for q in result.questions] == [2, None, 1, None]
    placed = [[(name, CORPUS[name].index(text), text) for text in lists[q["question"]]
               for name in CORPUS if text in CORPUS[name]] for q in QUESTIONS]
    for name, value in by_hand(placed).items():
        assert result.metrics[name] == pytest.approx(value)
    assert [q["labels"][0] for q in result.questions] == ["ok", "outranked", "ok", "outranked"]
    assert "never scored" in result.explain(1) and "reciprocal rank 0" in result.explain(1)


# --- compare, calibrate, sweep, report --------------------------------------------------


@pytest.fixture(scope="module")
def article() -> tuple[ragviz.Evaluation, ragviz.Evaluation]:
    a = ragviz.evaluate("sample:politica_reembolso", "sample:politica_reembolso",
                        chunker="fixed", size=120, overlap=0, top_k=1)
    b = ragviz.evaluate("sample:politica_reembolso", "sample:politica_reembolso",
                        chunker="sentence", max_chars=220, overlap_sentences=1, top_k=1)
    return a, b


def test_compare_calibrate_and_report_are_the_clis(
        article: tuple[ragviz.Evaluation, ragviz.Evaluation],
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a, b = article
    flips = a.compare(b).to_dict()["flips"]
    cli = _cli_json(capsys, ["compare", "sample:politica_reembolso", "--questions",
                             "sample:politica_reembolso", "--chunker", "fixed", "--size", "120",
                             "--overlap", "0", "--b-chunker", "sentence", "--top-k", "1"])
    assert flips == cli["flips"] and flips
    calibrated = _cli_json(capsys, ["calibrate", "sample:politica_reembolso", "--questions",
                                    "sample:politica_reembolso", "--chunker", "sentence"])
    assert ragviz.calibrate(b).floor == calibrated["floor"]
    written = b.report(tmp_path / "r.html")
    assert "Qual o prazo do reembolso?" in written.read_text(encoding="utf-8")


def test_sweep_rows_are_the_clis(capsys: pytest.CaptureFixture[str]) -> None:
    result = ragviz.sweep("sample:politica_reembolso", "sample:politica_reembolso",
                          chunkers=["fixed"], sizes=[100, 200], overlaps=[0])
    cli = _cli_json(capsys, ["sweep", "sample:politica_reembolso", "--questions",
                             "sample:politica_reembolso", "--chunkers", "fixed",
                             "--sizes", "100,200", "--overlaps", "0"])
    assert result.to_dict()["rows"] == cli["rows"]


def test_the_api_the_cli_and_the_app_agree_on_the_apps_first_configuration(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from streamlit.testing.v1 import AppTest

    from ragviz.present.exports import questions_csv

    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    at.run()
    assert not at.exception
    app = next(a for a in at.session_state["_memo"].values() if a.config.chunker == "fixed")
    questions = [o.question for o in app.outcomes]
    (tmp_path / "doc.txt").write_text(app.document, encoding="utf-8")
    (tmp_path / "q.csv").write_text(questions_csv(questions), encoding="utf-8")
    params = app.config.params()
    api = ragviz.evaluate(app.document, [q.to_dict() for q in questions], chunker="fixed",
                          model=app.model, top_k=app.top_k, floor=app.floor, **params)
    cli = _cli_json(capsys, ["eval", str(tmp_path / "doc.txt"), "--questions",
                             str(tmp_path / "q.csv"), "--chunker", "fixed",
                             *[f"--{k}={v}" for k, v in params.items()], "--model", app.model,
                             "--top-k", str(app.top_k), "--floor", repr(app.floor)])
    assert api.analysis.metrics == app.metrics
    assert api.to_json()["metrics"] == cli["metrics"]
    assert [o.diagnosis.labels for o in api.analysis.outcomes] == \
        [o.diagnosis.labels for o in app.outcomes]


# --- a user's vector store --------------------------------------------------------------


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The article's fixed-120 chunks in a persistent Chroma collection, as a production
    pipeline would have stored them with the default model."""
    from ragviz.embedding.models import load_embedder
    from tests.index_fixtures import DOC, chroma_collection, fixed_120

    folder = tmp_path_factory.mktemp("store") / "chroma"
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(folder, "refunds", texts, load_embedder().encode_documents(texts))
    return folder


def test_langchain_and_llamaindex_chroma_stores_are_read_as_their_folder_is(
        stored: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import chromadb
    from langchain_chroma import Chroma
    from llama_index.vector_stores.chroma import ChromaVectorStore

    from ragviz.api.stores import index_spec
    from tests.index_fixtures import DOC
    from tests.index_fixtures import QUESTIONS as CSV

    client = chromadb.PersistentClient(path=str(stored))
    store = Chroma(client=client, collection_name="refunds")
    for index in (store, ChromaVectorStore(chroma_collection=client.get_collection("refunds")),
                  client.get_collection("refunds")):
        assert index_spec(index, None) == (f"chroma:{stored}", "refunds")
    data = ragviz.evaluate([DOC], CSV, index=store, top_k=1).to_json()
    cli = _cli_json(capsys, ["eval", "--index", f"chroma:{stored}", "--collection", "refunds",
                             "--sources", str(DOC), "--questions", str(CSV), "--top-k", "1"])
    assert data["metrics"] == cli["metrics"]
    assert data["chunker"] == cli["chunker"] == "index refunds"
    assert [q["labels"] for q in data["questions"]] == [q["labels"] for q in cli["questions"]]
    assert store.get()["ids"]  # the user's store still reads: ragviz wrote nothing to it


def test_a_store_kept_in_memory_or_of_another_kind_is_told_what_to_give() -> None:
    import chromadb

    collection = chromadb.EphemeralClient().get_or_create_collection("notes")
    with pytest.raises(InputError, match="keeps its data in memory"):
        ragviz.evaluate(None, QUESTIONS, index=collection)
    with pytest.raises(InputError, match="index= takes a path or URL"):
        ragviz.evaluate(None, QUESTIONS, index=object())


def test_a_qdrant_client_or_llamaindex_store_is_read_as_its_storage_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from llama_index.vector_stores.qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient

    from ragviz.api.stores import index_spec
    from ragviz.embedding.models import load_embedder
    from tests.index_fixtures import DOC
    from tests.index_fixtures import QUESTIONS as CSV
    from tests.test_index_pgvector import article_chunks
    from tests.test_index_qdrant import qdrant_storage

    texts, sources, starts = article_chunks()
    qdrant_storage(tmp_path / "q", texts, load_embedder().encode_documents(texts), sources, starts)
    client = QdrantClient(path=str(tmp_path / "q"))  # holds the storage's lock meanwhile
    try:
        assert index_spec(client, "langchain") == (f"qdrant:{tmp_path / 'q'}", "langchain")
        store = QdrantVectorStore(client=client, collection_name="llama")
        assert index_spec(store, None) == (f"qdrant:{tmp_path / 'q'}", "llama")
        data = ragviz.evaluate([DOC], CSV, index=store).to_json()
    finally:
        client.close()
    cli = _cli_json(capsys, ["eval", "--index", f"qdrant:{tmp_path / 'q'}", "--collection",
                             "llama", "--sources", str(DOC), "--questions", str(CSV)])
    assert data["metrics"] == cli["metrics"] and data["chunker"] == "index llama"


def test_an_llm_answers_as_with_the_clis_llm_option(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_llm_answer import KEY, MODEL, serve

    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the environment's key may go there
    server = serve()
    base = next(server)
    try:
        api = ragviz.evaluate("sample:politica_reembolso", "sample:politica_reembolso",
                              chunker="fixed", size=120, overlap=0, top_k=1,
                              llm=f"openai:{MODEL}", llm_base=base).to_json()
        cli = _cli_json(capsys, ["eval", "sample:politica_reembolso", "--questions",
                                 "sample:politica_reembolso", "--chunker", "fixed", "--size",
                                 "120", "--overlap", "0", "--top-k", "1",
                                 "--llm", f"openai:{MODEL}", "--llm-base", base])
    finally:
        server.close()
    assert [q["llm"]["verdict"] for q in api["questions"]] == \
        [q["llm"]["verdict"] for q in cli["questions"]]
    assert api["llm"]["metrics"] == cli["llm"]["metrics"]
    assert KEY not in json.dumps(api)


def test_the_readers_notes_speak_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    lost = [{"question": "When?", "corpus_id": "a.txt",
             "references": [{"content": "not in the file"}]}]
    with pytest.raises(InputError, match="no question's excerpts lie in the corpus"):
        ragviz.evaluate({"a.txt": "Rent is due on the first."}, lost, lang="pt")
    assert "o texto do trecho não está no corpus" in capsys.readouterr().err
