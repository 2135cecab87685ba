"""``eval --also SCORER``: the other retrieval settings on the same chunks, per question and
in a table of what each one fixes and breaks (issue 33: BM25, hybrid and rerankers against
``outranked``)."""

from __future__ import annotations

import argparse
from typing import Any

from ragviz.cli.output import metrics_line
from ragviz.cli.reading import cli_say
from ragviz.embedding.models import Embedder
from ragviz.evaluation.results import Analysis
from ragviz.evaluation.settings_study import SettingStudy, study
from ragviz.i18n import t


def add_study_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--also", action="append", default=[], metavar="SCORER",
                        help=cli_say("cli.help.also"))


def studied(args: argparse.Namespace, analysis: Analysis, embedder: Embedder | None
            ) -> tuple[SettingStudy, ...]:
    """``--also``'s scorers on ``analysis``'s chunks (none without ``--also``)."""
    specs = getattr(args, "also", None) or []
    return study(analysis, embedder, specs) if specs and embedder is not None else ()


def study_into(args: argparse.Namespace, analysis: Analysis, embedder: Embedder | None,
               payload: dict[str, Any]) -> tuple[dict[int, list[str]], list[str]]:
    """The study of ``--also``'s scorers put in ``payload['also']``; per question the lines
    saying where each ranks the answer, and the summary table's lines."""
    studies = studied(args, analysis, embedder)
    if not studies:
        return {}, []
    payload["also"] = [s.to_dict() for s in studies]
    lang = args.lang
    summary = [t("study.title", lang)]
    for item in studies:
        summary.append(t("study.row", lang, scorer=item.scorer, fixes=item.fixes,
                         outranked=item.outranked_fixed, breaks=item.breaks,
                         metrics=metrics_line(item.analysis.metrics, lang, analysis.top_k)))
    return _per_question(analysis, studies, lang), summary


def _per_question(analysis: Analysis, studies: tuple[SettingStudy, ...],
                  lang: str) -> dict[int, list[str]]:
    lines: dict[int, list[str]] = {}
    for number, outcome in enumerate(analysis.outcomes):
        if outcome.diagnosis is None or outcome.diagnosis.ok:
            continue
        said = []
        for item in studies:
            rank = item.answer_rank(number)
            key = "study.no_chunk" if rank is None else "study.ranks"
            said.append(t(key, lang, scorer=item.scorer, rank=rank))
        lines[number] = ["    " + "; ".join(said)]
    return lines
