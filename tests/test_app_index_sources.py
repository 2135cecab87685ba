"""Issue 36 item 3 in the app: an index uploaded without its source files says the true
reason its chunks have no place in a file (no source file given, though the metadata may
hold offsets) and why recall, precision and IoU are missing; with the sources, neither."""

from __future__ import annotations

from ragviz.embedding.models import Embedder
from tests.index_fixtures import DOC, SOURCE, fixed_120
from tests.test_app import page_text, rerun
from tests.test_app_index import index_app


def offsets_export(use_model: Embedder) -> tuple[str, bytes]:
    """The article's fixed-120 chunks as LangChain writes them with ``start_index``."""
    import json

    chunks = fixed_120(DOC.read_text(encoding="utf-8"))
    vectors = use_model.encode_documents([c.text for c in chunks])
    lines = [json.dumps({"page_content": c.text, "embedding": [float(x) for x in v],
                         "metadata": {"source": SOURCE, "start_index": c.start}})
             for c, v in zip(chunks, vectors, strict=True)]
    return "chunks.jsonl", "\n".join(lines).encode()


def test_without_sources_the_page_says_no_source_file_was_given(use_model: Embedder) -> None:
    at = index_app(offsets_export(use_model), sources=False)
    text = page_text(at)
    assert "5 chunks have no place in a source file because no source file was given" in text
    assert "no offsets in the metadata" not in text
    assert not at.error  # a neutral line, not a red box (issue 45 item 4)


def test_with_sources_neither_sentence(use_model: Embedder) -> None:
    at = index_app(offsets_export(use_model), sources=True)
    text = page_text(at)
    assert "no source file was given" not in text.lower()
    assert "have no place in a source file" not in text


def test_an_edited_source_says_the_chunk_has_no_place_in_the_files_given(
        use_model: Embedder) -> None:
    name, data = offsets_export(use_model)
    at = index_app((name, data), sources=False)
    chunk = fixed_120(DOC.read_text(encoding="utf-8"))[1].text
    edited = DOC.read_text(encoding="utf-8").replace(chunk[20:60], "texto novo")
    at.file_uploader(key="index_sources").set_value([(SOURCE, edited.encode(), "text/plain")])
    rerun(at)
    text = page_text(at)
    assert "1 chunk has no place in the source files given" in text
    assert "no source given" not in text and "No source file was given" not in text
