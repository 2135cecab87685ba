"""Checks on the document the user gives: size limits, empty text, uploads and encodings."""

from __future__ import annotations

from dataclasses import dataclass

MAX_DOCUMENT_CHARS = 200_000
MAX_UPLOAD_BYTES = 1_000_000
MAX_QUESTIONS = 200
MAX_QUESTION_CHARS = 500
MAX_ANSWER_CHARS = 2_000


class InputError(ValueError):
    """Input the user can fix; the message is one sentence that says what to change.

    ``key`` and ``values`` name the same sentence in ``ragviz.i18n``, so the page can say it
    in the interface language (``localized``); the English text stays the message.
    """

    def __init__(self, message: str, key: str | None = None, **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values = values

    def localized(self, lang: str) -> str:
        from ragviz.i18n import t

        return t(self.key, lang, **self.values) if self.key else str(self)


@dataclass(frozen=True)
class DecodedText:
    """Text of an upload and how it was decoded."""

    text: str
    encoding: str
    guessed: bool


def check_document(text: str) -> str:
    """Return the document unchanged, or raise InputError for empty or oversize text."""
    if not text or not text.strip():
        raise InputError(
            "The document is empty: paste text, upload a .txt or .md file, or pick a sample.",
            "input.empty_document",
        )
    if len(text) > MAX_DOCUMENT_CHARS:
        raise InputError(
            f"The document has {len(text):,} characters; the limit is {MAX_DOCUMENT_CHARS:,}. "
            "Paste a shorter part.",
            "input.long_document",
            n=f"{len(text):,}",
            limit=f"{MAX_DOCUMENT_CHARS:,}",
        )
    return text


def decode_upload(data: bytes, filename: str = "") -> DecodedText:
    """Decode an uploaded text file: UTF-8 first, then a guessed legacy encoding."""
    name = f"The file {filename}" if filename else "The file"
    if len(data) > MAX_UPLOAD_BYTES:
        raise InputError(
            f"{name} has {len(data):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}.",
            "input.big_upload",
            name=filename,
            n=f"{len(data):,}",
            limit=f"{MAX_UPLOAD_BYTES:,}",
        )
    if _looks_binary(data):
        raise InputError(
            f"{name} looks binary, not text: upload a .txt or .md file.",
            "input.binary_upload",
            name=filename,
        )
    for encoding in ("utf-8-sig", "utf-8"):
        try:
            return DecodedText(data.decode(encoding), "utf-8", guessed=False)
        except UnicodeDecodeError:
            continue
    for encoding in ("cp1252", "latin-1"):
        try:
            return DecodedText(data.decode(encoding), encoding, guessed=True)
        except UnicodeDecodeError:
            continue
    raise InputError(
        "The file could not be read as text in UTF-8, Windows-1252 or Latin-1.",
        "input.undecodable",
    )


def _looks_binary(data: bytes) -> bool:
    """NUL bytes, or many control characters, mean this is not a text file."""
    if b"\x00" in data:
        return True
    sample = data[:4096]
    if not sample:
        return False
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return controls / len(sample) > 0.05
