"""The sentences a corpus's files deserve, in the reader's language: one per file that could
not be read, one per file read with a caveat. The CLI prints them; the app shows them."""

from __future__ import annotations

from ragviz.i18n import Message, render
from ragviz.inputs.corpus import Corpus


def problem_sentences(corpus: Corpus, lang: str) -> tuple[str, ...]:
    """One sentence per file that could not be read, in ``lang``."""
    return tuple(render(problem.said, lang) for problem in corpus.problems)


def notice_sentences(corpus: Corpus, lang: str) -> tuple[str, ...]:
    """One sentence per file read with a caveat (another encoding, pages or nested text left
    out), in ``lang``, each led by the file's name (unless its message names the file
    itself: "standard input is not UTF-8")."""
    said = [(source.name, render(source.notice, lang), _names_its_file(source.notice))
            for source in corpus.sources if source.notice]
    return tuple(text if named or text.startswith(name) else f"{name}: {text}"
                 for name, text, named in said)


def _names_its_file(notice: object) -> bool:
    return isinstance(notice, Message) and "name" in notice.values
