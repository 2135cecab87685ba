"""One file's bytes to plain text, by maintained libraries (never hand-written parsers).

- ``.txt`` / ``.md``: ``ragviz.documents.decode_upload`` (UTF-8, then a guessed legacy
  encoding, with its size and binary checks); Markdown stays Markdown so the markdown
  chunker still sees its headings.
- ``.html`` / ``.htm``: decoded like text, then ``inscriptis`` (layout-aware: block elements
  become line breaks, inline ones stay inline, scripts and styles are dropped).
- ``.pdf``: ``pypdf`` text extraction, pages joined by a blank line (``cryptography`` lets it
  open PDFs that are AES-locked against editing only, which most encrypted PDFs are).
- ``.docx``: ``python-docx``, paragraphs and table rows in document order.

A file that cannot be converted raises :class:`ConversionError` whose message is one
sentence naming the file and the reason; ``kind`` names the reason for code and translations.
"""

from __future__ import annotations

import io
import logging
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from ragviz.documents import InputError, decode_upload

TEXT_SUFFIXES = (".txt", ".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")
SUPPORTED_SUFFIXES = (*TEXT_SUFFIXES, *HTML_SUFFIXES, ".pdf", ".docx")
MAX_BINARY_FILE_BYTES = 20_000_000  # one PDF or DOCX; text files keep decode_upload's limit


class ConversionError(ValueError):
    """A file that cannot become text; the message is one sentence naming file and reason."""

    def __init__(self, name: str, kind: str, reason: str) -> None:
        super().__init__(f"{name} could not be read: {reason}.")
        self.name = name
        self.kind = kind


@dataclass(frozen=True)
class Converted:
    """The text of one file and, when something about it deserves a word, a notice."""

    text: str
    notice: str | None = None


def suffix_of(name: str) -> str:
    return PurePosixPath(name.replace("\\", "/")).suffix.lower()


def convert(name: str, data: bytes) -> Converted:
    """Text of the file ``name`` holding ``data``; ConversionError when it has none."""
    suffix = suffix_of(name)
    if suffix not in SUPPORTED_SUFFIXES:
        shown = suffix or "files without an extension"
        raise ConversionError(
            name, "unsupported", f"{shown} is not a supported type (use .txt, .md, .html, "
            ".pdf or .docx)"
        )
    if not data.strip():
        raise ConversionError(name, "empty", "the file is empty")
    if suffix == ".pdf":
        converted = _convert_pdf(name, data)
    elif suffix == ".docx":
        converted = _convert_docx(name, data)
    else:
        converted = _convert_text(name, data, html=suffix in HTML_SUFFIXES)
    if not converted.text.strip():
        raise ConversionError(name, "no-text", "it holds no text")
    return converted


def _check_binary_size(name: str, data: bytes) -> None:
    if len(data) > MAX_BINARY_FILE_BYTES:
        raise ConversionError(
            name, "too-big", f"it has {len(data):,} bytes and the limit is "
            f"{MAX_BINARY_FILE_BYTES:,}"
        )


def _convert_text(name: str, data: bytes, html: bool) -> Converted:
    if data.lstrip()[:5] == b"%PDF-" or data[:4] == b"PK\x03\x04":
        raise ConversionError(
            name, "mismatch", "its name says text but its content is a PDF or an archive"
        )
    try:
        decoded = decode_upload(data, name)
    except InputError as error:
        raise ConversionError(name, "not-text", _reason(str(error), name)) from None
    notice = None
    if decoded.guessed:
        notice = f"{name} is not UTF-8; it was read as {decoded.encoding}."
    if not html:
        return Converted(decoded.text, notice)
    from inscriptis import get_text

    return Converted(get_text(decoded.text).strip("\n"), notice)


def _reason(message: str, name: str) -> str:
    """decode_upload's sentence as a reason: without "The file NAME" and the final stop."""
    reason = message.removeprefix(f"The file {name} ").removeprefix("The file ")
    return reason.rstrip(".").split(":")[0]


def _convert_pdf(name: str, data: bytes) -> Converted:
    _check_binary_size(name, data)
    if b"%PDF-" not in data[:1024]:
        raise ConversionError(name, "mismatch", "it is named .pdf but its content is not a PDF")
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # damaged files are reported below
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _decrypt_without_password(reader):
            raise ConversionError(name, "encrypted", "the PDF is encrypted with a password")
        pages = [page.extract_text() or "" for page in reader.pages]
    except ConversionError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError):
        raise ConversionError(name, "corrupt", "the PDF is damaged or incomplete") from None
    text = "\n\n".join(page.strip("\n") for page in pages if page.strip())
    if not text.strip():
        raise ConversionError(
            name, "no-text-layer", "the PDF has no text layer (scanned or image-only; run OCR "
            "first)"
        )
    return Converted(text, None)


def _decrypt_without_password(reader: object) -> bool:
    """PDFs locked only against editing open with an empty password; others stay shut."""
    try:
        return bool(reader.decrypt(""))  # type: ignore[attr-defined]
    except Exception:  # pypdf raises DependencyError or others for ciphers it cannot open
        return False


def _convert_docx(name: str, data: bytes) -> Converted:
    _check_binary_size(name, data)
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise ConversionError(
            name, "mismatch", "it is named .docx but its content is not a Word document"
        )
    import docx
    from docx.opc.exceptions import OpcError
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
        blocks: list[str] = []
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                blocks.extend(" | ".join(cell.text for cell in row.cells) for row in block.rows)
            elif block.text.strip():
                blocks.append(block.text)
    except (OpcError, ValueError, KeyError, zipfile.BadZipFile, OSError):
        raise ConversionError(name, "corrupt", "the Word document is damaged") from None
    return Converted("\n\n".join(blocks), None)
