"""What a command reads, as its arguments say: the corpus (read by ``ragviz.inputs.reading``,
the policy the app and the Python API share), the questions, the chunker configuration and
the model; what reading met is said on stderr in ``--lang``, each mistake one UserError."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from contextvars import ContextVar

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
from ragviz.i18n import render, t
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion, check_question
from ragviz.inputs.reading import read_corpus, read_questions
from ragviz.present.corpus_notes import notice_sentences, problem_sentences
from ragviz.present.safe_text import visible_controls as terminal_safe
from ragviz.share.samples import find_sample

CLI_LANG: ContextVar[str] = ContextVar("ragviz_cli_lang", default="en")  # set by main()


def cli_say(key: str, **values: object) -> str:
    """A catalog sentence in the command's language (``--lang``)."""
    return t(key, CLI_LANG.get(), **values)


def cli_line(kind: str, text: object) -> None:
    """One ``ragviz: note: ...`` / ``ragviz: skipped: ...`` line on stderr, in ``--lang``."""
    said = render(text, CLI_LANG.get())
    sys.stderr.write(terminal_safe(cli_say(f"cli.{kind}", text=said), keep="") + "\n")


def tell_corpus(corpus: Corpus) -> None:
    """One ``skipped`` line per file that could not be read, then one ``note`` line per file
    read with a caveat (another encoding, pages left out), on stderr in ``--lang``."""
    for problem in problem_sentences(corpus, CLI_LANG.get()):
        cli_line("skipped", problem)
    for notice in notice_sentences(corpus, CLI_LANG.get()):
        cli_line("note", notice)


def read_paths(paths: Sequence[str]) -> Corpus:
    """The corpus of a command's paths, read by ``ragviz.inputs.reading`` (packaged samples
    included), each file that fails or reads with a caveat said on stderr."""
    return read_corpus(paths, samples=find_sample, told=tell_corpus)


def chunker_config(args: argparse.Namespace, prefix: str = "") -> ChunkerConfig:
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


def given_questions(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions: list[LabelledQuestion] = []
    if getattr(args, "questions", None):
        if args.questions == "-" and "-" in args.paths:
            raise UserError(key="cli.stdin_both")
        labelled, note = read_questions(args.questions, samples=find_sample)
        if note is not None:
            cli_line("note", note)
        questions.extend(labelled)
    for text in getattr(args, "question", None) or []:
        if not text.strip():
            raise UserError(key="cli.empty_question")
        questions.append(check_question(LabelledQuestion(text.strip()), "--question"))
    return questions


def model_name(args: argparse.Namespace) -> str:
    """``--model``, with ``--api-base`` folded in for ``openai:`` models."""
    name: str = args.model or DEFAULT_MODEL
    if getattr(args, "api_base", None):
        if not name.startswith("openai:"):
            raise UserError(key="cli.api_base_openai_only")
        from ragviz.embedding.openai_api import openai_name, parse_openai_name

        name = openai_name(parse_openai_name(name)[0], args.api_base)
    return name


def embedder_for(args: argparse.Namespace, needed: bool) -> Embedder | None:
    if not needed and args.model is None:
        return None
    return load_embedder(model_name(args))


def labelled_questions(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions = given_questions(args)
    if not questions:
        raise UserError(key="cli.no_questions_file")
    return questions
