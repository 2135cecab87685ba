"""A shared link's problems and notes in the reader's language, each on one short line: the
link's values are read by ``ragviz.share.links``, which names what it skipped or fitted
without saying it."""

from __future__ import annotations

from collections.abc import Mapping

from ragviz.i18n import Message, render
from ragviz.share.links import FITTED, read_link, read_work
from ragviz.share.workspace import Settings, Workspace

LINE_LIMIT = 200  # characters of one note: a library's reason can be a page long


def one_line(text: str, limit: int = LINE_LIMIT) -> str:
    """``text`` on one line, cut with an ellipsis past ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"



def import_query(query: Mapping[str, str], base: Settings,
                 lang: str = "en") -> tuple[Settings, list[str]]:
    """``read_link`` with one short sentence per bad value, in ``lang``."""
    settings, problems = read_link(query, base)
    return settings, _said(problems, lang)


def import_link(query: Mapping[str, str], base: Settings, lang: str = "en"
                ) -> tuple[Settings, list[str], list[str]]:
    """``import_query`` with the notes of values changed to fit (``FITTED``) apart from the
    problems (values ignored), so a page can say each in its own words."""
    settings, said = read_link(query, base)
    fitted = [problem.key in FITTED for problem in said]
    words = _said(said, lang)
    return (settings, [w for w, f in zip(words, fitted, strict=True) if not f],
            [w for w, f in zip(words, fitted, strict=True) if f])


def work_from_query(query: Mapping[str, str], lang: str = "en"
                    ) -> tuple[Workspace | None, str | None]:
    """The work a link carries (or None), and the sentence in ``lang`` that says why it was
    refused."""
    work, error = read_work(query)
    return work, None if error is None else one_line(render(error, lang))


def _said(problems: list[Message], lang: str) -> list[str]:
    return [one_line(render(problem, lang)) for problem in problems]
