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

No file gives more than ``MAX_FILE_CHARS`` characters, whatever its type.

A file that cannot be converted raises :class:`ConversionError` whose message is one
sentence naming the file and the reason; ``kind`` names the reason for code and translations.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from ragviz.errors import ConversionError, InputError
from ragviz.i18n import Grouped, Listed, Message
from ragviz.inputs import pdf_text
from ragviz.inputs.documents import MAX_FILE_CHARS, decode_upload
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
# The same table as sentences say it ("{formats}"), in the reader's language.
SUPPORTED_FORMATS = Listed(SUPPORTED_SUFFIXES)
ACCEPTED_FORMATS = Listed(ACCEPTED_SUFFIXES)
MAX_BINARY_FILE_BYTES = 20_000_000  # one PDF or DOCX; text files keep decode_upload's limit
# The unpacked XML of a .docx read at most: ~20x what 1,000,000 characters need, ~2 s of work.
MAX_DOCX_XML_BYTES = 20_000_000


@dataclass(frozen=True)
class Converted:
    """The text of one file and, when something about it deserves a word, a notice (a
    catalog phrase, said in the reader's language)."""

    text: str
    notice: Message | None = None


def suffix_of(name: str) -> str:
    return PurePosixPath(name.replace("\\", "/")).suffix.lower()


def convert(name: str, data: bytes) -> Converted:
    """Text of the file ``name`` holding ``data``; ConversionError when it has none."""
    suffix = suffix_of(name)
    if suffix not in SUPPORTED_SUFFIXES:
        shown = suffix or Message("convert.no_extension")
        raise ConversionError(name, "unsupported", "unsupported", suffix=shown,
                              formats=SUPPORTED_FORMATS)
    if not data.strip():
        raise ConversionError(name, "empty", "empty")
    if suffix == ".pdf":
        converted = _convert_pdf(name, data)
    elif suffix == ".docx":
        converted = _convert_docx(name, data)
    else:
        converted = _convert_text(name, data, html=suffix in HTML_SUFFIXES)
    if not converted.text.strip():
        raise ConversionError(name, "no-text", "no_text")
    if len(converted.text) > MAX_FILE_CHARS:
        raise _too_long(name)
    return converted


def _check_binary_size(name: str, data: bytes) -> None:
    if len(data) > MAX_BINARY_FILE_BYTES:
        raise ConversionError(name, "too-big", "too_big", n=len(data),
                              limit=Grouped(MAX_BINARY_FILE_BYTES))


def _convert_text(name: str, data: bytes, html: bool) -> Converted:
    if data.lstrip()[:5] == b"%PDF-" or data[:4] == b"PK\x03\x04":
        raise ConversionError(name, "mismatch", "text_is_binary")
    try:
        decoded = decode_upload(data, name)
    except InputError as error:
        reason = "big_text" if error.key and "big_upload" in error.key else "binary"
        values = {k: v for k, v in error.values.items() if k != "name"}
        raise ConversionError(name, "not-text", reason, **values) from None
    guessed = Message("convert.guessed", {"name": name, "encoding": decoded.encoding}) \
        if decoded.guessed else None
    if not html:
        return Converted(decoded.text, guessed)
    text, too_deep = html_text(decoded.text)
    text = text.strip("\n")
    if too_deep and not text.strip():
        raise ConversionError(name, "too-deep", "too_deep", depth=MAX_DEPTH)
    if too_deep:
        cut = Message("convert.guessed_and_cut", {**guessed.values, "depth": MAX_DEPTH}) \
            if guessed else Message("convert.cut", {"depth": MAX_DEPTH})
        return Converted(text, cut)
    return Converted(text, guessed)


def _convert_pdf(name: str, data: bytes) -> Converted:
    _check_binary_size(name, data)
    if b"%PDF-" not in data[:1024]:
        raise ConversionError(name, "mismatch", "not_pdf")
    read = pdf_text.extract(data, MAX_FILE_CHARS)
    if read.stopped in _PDF_STOPS and not (read.stopped == "time" and read.pages):
        kind, reason = _PDF_STOPS[read.stopped]
        raise ConversionError(name, kind, reason, **_PDF_LIMITS)
    text = "\n\n".join(page.strip("\n") for page in read.pages if page.strip())
    if not text.strip():
        raise ConversionError(name, "no-text-layer", "pdf_no_text_layer")
    notice = None
    if read.stopped == "time":
        notice = Message("convert.pdf_partly_read", {"n": len(read.pages),
                        "total": read.total_pages, "seconds": _PDF_LIMITS["seconds"]})
    return Converted(text, notice)


_PDF_STOPS = {  # why pdf_text stopped -> (kind, reason key)
    "time": ("too-slow", "pdf_slow"),
    "chars": ("char-limit", "too_long"),
    "encrypted": ("encrypted", "pdf_encrypted"),
    "bomb": ("bomb", "pdf_bomb"),
    "memory": ("bomb", "pdf_memory"),
    "corrupt": ("corrupt", "pdf_corrupt"),
}
_PDF_LIMITS = {"seconds": f"{pdf_text.TIME_BUDGET_S:g}", "limit": Grouped(MAX_FILE_CHARS),
               "mb": Grouped(pdf_text.MEMORY_CAP_BYTES // 1_000_000)}


def _convert_docx(name: str, data: bytes) -> Converted:
    _check_binary_size(name, data)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise ConversionError(name, "mismatch", "not_docx") from None
    try:
        with archive:
            blocks = docx_blocks(archive, MAX_DOCX_XML_BYTES, MAX_FILE_CHARS)
    except DocxLimitError as limit:
        if limit.kind == "chars":
            raise _too_long(name) from None
        raise ConversionError(name, "bomb", "docx_bomb",
                              limit=Grouped(MAX_DOCX_XML_BYTES)) from None
    except (DocxFormatError, zipfile.BadZipFile, OSError, RuntimeError, EOFError,
            NotImplementedError, ValueError):
        raise ConversionError(name, "corrupt", "docx_corrupt") from None
    return Converted("\n\n".join(blocks), None)


def _too_long(name: str) -> ConversionError:
    return ConversionError(name, "char-limit", "too_long", limit=Grouped(MAX_FILE_CHARS))
