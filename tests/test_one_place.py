"""Facts written once (issue 18 part 6): the top_k and floor ranges live in
ragviz/inputs/limits.py, the table of file suffixes in ragviz/inputs/convert.py."""

from __future__ import annotations

import re
from pathlib import Path

from ragviz.cli.parser import build_parser
from ragviz.inputs.convert import ACCEPTED_SUFFIXES
from ragviz.inputs.limits import FLOOR_RANGE, TOP_K_RANGE

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "ragviz").rglob("*.py"), *(ROOT / "ragviz_app").rglob("*.py")])
RANGE = re.compile(r"=\s*\(?\s*1\s*,\s*10\s*\)?\s*$|=\s*\(?\s*-1\.0\s*,\s*1\.0\s*\)?\s*$", re.M)
SUFFIX_TUPLE = re.compile(r"""\(\s*["']\.(?:zip|html|htm|pdf|docx)["']\s*,""")


def eval_help(dest: str) -> str:
    """The English help of ``ragviz eval``'s option ``dest`` (as ``--help`` prints it)."""
    parser = build_parser("en")
    command = next(a for a in parser._actions if a.dest == "command").choices["eval"]
    return str(next(a for a in command._actions if a.dest == dest).help)


def test_the_ranges_are_written_only_in_limits() -> None:
    found = [f"{p.relative_to(ROOT)}: {m.group().strip()}" for p in SOURCES
             if p.name != "limits.py" for m in RANGE.finditer(p.read_text("utf-8"))]
    assert found == []
    assert f"{TOP_K_RANGE[0]} to {TOP_K_RANGE[1]}" in eval_help("top_k")
    assert f"{FLOOR_RANGE[0]:g} to {FLOOR_RANGE[1]:g}" in eval_help("floor")


def test_the_suffix_table_is_written_only_in_convert() -> None:
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in SOURCES
             if p.name != "convert.py" for m in SUFFIX_TUPLE.finditer(p.read_text("utf-8"))]
    assert found == []
    assert all(suffix in eval_help("paths") for suffix in ACCEPTED_SUFFIXES)


def test_one_shorten_quotes_what_the_user_gave() -> None:
    """Three copies once cut values three ways (issue 18 part 6); now one function."""
    from ragviz.inputs.documents import shorten, shown

    defined = [str(p.relative_to(ROOT)) for p in SOURCES
               if re.search(r"^def shorten\(", p.read_text("utf-8"), re.M)]
    assert defined == ["ragviz/inputs/documents.py"]
    assert shown("x" * 100) == repr("x" * 39 + "…") and shown(7) == "7"
    assert shorten("y" * 100) == "y" * 59 + "…"
