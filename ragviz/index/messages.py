"""How the index's sentences are said: ``Sentence`` keeps its key and values so a page can say
it again in its own language; the text lives in the shared catalogs (``ragviz/i18n/catalogs``)."""

from __future__ import annotations

from ragviz.i18n import Message

NONE = Message("value.none")  # an empty list in a sentence ("collections: none")


class Sentence(str):
    """A sentence in English that can be said again in another language (``localized``):
    kept as a plain ``str`` where the CLI prints or serialises it."""

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, **values: object) -> Sentence:
        made = super().__new__(cls, say(key, "en", **values))
        made.key, made.values = key, values
        return made

    @property
    def message(self) -> Message:
        """The message it carries (``idx.<key>``; a value that is a ``Sentence`` is rendered in
        the same language as the sentence)."""
        return Message(f"idx.{self.key}", self.values)

    def localized(self, lang: str) -> str:
        from ragviz.i18n import render

        return render(self.message, lang)


def localized(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it knows how to say itself again, else as it is."""
    from ragviz.i18n import say as i18n_say

    return text.localized(lang) if isinstance(text, Sentence) else i18n_say(text, lang)


def say(key: str, lang: str = "en", **values: object) -> str:
    """The sentence ``key`` (``idx.<key>`` in the catalogs) in ``lang``."""
    from ragviz.i18n import t

    return t(f"idx.{key}", lang, **values)


def languages() -> set[str]:
    """The languages every sentence has (checked by the tests)."""
    from ragviz.i18n import STRINGS

    return set.intersection(*(set(entry) for key, entry in STRINGS.items()
                              if key.startswith("idx.")))
