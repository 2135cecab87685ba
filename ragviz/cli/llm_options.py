"""``--llm openai:MODEL`` and its options on eval, search and compare: every question's built
prompt asked of an OpenAI-compatible chat model, its answer judged (``ragviz.answering``).

The key comes from ``RAGVIZ_LLM_API_KEY``, else ``OPENAI_API_KEY``, and is written nowhere:
not in the JSON, the text, the progress line or any error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragviz.answering.chat import (
    MAX_ANSWER_CHARS,
    RETRIES,
    TIMEOUT_S,
    ChatModel,
    parse_llm_name,
)
from ragviz.answering.prompt import (
    ESTIMATE,
    check_template,
    default_template,
    token_counter,
)
from ragviz.answering.run import (
    AnswerSet,
    Asker,
    LLMMetrics,
    LLMResult,
    answer_all,
    llm_metrics,
)
from ragviz.answering.verdict import REFUSAL_PHRASES
from ragviz.cli import output
from ragviz.cli.reading import CLI_LANG, cli_say
from ragviz.errors import InputError, os_reason
from ragviz.evaluation.results import Analysis
from ragviz.i18n import decimal, grouped, message, render, t
from ragviz.inputs.documents import shorten
from ragviz.present.answers import verdict_text
from ragviz.present.safe_text import visible_controls as terminal_safe

_DEPENDENT = ("llm_base", "max_tokens", "prompt_template", "max_context_tokens", "llm_timeout",
              "refusal_phrase", "llm_budget", "llm_max_chars")
BUDGET_S = 1800.0  # the whole run's time with the language model, unless --llm-budget says


def _positive(raw: str) -> int:
    text = raw.strip()
    if not text.isdigit() or len(text) > 7 or int(text) < 1:
        raise InputError(key="cli.whole_number", low=1, high=9_999_999, got=repr(shorten(raw)))
    return int(text)


def _seconds_up_to(high: int) -> Callable[[str], float]:
    """The parser of a number of seconds in (0, ``high``]."""

    def seconds(raw: str) -> float:
        try:
            value = float(raw) if len(raw) <= 20 else 0.0
        except ValueError:
            value = 0.0
        if not 0 < value <= high:
            raise InputError(key="cli.number_between", low="0", high=str(high),
                             got=repr(shorten(raw)))
        return value

    return seconds


_seconds = _seconds_up_to(3600)
_budget = _seconds_up_to(86_400)
run_seconds = _budget  # a whole run's budget: --llm-budget, --api-budget


def add_llm_options(parser: argparse.ArgumentParser) -> None:
    """The options of the answer step (none of them does anything without ``--llm``)."""
    group = parser.add_argument_group(cli_say("cli.help.llm_group"))
    group.add_argument("--llm", help=cli_say("cli.help.llm"))
    group.add_argument("--llm-base", dest="llm_base", help=cli_say("cli.help.llm_base"))
    group.add_argument("--max-tokens", dest="max_tokens", type=_positive,
                       help=cli_say("cli.help.max_tokens"))
    group.add_argument("--prompt-template", dest="prompt_template", metavar="FILE",
                       help=cli_say("cli.help.prompt_template"))
    group.add_argument("--max-context-tokens", dest="max_context_tokens", type=_positive,
                       help=cli_say("cli.help.max_context_tokens"))
    group.add_argument("--llm-timeout", dest="llm_timeout", type=_seconds,
                       help=cli_say("cli.help.llm_timeout", seconds=f"{TIMEOUT_S:g}"))
    group.add_argument("--llm-budget", dest="llm_budget", type=_budget,
                       help=cli_say("cli.help.llm_budget", seconds=f"{BUDGET_S:g}"))
    group.add_argument("--llm-max-chars", dest="llm_max_chars", type=_positive,
                       help=cli_say("cli.help.llm_max_chars", n=MAX_ANSWER_CHARS))
    group.add_argument("--llm-no-stream", dest="llm_no_stream", action="store_true",
                       help=cli_say("cli.help.llm_no_stream"))
    group.add_argument("--refusal-phrase", dest="refusal_phrase", action="append",
                       help=cli_say("cli.help.refusal_phrase"))


def make_asker(args: argparse.Namespace) -> Asker | None:
    """The asker ``--llm`` describes (None without it), checked before any model work."""
    name = getattr(args, "llm", None)
    if not name:
        given = [f"--{dest.replace('_', '-')}" for dest in _DEPENDENT
                 if getattr(args, dest, None) is not None]
        if given:
            raise InputError(key="llm.options_without_llm", options=", ".join(given))
        return None
    model = ChatModel(parse_llm_name(name), args.llm_base, max_tokens=args.max_tokens,
                      timeout_s=args.llm_timeout or TIMEOUT_S, retries=RETRIES,
                      stream=not args.llm_no_stream,
                      max_answer_chars=getattr(args, "llm_max_chars", None) or MAX_ANSWER_CHARS)
    return Asker(model, _template(args), token_counter(model.model), args.max_context_tokens,
                 REFUSAL_PHRASES + tuple(args.refusal_phrase or ()),
                 budget_s=getattr(args, "llm_budget", None) or BUDGET_S)


def _template(args: argparse.Namespace) -> str:
    path = args.prompt_template
    if not path:
        return default_template(args.lang)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = (message("input.not_utf8_text") if isinstance(error, UnicodeDecodeError)
                  else os_reason(error))
        raise InputError(key="llm.template_unreadable", path=repr(shorten(path)),
                         reason=reason) from None
    return check_template(text)


def ask(asker: Asker, analysis: Analysis) -> tuple[list[LLMResult], LLMMetrics]:
    """Every question of ``analysis`` asked; the metrics count this analysis's own calls."""
    before = asker.calls
    results = answer_all(analysis, asker, _progress(asker))
    return results, llm_metrics(analysis.outcomes, results, asker.calls - before)


def _progress(asker: Asker) -> Any:
    if not output.stderr_is_terminal():
        return None

    def show(done: int, total: int) -> None:
        line = t("llm.asking", CLI_LANG.get(), model=terminal_safe(asker.model.name, keep=""),
                 done=done, total=total)
        sys.stderr.write(line + ("\n" if done == total else "\r"))
        sys.stderr.flush()

    return show


def answer_sets(asker: Asker | None, analyses: list[Analysis]) -> list[AnswerSet | None]:
    """report: each configuration's answers (none without ``--llm``)."""
    if asker is None:
        return []
    sets: list[AnswerSet | None] = []
    for analysis in analyses:
        results, metrics = ask(asker, analysis)
        sets.append(AnswerSet(asker.model.name, tuple(results), metrics))
    return sets


def add_rows(rows: list[dict[str, Any]], results: list[LLMResult], lang: str) -> None:
    """Each question's JSON row gets its ``llm`` part."""
    for row, result in zip(rows, results, strict=True):
        row["llm"] = llm_json(result, lang)


def llm_json(result: LLMResult, lang: str) -> dict[str, Any]:
    """A question's ``llm`` part of the JSON, its error said in ``lang``."""
    return {**result.to_dict(), "error": None if result.error is None
            else render(result.error, lang)}


def head(asker: Asker, metrics: LLMMetrics) -> dict[str, Any]:
    """The run's ``llm`` part: the model (never the key), the counter and the metrics."""
    return {"model": asker.model.name, "temperature": 0, "max_tokens": asker.model.max_tokens,
            "max_context_tokens": asker.budget, "token_counter": asker.counter.name,
            "metrics": metrics.to_dict()}


def answer_lines(result: LLMResult, lang: str) -> list[str]:
    """The text output's lines for one question's answer."""
    verdict = verdict_text(result, lang)
    lines = [t("llm.no_answer_line", lang, verdict=verdict) if result.answer is None
             else t("llm.answer_line", lang, verdict=verdict, answer=repr(result.answer))]
    if result.reply is not None and result.reply.cut_at is not None:
        lines.append(t("llm.answer_cut", lang, n=result.reply.cut_at))
    built = result.prompt
    if built is not None and built.cut_at is not None:
        lines.append(t("llm.cut", lang, budget=built.budget, kept=grouped(built.cut_at, lang)))
    return lines


def summary_lines(asker: Asker, metrics: LLMMetrics, lang: str) -> list[str]:
    def share(value: float | None) -> str:
        return "-" if value is None else decimal(value, 2, lang)

    counter = asker.counter.name
    return [t("llm.summary", lang, model=asker.model.name,
              accuracy=share(metrics.answer_accuracy),
              precision=share(metrics.refusal_precision), recall=share(metrics.refusal_recall),
              calls=metrics.calls, prompt=grouped(metrics.prompt_tokens, lang),
              completion=grouped(metrics.completion_tokens, lang)),
            t("llm.counter_estimate", lang) if counter == ESTIMATE
            else t("llm.counter", lang, counter=counter)]


def flips(a: list[LLMResult], b: list[LLMResult], analysis: Analysis, lang: str
          ) -> list[dict[str, Any]]:
    """compare: the questions whose verdict changes from A to B."""
    return [{"question": outcome.question.question, "a": ra.verdict, "b": rb.verdict,
             "a_chunk": ra.chunk, "b_chunk": rb.chunk,
             "a_text": verdict_text(ra, lang), "b_text": verdict_text(rb, lang)}
            for outcome, ra, rb in zip(analysis.outcomes, a, b, strict=True)
            if ra.verdict != rb.verdict]


def answer_into(asker: Asker | None, analysis: Analysis, payload: dict[str, Any], lang: str
                ) -> tuple[list[LLMResult], list[str]]:
    """Ask every question (nothing without ``--llm``), put the answers into ``payload``'s
    question rows and its ``llm`` part; the results and the text's summary lines."""
    if asker is None:
        return [], []
    results, metrics = ask(asker, analysis)
    add_rows(payload["questions"], results, lang)
    payload["llm"] = head(asker, metrics)
    return results, summary_lines(asker, metrics, lang)


def lines_for(results: list[LLMResult], number: int, lang: str) -> list[str]:
    """Question ``number``'s answer lines, indented (none without ``--llm``)."""
    if not results:
        return []
    return [f"    {line}" for line in answer_lines(results[number], lang)]


def compare_into(asker: Asker | None, a: Analysis, b: Analysis, payload: dict[str, Any],
                 lang: str) -> list[str]:
    """compare: A's and B's answers (``llm.a``, ``llm.b``, each with its questions) and the
    questions whose verdict flips (``llm.flips``); the text's lines."""
    if asker is None:
        return []
    sides: dict[str, Any] = {}
    lines: list[str] = []
    answers: list[list[LLMResult]] = []
    for side, analysis in (("a", a), ("b", b)):
        results, metrics = ask(asker, analysis)
        answers.append(results)
        sides[side] = {**head(asker, metrics), "questions": [
            {"question": o.question.question, **llm_json(r, lang)}
            for o, r in zip(analysis.outcomes, results, strict=True)]}
        lines += [f"{side.upper()} {line}" for line in summary_lines(asker, metrics, lang)[:1]]
    changed = flips(answers[0], answers[1], a, lang)
    payload["llm"] = {**sides, "flips": changed}
    lines.append(t("llm.flips", lang, n=len(changed)))
    lines += [f"  [{flip['a']} -> {flip['b']}] {flip['question']}: {flip['a_text']} -> "
              f"{flip['b_text']}" for flip in changed]
    return lines
