"""``ragviz cache info|clear``, and what ``--no-cache`` changes in a command's run.

Every command runs inside ``cached_run``: the embedding cache on disk is used unless the
command was given ``--no-cache``, and a model whose facts the cache holds is loaded only
when a text is not cached (a second identical run loads no model).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from ragviz.cli.output import emit
from ragviz.cli.reading import cli_say
from ragviz.embedding.disk_cache import DiskCache, RunSettings, cache_dir, limit_bytes, run_settings
from ragviz.i18n import LANGUAGES, SOURCE_LANGUAGE, decimal, grouped, t

Handler = Callable[[argparse.Namespace], Any]


def cached_run(handler: Handler) -> Handler:
    """``handler`` run with the disk cache as the command's options say."""

    def run(args: argparse.Namespace) -> Any:
        settings = RunSettings(enabled=not getattr(args, "no_cache", False),
                               defer_loading=True, lang=getattr(args, "lang", "en"))
        with run_settings(settings):
            return handler(args)

    return run


def add_cache_parser(sub: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """``ragviz cache info`` and ``ragviz cache clear``."""
    cache = sub.add_parser("cache", help=cli_say("cli.help.command.cache"))
    actions = cache.add_subparsers(dest="action", required=True, parser_class=parser_class)
    for name, handler in (("info", cmd_cache_info), ("clear", cmd_cache_clear)):
        action = actions.add_parser(name, help=cli_say(f"cli.help.command.cache_{name}"))
        action.add_argument("--json", action="store_true", help=cli_say("cli.help.json"))
        action.add_argument("--lang", choices=LANGUAGES, default=SOURCE_LANGUAGE,
                            help=cli_say("cli.help.lang"))
        action.set_defaults(handler=handler)


def _store() -> DiskCache:
    return DiskCache(cache_dir(), limit_bytes(), warn=False)


def _megabytes(size: int, lang: str) -> str:
    return decimal(size / 1_000_000, 1, lang, group=True)


def cmd_cache_info(args: argparse.Namespace) -> None:
    store = _store()
    info = store.info()
    store.close()
    payload = asdict(info)
    lang = args.lang

    def text() -> str:
        key = "cache.info" if info.usable else "cache.info_unusable"
        lines = [t(key, lang, folder=info.folder, entries=grouped(info.entries, lang),
                   size=_megabytes(info.bytes, lang), limit=_megabytes(info.limit_bytes, lang))]
        lines += [t("cache.info_model", lang, model=model.name,
                    entries=grouped(model.entries, lang), size=_megabytes(model.bytes, lang))
                  for model in info.models]
        return "\n".join(lines) + "\n"

    emit(args, payload, text)


def cmd_cache_clear(args: argparse.Namespace) -> None:
    store = _store()
    entries = store.info().entries
    freed = store.clear()
    store.close()
    payload = {"folder": str(store.folder), "entries_removed": entries, "bytes_freed": freed}
    emit(args, payload, lambda: t("cache.cleared", args.lang, entries=grouped(entries, args.lang),
                                   size=_megabytes(freed, args.lang), folder=store.folder) + "\n")
