"""Peer chunkers (LangChain, Chonkie, semchunk, LlamaIndex): the library's own chunks, text by text,
against a direct call of the library, with exact offsets even where it strips or re-joins."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import semchunk
from chonkie import RecursiveChunker, SentenceChunker, TokenChunker
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_text_splitters import (
    CharacterTextSplitter,
    MarkdownHeaderTextSplitter,
    RecursiveCharacterTextSplitter,
)
from llama_index.core.node_parser import SentenceSplitter

from ragviz.chunking import ChunkerConfig, make_chunks, registry
from ragviz.chunking.base import Chunk
from ragviz.chunking.peers import common, langchain_markdown_header
from ragviz.chunking.spec import ChunkerSpec
from ragviz.cli.command import main
from ragviz.embedding.models import Embedder, SentenceTransformerEmbedder
from ragviz.errors import InputError
from ragviz.present.param_words import param_label

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p for p in (ROOT / "sample_docs").rglob("*") if p.suffix in {".txt", ".md"})
MADE_UP = [
    "# Title\n\nIntro line.\n\n\n\n## Part A\nfirst  line\n   indented line\n\n### Deep\n"
    "text " * 40,
    "Words\r\nwith CRLF\r\n\r\nand    runs   of spaces.\n\n\n\nFour blank lines above. " * 30,
    "x" * 2500 + "\n\n" + "Ça va? Très bien! Dr. Smith arrived at 3.5 p.m. " * 20,
    "",
    "   \n\n  \t ",
]
DOCUMENTS = [p.read_text(encoding="utf-8") for p in SAMPLES] + MADE_UP
DOC_IDS = [p.name for p in SAMPLES] + [f"made_up_{i}" for i in range(len(MADE_UP))]


def _ours(name: str, document: str, embedder: Embedder | None = None,
          **values: int) -> tuple[Chunk, ...]:
    return make_chunks(document, ChunkerConfig.create(name, **values), embedder).chunks


def _assert_same_texts(document: str, ours: Sequence[Chunk], theirs: Sequence[str]) -> None:
    """Chunk by chunk the library's text; where that text is not in the document verbatim
    (the library re-joined lines), the document slice with the same words. An empty text
    (LlamaIndex's one chunk of an empty document) is no chunk."""
    theirs = [text for text in theirs if text]
    assert len(ours) == len(theirs)
    for chunk, text in zip(ours, theirs, strict=True):
        assert document[chunk.start : chunk.end] == chunk.text
        if text in document:
            assert chunk.text == text
        else:
            assert chunk.text.split() == text.split()


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (1000, 200), (90, 30)])
def test_langchain_recursive_is_the_librarys(document: str, size: int, overlap: int) -> None:
    theirs = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    ours = _ours("langchain_recursive", document, chunk_size=size, chunk_overlap=overlap)
    _assert_same_texts(document, ours, theirs.split_text(document))


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (1000, 200)])
def test_langchain_character_is_the_librarys(document: str, size: int, overlap: int) -> None:
    theirs = CharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    ours = _ours("langchain_character", document, chunk_size=size, chunk_overlap=overlap)
    _assert_same_texts(document, ours, theirs.split_text(document))


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (400, 80)])
def test_langchain_markdown_header_is_the_librarys(document: str, size: int, overlap: int) -> None:
    sections = MarkdownHeaderTextSplitter(langchain_markdown_header.HEADERS).split_text(document)
    pieces = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap
                                            ).split_documents(sections)
    ours = _ours("langchain_markdown_header", document, chunk_size=size, chunk_overlap=overlap)
    _assert_same_texts(document, ours, [p.page_content for p in pieces])
    assert [c.heading_path for c in ours] == [tuple(p.metadata.values()) for p in pieces]


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize("size", [200, 1000])
def test_chonkie_recursive_is_the_librarys(document: str, size: int) -> None:
    theirs = RecursiveChunker(tokenizer="character", chunk_size=size).chunk(document)
    ours = _ours("chonkie_recursive", document, chunk_size=size)
    assert [(c.text, c.start, c.end) for c in ours] == [
        (c.text, c.start_index, c.end_index) for c in theirs]


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (500, 100)])
def test_chonkie_sentence_is_the_librarys(document: str, size: int, overlap: int) -> None:
    theirs = SentenceChunker(tokenizer="character", chunk_size=size, chunk_overlap=overlap)
    ours = _ours("chonkie_sentence", document, chunk_size=size, chunk_overlap=overlap)
    assert [c.text for c in ours] == [c.text for c in theirs.chunk(document)]


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (512, 64)])
def test_chonkie_token_is_the_librarys(document: str, size: int, overlap: int) -> None:
    theirs = TokenChunker(tokenizer="character", chunk_size=size, chunk_overlap=overlap)
    ours = _ours("chonkie_token", document, chunk_size=size, chunk_overlap=overlap)
    assert [c.text for c in ours] == [c.text for c in theirs.chunk(document)]


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(64, 0), (128, 16)])
def test_semchunk_is_the_librarys_with_the_models_counter(
    document: str, size: int, overlap: int, use_model: Embedder
) -> None:
    texts, offsets = semchunk.chunk(document, size, use_model.count_tokens, offsets=True,
                                    overlap=overlap or None)
    ours = _ours("semchunk", document, use_model, chunk_size=size, overlap=overlap)
    assert [(c.start, c.end) for c in ours] == [tuple(o) for o in offsets]
    assert [c.text for c in ours] == texts


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(64, 0), (128, 20)])
def test_llamaindex_sentence_is_the_librarys_with_the_models_tokenizer(
    document: str, size: int, overlap: int, use_model: Embedder
) -> None:
    theirs = SentenceSplitter(chunk_size=size, chunk_overlap=overlap,
                              tokenizer=use_model.token_spans).split_text(document)
    ours = _ours("llamaindex_sentence", document, use_model, chunk_size=size,
                 chunk_overlap=overlap)
    _assert_same_texts(document, ours, theirs)


def _window_texts(document: str, chunks: Sequence[Chunk], tokenizer: Any) -> list[str]:
    """Each chunk's tokens (those of the whole document's encoding inside its span) decoded
    as Chonkie decodes a window: what Chonkie's text is when the span holds its window."""
    encoded = tokenizer(document, add_special_tokens=False, return_offsets_mapping=True,
                        verbose=False)
    pairs = list(zip(encoded["input_ids"], encoded["offset_mapping"], strict=True))
    windows = [[i for i, (a, b) in pairs if c.start <= a and b <= c.end] for c in chunks]
    return list(tokenizer.batch_decode(windows, skip_special_tokens=True))


@pytest.mark.parametrize("document", DOCUMENTS, ids=DOC_IDS)
@pytest.mark.parametrize(("size", "overlap"), [(64, 0), (128, 16)])
def test_chonkie_token_is_the_librarys_with_the_models_tokenizer(
    document: str, size: int, overlap: int, minilm_model: Embedder
) -> None:
    """Chonkie gives each window decoded (lowercased, spaced): our chunk is the document
    slice whose tokens are that window, the same number of windows."""
    assert isinstance(minilm_model, SentenceTransformerEmbedder)
    tokenizer = minilm_model.tokenizer
    theirs = TokenChunker(tokenizer=tokenizer, chunk_size=size, chunk_overlap=overlap)
    ours = _ours("chonkie_token_model", document, minilm_model, chunk_size=size,
                 chunk_overlap=overlap)
    assert _window_texts(document, ours, tokenizer) == [c.text for c in theirs.chunk(document)]


def test_chonkie_token_with_the_models_tokenizer_needs_a_hugging_face_tokenizer(
    use_model: Embedder,
) -> None:
    with pytest.raises(InputError) as refused:
        _ours("chonkie_token_model", "Reembolso em 7 dias.", use_model, chunk_size=8)
    assert refused.value.localized("pt") == (
        "O TokenChunker do Chonkie recebe um tokenizador do Hugging Face, que use-multilingual "
        "não tem: escolha minilm-en ou outro modelo sentence-transformers")


PIECES = st.one_of(
    st.sampled_from([" ", "  ", "\n", "\n\n", "\n\n\n", "\r\n", "\t", ". ", "! ", "# H\n",
                     "## Sub\n", "\n### x\n", "```\n", "漢字。", "😀", "\u200b", "- a\n"]),
    st.text(alphabet="abcxyzÁç0123", min_size=1, max_size=12),
)
DOCS = st.lists(PIECES, max_size=50).map("".join)
FIXTURE_OK = [HealthCheck.function_scoped_fixture]
CHARACTER_PEERS = ["langchain_recursive", "langchain_character", "langchain_markdown_header",
                   "chonkie_recursive", "chonkie_sentence", "chonkie_token"]


@pytest.mark.parametrize("name", CHARACTER_PEERS)
@settings(max_examples=60, deadline=None)
@given(document=DOCS, size=st.integers(1, 80), share=st.sampled_from([0, 0.2, 0.5]))
def test_peer_offsets_are_exact(name: str, document: str, size: int, share: float) -> None:
    spec = registry.get_spec(name)
    values: dict[str, int] = {"chunk_size": size}
    if spec.overlap_axis:
        values[spec.overlap_axis] = min(int(size * share), size - 1)
    chunks = _ours(name, document, **values)
    for i, chunk in enumerate(chunks):
        assert chunk.index == i and chunk.text
        assert document[chunk.start : chunk.end] == chunk.text
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)


@pytest.mark.parametrize(("name", "model"), [("semchunk", "use_model"),
                                           ("llamaindex_sentence", "use_model"),
                                           ("chonkie_token_model", "minilm_model")])
@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURE_OK)
@given(document=DOCS, size=st.integers(2, 40), share=st.sampled_from([0, 0.3]))
def test_model_counted_peer_offsets_are_exact(
    name: str, model: str, document: str, size: int, share: float,
    request: pytest.FixtureRequest,
) -> None:
    embedder: Embedder = request.getfixturevalue(model)
    overlap_name = registry.get_spec(name).overlap_axis or ""
    values = {"chunk_size": size, overlap_name: int(size * share)}
    chunks = _ours(name, document, embedder, **values)
    for i, chunk in enumerate(chunks):
        assert chunk.index == i and chunk.text and document[chunk.start : chunk.end] == chunk.text
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)


def test_a_repeated_chunk_is_found_where_it_really_is() -> None:
    document = "ab ab ab ab"  # chunks "ab ab", "ab", "ab": the second "ab" is not at 3
    chunks = _ours("langchain_recursive", document, chunk_size=5, chunk_overlap=0)
    assert [(c.start, c.end) for c in chunks] == [(0, 5), (6, 8), (9, 11)]


def test_two_chunks_langchain_starts_at_one_place_are_both_found() -> None:
    chunks = _ours("langchain_recursive", "0 00", chunk_size=2, chunk_overlap=1)
    assert [(c.start, c.end) for c in chunks] == [(0, 1), (2, 3), (2, 4)]


def test_a_chunk_langchain_gives_out_of_order_is_put_in_document_order() -> None:
    theirs = langchain_markdown_header.split_documents("0\t00", 2, 0)
    assert [piece.page_content for piece in theirs] == ["00", "0"]  # LangChain's own order
    chunks = _ours("langchain_markdown_header", "0\t00", chunk_size=2, chunk_overlap=0)
    assert [(c.index, c.start, c.text) for c in chunks] == [(0, 0, "0"), (1, 2, "00")]


def test_rejoined_text_is_mapped_to_the_slice_with_its_words() -> None:
    document = "one\n   two\n\nthree"
    assert common.find_text(document, "one\ntwo", 0) == (0, 10)
    assert common.find_text("a\n\nb", "  ", 1) == (1, 3)  # invented spaces: the run there
    merged = "## x\none\n## x\ntwo\n"  # LangChain merges the two "x" sections, drops "## x"
    assert common.find_text(merged, "one  \ntwo", 0) == (5, 17)
    with pytest.raises(ValueError, match="not found"):
        common.find_text(document, "four", 0)


def test_a_missing_library_is_named_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_MISSING", {})
    spec = registry.get_spec("langchain_recursive")
    made_up = ChunkerSpec(name="nowhere_chunker", params=spec.params, chunk=spec.chunk,
                          library="Nowhere")
    assert common.register_peer(made_up, "no_such_module_h22") is None
    assert registry.missing_peers() == {"nowhere_chunker": "Nowhere"}
    with pytest.raises(ValueError, match=r"needs Nowhere: pip install 'ragviz\[peers\]'"):
        registry.get_spec("nowhere_chunker")


def test_choosing_ragviz_does_not_import_the_peer_libraries() -> None:
    code = ("import sys, ragviz.chunking, ragviz.cli.command\n"
            "print(sorted(m for m in ('langchain_text_splitters', 'chonkie', 'semchunk')"
            " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_tooltip_call_uses_the_librarys_names() -> None:
    spec = registry.get_spec("langchain_recursive")
    call = spec.call_text({"chunk_size": 1000, "chunk_overlap": 200})
    assert call == "RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)"


def test_a_call_with_fixed_arguments_reads_as_one_call() -> None:
    """Chonkie's calls carry tokenizer=...: the values go in place of its '…' (they were
    appended as a second argument list, which no one can paste into a pipeline)."""
    spec = registry.get_spec("chonkie_token")
    call = spec.call_text({"chunk_size": 512, "chunk_overlap": 64})
    assert call == 'TokenChunker(tokenizer="character", chunk_size=512, chunk_overlap=64)'
    assert spec.title == "Chonkie · TokenChunker"
    model_tokens = registry.get_spec("chonkie_token_model")
    assert model_tokens.title == "Chonkie · TokenChunker(tokenizer=model)"


def test_the_cli_runs_a_peer_with_the_librarys_parameter_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = ROOT / "sample_docs" / "residents_guide.txt"
    args = ["chunk", str(path), "--chunker", "langchain_recursive", "--chunk-size", "300",
            "--chunk-overlap", "50", "--json"]
    assert main(args) == 0
    chunks = json.loads(capsys.readouterr().out)["chunks"]
    document = path.read_text(encoding="utf-8")
    theirs = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=50).split_text(document)
    assert [c["text"] for c in chunks] == theirs


def test_the_cli_names_a_missing_peer_with_the_install_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(registry, "_MISSING", {"nowhere_chunker": "Nowhere"})
    path = str(ROOT / "sample_docs" / "residents_guide.txt")
    assert main(["chunk", path, "--chunker", "nowhere_chunker"]) != 0
    assert "the nowhere_chunker chunker needs Nowhere: pip install 'ragviz[peers]'" in (
        capsys.readouterr().err)


def test_a_parameter_counted_in_sentences_is_labelled_in_sentences() -> None:
    """Chonkie's ``min_sentences_per_chunk`` slider read "(characters)"."""
    for name in registry.chunker_names():
        for param in registry.get_spec(name).params:
            if "sentences" in param.name:
                assert param.unit.name == "sentences", (name, param.name)
                label = param_label(param, "en")
                assert "(characters)" not in label, (name, label)
