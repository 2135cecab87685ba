"""Reading the user's documents the same way wherever they come from (the app's uploader,
the ``ragviz`` command's paths): which files are read alone as text, how one such file is
decoded and checked (the sentences a corpus's files deserve: ``ragviz.present.corpus_notes``)."""

from __future__ import annotations

from ragviz.inputs.convert import CONVERTED_SUFFIXES, suffix_of
from ragviz.inputs.documents import MAX_FILE_CHARS, DecodedText, check_document, decode_upload


def reads_alone(name: str) -> bool:
    """True when a single file of this name is read as plain text as it is (a ``.txt``, a
    ``.md``, a type no converter claims); else it goes through the corpus loader."""
    return suffix_of(name) not in CONVERTED_SUFFIXES


def read_text_file(data: bytes, name: str, shown: str = "") -> DecodedText:
    """One plain text file: decoded (a BOM, UTF-8, a guessed legacy encoding) and checked as
    a file's text (not empty, at most ``MAX_FILE_CHARS`` characters); InputError otherwise.
    ``shown`` is how the command line names the file in its sentences (its path)."""
    decoded = decode_upload(data, name)
    check_document(decoded.text, shown, MAX_FILE_CHARS)
    return decoded
