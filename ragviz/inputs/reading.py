"""Reading the user's documents the same way wherever they come from: the one policy the
app's uploader, the ``ragviz`` command's paths and the Python API call (``read_corpus``).

Which files: one plain text file (a ``.txt``, a ``.md``, a type no converter claims) is read
alone, as it is; anything else (several files, folders, converted formats, archives) goes
through the corpus loader, where a file that fails becomes one ``Problem`` and the others
load. ``-`` is standard input, ``sample:NAME`` a packaged sample (found by the caller's
``samples`` lookup: the samples live in ``ragviz.share``). Encodings: a BOM, UTF-8, a
guessed legacy encoding, said as a notice. Limits: ``ragviz.inputs.documents`` and
``ragviz.inputs.corpus``. Failures are keyed errors and messages, never words: the caller
says them (``ragviz.present.corpus_notes``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO, Protocol

from ragviz.errors import InputError, UserError, os_reason
from ragviz.i18n import Message, message
from ragviz.inputs.convert import CONVERTED_SUFFIXES, suffix_of
from ragviz.inputs.corpus import Corpus, Source, load_files, load_paths, short_name
from ragviz.inputs.documents import (
    MAX_CLI_QUESTIONS,
    MAX_CLI_QUESTIONS_BYTES,
    MAX_FILE_CHARS,
    DecodedText,
    Named,
    check_document,
    decode_upload,
)
from ragviz.inputs.questions import LabelledQuestion, read_questions_file

SAMPLE_PREFIX = "sample:"  # `ragviz chunk sample:politica_reembolso`: a packaged sample
STDIN = "-"
STDIN_NAME = "stdin.txt"  # the source name of standard input, as the corpus loader names it
Upload = tuple[str, bytes]  # a file the app was given: its name and its bytes


class SampleFiles(Protocol):
    """What reading needs of a packaged sample (``ragviz.share.samples.Sample``)."""

    @property
    def is_corpus(self) -> bool: ...

    @property
    def path(self) -> Path: ...

    @property
    def questions_path(self) -> Path: ...

    def corpus(self) -> Corpus: ...


SampleLookup = Callable[[str], SampleFiles]  # a sample by name, or an InputError naming them
Told = Callable[[Corpus], None]  # shown the corpus before an empty one is refused


def reads_alone(name: str) -> bool:
    """True when a single file of this name is read as plain text as it is (a ``.txt``, a
    ``.md``, a type no converter claims); else it goes through the corpus loader."""
    return suffix_of(name) not in CONVERTED_SUFFIXES


def read_text_file(data: bytes, name: Named, shown: Named = "") -> DecodedText:
    """One plain text file: decoded (a BOM, UTF-8, a guessed legacy encoding) and checked as
    a file's text (not empty, at most ``MAX_FILE_CHARS`` characters); InputError otherwise.
    ``shown`` is how the command line names the file in its sentences (its path)."""
    decoded = decode_upload(data, name)
    check_document(decoded.text, shown, MAX_FILE_CHARS)
    return decoded


def encoding_note(name: Named, decoded: DecodedText) -> Message | None:
    """The notice of a file read alone that is not UTF-8 (its encoding named; "check accented
    letters" when it was guessed)."""
    if not decoded.notice:
        return None
    key = "cli.not_utf8_guessed" if decoded.guessed else "cli.not_utf8"
    return message(key, name=name, encoding=decoded.notice)


def read_as(source: Source) -> str | None:
    """The encoding a file read alone was read as, when it was not UTF-8."""
    notice = source.notice
    encoding = notice.values.get("encoding") if isinstance(notice, Message) else None
    return str(encoding) if encoding is not None else None


def read_corpus(paths: Sequence[str] = (), *, uploads: Sequence[Upload] | None = None,
                samples: SampleLookup | None = None, stdin: BinaryIO | None = None,
                told: Told | None = None) -> Corpus:
    """The corpus of ``paths`` (files, folders, ``-``, ``sample:NAME``) or of the app's
    ``uploads``: one plain text file alone (``Corpus.alone``: one source named after the
    file, its encoding as its notice), anything else through the corpus loader.

    Paths that give no readable file are refused (``told`` sees the corpus first, so its
    problems are said before the refusal); uploads that give none come back empty, with
    their problems. A plain file that cannot be read alone raises its InputError."""
    if uploads is not None:
        return _read_uploads(uploads)
    corpus = _read_paths(paths, samples, stdin)
    if told is not None:
        told(corpus)
    if not corpus.sources:
        raise UserError(key="cli.nothing_read", names=", ".join(map(short_name, paths)))
    return corpus


def _read_paths(paths: Sequence[str], samples: SampleLookup | None,
                stdin: BinaryIO | None) -> Corpus:
    if len(paths) == 1 and paths[0].startswith(SAMPLE_PREFIX) and samples is not None:
        sample = samples(paths[0].removeprefix(SAMPLE_PREFIX))
        if sample.is_corpus:
            return sample.corpus()
    if len(paths) == 1 and _plain_text(paths[0]):
        return Corpus((_read_alone(paths[0], samples, stdin),), alone=True)
    if paths.count(STDIN) > 1:
        raise UserError(key="cli.stdin_twice")
    return load_paths(paths, stdin)


def _read_uploads(files: Sequence[Upload]) -> Corpus:
    if len(files) != 1 or not reads_alone(files[0][0]):
        return load_files(files)
    name, data = files[0]
    try:
        decoded = read_text_file(data, name)
    except InputError as error:  # a file too long cannot be "pasted shorter"
        if error.key != "input.long_document":
            raise
        raise InputError(key="input.long_upload", name=short_name(name), n=error.values["n"],
                         limit=error.values["limit"]) from None
    return Corpus((Source(name, decoded.text, encoding_note(name, decoded)),), alone=True)


def _read_alone(path: str, samples: SampleLookup | None, stdin: BinaryIO | None) -> Source:
    """One document file's text, read and checked as the app reads an upload, named after
    its file, with its encoding as its notice when it is not UTF-8."""
    data, name = read_bytes(path, "document", samples=samples, stdin=stdin)
    decoded = read_text_file(data, name, _shown(path))
    return Source(_source_name(path, samples), decoded.text, encoding_note(name, decoded))


def read_bytes(path: str, what: str, *, samples: SampleLookup | None = None,
               stdin: BinaryIO | None = None) -> tuple[bytes, Named]:
    """The bytes of one file the user named (``what``: "document", "questions" or
    "workspace"), ``-`` or a sample's document or questions, and the name its sentences use;
    a folder, a missing or an unreadable file is one UserError."""
    if path.startswith(SAMPLE_PREFIX) and samples is not None:
        sample = samples(path.removeprefix(SAMPLE_PREFIX))
        file = sample.questions_path if what == "questions" else sample.path
        return file.read_bytes(), file.name
    if path == STDIN:
        return (stdin or sys.stdin.buffer).read(), message("cli.stdin")
    file, shown, kind = Path(path), short_name(path), message(f"cli.what_{what}")
    if file.is_dir():
        raise UserError(key="cli.is_folder", what=kind, name=shown)
    if not file.is_file():
        raise UserError(key="cli.missing", what=kind, name=shown)
    try:
        return file.read_bytes(), file.name
    except OSError as error:
        raise UserError(key="cli.unreadable", what=kind, name=shown,
                        reason=os_reason(error)) from None


def read_questions(path: str, *, samples: SampleLookup | None = None,
                   stdin: BinaryIO | None = None
                   ) -> tuple[list[LabelledQuestion], Message | None]:
    """The labelled questions of a named file (a benchmark's: up to ``MAX_CLI_QUESTIONS``),
    and the note its encoding deserves."""
    data, name = read_bytes(path, "questions", samples=samples, stdin=stdin)
    labelled, decoded = read_questions_file(data, name, MAX_CLI_QUESTIONS,
                                            MAX_CLI_QUESTIONS_BYTES)
    return labelled, encoding_note(name, decoded)


def _shown(path: str) -> Named:
    """How sentences name a file the user gave: its path, or "on standard input"."""
    return message("cli.on_stdin") if path == STDIN else path


def _source_name(path: str, samples: SampleLookup | None) -> str:
    """The name a single document's chunks carry: its file name, whoever names it."""
    if path == STDIN:
        return STDIN_NAME
    if path.startswith(SAMPLE_PREFIX) and samples is not None:
        return samples(path.removeprefix(SAMPLE_PREFIX)).path.name
    return Path(path).name


def _plain_text(path: str) -> bool:
    """Standard input, or one path that is not a folder and not a converted format."""
    if path == STDIN:
        return True
    return not Path(path).is_dir() and reads_alone(path)
