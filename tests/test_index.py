"""Production indexes (issue 21): a real Chroma directory and chunk exports, diagnosed on
their stored vectors through ``ragviz eval --index`` and ``ragviz index``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.evaluation.diagnosis import crowding
from ragviz.evaluation.index_analysis import BUNDLED_DIMENSIONS
from ragviz.index import open_index
from tests.index_fixtures import (
    DOC,
    QUESTIONS,
    SOURCE,
    article_among_others,
    chroma_collection,
    fixed_120,
    other_model_vectors,
    write_jsonl,
)

FIXED = ["--chunker", "fixed", "--size", "120", "--overlap", "0"]
SENTENCE = ["--chunker", "sentence", "--max-chars", "220", "--overlap-sentences", "1"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(list(args)) == 0, capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line on stderr of a refused command."""
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.fixture(scope="module")
def article_index(tmp_path_factory: pytest.TempPathFactory, use_model: Embedder) -> Path:
    """The refund policy chunked fixed 120, stored with the default model's vectors."""
    folder = tmp_path_factory.mktemp("article") / "chroma"
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(folder, "refunds", texts, use_model.encode_documents(texts))
    return folder


def labels(data: dict[str, Any]) -> list[list[str]]:
    return [row["labels"] for row in data["questions"]]


def test_article_index_fails_like_ragviz_fixed_120_and_sentence_fixes_it(
        capsys: pytest.CaptureFixture[str], article_index: Path) -> None:
    one = ("--top-k", "1")  # top_k 2 sends both halves of the split hours: ok (issue 43)
    index = run(capsys, "eval", "--index", f"chroma:{article_index}", "--collection",
                "refunds", "--questions", str(QUESTIONS), "--sources", str(DOC), *one, "--json")
    own = run(capsys, "eval", str(DOC), "--questions", str(QUESTIONS), *FIXED, *one, "--json")
    fixed = run(capsys, "eval", str(DOC), "--questions", str(QUESTIONS), *SENTENCE, *one,
                "--json")
    assert labels(index) == labels(own)
    assert any(found[0] == "answer-split" for found in labels(index))
    assert index["metrics"] == own["metrics"]
    assert fixed["metrics"]["hit_at_k"] > index["metrics"]["hit_at_k"]
    text = DOC.read_text(encoding="utf-8")
    for chunk in index["chunk_list"]:
        assert text[chunk["start"]:chunk["end"]] == chunk["text"]
        assert chunk["labels"] == []
    assert index["chunker"] == "index refunds" and index["warnings"] == []


def test_without_sources_chunks_have_no_offsets_but_answers_are_found(
        capsys: pytest.CaptureFixture[str], article_index: Path) -> None:
    data = run(capsys, "eval", "--index", f"chroma:{article_index}", "--questions",
               str(QUESTIONS), "--json")
    assert all(c["start"] is None and c["end"] is None for c in data["chunk_list"])
    assert labels(data)[1] == ["ok"]  # "nota fiscal" found inside the stored chunk


def test_index_command_lists_collection(capsys: pytest.CaptureFixture[str],
                                        article_index: Path) -> None:
    data = run(capsys, "index", str(article_index), "--model", "use-multilingual", "--json")
    (item,) = data["collections"]
    assert (item["collection"], item["count"], item["dimension"]) == ("refunds", 5, 512)
    assert item["chunk_chars"]["max"] == 120 and item["vector_mismatch_share"] == 0.0
    assert item["duplicate_chunks"] == 0


def test_index_listing_speaks_the_language_asked(capsys: pytest.CaptureFixture[str],
                                                article_index: Path) -> None:
    """``ragviz index --lang pt`` printed its lines in English (issue 36, low)."""
    assert main(["index", str(article_index), "--model", "use-multilingual", "--lang",
                 "pt"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "refunds: 5 chunks, dimensão 512"
    assert lines[1].startswith("  caracteres por chunk: mín ") and "mediana" in lines[1]
    assert lines[2:] == ["  duplicatas: 0 chunks em 0 grupos de cópias",
                         "  vetores que não batem com use-multilingual: 0% dos chunks"]


def test_langchain_jsonl_offsets_slice_the_source(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, use_model: Embedder) -> None:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    text = DOC.read_text(encoding="utf-8")
    splitter = RecursiveCharacterTextSplitter(chunk_size=100, chunk_overlap=30,
                                              add_start_index=True)
    docs = splitter.create_documents([text], metadatas=[{"source": f"/srv/docs/{SOURCE}"}])
    vectors = use_model.encode_documents([d.page_content for d in docs])
    path = tmp_path / "chunks.jsonl"
    write_jsonl(path, [{"page_content": d.page_content, "metadata": d.metadata,
                        "embedding": v.tolist()} for d, v in zip(docs, vectors, strict=True)])
    data = run(capsys, "eval", "--index", str(path), "--questions", str(QUESTIONS),
               "--sources", str(DOC), "--json")
    assert len(data["chunk_list"]) == len(docs) > 5
    for chunk, doc in zip(data["chunk_list"], docs, strict=True):
        assert chunk["start"] == doc.metadata["start_index"]
        assert text[chunk["start"]:chunk["end"]] == chunk["text"] == doc.page_content


def test_llamaindex_nodes_without_vectors_located_in_order(tmp_path: Path) -> None:
    text = "Pay by card. Refund in 7 days. Pay by card. Support by chat."
    path = tmp_path / "nodes.jsonl"
    write_jsonl(path, [{"text": "Pay by card.", "metadata": {"file_name": "a.txt"}},
                       {"text": "Refund in 7 days.", "start_char_idx": 13, "end_char_idx": 30,
                        "metadata": {"file_name": "a.txt"}},
                       {"text": "Pay by card.", "metadata": {"file_name": "a.txt"}}])
    from ragviz.index.placement import place
    from ragviz.inputs.corpus import Corpus, Source

    placed = place(open_index(str(path)).read().chunks, Corpus((Source("a.txt", text),)))
    assert [(c.start, c.end) for c in placed.chunks] == [(0, 12), (13, 30), (31, 43)]
    assert placed.known == (True, True, True)


def test_csv_and_parquet_exports_read_the_same(tmp_path: Path) -> None:
    import pandas as pd

    frame = pd.DataFrame({"text": [" Lead space kept. ", "Two"], "source": ["a.txt", "a.txt"],
                          "vector": [[0.6, 0.8], [1.0, 0.0]]})
    frame.to_parquet(tmp_path / "c.parquet")
    frame.assign(vector=frame["vector"].map(json.dumps)).to_csv(tmp_path / "c.csv", index=False)
    for name in ("c.parquet", "c.csv"):
        chunks = open_index(str(tmp_path / name)).read().chunks
        assert [c.text for c in chunks] == [" Lead space kept. ", "Two"]
        assert chunks[0].vector is not None
        assert np.allclose(chunks[0].vector, [0.6, 0.8])


def test_vectors_of_another_model_same_dimension_are_flagged(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(tmp_path / "db", "refunds", texts,
                      other_model_vectors(minilm_model, texts, 512))
    data = run(capsys, "eval", "--index", f"chroma:{tmp_path / 'db'}", "--questions",
               str(QUESTIONS), "--sources", str(DOC), "--json")
    flagged = [c for c in data["chunk_list"] if "vector-mismatch" in c["labels"]]
    assert len(flagged) > len(texts) / 2
    (warning,) = data["warnings"]
    assert "another model" in warning and "use-multilingual" in warning
    summary = run(capsys, "index", str(tmp_path / "db"), "--model", "use-multilingual",
                  "--json")
    assert summary["collections"][0]["vector_mismatch_share"] > 0.5


def test_vectors_of_another_dimension_one_sentence(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder) -> None:
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(tmp_path / "db", "refunds", texts, minilm_model.encode_documents(texts))
    err = fails(capsys, "eval", "--index", f"chroma:{tmp_path / 'db'}", "--questions",
                str(QUESTIONS))
    assert "384-dimension" in err and "512-dimension" in err and "use-multilingual" in err
    assert err.rstrip().endswith("(minilm-en makes 384).")  # the bundled model that fits
    listed = run(capsys, "index", str(tmp_path / "db"), "--model", "use-multilingual",
                 "--json")["collections"][0]["vector_check"]
    assert listed.endswith("give the model it was built with (minilm-en makes 384)")


def test_the_bundled_dimensions_are_the_models_own(use_model: Embedder,
                                                   minilm_model: Embedder) -> None:
    """The dimension error names the bundled model that fits from these numbers."""
    models = {model.name: model.dimension for model in (use_model, minilm_model)}
    assert models == BUNDLED_DIMENSIONS


def test_edited_source_makes_stale_chunks(capsys: pytest.CaptureFixture[str],
                                          article_index: Path, tmp_path: Path) -> None:
    edited = tmp_path / SOURCE
    edited.write_text(DOC.read_text(encoding="utf-8").replace("7 dias úteis", "10 dias úteis"),
                      encoding="utf-8")
    data = run(capsys, "eval", "--index", f"chroma:{article_index}", "--questions",
               str(QUESTIONS), "--sources", str(edited), "--json")
    stale = [c for c in data["chunk_list"] if "stale-chunk" in c["labels"]]
    assert len(stale) == 1 and "7 dias úteis" in stale[0]["text"]
    assert stale[0]["stale_in"] == SOURCE and SOURCE in stale[0]["explanation"]
    assert stale[0]["start"] is None
    fresh = [c for c in data["chunk_list"] if not c["labels"]]
    assert all(c["start"] is not None for c in fresh) and len(fresh) == 4


def test_document_imported_twice_crowds_the_top_k(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, use_model: Embedder) -> None:
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))] * 2
    chroma_collection(tmp_path / "db", "refunds", texts, use_model.encode_documents(texts))
    data = run(capsys, "eval", "--index", f"chroma:{tmp_path / 'db'}", "--questions",
               str(QUESTIONS), "--sources", str(DOC), "--top-k", "2", "--json")
    crowded = [row for row in data["questions"] if "duplicate-crowding" in row["labels"]]
    assert crowded and all(len(row["duplicate_crowding"]) == 2 for row in crowded)
    assert all("Copies of the same passage" in row["explanation"] for row in crowded)
    summary = run(capsys, "index", str(tmp_path / "db"), "--json")["collections"][0]
    assert (summary["duplicate_groups"], summary["duplicate_chunks"]) == (5, 10)
    assert main(["eval", "--index", f"chroma:{tmp_path / 'db'}", "--questions",
                 str(QUESTIONS), "--lang", "pt"]) == 0
    assert "duplicatas-no-top-k" in capsys.readouterr().out


def test_not_a_chroma_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = fails(capsys, "index", f"chroma:{tmp_path}")
    assert "is not a Chroma directory" in err
    assert not (tmp_path / "chroma.sqlite3").exists()  # Chroma did not create one there


def test_unknown_and_empty_collections(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       article_index: Path) -> None:
    err = fails(capsys, "eval", "--index", f"chroma:{article_index}", "--collection", "nope",
                "--questions", str(QUESTIONS))
    assert "no collection 'nope'" in err and "refunds" in err
    chroma_collection(tmp_path / "db", "empty", [], None)
    err = fails(capsys, "eval", "--index", str(tmp_path / "db"), "--collection", "empty",
                "--questions", str(QUESTIONS))
    assert "the collection 'empty'" in err and "is empty" in err


def test_index_lists_every_collection_past_an_empty_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, use_model: Embedder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Part 3: an empty collection is said so and the listing goes on; one past the
    in-memory limit is listed with its count and dimension, not read."""
    db = tmp_path / "db"
    chroma_collection(db, "a-empty", [], None)
    count = article_among_others(db, use_model, "b-mixed")
    chroma_collection(db, "c-refunds", ["Reembolso em 7 dias."],
                      use_model.encode_documents(["Reembolso em 7 dias."]))
    items = {i["collection"]: i for i in run(capsys, "index", str(db), "--json")["collections"]}
    assert list(items) == ["a-empty", "b-mixed", "c-refunds"]
    assert items["a-empty"]["empty"] and items["a-empty"]["count"] == 0
    assert items["b-mixed"]["count"] == count and items["b-mixed"]["loaded"]
    assert items["c-refunds"]["chunk_chars"]["max"] == 20
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "10")
    assert main(["index", str(db), "--lang", "pt"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a-empty: vazia (0 chunks), nada a diagnosticar"
    assert out[1].startswith(f"b-mixed: {count:,} chunks, dimensão 512; acima dos 10")
    assert out[2] == "c-refunds: 1 chunk, dimensão 512"


def test_database_retrieves_past_the_limit_with_the_in_memory_labels(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, use_model: Embedder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Part 8 on a persistent directory: past a lowered limit the database retrieves (top_k
    plus a margin of 1, and $contains for the answers); the labels, and the stored chunks
    they name, are those of the collection loaded whole."""
    count = article_among_others(tmp_path / "db", use_model)
    args = ("eval", "--index", f"chroma:{tmp_path / 'db'}", "--questions", str(QUESTIONS),
            "--sources", str(DOC), "--margin", "1", "--top-k", "1", "--json")
    memory = run(capsys, *args)
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "10")
    database = run(capsys, *args)
    assert memory["index"]["mode"] == "memory" and database["index"]["mode"] == "database"
    assert database["index"]["count"] == count > 4 * database["index"]["fetched"]
    assert labels(database) == labels(memory)
    assert any(found[0] == "answer-split" for found in labels(database))
    assert ["ok"] in labels(database)
    assert named_chunks(database) == named_chunks(memory)
    assert database["metrics"]["hit_at_k"] == memory["metrics"]["hit_at_k"]
    assert main([*args[:-1], "--lang", "pt"]) == 0
    assert capsys.readouterr().out.startswith("O banco de dados recuperou: refunds tem")
    err = fails(capsys, *args, "--index-mode", "memory")
    assert f"holds {count:,} chunks; ragviz loads at most 10" in err and "--index-mode" in err


def named_chunks(data: dict[str, Any]) -> list[list[str]]:
    """Per question, the stored ids of the chunks its diagnosis names."""
    ids = [chunk["id"] for chunk in data["chunk_list"]]
    out = []
    for row in data["questions"]:
        found = row["diagnosis"]
        picked = [found["best_chunk"], *found["holding_chunks"], *found["split_between"]]
        out.append([ids[i] for i in picked if i is not None])
    return out


def test_database_mode_needs_a_database(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    path = tmp_path / "chunks.jsonl"
    write_jsonl(path, [{"page_content": "Reembolso em 7 dias."}])
    err = fails(capsys, "eval", "--index", str(path), "--questions", str(QUESTIONS),
                "--index-mode", "database")
    assert "chunks.jsonl is a file" in err and "needs a Chroma index" in err


def test_jsonl_broken_line_named_others_load(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "chunks.jsonl"
    write_jsonl(path, [{"page_content": "Pagamentos por boleto compensam em até três dias "
                                        "úteis.", "metadata": {"source": SOURCE}},
                       '{"page_content": "broken',
                       {"page_content": "Reembolso.", "metadata": {"source": SOURCE}}])
    loaded = open_index(str(path)).read()
    assert [c.text for c in loaded.chunks][1] == "Reembolso."
    (problem,) = map(str, loaded.problems)
    assert "line 2" in problem and "not valid JSON" in problem
    data = run(capsys, "eval", "--index", str(path), "--questions", str(QUESTIONS), "--json")
    assert data["chunks"] == 2 and "line 2" in data["warnings"][0]


def test_nan_vector_one_sentence(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "chunks.jsonl"
    write_jsonl(path, ['{"page_content": "a", "embedding": [NaN, 1.0]}',
                       '{"page_content": "b", "embedding": [0.0, 1.0]}'])
    loaded = open_index(str(path)).read()
    assert [c.text for c in loaded.chunks] == ["b"]
    (problem,) = map(str, loaded.problems)
    assert "line 1" in problem and "NaN" in problem
    (tmp_path / "c.csv").write_text('text,vector\na,"[NaN, 1.0]"\n', encoding="utf-8")
    err = fails(capsys, "index", str(tmp_path / "c.csv"))
    assert "c.csv row 1" in err and "NaN" in err


def test_unknown_index_kind(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("hello", encoding="utf-8")
    assert "is not an index ragviz reads" in fails(capsys, "index", str(tmp_path / "x.txt"))


def test_eval_needs_paths_or_index(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--index" in fails(capsys, "eval", "--questions", str(QUESTIONS))


def test_near_copies_found_on_vectors_exact_copies_past_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz.index import duplicates

    vectors = np.array([[1.0, 0.0], [0.999, 0.04], [0.0, 1.0], [0.0, 1.0]], dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = ["Refund in 7 days.", "Refund in 7 days!", "Chat", "Chat"]
    assert duplicates.duplicate_groups(vectors, texts) == (0, 0, 2, 2)
    assert crowding((0, 2, 1), (0, 0, 2, 2)) == (0, 1)
    monkeypatch.setattr(duplicates, "NEAR_DUPLICATE_LIMIT", 3)
    assert duplicates.duplicate_groups(vectors, texts) == (-1, -1, 2, 2)


def test_crowding_is_in_the_core_diagnosis_rescore_and_report(use_model: Embedder) -> None:
    """A document imported twice: the core's diagnosis (what the app and report show)
    carries duplicate-crowding, and moving top_k (rescore) keeps seeing the copies."""
    from ragviz.evaluation.index_analysis import analyse_index
    from ragviz.evaluation.pipeline import rescore
    from ragviz.evaluation.results import RetrievalSettings
    from ragviz.index.base import IndexChunk, LoadedIndex
    from ragviz.inputs.questions import parse_questions_csv
    from ragviz.present.report import render_report

    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))] * 2
    vectors = use_model.encode_documents(texts)
    loaded = LoadedIndex("twice", tuple(IndexChunk(str(i), t, SOURCE, vector=v)
                                        for i, (t, v) in enumerate(zip(texts, vectors,
                                                                       strict=True))))
    questions = parse_questions_csv(QUESTIONS.read_text(encoding="utf-8"))
    result = analyse_index(loaded, use_model, questions, settings=RetrievalSettings(top_k=2))
    diagnoses = [o.diagnosis for o in result.analysis.outcomes if o.diagnosis is not None]
    assert diagnoses and all("duplicate-crowding" in d.labels for d in diagnoses)
    assert result.analysis.metrics.labels["duplicate-crowding"] == len(diagnoses)
    wide = rescore(result.analysis, RetrievalSettings(top_k=4))
    assert all(len(o.diagnosis.crowding) == 4 for o in wide.outcomes if o.diagnosis)
    single = rescore(result.analysis, RetrievalSettings(top_k=1))
    assert single.metrics.labels["duplicate-crowding"] == 0
    html = render_report([result.analysis], lang="pt")
    assert "duplicatas-no-top-k" in html and "Cópias do mesmo trecho" in html


def test_database_fetches_both_chunks_an_answer_straddles(tmp_path: Path,
                                                          use_model: Embedder) -> None:
    """top_k 1 and no margin: the database returns one chunk and no chunk holds the answer
    whole; its longest prefix and suffix found by the text filter bring the other chunk,
    so answer-split names both stored chunks, as when the collection is loaded."""
    from ragviz.evaluation.index_analysis import analyse_index
    from ragviz.evaluation.index_database import analyse_in_database
    from ragviz.evaluation.results import RetrievalSettings
    from ragviz.inputs.corpus import Corpus, Source
    from ragviz.inputs.questions import LabelledQuestion

    count = article_among_others(tmp_path / "db", use_model)
    reader = open_index(f"chroma:{tmp_path / 'db'}")
    question = LabelledQuestion("Qual o horário de atendimento do suporte?",
                                "de segunda a sexta, das 9h às 18h")
    sources = Corpus((Source(SOURCE, DOC.read_text(encoding="utf-8")),))
    settings = RetrievalSettings(top_k=1)
    run_ = analyse_in_database(reader, "refunds", use_model, [question], sources, settings,
                               margin=0)
    whole = analyse_index(reader.read("refunds"), use_model, [question], sources, settings)
    named = []
    for result in (run_.index_analysis, whole):
        diagnosis = result.analysis.outcomes[0].diagnosis
        assert diagnosis is not None and diagnosis.labels[0] == "answer-split"
        named.append([result.index.chunks[i].id for i in diagnosis.split_between])
    assert named[0] == named[1] and named[0][0] != named[0][1]
    assert run_.fetched == 2 and run_.count == count


def test_database_mode_checks_the_vectors_it_hands_on(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, minilm_model: Embedder,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Vectors of another model, database mode: the chunks in a top_k are re-embedded and
    flagged, the one-sentence warning still comes; the other fetched chunks are unchecked."""
    article_among_others(tmp_path / "db", minilm_model, dimension=512)
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "10")
    data = run(capsys, "eval", "--index", f"chroma:{tmp_path / 'db'}", "--questions",
               str(QUESTIONS), "--json")
    checked = [c for c in data["chunk_list"] if c["vector_agreement"] is not None]
    assert data["index"]["mode"] == "database"
    assert 0 < len(checked) < len(data["chunk_list"])
    assert sum("vector-mismatch" in c["labels"] for c in checked) > len(checked) / 2
    assert not any(c["labels"] for c in data["chunk_list"] if c["vector_agreement"] is None)
    no_sources, warning = data["warnings"]  # no --sources: said first (issue 36 item 3)
    assert "No source file was given" in no_sources and "another model" in warning


def test_a_folder_whose_database_is_broken_is_one_sentence_every_time(tmp_path: Path) -> None:
    """Chroma caches the half-made client of a path that failed: opening it again (the same
    upload twice) raised AttributeError from its bindings instead of the sentence."""
    from ragviz.errors import IndexInputError

    (tmp_path / "chroma.sqlite3").write_bytes(b"garbage" * 100)
    for _ in range(3):
        with pytest.raises(IndexInputError, match="cannot be read as a Chroma directory"):
            open_index(f"chroma:{tmp_path}")
