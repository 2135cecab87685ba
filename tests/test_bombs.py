"""Bombs and malformed documents (issue 24 #1, #2, #4, #5, #10, #11): each is one sentence,
reached with bounded work, the good files still load, and an upload is converted once."""

from __future__ import annotations

import io
import random
import zipfile
import zlib
from collections.abc import Callable
from typing import Any

import docx
import pytest
from bombs import (
    BILLION_LAUGHS,
    DOC_HEAD,
    DOC_TAIL,
    EMPTY_PARAGRAPH,
    FONT,
    deep_docx,
    docx_bomb,
    docx_xml,
    pdf,
    pdf_cpu_bomb,
    pdf_decompression_bomb,
    pdf_nested_arrays,
    pdf_text,
    zip_bomb_member,
)
from docx.table import Table

from ragviz.errors import ConversionError
from ragviz.inputs import convert as convert_module
from ragviz.inputs.convert import MAX_DOCX_XML_BYTES, convert
from ragviz.inputs.corpus import load_files
from ragviz.inputs.docx_text import docx_blocks
from tests.test_app import rerun, run_app
from tests.test_app_corpus import upload


def _python_docx_blocks(data: bytes) -> list[str]:
    """What the converter gave when it used python-docx: the reference for the stream."""
    document = docx.Document(io.BytesIO(data))
    blocks: list[str] = []
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            blocks.extend(" | ".join(cell.text for cell in row.cells) for row in block.rows)
        elif block.text.strip():
            blocks.append(block.text)
    return blocks


def _random_document(seed: int) -> bytes:
    """Paragraphs with runs, breaks and tabs; headings; tables with merged and nested cells."""
    rnd = random.Random(seed)
    document = docx.Document()
    for _ in range(rnd.randint(1, 10)):
        kind = rnd.random()
        if kind < 0.5:
            paragraph = document.add_paragraph(rnd.choice(["", "  ", "Olá mundo", "A\tb", "x y"]))
            for _ in range(rnd.randint(0, 3)):
                run = paragraph.add_run(rnd.choice(["run", " more ", "é"]))
                if rnd.random() < 0.3:
                    run.add_break()
                if rnd.random() < 0.2:
                    run.add_tab()
        elif kind < 0.8:
            _random_table(document, rnd)
        else:
            document.add_heading(rnd.choice(["Title", "Seção 2"]), level=rnd.randint(0, 3))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _random_table(document: Any, rnd: random.Random) -> None:
    table = document.add_table(rows=rnd.randint(1, 4), cols=rnd.randint(1, 4))
    for row in table.rows:
        for cell in row.cells:
            cell.text = rnd.choice(["", "cell", "a\nb", "ç"])
    merge = rnd.random()
    rows, cols = len(table.rows), len(table.columns)
    if merge < 0.3 and cols > 1:
        table.cell(0, 0).merge(table.cell(0, 1))
    elif merge < 0.6 and rows > 1:
        table.cell(0, 0).merge(table.cell(1, 0))
    elif merge < 0.8 and rows > 1 and cols > 1:
        table.cell(0, 0).merge(table.cell(1, 1))
    if rnd.random() < 0.3:
        table.cell(0, 0).add_table(2, 2).cell(0, 0).text = "nested"


@pytest.mark.parametrize("seed", range(60))
def test_the_streamed_docx_text_equals_python_docx(seed: int) -> None:
    data = _random_document(seed)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert docx_blocks(archive, 10**8, 10**8) == _python_docx_blocks(data)


def test_hyperlinks_count_and_tracked_changes_do_not_as_in_python_docx() -> None:
    body = (b'<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:hyperlink r:id="x" '
            b'xmlns:r="urn:r"><w:r><w:t>the page</w:t></w:r></w:hyperlink>'
            b"<w:ins><w:r><w:t>inserted</w:t></w:r></w:ins><w:r><w:br w:type=\"page\"/>"
            b"<w:noBreakHyphen/><w:cr/><w:t>end</w:t></w:r></w:p>")
    data = docx_xml(DOC_HEAD + body + DOC_TAIL)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert docx_blocks(archive, 10**8, 10**8) == _python_docx_blocks(data) == [
            "See the page-\nend"]


def _refusal(name: str, data: bytes) -> str:
    with pytest.raises(ConversionError) as refused:
        convert(name, data)
    return str(refused.value)


@pytest.mark.parametrize(("make", "says"), [
    (lambda: docx_bomb(300), "it holds more than 1,000,000 characters of text, the limit for one "
     "file"),
    (lambda: docx_bomb(MAX_DOCX_XML_BYTES // 1_000_000 + 1, EMPTY_PARAGRAPH),
     f"its text part unpacks to more than {MAX_DOCX_XML_BYTES:,} bytes (a decompression bomb?)"),
    (lambda: docx_xml(b"this is not xml"), "the Word document is damaged"),
    (lambda: docx_xml(BILLION_LAUGHS), "the Word document is damaged"),
    (lambda: deep_docx(100_000), "it holds no text"),
])
def test_docx_bombs_and_broken_xml_are_one_sentence(make: Callable[[], bytes], says: str
                                                     ) -> None:
    assert _refusal("bomb.docx", make()) == f"bomb.docx could not be read: {says}."


@pytest.mark.parametrize(("data", "says"), [
    (pdf_nested_arrays(1_000), "the PDF is damaged or incomplete"),
    (pdf_nested_arrays(20_000), "the PDF is damaged or incomplete"),
    (pdf_decompression_bomb(), "a compressed part of it unpacks past the safety limit "
     "(a decompression bomb?)"),
    (pdf_cpu_bomb(), "reading its first page took longer than 8 s (a PDF built to be slow?)"),
])
def test_pdf_bombs_are_one_sentence(data: bytes, says: str) -> None:
    assert _refusal("bomb.pdf", data) == f"bomb.pdf could not be read: {says}."


def test_pages_read_before_the_time_budget_are_kept_and_the_cut_is_said() -> None:
    good = b"BT /F1 12 Tf 72 700 Td (Refunds take seven days.) Tj ET"
    slow = b"BT /F1 12 Tf " + b"(a) Tj " * 950_000 + b" ET"  # > 8 s anywhere (bombs.py)

    def page(contents: int) -> bytes:
        return b"<< /Type /Page /Parent 2 0 R /Contents %d 0 R %s >>" % (contents, FONT)

    def stream(content: bytes) -> bytes:
        packed = zlib.compress(content, 9)
        return b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (
            len(packed), packed)

    data = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 >>",
                stream(good), stream(slow), page(3), page(4)])
    converted = convert("cut.pdf", data)
    assert converted.text == "Refunds take seven days."
    assert str(converted.notice) == ("only the first 1 of 2 pages were read; the next one took "
                                "longer than 8 s")


def test_one_file_of_any_type_meets_the_document_limit() -> None:
    html = b"<p>" + b"Refunds take seven days. " * 50_000 + b"</p>"
    assert _refusal("long.html", html).endswith("it holds more than 1,000,000 characters of "
                                                "text, the limit for one file.")
    assert convert("short.pdf", pdf_text(b"Refunds take seven days.")).text == (
        "Refunds take seven days.")


def test_a_zip_bomb_member_is_skipped_unread_and_the_good_file_loads() -> None:
    corpus = load_files([("kb.zip", zip_bomb_member())])
    assert corpus.names == ("good.txt",)
    assert [str(p) for p in corpus.problems] == [
        "bomb.txt in kb.zip was skipped: it unpacks to more than 4,000,000 bytes, the limit "
        "for one file."]


def test_an_upload_is_converted_once_across_reruns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, every rerun (each top_k or floor step) converted the upload again."""
    calls: list[str] = []
    real = convert_module._convert_docx

    def counted(name: str, data: bytes) -> Any:
        calls.append(name)
        return real(name, data)

    monkeypatch.setattr(convert_module, "_convert_docx", counted)
    text = "Refunds take seven days after the parcel arrives. " * 3
    from corpus_files import make_docx

    at = upload(run_app(), {"policy.docx": make_docx([text, "Shipping is free."])})
    for k in (1, 3, 2):
        at.slider(key="top_k").set_value(k)
        rerun(at)
    assert not at.exception
    assert calls == ["policy.docx"]
