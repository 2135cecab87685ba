"""The retrieval options every command shares: ``--scorer`` with BM25's and hybrid's
options folded into one scorer spec, and ``--floor`` checked on that scorer's scale."""

from __future__ import annotations

import argparse
import math

from ragviz.cli.reading import cli_say
from ragviz.errors import InputError
from ragviz.evaluation.results import MAX_EXPAND, RetrievalSettings
from ragviz.inputs.documents import shorten
from ragviz.retrieval.bm25 import LANGUAGES
from ragviz.retrieval.hybrid import FUSIONS
from ragviz.retrieval.scorers import DEFAULT_SCORER, scorer_names

BM25_LANGUAGES = tuple(LANGUAGES)


def FLOOR(raw: str) -> float:  # noqa: N802  (an argparse type, named like TOP_K)
    """An argparse type for the floor: a finite number; its range is the scorer's scale,
    checked once the scorer is known (``retrieval_settings``)."""
    try:
        value = float(raw) if len(raw) <= 100 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InputError(key="cli.not_a_number", got=repr(shorten(raw)))
    return value


def _expand(raw: str) -> int:
    if not raw.isdigit() or int(raw) > MAX_EXPAND:
        raise InputError(key="cli.number_between", low="0", high=str(MAX_EXPAND),
                         got=repr(shorten(raw)))
    return int(raw)


def add_scorer_options(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """``--scorer`` (its names read from the scorer registry when the parser is built) and
    the options of BM25 and hybrid, which ``scorer_spec`` folds into one spec."""
    dest = prefix.replace("-", "_")
    parser.add_argument(f"--{prefix}scorer", dest=f"{dest}scorer",
                        default=None if prefix else DEFAULT_SCORER,
                        metavar="{" + ",".join(scorer_names()) + "}",
                        help=cli_say("cli.help.scorer", default=cli_say("cli.help.scorer_as_a")
                                     if prefix else DEFAULT_SCORER))
    parser.add_argument(f"--{prefix}fusion", dest=f"{dest}fusion", choices=FUSIONS,
                        help=cli_say("cli.help.fusion"))
    parser.add_argument(f"--{prefix}alpha", dest=f"{dest}alpha", help=cli_say("cli.help.alpha"))
    parser.add_argument(f"--{prefix}rrf-k", dest=f"{dest}rrf_k", help=cli_say("cli.help.rrf_k"))
    parser.add_argument(f"--{prefix}stopwords", dest=f"{dest}stopwords", choices=BM25_LANGUAGES,
                        help=cli_say("cli.help.stopwords"))
    parser.add_argument(f"--{prefix}stemmer", dest=f"{dest}stemmer", choices=BM25_LANGUAGES,
                        help=cli_say("cli.help.stemmer"))
    if not prefix:
        parser.add_argument("--expand", type=_expand, default=0, metavar="N",
                            help=cli_say("cli.help.expand", high=MAX_EXPAND))
    parser.add_argument(f"--{prefix}rerank", dest=f"{dest}rerank", metavar="MODEL",
                        help=cli_say("cli.help.rerank"))
    parser.add_argument(f"--{prefix}rerank-depth", dest=f"{dest}rerank_depth",
                        help=cli_say("cli.help.rerank_depth"))
    parser.add_argument(f"--{prefix}rerank-base", dest=f"{dest}rerank_base",
                        help=cli_say("cli.help.rerank_base"))
    parser.add_argument(f"--{prefix}rerank-format", dest=f"{dest}rerank_format",
                        choices=("auto", "cohere", "tei"), help=cli_say("cli.help.rerank_format"))


def scorer_spec(args: argparse.Namespace, prefix: str = "") -> str:
    """The scorer named by ``--scorer`` with the option flags folded in (``hybrid(alpha=0.3,
    fusion=weighted)``); the spec is checked by ``get_scorer``."""
    base = str(getattr(args, f"{prefix}scorer", None) or getattr(args, "scorer", None)
               or DEFAULT_SCORER)
    flags = {"fusion": "fusion", "alpha": "alpha", "k": "rrf_k", "stopwords": "stopwords",
             "stemmer": "stemmer"}
    extra = [f"{key}={value}" for key, dest in flags.items()
             if (value := getattr(args, f"{prefix}{dest}", None)) is not None]
    spec = base
    if extra:
        inner = base[base.index("(") + 1:-1] if base.endswith(")") and "(" in base else ""
        spec = f"{base.split('(', 1)[0]}({','.join(filter(None, [inner, *extra]))})"
    model = getattr(args, f"{prefix}rerank", None)
    if not model:
        return spec
    rerank = [model, *(f"{key}={value}" for key, dest in
                       (("depth", "rerank_depth"), ("base", "rerank_base"),
                        ("format", "rerank_format"))
                       if (value := getattr(args, f"{prefix}{dest}", None)) is not None)]
    return f"{spec}+rerank({','.join(rerank)})"


def retrieval_settings(args: argparse.Namespace, prefix: str = "") -> RetrievalSettings:
    """top_k, the floor checked on the scorer's scale (its bottom when not given: no floor)
    and the scorer, as one command's analyses share them."""
    return RetrievalSettings.checked(args.top_k, getattr(args, "floor", None),
                                     scorer_spec(args, prefix), getattr(args, "expand", None) or 0)
