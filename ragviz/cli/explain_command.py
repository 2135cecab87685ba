"""``ragviz explain PATH... --question Q --bot-answer TEXT [--expected TEXT]``: a support
ticket explained with no labels file, on the analysis ``eval`` runs (files, ``--index`` or
``--workspace``), its labels and explanation made by ``eval``'s own functions."""

from __future__ import annotations

import argparse
from typing import Any

from ragviz.cli.output import emit
from ragviz.cli.outputs import data, fields_of
from ragviz.cli.payloads import analysis_header, eval_question
from ragviz.cli.reading import cli_say
from ragviz.errors import UserError
from ragviz.evaluation.explain import (
    AnswerSource,
    Explanation,
    explain_analysis,
    ticket_question,
)
from ragviz.inputs.documents import MAX_ANSWER_CHARS
from ragviz.inputs.questions import LabelledQuestion, check_question


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    """The ticket: the customer's question, the bot's answer and, when known, the right one."""
    parser.add_argument("--question", required=True, help=cli_say("cli.help.explain_question"))
    parser.add_argument("--bot-answer", dest="bot_answer", required=True,
                        help=cli_say("cli.help.bot_answer"))
    parser.add_argument("--expected", default="", help=cli_say("cli.help.expected"))


def _ticket(args: argparse.Namespace) -> LabelledQuestion:
    if not args.question.strip():
        raise UserError(key="cli.empty_question")
    if len(args.bot_answer) > MAX_ANSWER_CHARS:
        raise UserError(key="cli.long_bot_answer", n=len(args.bot_answer),
                        limit=MAX_ANSWER_CHARS)
    return check_question(ticket_question(args.question, args.expected), "--question")


def cmd_explain(args: argparse.Namespace) -> None:
    from ragviz.cli.commands import analysed_run, index_run_of, prepared_run
    from ragviz.cli.reading import model_name
    from ragviz.cli.workspace_run import workspace_runs
    from ragviz.embedding.models import load_embedder

    question = _ticket(args)
    args.questions = None  # the ticket is the only question
    if args.workspace:
        run = workspace_runs(args, (args.side,), [question])[0]
        analysis, embedder = run.analysis, run.embedder
    elif index_run := index_run_of(args, [question]):
        analysis, embedder = index_run.result.analysis, load_embedder(model_name(args))
    else:
        prepared = prepared_run(args, [question])
        analysis, embedder = analysed_run(args, prepared), prepared.embedder
    explanation = explain_analysis(analysis, embedder, args.bot_answer, question.answer)
    payload = explain_payload(explanation, args.lang)
    emit(args, payload, lambda: "\n".join(payload["summary"]) + "\n")


def explain_payload(x: Explanation, lang: str) -> dict[str, Any]:
    """``ragviz explain --json``: the header, the context, the attribution, the candidates;
    with an expected answer, eval's labels and explanation for the question."""
    from ragviz.present.explain_text import explanation_lines
    from ragviz.present.presentation import diagnosis_text

    analysis, outcome = x.analysis, x.outcome
    payload: dict[str, Any] = {
        **analysis_header("explain", analysis),
        "question": outcome.question.question, "bot_answer": x.bot_answer,
        "expected": x.expected or None,
        "decision": "refused" if outcome.decision.refused else "context",
        "context": [{**fields_of(c), "score": round(c.score, 6)} for c in x.context],
        "answer_from": [_share(s) for s in x.answer_from],
        "shares": [_share(s) for s in x.shares],
        "candidates": [{**fields_of(c), "score": round(c.score, 6), "chunk_score":
                        None if c.chunk_score is None else round(c.chunk_score, 6)}
                       for c in x.candidates],
        "summary": explanation_lines(x, lang, "explain.hint_cli"),
    }
    if x.expected and outcome.diagnosis is not None:  # eval's row for the same question
        row = data(eval_question(analysis, outcome, diagnosis_text(outcome.diagnosis, lang)))
        payload |= {"labels": row["labels"], "explanation": row["explanation"],
                    "diagnosis": row["diagnosis"]}
    return payload


def _share(source: AnswerSource) -> dict[str, Any]:
    return {"index": source.index, "share": round(source.share, 4)}
