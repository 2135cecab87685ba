"""The bundled models, the shared cache, token spans and load errors, on the real models."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest

from ragviz.embedders import (
    Embedder,
    EmbeddingCache,
    ModelLoadError,
    UseMultilingual,
    load_embedder,
)


def test_default_model_gives_unit_float32_rows(use_model: Embedder) -> None:
    vectors = use_model.encode_documents(["Qual o prazo do reembolso?", "Reembolso em 7 dias."])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 512)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_default_model_ranks_a_paraphrase_above_an_unrelated_text(use_model: Embedder) -> None:
    query = use_model.encode_queries(["Qual o prazo do reembolso?"])[0]
    docs = use_model.encode_documents(
        [
            "O estorno é devolvido em até 7 dias úteis.",
            "O escritório tem uma mesa de pingue-pongue.",
        ]
    )
    scores = docs @ query
    assert scores[0] > scores[1]


def test_minilm_is_english_with_a_256_token_limit(minilm_model: Embedder) -> None:
    assert minilm_model.name == "minilm-en"
    assert minilm_model.max_tokens == 256
    assert minilm_model.content_token_limit == 254
    vectors = minilm_model.encode_documents(["refund within seven days"])
    assert vectors.shape == (1, 384)


def test_minilm_truncation_offset_points_at_the_ignored_tail(minilm_model: Embedder) -> None:
    text = " ".join(f"word{i}" for i in range(400))
    offset = minilm_model.truncation_offset(text)
    assert offset is not None
    assert minilm_model.count_tokens(text[:offset]) == 254
    assert minilm_model.truncation_offset("a short text") is None


def test_use_has_no_token_limit(use_model: Embedder) -> None:
    assert use_model.max_tokens is None
    assert use_model.truncation_offset("palavra " * 2000) is None


@pytest.mark.parametrize(
    "text",
    [
        "Olá mundo, R$ 1.000,00 reembolso",
        "  leading spaces and\ttabs\r\nand CRLF  ",
        "emoji 😀 and 漢字。テスト",
        "ﬁ ligature and full-width ＡＢＣ",
    ],
)
def test_use_token_spans_lie_inside_the_text_in_order(use_model: Embedder, text: str) -> None:
    spans = use_model.token_spans(text)
    assert spans, "every non-empty text has tokens"
    previous_end = 0
    for start, end in spans:
        assert 0 <= start < end <= len(text)
        assert start >= previous_end
        assert not text[start:end].isspace()
        previous_end = end


def test_use_token_spans_reassemble_plain_words(use_model: Embedder) -> None:
    text = "O prazo do estorno é de 7 dias úteis."
    pieces = "".join(text[a:b] for a, b in use_model.token_spans(text))
    assert pieces == text.replace(" ", "")


def test_cache_sends_each_text_to_the_model_once() -> None:
    cache = EmbeddingCache()
    model = UseMultilingual(cache=cache)
    first = model.encode_documents(["um", "dois", "um"])
    assert model.texts_encoded == 2 and len(cache) == 2
    assert np.array_equal(first[0], first[2])
    again = model.encode_documents(["dois", "um", "três"])
    assert model.texts_encoded == 3
    assert np.array_equal(again[1], first[0])
    assert len(cache) == 3


def test_cache_keys_on_model_and_kind() -> None:
    cache = EmbeddingCache()
    model = UseMultilingual(cache=cache)
    model.encode_documents(["texto"])
    model.encode_queries(["texto"])
    assert len(cache) == 2


def test_cache_is_bounded() -> None:
    cache = EmbeddingCache(max_entries=3)
    for i in range(5):
        cache.put(("m", "document", str(i)), np.zeros(2, dtype=np.float32))
    assert len(cache) == 3
    assert cache.get(("m", "document", "0")) is None
    assert cache.get(("m", "document", "4")) is not None


def test_progress_counts_only_new_texts() -> None:
    model = UseMultilingual(cache=EmbeddingCache())
    model.encode_documents(["a"])
    calls: list[tuple[int, int]] = []
    model.encode_documents(
        ["a", "b", "c"], progress=lambda done, total: calls.append((done, total))
    )
    assert calls[0] == (0, 2)
    assert calls[-1] == (2, 2)


def test_default_model_does_not_import_torch() -> None:
    import subprocess

    code = (
        "import sys; from ragviz.embedders import load_embedder; "
        "m = load_embedder('use-multilingual'); m.encode_documents(['x']); "
        "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("", "no model given"),
        ("/no/such/model/folder", "does not exist"),
        ("a/b/c", "neither a bundled model"),
        ("has spaces/in it", "neither a bundled model"),
    ],
)
def test_bad_model_names_say_why(name: str, fragment: str) -> None:
    with pytest.raises(ModelLoadError, match=fragment):
        load_embedder(name)


def test_folder_without_sentence_transformers_files_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelLoadError, match="not a sentence-transformers model"):
        load_embedder(str(tmp_path))


def test_hub_id_offline_fails_fast_with_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    started = time.monotonic()
    with pytest.raises(ModelLoadError, match="offline") as info:
        load_embedder("sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2")
    assert "bundled model" in str(info.value)
    # Not a timing assertion on speed, a guard against the 78 s retry loop: generous bound.
    assert time.monotonic() - started < 60


def test_unknown_hub_id_with_network_says_check_the_spelling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hub is simulated (no network here): reachable, and answering 'not found' the way
    huggingface_hub does, so the branch that users with network access hit is exercised."""
    from ragviz import embedders

    class RepositoryNotFoundError(OSError):
        pass

    def fake_load(source: str, local_only: bool) -> object:
        if local_only:
            raise OSError("not in the local cache")
        raise RepositoryNotFoundError(f"404 Client Error: Repository Not Found for {source}")

    monkeypatch.setattr(embedders, "_load_sentence_transformer", fake_load)
    monkeypatch.setattr(embedders, "hub_reachable", lambda timeout=3.0: True)
    with pytest.raises(ModelLoadError, match="unknown model id 'acme/no-such-model'"):
        load_embedder("acme/no-such-model")
