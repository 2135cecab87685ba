"""``ragviz labels``: every label the other commands, the app and the report give, what it
means and the fix it points at (the glossary, from the catalogs), as text or ``--json``."""

from __future__ import annotations

import argparse
from typing import Any

from ragviz.cli.output import emit
from ragviz.cli.reading import cli_say
from ragviz.i18n import LANGUAGES, SOURCE_LANGUAGE, t
from ragviz.present.label_words import glossary


def add_labels_parser(sub: Any) -> None:
    parser = sub.add_parser("labels", help=cli_say("cli.help.command.labels"))
    parser.add_argument("--json", action="store_true", help=cli_say("cli.help.json"))
    parser.add_argument("--lang", choices=LANGUAGES, default=SOURCE_LANGUAGE,
                        help=cli_say("cli.help.lang"))
    parser.set_defaults(handler=cmd_labels)


def cmd_labels(args: argparse.Namespace) -> None:
    entries = glossary(args.lang)
    payload = {"language": args.lang, "labels": list(entries)}
    emit(args, payload, lambda: "".join(
        t("labels.line", args.lang, name=e.name, definition=e.definition, fix=e.fix) + "\n"
        for e in entries))
