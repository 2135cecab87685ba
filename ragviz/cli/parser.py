"""The argument parser, built from the registries (chunkers, scorers, models) when it is
made, so a registered chunker or scorer is an option without touching this file."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ragviz.chunking import CHUNKER_NAMES
from ragviz.chunking.registry import PEERS_EXTRA, missing_peers, param_kind, param_names, specs
from ragviz.chunking.sweep_grid import default_sweep_chunkers, sweepable
from ragviz.cli.app import DESCRIPTION, run_app
from ragviz.cli.cache_command import add_cache_parser, cached_run
from ragviz.cli.commands import cmd_calibrate, cmd_chunk, cmd_eval, cmd_report, cmd_search
from ragviz.cli.experiments import cmd_compare, cmd_sweep
from ragviz.cli.explain_command import add_explain_arguments, cmd_explain
from ragviz.cli.index_command import add_eval_options, add_index_parser
from ragviz.cli.labels_command import add_labels_parser
from ragviz.cli.llm_options import add_llm_options, run_seconds
from ragviz.cli.output import emit
from ragviz.cli.questions_command import add_questions_parser
from ragviz.cli.reading import CLI_LANG, cli_say, embedder_for
from ragviz.cli.retrieval_options import FLOOR, add_scorer_options
from ragviz.cli.schema_command import add_schema_parser
from ragviz.cli.study_options import add_study_option
from ragviz.cli.sweep_options import add_sweep_axes
from ragviz.cli.workspace_run import add_workspace_option
from ragviz.embedding.api_common import API_BUDGET_S
from ragviz.embedding.models import (
    BUNDLED_MODELS,
    DEFAULT_MODEL,
)
from ragviz.errors import InputError
from ragviz.evaluation.measures import metric_names
from ragviz.i18n import LANGUAGES, SOURCE_LANGUAGE, Grouped, KeyedError, t
from ragviz.inputs.convert import ACCEPTED_SUFFIXES
from ragviz.inputs.documents import shorten
from ragviz.inputs.limits import FLOOR_RANGE, TOP_K_RANGE
from ragviz.present.param_words import unit_word
from ragviz.present.safe_text import visible_controls as terminal_safe

EXIT_USER_ERROR = 2


def _flag(name: str) -> str:
    return name.replace("_", "-")


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type that refuses values outside what the app's widgets allow."""

    def parse(raw: str) -> int:
        text = raw.strip()
        if not re.fullmatch(r"[+-]?\d+", text):
            raise InputError(key="cli.whole_number", low=low, high=high, got=repr(shorten(raw)))
        digits = len(text.lstrip("+-"))
        if digits > 6:
            raise InputError(key="cli.whole_number_digits", low=low, high=high,
                             digits=Grouped(digits))
        value = int(text)
        if not low <= value <= high:
            raise InputError(key="cli.whole_number", low=low, high=high, got=value)
        return value

    return parse



def _number(kind: str) -> Callable[[str], int | float]:
    """An argparse type for a chunker option: a short message for any unreadable value
    (a 5,001-digit number included); the range is checked against the chosen chunker."""

    def parse(raw: str) -> int | float:
        try:
            return int(raw) if kind == "int" else float(raw)
        except ValueError:
            raise InputError(key=f"cli.invalid_{kind}", got=repr(shorten(raw))) from None

    parse.__name__ = kind
    return parse


def _option_help(name: str) -> str:
    """Which chunkers read an option, with each one's default and unit."""
    lang = CLI_LANG.get()
    uses: list[str] = []
    for spec in (s for s in specs() if name in s.names):
        if name in spec.alternatives[1:]:
            uses.append(cli_say("cli.help.param_instead", chunker=spec.name,
                                flag=_flag(spec.alternatives[0])))
        else:
            param = spec.param(name)
            word = unit_word(param.unit, lang)
            uses.append(f"{spec.name} {param.default} {word}".rstrip())
    return cli_say("cli.help.param_default", uses="; ".join(uses))


def _add_config_options(
    parser: argparse.ArgumentParser, side: str = "", default: str = "sentence"
) -> None:
    """``--chunker`` and one option per parameter of any registered chunker (``side`` "b":
    ``--b-chunker``, ``--b-size``, ... for ``compare``'s configuration B); defaults depend on
    the chunker, so they come from its spec in ``chunker_config``."""
    group = parser.add_argument_group(cli_say("cli.help.chunker_group_b" if side
                                              else "cli.help.chunker_group"))
    missing = missing_peers()  # named, so choosing one says how to install it
    prefix = f"{side}_" if side else ""
    group.add_argument(f"--{_flag(prefix)}chunker", dest=f"{prefix}chunker",
                       choices=CHUNKER_NAMES + tuple(missing), default=default,
                       help=cli_say("cli.help.chunker_missing", names=", ".join(missing),
                                    extra=PEERS_EXTRA) if missing else None)
    for name in param_names():
        group.add_argument(f"--{_flag(prefix + name)}", dest=prefix + name,
                           type=_number(param_kind(name)), help=_option_help(name))


def _add_chunker_options(parser: argparse.ArgumentParser, default: str = "sentence") -> None:
    """The chunker's options, the model and the output options every command takes."""
    _add_config_options(parser, default=default)
    _add_model_options(parser)


def _add_model_options(parser: argparse.ArgumentParser) -> None:
    """The model, the API base, JSON output and the language of the explanations."""
    parser.add_argument("--model", help=cli_say("cli.help.model", models=", ".join(BUNDLED_MODELS),
                                                 default=DEFAULT_MODEL))
    parser.add_argument("--api-base", dest="api_base", help=cli_say("cli.help.api_base"))
    parser.add_argument("--api-budget", dest="api_budget", type=run_seconds, metavar="SECONDS",
                        help=cli_say("cli.help.api_budget", seconds=f"{API_BUDGET_S:g}"))
    parser.add_argument("--json", action="store_true", help=cli_say("cli.help.json"))
    parser.add_argument("--format", choices=("text", "json", "md", "csv"), default="text",
                        help=cli_say("cli.help.format"))
    parser.add_argument("--lang", choices=LANGUAGES, default=SOURCE_LANGUAGE,
                        help=cli_say("cli.help.lang"))
    parser.add_argument("--no-cache", dest="no_cache", action="store_true",
                        help=cli_say("cli.help.no_cache"))


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line, like every other error, in the
    command's language: its own types raise keyed errors, argparse's phrases are looked up;
    its help's own words (usage, the section titles, ``-h``) are the catalog's too."""

    lang = "en"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._positionals.title = t("cli.help.positionals", self.lang)
        self._optionals.title = t("cli.help.options", self.lang)
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = t("cli.help.help", self.lang)

    def _get_formatter(self) -> argparse.HelpFormatter:
        return _Formatter(prog=self.prog, usage_word=t("cli.help.usage", self.lang))

    def error(self, message: str) -> NoReturn:
        shown = _LONG_QUOTED.sub(lambda m: repr(shorten(m.group(1))), message)
        if self.lang != "en":
            for pattern, key in _ARGPARSE_PHRASES:
                shown = pattern.sub(_phrase(key, self.lang), shown)
        see = t("cli.see_help", self.lang, prog=self.prog)
        self.exit(EXIT_USER_ERROR, terminal_safe(f"{self.prog}: {shown} {see}", keep="") + "\n")

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        if callable(action.type):
            try:
                return action.type(arg_string)
            except KeyedError as error:  # ragviz's own types: their sentence in the language
                raise argparse.ArgumentError(action, error.localized(self.lang)) from None
            except (TypeError, ValueError, argparse.ArgumentTypeError):
                pass  # argparse words it
        return super()._get_value(action, arg_string)


class _Formatter(argparse.HelpFormatter):
    """argparse's help with its "usage: " in the command's language."""

    def __init__(self, prog: str, usage_word: str) -> None:
        super().__init__(prog)
        self.usage_word = usage_word

    def add_usage(self, usage: str | None, actions: Any, groups: Any,
                  prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, self.usage_word if prefix is None else prefix)


# argparse's own sentences (its messages are gettext's English), matched where they start.
_ARGPARSE_PHRASES = tuple((re.compile(p), k) for p, k in (
    (r"^argument (?P<name>\S+): ", "cli.argparse_argument"),
    (r"invalid choice: (?P<value>'[^']*') \(choose from (?P<choices>.*)\)$",
     "cli.argparse_choice"),
    (r"^unrecognized arguments: (?P<args>.*)$", "cli.argparse_unrecognized"),
    (r"^the following arguments are required: (?P<args>.*)$", "cli.argparse_required"),
    (r"expected one argument$", "cli.argparse_one_value"),
))


def _phrase(key: str, lang: str) -> Callable[[re.Match[str]], str]:
    """A replacement that says an argparse phrase's catalog version with what it matched."""
    return lambda match: t(key, lang, **match.groupdict())


def language_of(argv: Sequence[str]) -> str:
    """``--lang``'s value read before parsing, so argparse's own refusals are said in it."""
    for number, arg in enumerate(argv):
        value = arg.removeprefix("--lang=") if arg.startswith("--lang=") else (
            argv[number + 1] if arg == "--lang" and number + 1 < len(argv) else None)
        if value in LANGUAGES:
            return value
    return "en"


_LONG_QUOTED = re.compile(r"'([^']{61,})'")


def _cost(raw: str) -> float:
    """A cost weight for calibration: a finite number, zero or more."""
    try:
        value = float(raw) if len(raw) <= 100 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise InputError(key="cli.number_not_negative", got=repr(shorten(raw)))
    return value


TOP_K = _whole_number(*TOP_K_RANGE)


def _add_retrieval_options(parser: argparse.ArgumentParser, paths: str = "+",
                           questions: bool = True, required: bool = True) -> None:
    """Paths (``nargs`` ``paths``), the questions file, top_k and the floor."""
    parser.add_argument("paths", nargs=paths, metavar="path",
                        help=cli_say("cli.help.paths", formats=", ".join(ACCEPTED_SUFFIXES)))
    if questions:
        parser.add_argument("--questions", required=required, help=cli_say("cli.help.questions"))
    parser.add_argument("--top-k", dest="top_k", type=TOP_K, default=2,
                        help=cli_say("cli.help.top_k", low=TOP_K_RANGE[0], high=TOP_K_RANGE[1]))
    parser.add_argument("--floor", type=FLOOR, default=None, help=cli_say(
        "cli.help.floor", low=f"{FLOOR_RANGE[0]:g}", high=f"{FLOOR_RANGE[1]:g}"))


def _add_labelled_options(parser: argparse.ArgumentParser) -> None:
    """Paths, the labelled questions, top_k, the floor and the scorer."""
    _add_retrieval_options(parser)
    add_scorer_options(parser)


def _add_experiment_commands(sub: Any) -> None:
    """``compare`` (A against B) and ``sweep`` (the app's grid), as the app runs them."""
    compare = sub.add_parser("compare", help=cli_say("cli.help.command.compare"))
    _add_labelled_options(compare)
    _add_chunker_options(compare, default="fixed")
    _add_config_options(compare, side="b")
    add_scorer_options(compare, prefix="b-")  # B's retrieval (default: A's)
    add_llm_options(compare)
    compare.set_defaults(handler=cmd_compare)
    sweep = sub.add_parser("sweep", help=cli_say("cli.help.command.sweep"))
    _add_labelled_options(sweep)
    sweep.add_argument("--chunkers", type=_chunker_list, help=cli_say(
        "cli.help.chunkers", names=", ".join(default_sweep_chunkers())))
    sweep.add_argument("--metric", choices=metric_names(), default="hit_at_1",
                       help=cli_say("cli.help.metric"))
    add_sweep_axes(sweep)
    _add_model_options(sweep)
    sweep.set_defaults(handler=cmd_sweep)


def _add_explain_command(sub: Any) -> None:
    """``explain``: a ticket on every retrieval option of ``eval`` (files, index, workspace)."""
    explain = sub.add_parser("explain", help=cli_say("cli.help.command.explain"))
    _add_retrieval_options(explain, paths="*", questions=False)
    add_scorer_options(explain)
    _add_chunker_options(explain)
    add_eval_options(explain)
    add_workspace_option(explain, sides=True)
    add_explain_arguments(explain)
    explain.set_defaults(handler=cmd_explain)


def _chunker_list(raw: str) -> tuple[str, ...]:
    """Registered chunkers that have sweep axes, comma-separated."""
    names = tuple(name.strip() for name in raw.split(",") if name.strip())
    for name in names:
        if name not in CHUNKER_NAMES or not sweepable(name):
            raise InputError(key="cli.not_sweepable", name=repr(shorten(name)),
                             names=", ".join(n for n in CHUNKER_NAMES if sweepable(n)))
    if not names:
        raise InputError(key="cli.no_chunker")
    return names


def _add_study_and_llm(*parsers: argparse.ArgumentParser) -> None:
    """``--also`` (the other retrieval settings) and ``--llm`` (the answers) on eval, report."""
    for parser in parsers:
        add_study_option(parser)
        add_llm_options(parser)


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The ``ragviz`` parser, its help and its refusals said in ``lang``."""
    token = CLI_LANG.set(lang)
    try:
        return _build_parser(lang)
    finally:
        CLI_LANG.reset(token)


def _build_parser(lang: str) -> argparse.ArgumentParser:
    parser_class: type[_Parser] = type("_Parser", (_Parser,), {"lang": lang})
    parser = parser_class(prog="ragviz", description=cli_say("cli.help.program"))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=parser_class,
                                title=cli_say("cli.help.commands"))

    chunk = sub.add_parser("chunk", help=cli_say("cli.help.command.chunk"))
    chunk.add_argument("paths", nargs="+", metavar="path",
                       help=cli_say("cli.help.paths", formats=", ".join(ACCEPTED_SUFFIXES)))
    _add_chunker_options(chunk)
    chunk.set_defaults(handler=cmd_chunk)

    search = sub.add_parser("search", help=cli_say("cli.help.command.search"))
    _add_retrieval_options(search, questions=False)
    search.add_argument("--question", action="append", help=cli_say("cli.help.question"))
    search.add_argument("--questions", help=cli_say("cli.help.questions"))
    add_scorer_options(search)
    _add_chunker_options(search)
    add_llm_options(search)
    search.set_defaults(handler=cmd_search)

    evaluate = sub.add_parser("eval", help=cli_say("cli.help.command.eval"))
    calibrate = sub.add_parser("calibrate", help=cli_say("cli.help.command.calibrate"))
    report = sub.add_parser("report", help=cli_say("cli.help.command.report"))
    for parser_, handler in (
        (evaluate, cmd_eval),
        (calibrate, cmd_calibrate),
        (report, cmd_report),
    ):
        # eval may read a production index (--index) or a workspace (--workspace) instead
        _add_retrieval_options(parser_, paths="+" if parser_ is calibrate else "*",
                               required=parser_ is calibrate)
        add_scorer_options(parser_)
        _add_chunker_options(parser_)
        parser_.set_defaults(handler=handler)
    add_eval_options(evaluate)
    _add_study_and_llm(evaluate, report)
    add_workspace_option(evaluate, sides=True)
    add_workspace_option(report, sides=False)
    add_index_parser(sub, _add_model_options, emit, embedder_for)
    _add_explain_command(sub)
    calibrate.add_argument("--cost-false-refusal", type=_cost, default=1.0,
                           help=cli_say("cli.help.cost"))
    calibrate.add_argument("--cost-false-answer", type=_cost, default=1.0,
                           help=cli_say("cli.help.cost"))
    report.add_argument("--html", required=True, help=cli_say("cli.help.html"))
    _add_experiment_commands(sub)
    # Listed for --help; main() hands `ragviz app ...` to run_app before argparse sees it.
    app = sub.add_parser("app", help=cli_say("cli.help.command.app"),
                         description=cli_say(DESCRIPTION))
    app.set_defaults(handler=lambda _args: sys.exit(run_app([])))
    add_questions_parser(sub, _add_model_options)
    add_cache_parser(sub, parser_class)
    add_schema_parser(sub)
    add_labels_parser(sub)
    for command in sub.choices.values():  # the disk cache as --no-cache says, in every command
        if command.get_default("handler") is not None:
            command.set_defaults(handler=cached_run(command.get_default("handler")))
    return parser
