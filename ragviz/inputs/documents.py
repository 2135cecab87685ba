"""Checks on the document the user gives: size limits, empty text, uploads and encodings."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import partial

from ragviz.errors import InputError
from ragviz.i18n import Grouped, Message

MAX_DOCUMENT_CHARS = 200_000  # a pasted document (and a workspace's or a link's)
# One file of a corpus, whatever its type: the research benchmark's longest file holds
# 737,905 characters, and a file cannot be split without breaking its excerpts' offsets.
MAX_FILE_CHARS = 1_000_000
MAX_UPLOAD_BYTES = 4_000_000  # a text file's bytes: MAX_FILE_CHARS in UTF-8 with accents
MAX_QUESTIONS = 1_000  # the app's and a workspace's (metrics and a picker, not chart pairs)
MAX_CLI_QUESTIONS = 5_000  # the CLI's (eval over a benchmark file)
MAX_CLI_QUESTIONS_BYTES = 20_000_000  # a benchmark's questions file with its excerpts
MAX_REFERENCES = 20  # labelled excerpts of one question
MAX_QUESTION_CHARS = 500
MAX_ANSWER_CHARS = 2_000

# How a sentence names a file: its name or path, or a phrase ("standard input") said in
# the reader's language.
Named = str | Message

ENCODING_NAMES = {
    "utf-8": "UTF-8",
    "utf-16-le": "UTF-16 LE",
    "utf-16-be": "UTF-16 BE",
    "cp1252": "Windows-1252",
    "latin-1": "Latin-1",
}
_UTF16_BOMS = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
_SAMPLE_BYTES = 4096


@dataclass(frozen=True)
class DecodedText:
    """Text of an upload and how it was decoded."""

    text: str
    encoding: str
    guessed: bool

    @property
    def encoding_name(self) -> str:
        """The encoding as people call it ("Windows-1252", "UTF-16 LE")."""
        return ENCODING_NAMES.get(self.encoding, self.encoding)

    @property
    def notice(self) -> str | None:
        """The encoding's name when it is not UTF-8, so the user can check the letters."""
        return None if self.encoding == "utf-8" else self.encoding_name


SHOWN_CHARS = 40  # a bad setting (a link's, a workspace file's) quoted in a message


def shorten(value: object, limit: int = 60, quote: bool = False) -> str:
    """The one way a message quotes what the user gave: cut to ``limit`` characters with
    "…", so a message never repeats a whole file or link; with ``quote`` a text is shown as
    Python writes it (quoted, so a blank one is seen); a number too long to print is named."""
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError:  # an integer of more digits than Python prints
        return "a number of thousands of digits"
    cut = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(cut) if quote and isinstance(value, str) else cut


# A bad setting of a link or a workspace file, quoted in a message (the same function).
shown = partial(shorten, limit=SHOWN_CHARS, quote=True)


def check_document(text: str, name: Named = "", limit: int = MAX_DOCUMENT_CHARS) -> str:
    """Return the document unchanged, or raise InputError for empty or oversize text.

    ``name`` is the file the CLI read it from; it only changes the CLI's wording. ``limit``
    is a pasted document's unless the text is a file's (``MAX_FILE_CHARS``)."""
    if not text or not text.strip():
        raise InputError(key="input.empty_document",
                         cli_key="cli.empty_document" if name else None, name=name)
    if len(text) > limit:
        raise InputError(key="input.long_document",
                         cli_key="cli.long_document" if name else None, name=name,
                         n=len(text), limit=Grouped(limit))
    return text


def decode_upload(data: bytes, filename: Named = "",
                  max_bytes: int = MAX_UPLOAD_BYTES) -> DecodedText:
    """Decode an uploaded text file: a BOM, then UTF-8, BOM-less UTF-16, a legacy encoding."""
    if len(data) > max_bytes:
        raise InputError(
            key="input.big_upload" if filename else "input.big_upload_unnamed",
            name=filename,
            n=len(data),
            mb=f"{len(data) / 1e6:.1f}",
            limit=Grouped(max_bytes),
            limit_mb=f"{max_bytes / 1e6:g}",
        )
    decoded = _decode_unicode(data)
    if decoded is not None and not looks_binary_text(decoded.text):
        return decoded
    if decoded is not None or _looks_binary(data):
        raise InputError(key="input.binary_upload" if filename else "input.binary_unnamed",
                         cli_key="cli.binary_file" if filename else None, name=filename)
    for encoding in ("cp1252", "latin-1"):
        try:
            return DecodedText(data.decode(encoding), encoding, guessed=True)
        except UnicodeDecodeError:
            continue
    raise InputError(key="input.undecodable")  # pragma: no cover - latin-1 decodes all bytes


def _decode_unicode(data: bytes) -> DecodedText | None:
    """UTF-8 or UTF-16 text (with a BOM, or BOM-less UTF-16 told by its NUL bytes), or None."""
    if data.startswith(b"\xef\xbb\xbf"):
        return _strict(data[3:], "utf-8", guessed=False)
    for bom, encoding in _UTF16_BOMS:
        if data.startswith(bom):
            return _strict(data[len(bom):], encoding, guessed=False)
    utf16 = _bomless_utf16(data)
    if utf16 is not None:
        return _strict(data, utf16, guessed=True)
    if b"\x00" in data:
        return None
    return _strict(data, "utf-8", guessed=False) if _is_utf8(data) else None


def _strict(data: bytes, encoding: str, guessed: bool) -> DecodedText | None:
    try:
        return DecodedText(data.decode(encoding), encoding, guessed)
    except UnicodeDecodeError:
        return None


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM puts a NUL byte in every ASCII character, always on the same side
    of the pair; binary files scatter their NUL bytes over both sides."""
    sample = data[:_SAMPLE_BYTES]
    if len(data) % 2 or len(sample) < 2:
        return None
    pairs = len(sample) // 2
    even_nuls = sample[0::2].count(0)
    odd_nuls = sample[1::2].count(0)
    if odd_nuls >= 0.3 * pairs and even_nuls <= 0.02 * pairs:
        return "utf-16-le"
    if even_nuls >= 0.3 * pairs and odd_nuls <= 0.02 * pairs:
        return "utf-16-be"
    return None


def _looks_binary(data: bytes) -> bool:
    """NUL bytes, or many control characters, mean this is not a text file."""
    if b"\x00" in data:
        return True
    sample = data[:_SAMPLE_BYTES]
    if not sample:
        return False
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return controls / len(sample) > 0.05


def looks_binary_text(text: str) -> bool:
    """Decoded text that is mostly control characters (or holds NUL) came from a binary file."""
    if "\x00" in text:
        return True
    sample = text[:_SAMPLE_BYTES]
    if not sample:
        return False
    controls = sum(1 for c in sample if unicodedata.category(c) == "Cc" and c not in "\t\n\f\r")
    return controls / len(sample) > 0.05
