"""``ragviz questions PATH... --llm openai:MODEL --count N``: labelled questions for a corpus
that has none, written by the user's chat model and verified (``ragviz.answering.question_run``).

The questions file (``--out``, else stdout) is written as it grows, so Ctrl-C keeps every
question written; the summary (what was kept, what was dropped and why, the tokens and their
cost) follows on stdout with ``--out``, else on stderr.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from ragviz.answering.question_run import (
    MAX_COUNT,
    QuestionRun,
    Row,
    WritingSettings,
    csv_header,
    csv_row,
)
from ragviz.answering.question_writing import GIVEAWAY, NEAR_DUPLICATE, WritingSummary
from ragviz.cli import output
from ragviz.cli.llm_options import add_llm_options, make_asker
from ragviz.cli.reading import CLI_LANG, cli_say, embedder_for, read_paths
from ragviz.errors import InputError, LLMError, UserError, os_reason
from ragviz.i18n import Message, decimal, grouped, t
from ragviz.inputs.convert import ACCEPTED_SUFFIXES
from ragviz.inputs.documents import shorten
from ragviz.present.safe_text import visible_controls as terminal_safe

_TEMPLATE_BYTES = 100_000


def _count(raw: str) -> int:
    text = raw.strip()
    if not text.isdigit() or len(text) > 5 or not 0 <= int(text) <= MAX_COUNT:
        raise InputError(key="cli.whole_number", low=0, high=MAX_COUNT, got=repr(shorten(raw)))
    return int(text)


def _price(raw: str) -> tuple[float, float]:
    parts = raw.split(",")
    try:
        prices = tuple(float(p) for p in parts) if len(parts) == 2 and len(raw) <= 40 else ()
    except ValueError:
        prices = ()
    if len(prices) != 2 or not all(0 <= p <= 10_000 for p in prices):
        raise InputError(key="questions.bad_price", got=repr(shorten(raw)))
    return prices[0], prices[1]


def add_questions_parser(sub: Any, add_model_options: Any) -> None:
    """``ragviz questions`` with the answer step's ``--llm`` options."""
    parser = sub.add_parser("questions", help=cli_say("cli.help.command.questions"))
    parser.add_argument("paths", nargs="+", metavar="path", help=cli_say(
        "cli.help.paths", formats=", ".join(ACCEPTED_SUFFIXES)))
    parser.add_argument("--count", type=_count, required=True,
                        help=cli_say("questions.help.count", limit=MAX_COUNT))
    parser.add_argument("--unanswerable", type=_count, default=0,
                        help=cli_say("questions.help.unanswerable"))
    parser.add_argument("--out", help=cli_say("questions.help.out"))
    parser.add_argument("--template", metavar="FILE", help=cli_say("questions.help.template"))
    parser.add_argument("--keep-giveaways", dest="keep_giveaways", action="store_true",
                        help=cli_say("questions.help.keep_giveaways",
                                     share=f"{GIVEAWAY:g}"))
    parser.add_argument("--price", type=_price, metavar="IN,OUT",
                        help=cli_say("questions.help.price"))
    add_model_options(parser)
    add_llm_options(parser)
    parser.set_defaults(handler=cmd_questions)


def _template(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        data = Path(path).read_bytes()[:_TEMPLATE_BYTES + 1]
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = (Message("input.not_utf8_text") if isinstance(error, UnicodeDecodeError)
                  else os_reason(error))
        raise InputError(key="llm.template_unreadable", path=repr(shorten(path)),
                         reason=reason) from None


def _settings(args: argparse.Namespace) -> WritingSettings:
    values: dict[str, Any] = {}
    if args.max_context_tokens is not None:
        values["passage_tokens"] = args.max_context_tokens
    settings = WritingSettings(args.count, args.unanswerable, _template(args.template),
                               args.lang, keep_giveaways=args.keep_giveaways, **values)
    settings.chosen_template()  # a template without its fields ends here, before any call
    return settings


def cmd_questions(args: argparse.Namespace) -> None:
    if not args.llm:
        raise UserError(key="questions.needs_llm")
    if (args.json or args.format == "json") and not args.out:
        raise UserError(key="questions.json_needs_out")
    settings = _settings(args)
    asker = make_asker(args)
    assert asker is not None  # --llm was given
    corpus = read_paths(args.paths)
    embedder = embedder_for(args, needed=True)
    run = QuestionRun(corpus, asker, embedder, settings)
    with ExitStack() as stack:
        target: TextIO = stack.enter_context(
            output.writable_path(args.out).open("w", encoding="utf-8", newline="")) \
            if args.out else sys.stdout

        def keep(row: Row) -> None:
            target.write(csv_row(row, settings.keep_giveaways))
            target.flush()

        target.write(csv_header(settings.keep_giveaways))
        try:
            run.run(keep, _progress(asker.model.name))
        except KeyboardInterrupt:
            run.summary.stopped = True
            _report(args, run, sys.stderr)
            raise
        except LLMError:  # the error's sentence follows; the summary says what it cost
            if run.summary.calls:
                run.summary.stopped = True
                _report(args, run, sys.stderr)
            raise
    _report(args, run, sys.stdout if args.out else sys.stderr)


def _progress(model: str) -> Any:
    if not output.stderr_is_terminal():
        return None

    def show(done: int, total: int) -> None:
        line = t("questions.progress", CLI_LANG.get(), model=terminal_safe(model, keep=""),
                 done=done, total=total)
        sys.stderr.write(line + ("\n" if done >= total else "\r"))
        sys.stderr.flush()

    return show


def _cost(args: argparse.Namespace, summary: WritingSummary) -> float | None:
    if args.price is None:
        return None
    per_in, per_out = args.price
    return float(summary.prompt_tokens * per_in + summary.completion_tokens * per_out) / 1_000_000


def summary_lines(summary: WritingSummary, cost: float | None, lang: str) -> list[str]:
    """What was kept, each reason questions were dropped for, the tokens and their cost."""
    lines = [t("questions.kept", lang, n=summary.kept, wanted=summary.wanted,
               drafted=summary.drafted, calls=summary.calls)]
    lines += [t("questions.dropped", lang, n=n, reason=t(f"questions.reason.{reason}", lang))
              for reason, n in sorted(summary.dropped.items()) if n]
    if summary.flagged:
        lines.append(t("questions.flagged", lang, n=summary.flagged, share=f"{GIVEAWAY:g}"))
    if summary.failed_calls:
        lines.append(t("questions.failed_calls", lang, n=summary.failed_calls))
    if summary.unanswerable_wanted:
        lines.append(t("questions.unanswerable_kept", lang, n=summary.unanswerable_kept,
                       wanted=summary.unanswerable_wanted))
        lines += [t("questions.dropped", lang, n=n,
                    reason=t(f"questions.reason.{reason}", lang))
                  for reason, n in sorted(summary.unanswerable_dropped.items()) if n]
    tokens = t("questions.tokens", lang, prompt=grouped(summary.prompt_tokens, lang),
               completion=grouped(summary.completion_tokens, lang))
    lines.append(tokens + " " + (t("questions.no_price", lang) if cost is None
                                 else t("questions.cost", lang, cost=decimal(cost, 4, lang))))
    if summary.stopped:
        lines.append(t("questions.stopped", lang))
    return lines


def _report(args: argparse.Namespace, run: QuestionRun, stream: TextIO) -> None:
    summary, lang = run.summary, args.lang
    cost = _cost(args, summary)
    if stream is sys.stdout and (args.json or args.format == "json"):
        payload = {**summary.to_dict(), "out": args.out, "cost": cost,
                   "embedding_model": run.embedder.name if run.embedder else None,
                   "thresholds": {"near_duplicate": NEAR_DUPLICATE, "giveaway": GIVEAWAY}}
        output.emit(args, payload, lambda: "")
        return
    text = "\n".join(summary_lines(summary, cost, lang)) + "\n"
    stream.write(terminal_safe(text, keep="\n"))
    stream.flush()
