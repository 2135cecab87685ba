"""``ragviz schema [COMMAND]``: the JSON Schema of a command's ``--json`` output, or the
commands that have one."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ragviz.cli.outputs import OUTPUTS, schema
from ragviz.cli.reading import cli_say
from ragviz.errors import UserError
from ragviz.i18n import LANGUAGES, SOURCE_LANGUAGE
from ragviz.inputs.documents import shorten


def add_schema_parser(sub: Any) -> None:
    parser = sub.add_parser("schema", help=cli_say("cli.help.command.schema"))
    parser.add_argument("name", nargs="*", metavar="COMMAND",
                        help=cli_say("cli.help.schema_name", names=", ".join(OUTPUTS)))
    parser.add_argument("--lang", choices=LANGUAGES, default=SOURCE_LANGUAGE,
                        help=cli_say("cli.help.lang"))
    parser.set_defaults(handler=cmd_schema)


def cmd_schema(args: argparse.Namespace) -> None:
    name = " ".join(args.name)
    if not name:
        sys.stdout.write("".join(f"{command}\n" for command in OUTPUTS))
        return
    if name not in OUTPUTS:
        raise UserError(key="cli.schema_unknown", got=repr(shorten(name)),
                        names=", ".join(OUTPUTS))
    sys.stdout.write(json.dumps(schema(name), ensure_ascii=False, indent=2) + "\n")
