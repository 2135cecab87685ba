"""One file's bytes to plain text, by maintained libraries (never hand-written parsers).

- ``.txt`` / ``.md``: ``ragviz.inputs.documents.decode_upload`` (UTF-8, then a guessed legacy
  encoding, with its size and binary checks); Markdown stays Markdown so the markdown
  chunker still sees its headings.
- ``.html`` / ``.htm``: decoded like text, then ``inscriptis`` (layout-aware: block elements
  become line breaks, inline ones stay inline, scripts and styles are dropped).
- ``.pdf``: ``pypdf`` text extraction, pages joined by a blank line (``cryptography`` lets it
  open PDFs that are AES-locked against editing only, which most encrypted PDFs are).
- ``.docx``: ``ragviz.inputs.docx_text`` (lxml, streamed, bounded; the text python-docx gives),
  paragraphs and table rows in document order.

No file gives more than ``MAX_FILE_CHARS`` characters (the document limit), whatever its type.

A file that cannot be converted raises :class:`ConversionError` whose message is one
sentence naming the file and the reason; ``kind`` names the reason for code and translations.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from ragviz.inputs import pdf_text
from ragviz.inputs.documents import MAX_DOCUMENT_CHARS, InputError, decode_upload
from ragviz.inputs.docx_text import DocxFormatError, DocxLimitError, docx_blocks
from ragviz.inputs.html_text import MAX_DEPTH, html_text

TEXT_SUFFIXES = (".txt", ".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")
BINARY_SUFFIXES = (".pdf", ".docx")
SUPPORTED_SUFFIXES = (*TEXT_SUFFIXES, *HTML_SUFFIXES, *BINARY_SUFFIXES)
ARCHIVE_SUFFIXES = (".zip",)  # expanded by ragviz.inputs.corpus, each member converted here
# The one suffix table: what a corpus accepts, and what is more than one plain text file.
ACCEPTED_SUFFIXES = (*SUPPORTED_SUFFIXES, *ARCHIVE_SUFFIXES)
CONVERTED_SUFFIXES = (*HTML_SUFFIXES, *BINARY_SUFFIXES, *ARCHIVE_SUFFIXES)
MAX_BINARY_FILE_BYTES = 20_000_000  # one PDF or DOCX; text files keep decode_upload's limit
MAX_FILE_CHARS = MAX_DOCUMENT_CHARS  # the text of one file, whatever its type
# The unpacked XML of a .docx read at most: ~50x what 200,000 characters need, ~1 s of work.
MAX_DOCX_XML_BYTES = 10_000_000


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
    if len(converted.text) > MAX_FILE_CHARS:
        raise _too_long(name)
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
    text, too_deep = html_text(decoded.text)
    text = text.strip("\n")
    if too_deep and not text.strip():
        raise ConversionError(name, "too-deep", f"its text sits inside more than {MAX_DEPTH} "
                              "nested elements, deeper than ragviz reads HTML")
    if too_deep:
        cut = (f"text nested more than {MAX_DEPTH} elements deep, and what follows it, was "
               "left out")
        notice = f"{notice} Also, {cut}." if notice else f"{cut}."
    return Converted(text, notice)


def _reason(message: str, name: str) -> str:
    """decode_upload's sentence as a reason: without "The file NAME" and the final stop."""
    reason = message.removeprefix(f"The file {name} ").removeprefix("The file ")
    return reason.rstrip(".").split(":")[0]


def _convert_pdf(name: str, data: bytes) -> Converted:
    _check_binary_size(name, data)
    if b"%PDF-" not in data[:1024]:
        raise ConversionError(name, "mismatch", "it is named .pdf but its content is not a PDF")
    read = pdf_text.extract(data, MAX_FILE_CHARS)
    if read.stopped in _PDF_STOPS and not (read.stopped == "time" and read.pages):
        kind, reason = _PDF_STOPS[read.stopped]
        raise ConversionError(name, kind, reason)
    text = "\n\n".join(page.strip("\n") for page in read.pages if page.strip())
    if not text.strip():
        raise ConversionError(
            name, "no-text-layer", "the PDF has no text layer (scanned or image-only; run OCR "
            "first)"
        )
    notice = None
    if read.stopped == "time":
        notice = (f"only the first {len(read.pages)} of {read.total_pages} pages were read; "
                  f"the next one took longer than {pdf_text.TIME_BUDGET_S:g} s")
    return Converted(text, notice)


_PDF_STOPS = {
    "time": ("too-slow", f"reading its first page took longer than {pdf_text.TIME_BUDGET_S:g} s "
             "(a PDF built to be slow?)"),
    "chars": ("char-limit", f"it holds more than {MAX_FILE_CHARS:,} characters of text, the "
              "limit for one file; split it into smaller files"),
    "encrypted": ("encrypted", "the PDF is encrypted with a password"),
    "bomb": ("bomb", "a compressed part of it unpacks past the safety limit (a decompression "
             "bomb?)"),
    "memory": ("bomb", "reading it needed more than "
               f"{pdf_text.MEMORY_CAP_BYTES // 1_000_000:,} MB of memory"),
    "corrupt": ("corrupt", "the PDF is damaged or incomplete"),
}


def _convert_docx(name: str, data: bytes) -> Converted:
    _check_binary_size(name, data)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ConversionError(
            name, "mismatch", "it is named .docx but its content is not a Word document"
        ) from None
    try:
        with archive:
            blocks = docx_blocks(archive, MAX_DOCX_XML_BYTES, MAX_FILE_CHARS)
    except DocxLimitError as limit:
        if limit.kind == "chars":
            raise _too_long(name) from None
        raise ConversionError(
            name, "bomb", f"its text part unpacks to more than {MAX_DOCX_XML_BYTES:,} bytes "
            "(a decompression bomb?)"
        ) from None
    except (DocxFormatError, zipfile.BadZipFile, OSError, RuntimeError, EOFError,
            NotImplementedError, ValueError):
        raise ConversionError(name, "corrupt", "the Word document is damaged") from None
    return Converted("\n\n".join(blocks), None)


def _too_long(name: str) -> ConversionError:
    return ConversionError(
        name, "char-limit", f"it holds more than {MAX_FILE_CHARS:,} characters of text, the "
        "limit for one file; split it into smaller files"
    )
