"""``ragviz index`` lists every collection (issue 36, item 8): with ``--model minilm-en``
one 512-dimension collection stopped the whole listing without naming it, and without
``--model`` no vector was checked though the help said the default was use-multilingual."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from tests.index_fixtures import DOC, chroma_collection, fixed_120, other_model_vectors


@pytest.fixture(scope="module")
def two_models(tmp_path_factory: pytest.TempPathFactory, minilm_model: Embedder) -> Path:
    """``a_minilm`` built with MiniLM (384), ``b_other`` with another 512-dimension model."""
    folder = tmp_path_factory.mktemp("listing") / "chroma"
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(folder, "a_minilm", texts, minilm_model.encode_documents(texts))
    chroma_collection(folder, "b_other", texts, other_model_vectors(minilm_model, texts, 512))
    chroma_collection(folder, "c_minilm", texts, minilm_model.encode_documents(texts))
    return folder


def test_a_collection_of_another_dimension_is_flagged_by_name_and_the_listing_goes_on(
        two_models: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"chroma:{two_models}"
    assert main(["index", spec, "--model", "minilm-en", "--json"]) == 0
    items = {i["collection"]: i for i in json.loads(capsys.readouterr().out)["collections"]}
    assert list(items) == ["a_minilm", "b_other", "c_minilm"]
    assert items["a_minilm"]["vector_mismatch_share"] == 0
    assert items["c_minilm"]["vector_mismatch_share"] == 0
    assert "vector_mismatch_share" not in items["b_other"]
    assert items["b_other"]["vector_check"].startswith(
        "vectors not checked: b_other stores 512-dimension vectors but minilm-en makes 384")
    assert main(["index", spec, "--model", "minilm-en"]) == 0
    out = capsys.readouterr().out
    assert "b_other stores 512-dimension vectors" in out and "c_minilm: 5 chunks" in out


def test_without_a_model_the_help_and_the_output_say_no_vector_is_checked(
        two_models: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["index", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "without it no vector is checked" in helped
    assert "default use-multilingual" not in helped
    assert main(["index", f"chroma:{two_models}"]) == 0
    out = capsys.readouterr().out
    assert out.count("stored vectors not checked: give --model") == 3


def test_a_file_past_the_limit_is_advised_what_a_file_can_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37, item 15: a JSONL past the limit was told "ragviz eval --index lets the
    database retrieve", and eval then refused it (a file cannot retrieve)."""
    from tests.index_fixtures import QUESTIONS, write_jsonl

    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "3")
    big = tmp_path / "big.jsonl"
    write_jsonl(big, [{"text": f"chunk {n}"} for n in range(5)])
    for args in (["index", str(big)], ["eval", "--index", str(big), "--questions",
                                          str(QUESTIONS)]):
        main(args)  # the file reader may refuse it while reading, or the listing say so
        captured = capsys.readouterr()
        said = captured.out + captured.err
        assert "big.jsonl" in said and "Chroma" in said, said
        assert "ragviz eval --index lets the database retrieve" not in said


def test_a_chroma_collection_past_the_limit_is_still_told_the_database_mode(
        two_models: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "3")
    assert main(["index", f"chroma:{two_models}", "--collection", "a_minilm"]) == 0
    assert "ragviz eval --index lets the database retrieve" in capsys.readouterr().out
