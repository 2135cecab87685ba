"""Hostile files made on the fly (issue 24): archive, DOCX and PDF bombs, malformed XML.

Each builder is small and deterministic; the big parts are written compressed, so a bomb of
hundreds of megabytes costs a fraction of a second and a few hundred kilobytes to make.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from functools import cache

from corpus_files import make_docx

DOC_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            b"<w:body>")
DOC_TAIL = b"</w:body></w:document>"
TEXT_PARAGRAPH = b"<w:p><w:r><w:t>bomb text here</w:t></w:r></w:p>"
EMPTY_PARAGRAPH = b"<w:p/>"


def docx_with_document_xml(parts: list[tuple[bytes, int]]) -> bytes:
    """A real .docx (made by python-docx) whose word/document.xml is ``unit * count`` for
    each part, streamed into the archive."""
    source = zipfile.ZipFile(io.BytesIO(make_docx(["seed"])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for info in source.infolist():
            if info.filename != "word/document.xml":
                archive.writestr(info, source.read(info))
                continue
            with archive.open("word/document.xml", "w", force_zip64=True) as member:
                for unit, count in parts:
                    if count >= 10_000:
                        block = unit * 10_000
                        for _ in range(count // 10_000):
                            member.write(block)
                    member.write(unit * (count % 10_000))
    return out.getvalue()


@cache
def docx_bomb(megabytes: int, unit: bytes = TEXT_PARAGRAPH) -> bytes:
    """``megabytes`` of paragraphs inside the body: text ones by default."""
    count = megabytes * 1_000_000 // len(unit)
    return docx_with_document_xml([(DOC_HEAD, 1), (unit, count), (DOC_TAIL, 1)])


def docx_xml(xml: bytes) -> bytes:
    """A .docx whose document part is exactly ``xml`` (malformed on purpose)."""
    return docx_with_document_xml([(xml, 1)])


BILLION_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE w:document ['
                  b'<!ENTITY a "aaaaaaaaaa">'
                  + b"".join(b'<!ENTITY %s "%s">' % (chr(98 + i).encode(),
                                                      (b"&%s;" % chr(97 + i).encode()) * 10)
                             for i in range(9))
                  + b']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml'
                  b'/2006/main"><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body>'
                  b"</w:document>")


def deep_docx(depth: int) -> bytes:
    return docx_xml(DOC_HEAD + b"<w:p>" + b"<w:r>" * depth + b"</w:r>" * depth + b"</w:p>"
                    + DOC_TAIL)


def pdf(objects: list[bytes]) -> bytes:
    """A PDF of numbered objects (1 is the catalog) with a correct cross-reference table."""
    out = b"%PDF-1.7\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return out


FONT = b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"


def pdf_sharing_one_stream(pages: int, content: bytes) -> bytes:
    """``pages`` pages that all draw the same Flate-compressed content stream."""
    stream = zlib.compress(content, 9)
    kids = b" ".join(b"%d 0 R" % (4 + i) for i in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
               + b"\nendstream"]
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
            + FONT + b" >>")
    return pdf(objects + [page] * pages)


def pdf_cpu_bomb(pages: int = 3, operators: int | None = None) -> bytes:
    """Pages sharing one content stream built to be slow. With ``operators``, the issue's
    shape: that many ``0 0 Td`` (600,000 is just under pypdf's 2,000,000-token budget and
    takes ~7 CPU-s a page). By default 950,000 ``(a) Tj``, also under the budget but ~23
    CPU-s a page, so the first page outlasts the 8 s limit on any machine of this kind (more
    ``Td`` would hit pypdf's token limit first, and the sentence would depend on which
    comes first)."""
    if operators is not None:
        content = b"BT /F1 12 Tf " + b"0 0 Td " * operators + b"(hello) Tj ET"
    else:
        content = b"BT /F1 12 Tf " + b"(a) Tj " * 950_000 + b" ET"
    return pdf_sharing_one_stream(pages, content)


def pdf_nested_arrays(depth: int) -> bytes:
    return pdf_sharing_one_stream(1, b"BT /F1 12 Tf " + b"[" * depth + b"]" * depth
                                  + b" TJ (after) Tj ET")


def pdf_text(text: bytes) -> bytes:
    return pdf_sharing_one_stream(1, b"BT /F1 12 Tf 72 700 Td (" + text + b") Tj ET")


@cache
def pdf_decompression_bomb(megabytes: int = 80) -> bytes:
    """One content stream that inflates past pypdf's 75 MB limit."""
    compressor = zlib.compressobj(9)
    chunk = b" " * 1_000_000
    stream = b"".join(compressor.compress(chunk) for _ in range(megabytes))
    stream += compressor.flush()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
               + b"\nendstream",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
               + FONT + b" >>"]
    return pdf(objects)


@cache
def zip_bomb_member(megabytes: int = 190) -> bytes:
    """A .zip with a good .txt and a .txt member that inflates to ``megabytes`` MB."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("good.txt", "Refunds take seven days. Shipping is free.\n")
        with archive.open("bomb.txt", "w", force_zip64=True) as member:
            block = b"a" * 1_000_000
            for _ in range(megabytes):
                member.write(block)
    return out.getvalue()
