"""What a command reads: the corpus from paths, folders, `-` or `sample:NAME`, the
questions, the chunker configuration and the model, each mistake one UserError sentence."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Sequence
from contextvars import ContextVar
from pathlib import Path

from ragviz.chunking import (
    ChunkerConfig,
    check_config,
    get_spec,
)
from ragviz.chunking.registry import param_names
from ragviz.embedding.models import (
    DEFAULT_MODEL,
    Embedder,
    load_embedder,
)
from ragviz.errors import UserError
from ragviz.i18n import Message, message, render, t
from ragviz.inputs.corpus import Corpus, Source, load_paths, short_name
from ragviz.inputs.documents import (
    MAX_CLI_QUESTIONS,
    MAX_CLI_QUESTIONS_BYTES,
    DecodedText,
)
from ragviz.inputs.questions import LabelledQuestion, check_question, read_questions_file
from ragviz.inputs.reading import read_text_file, reads_alone
from ragviz.present.corpus_notes import notice_sentences, problem_sentences
from ragviz.present.safe_text import visible_controls as terminal_safe
from ragviz.share.samples import Sample, get_sample, load_samples

SAMPLE_PREFIX = "sample:"  # `ragviz chunk sample:politica_reembolso`: a packaged sample


CLI_LANG: ContextVar[str] = ContextVar("ragviz_cli_lang", default="en")  # set by main()


def cli_say(key: str, **values: object) -> str:
    """A catalog sentence in the command's language (``--lang``)."""
    return t(key, CLI_LANG.get(), **values)


def cli_line(kind: str, text: object) -> None:
    """One ``ragviz: note: ...`` / ``ragviz: skipped: ...`` line on stderr, in ``--lang``."""
    said = render(text, CLI_LANG.get())
    sys.stderr.write(terminal_safe(cli_say(f"cli.{kind}", text=said), keep="") + "\n")


def _read_text(path: str) -> str:
    """One document file's text, read and checked as the app reads an upload; a file that
    is not UTF-8 is named on stderr with the encoding used."""
    data, name = _read_bytes(path, "document")
    decoded = read_text_file(data, name, _shown_name(path))
    _note_encoding(name, decoded)
    return decoded.text


def _read_bytes(path: str, what: str) -> tuple[bytes, str]:
    if path.startswith(SAMPLE_PREFIX):
        return _sample_bytes(path.removeprefix(SAMPLE_PREFIX), what)
    if path == "-":
        return sys.stdin.buffer.read(), cli_say("cli.stdin")
    file, shown, kind = Path(path), short_name(path), message(f"cli.what_{what}")
    if file.is_dir():
        raise UserError(key="cli.is_folder", what=kind, name=shown)
    if not file.is_file():
        raise UserError(key="cli.missing", what=kind, name=shown)
    try:
        return file.read_bytes(), file.name
    except OSError as error:
        raise UserError(key="cli.unreadable", what=kind, name=shown,
                        reason=_reason(error)) from None


_ERRNO_KEYS = {errno.ENOENT: "cli.os_missing", errno.EACCES: "cli.os_denied",
               errno.EPERM: "cli.os_denied", errno.EISDIR: "cli.os_folder",
               errno.ENOSPC: "cli.os_full", errno.EROFS: "cli.os_read_only"}


def _reason(error: OSError) -> Message | str:
    """The system's reason, in the catalog's words when it is a common one."""
    key = _ERRNO_KEYS.get(error.errno or 0)
    return message(key) if key else (error.strerror or type(error).__name__).lower()


def _note_encoding(name: str, decoded: DecodedText) -> None:
    if decoded.notice:
        key = "cli.not_utf8_guessed" if decoded.guessed else "cli.not_utf8"
        cli_line("note", message(key, name=name, encoding=decoded.notice))


def _shown_name(path: str) -> str:
    return cli_say("cli.on_stdin") if path == "-" else path


STDIN_NAME = "stdin.txt"  # the source name of standard input, as ragviz.inputs.corpus names it


def _read_corpus(paths: Sequence[str]) -> Corpus:
    """One text file or ``-`` as before (one source named after the file); anything else
    through the corpus loader, each file that fails named on stderr."""
    if len(paths) == 1 and paths[0].startswith(SAMPLE_PREFIX):
        sample = _sample(paths[0].removeprefix(SAMPLE_PREFIX))
        if sample.is_corpus:
            return sample.corpus()
    if len(paths) == 1 and _plain_text(paths[0]):
        path = paths[0]
        return Corpus((Source(_source_name(path), _read_text(path)),))
    if paths.count("-") > 1:
        raise UserError(key="cli.stdin_twice")
    corpus = load_paths(paths)
    for problem in problem_sentences(corpus, CLI_LANG.get()):
        cli_line("skipped", problem)
    for notice in notice_sentences(corpus, CLI_LANG.get()):
        cli_line("note", notice)
    if not corpus.sources:
        shown = (short_name(_shown_name(path)) for path in paths)
        raise UserError(key="cli.nothing_read", names=", ".join(shown))
    return corpus


def _source_name(path: str) -> str:
    """The name a single document's chunks carry: its file name, whoever names it."""
    if path == "-":
        return STDIN_NAME
    if path.startswith(SAMPLE_PREFIX):
        return _sample(path.removeprefix(SAMPLE_PREFIX)).path.name
    return Path(path).name


def _plain_text(path: str) -> bool:
    """Standard input, or one path that is not a folder and not a converted format."""
    if path == "-":
        return True
    return not Path(path).is_dir() and reads_alone(path)


def _config(args: argparse.Namespace, prefix: str = "") -> ChunkerConfig:
    """The chunker options given, the chunker's spec defaults for the rest, checked
    (``prefix`` "b_": configuration B's options of ``ragviz compare``)."""
    spec = get_spec(getattr(args, f"{prefix}chunker"))
    given = {name: value for name in param_names()
             if (value := getattr(args, f"{prefix}{name}")) is not None}
    foreign = [name for name in given if name not in spec.names]
    if foreign:  # another chunker's option: never ignored without a word
        flag = "--" + prefix.replace("_", "-")
        raise UserError(key="cli.option_not_for_chunker", chunker=spec.name,
                        options=", ".join(flag + n.replace("_", "-") for n in foreign),
                        takes=", ".join(flag + n.replace("_", "-") for n in spec.names))
    return check_config(ChunkerConfig.create(spec.name, **given))


def _sample(name: str) -> Sample:
    """A packaged sample by name, or one sentence listing the samples there are."""
    try:
        return get_sample(name)
    except KeyError:
        names = ", ".join(s.name for s in load_samples(corpora=True))
        raise UserError(key="cli.no_sample", name=repr(name), names=names) from None


def _sample_bytes(name: str, what: str) -> tuple[bytes, str]:
    """A packaged sample's document or questions CSV: works without the repository."""
    sample = _sample(name)
    path = sample.questions_path if what == "questions" else sample.path
    return path.read_bytes(), path.name


def _questions(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions: list[LabelledQuestion] = []
    if getattr(args, "questions", None):
        if args.questions == "-" and "-" in args.paths:
            raise UserError(key="cli.stdin_both")
        data, name = _read_bytes(args.questions, "questions")
        labelled, decoded = read_questions_file(data, name, MAX_CLI_QUESTIONS,
                                                MAX_CLI_QUESTIONS_BYTES)
        _note_encoding(name, decoded)
        questions.extend(labelled)
    for text in getattr(args, "question", None) or []:
        if not text.strip():
            raise UserError(key="cli.empty_question")
        questions.append(check_question(LabelledQuestion(text.strip()), "--question"))
    return questions


def _model_name(args: argparse.Namespace) -> str:
    """``--model``, with ``--api-base`` folded in for ``openai:`` models."""
    name: str = args.model or DEFAULT_MODEL
    if getattr(args, "api_base", None):
        if not name.startswith("openai:"):
            raise UserError(key="cli.api_base_openai_only")
        from ragviz.embedding.openai_api import openai_name, parse_openai_name

        name = openai_name(parse_openai_name(name)[0], args.api_base)
    return name


def _model(args: argparse.Namespace, needed: bool) -> Embedder | None:
    if not needed and args.model is None:
        return None
    return load_embedder(_model_name(args))


def _labelled(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions = _questions(args)
    if not questions:
        raise UserError(key="cli.no_questions_file")
    return questions
