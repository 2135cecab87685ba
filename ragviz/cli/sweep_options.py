"""The sweep's axes on the command line: sizes and overlaps typed (``--sizes 200,400
--overlaps 0,15``), scorers (``--scorers cosine,bm25,hybrid``) and rerank depths
(``--rerank-depths 10,20,40`` with ``--rerank MODEL``), read into the grid and the scorer
specs ``ragviz.evaluation.sweeping.run_sweep`` takes, as the app's sweep reads its fields."""

from __future__ import annotations

import argparse
import copy
import sys
from collections.abc import Callable

from ragviz.chunking import ChunkerConfig
from ragviz.cli.reading import cli_say
from ragviz.cli.retrieval_options import scorer_spec
from ragviz.errors import InputError, UserError
from ragviz.evaluation.sweeping import (
    MAX_OVERLAP_PERCENT,
    MAX_OVERLAPS,
    MAX_SCORERS,
    MAX_SIZES,
    StepReport,
    SweepStep,
    check_size,
    parse_numbers,
    scorer_axis,
    sweep_grid,
)
from ragviz.present.sweep_words import step_text
from ragviz.retrieval.scorers import get_scorer


def _numbers(name: str, limit: int, high: int | None = None) -> Callable[[str], tuple[int, ...]]:
    def parse(raw: str) -> tuple[int, ...]:
        values = parse_numbers(raw, name, limit)
        if not values:
            raise InputError(key="sweep.none_given", name=name)
        over = [value for value in values if high is not None and value > high]
        if over:  # said before any model work
            raise InputError(key="sweep.overlap_percent", limit=high, got=over[0])
        return values
    return parse


def _scorer_list(raw: str) -> tuple[str, ...]:
    """Scorer specs separated by commas outside parentheses (``bm25(stopwords=en),hybrid``)."""
    names: list[str] = []
    depth, current = 0, ""
    for char in raw:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            names.append(current.strip())
            current = ""
        else:
            current += char
    names = [name for name in [*names, current.strip()] if name]
    if not names:
        raise InputError(key="sweep.none_given", name="--scorers")
    if len(names) > MAX_SCORERS:
        raise InputError(key="sweep.too_many", name="--scorers", limit=MAX_SCORERS,
                         got=len(names))
    for name in names:
        get_scorer(name)  # one sentence naming the known scorers
    return tuple(dict.fromkeys(names))


def add_sweep_axes(parser: argparse.ArgumentParser) -> None:
    """``--sizes``, ``--overlaps``, ``--scorers`` and ``--rerank-depths`` on ``sweep``."""
    parser.add_argument("--sizes", type=_numbers("--sizes", MAX_SIZES), metavar="N,N,...",
                        help=cli_say("cli.help.sizes", limit=MAX_SIZES))
    parser.add_argument("--overlaps", type=_numbers("--overlaps", MAX_OVERLAPS,
                                                    MAX_OVERLAP_PERCENT),
                        metavar="P,P,...", help=cli_say("cli.help.overlaps", limit=MAX_OVERLAPS))
    parser.add_argument("--scorers", type=_scorer_list, metavar="S,S,...",
                        help=cli_say("cli.help.scorers"))
    parser.add_argument("--rerank-depths", dest="rerank_depths",
                        type=_numbers("--rerank-depths", MAX_SCORERS), metavar="N,N,...",
                        help=cli_say("cli.help.rerank_depths"))


def _base_spec(args: argparse.Namespace, name: str) -> str:
    """``name`` with the scorer options given folded in, when it takes options."""
    plain = copy.copy(args)
    plain.scorer, plain.rerank = name, None
    spec = scorer_spec(plain)
    try:
        get_scorer(spec)
    except InputError:
        return name  # a scorer without options (cosine) next to bm25's options
    return spec


def sweep_scorers(args: argparse.Namespace) -> tuple[str, ...]:
    """The scorer axis (none: the settings' own scorer, rows without a scorer)."""
    names, depths = args.scorers, args.rerank_depths
    if depths and not args.rerank:
        raise UserError(key="sweep.depths_need_rerank")
    if not names and not depths:
        return ()
    bases = [_base_spec(args, name) for name in (names or (args.scorer,))]
    if not args.rerank:
        specs = scorer_axis(bases)
    else:
        depths = depths or ((int(args.rerank_depth),) if args.rerank_depth else ())
        options = ",".join(f"{key}={value}" for key, value in
                           (("base", args.rerank_base), ("format", args.rerank_format))
                           if value is not None)
        specs = scorer_axis(bases, args.rerank, depths, options)
    if len(specs) > 1 and args.floor is not None:
        raise UserError(key="sweep.floor_one_scale")
    return specs


def sweep_plan(args: argparse.Namespace, total_chars: int
               ) -> tuple[list[ChunkerConfig], tuple[str, ...]]:
    """The grid and the scorer axis the options name, checked against the sweep's limit."""
    grid = sweep_grid(total_chars, args.chunkers, args.sizes or (), args.overlaps or ())
    scorers = sweep_scorers(args)
    check_size(grid, scorers)
    return grid, scorers


def step_line(lang: str) -> StepReport | None:
    """Configurations done and the time left, on a terminal's stderr (never in pipes)."""
    if not sys.stderr.isatty():
        return None

    def show(step: SweepStep) -> None:
        line = step_text(step, lang)
        end = "\n" if step.rows_done >= step.rows_total else "\r"
        sys.stderr.write(f"{line}\033[K{end}")
        sys.stderr.flush()
    return show
