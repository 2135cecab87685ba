"""Facts written once (issue 18 part 6): the top_k and floor ranges live in
ragviz/inputs/limits.py, the table of file suffixes in ragviz/inputs/convert.py."""

from __future__ import annotations

import re
from pathlib import Path

from ragviz.cli.parser import FLOOR_HELP, PATHS_HELP, TOP_K_HELP
from ragviz.inputs.convert import ACCEPTED_SUFFIXES
from ragviz.inputs.limits import FLOOR_RANGE, TOP_K_RANGE

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "ragviz").rglob("*.py"), *(ROOT / "ragviz_app").rglob("*.py")])
RANGE = re.compile(r"=\s*\(?\s*1\s*,\s*10\s*\)?\s*$|=\s*\(?\s*-1\.0\s*,\s*1\.0\s*\)?\s*$", re.M)
SUFFIX_TUPLE = re.compile(r"""\(\s*["']\.(?:zip|html|htm|pdf|docx)["']\s*,""")


def test_the_ranges_are_written_only_in_limits() -> None:
    found = [f"{p.relative_to(ROOT)}: {m.group().strip()}" for p in SOURCES
             if p.name != "limits.py" for m in RANGE.finditer(p.read_text("utf-8"))]
    assert found == []
    assert f"{TOP_K_RANGE[0]} to {TOP_K_RANGE[1]}" in TOP_K_HELP
    assert f"{FLOOR_RANGE[0]:g} to {FLOOR_RANGE[1]:g}" in FLOOR_HELP


def test_the_suffix_table_is_written_only_in_convert() -> None:
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in SOURCES
             if p.name != "convert.py" for m in SUFFIX_TUPLE.finditer(p.read_text("utf-8"))]
    assert found == []
    assert all(suffix in PATHS_HELP for suffix in ACCEPTED_SUFFIXES)


def test_one_shorten_quotes_what_the_user_gave() -> None:
    """Three copies once cut values three ways (issue 18 part 6); now one function."""
    from ragviz.inputs.documents import shorten, shown

    defined = [str(p.relative_to(ROOT)) for p in SOURCES
               if re.search(r"^def shorten\(", p.read_text("utf-8"), re.M)]
    assert defined == ["ragviz/inputs/documents.py"]
    assert shown("x" * 100) == repr("x" * 39 + "…") and shown(7) == "7"
    assert shorten("y" * 100) == "y" * 59 + "…"
