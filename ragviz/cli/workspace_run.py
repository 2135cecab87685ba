"""``ragviz eval|report --workspace FILE``: an app session rerun in a terminal or CI, exactly
as the app ran it (the exported document, questions, both configurations with their models,
scorers, floors and top_k): a support agent's session attached to a ticket reproduces."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ragviz.cli.reading import cli_say
from ragviz.embedding.models import Embedder, load_embedder
from ragviz.embedding.openai_api import OPENAI_PREFIX
from ragviz.errors import UserError
from ragviz.evaluation.results import Analysis, Coverage, RetrievalSettings
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.documents import shorten
from ragviz.inputs.questions import LabelledQuestion
from ragviz.inputs.reading import read_bytes
from ragviz.share.samples import find_sample
from ragviz.share.workspace import Settings, Workspace

SIDES = ("a", "b")


@dataclass(frozen=True)
class SideRun:
    """One configuration of the workspace, analysed."""

    side: str
    analysis: Analysis
    coverage: Coverage
    embedder: Embedder


def add_workspace_option(parser: argparse.ArgumentParser, sides: bool) -> None:
    parser.add_argument("--workspace", metavar="FILE",
                        help=cli_say("cli.help.workspace"))
    parser.add_argument("--allow-api", dest="allow_api", action="store_true",
                        help=cli_say("cli.help.allow_api"))
    parser.add_argument("--allow-download", dest="allow_download", action="store_true",
                        help=cli_say("cli.help.allow_download"))
    if sides:
        parser.add_argument("--side", choices=SIDES, default="a",
                            help=cli_say("cli.help.side"))


def workspace_runs(args: argparse.Namespace, sides: tuple[str, ...],
                   questions: list[LabelledQuestion] | None = None) -> list[SideRun]:
    """The workspace's configurations ``sides``, analysed as the app analysed them (on its
    questions, or on ``questions``: ``explain``'s ticket)."""
    if args.paths or getattr(args, "questions", None) or getattr(args, "index", None):
        raise UserError(key="cli.workspace_alone")
    data = read_bytes(args.workspace, "workspace", samples=find_sample)[0]
    workspace = Workspace.from_json(data)
    asked = list(workspace.questions) if questions is None else questions
    return [_run(args, workspace, side, asked) for side in sides]


def _run(args: argparse.Namespace, workspace: Workspace, side: str,
         questions: list[LabelledQuestion]) -> SideRun:
    from ragviz.cli.output import progress_line, resolved_questions
    from ragviz.evaluation.pipeline import analyse

    settings: Settings = workspace.settings
    embedder = load_embedder(consented(settings.model_of(side), args), shared=True,
                             download=bool(getattr(args, "allow_download", False)))
    kept, coverage = resolved_questions(questions, _corpus(workspace))
    retrieval = RetrievalSettings(settings.top_k, settings.floor_of(side),
                                  settings.scorer_of(side), settings.expand_of(side))
    config = settings.config_a if side == "a" else settings.config_b
    analysis = analyse(workspace.document, config, embedder, kept, retrieval,
                       progress=progress_line(embedder))
    return SideRun(side, analysis, coverage, embedder)


def consented(model: str, args: argparse.Namespace) -> str:
    """``model``, when the workspace may name it: an API model (which would receive the
    document, the questions and the user's key) only with ``--allow-api``; nothing is sent
    otherwise. (A hub id is downloaded only with ``--allow-download``: ``load_embedder``.)"""
    if model.startswith(OPENAI_PREFIX) and not getattr(args, "allow_api", False):
        raise UserError(key="cli.workspace_api_needs_consent", model=repr(shorten(model, 120)))
    return model


def _corpus(workspace: Workspace) -> Corpus:
    return as_corpus(workspace.document)
