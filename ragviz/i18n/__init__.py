"""Every interface string in English and Brazilian Portuguese, split by who makes the sentence.

``core.py`` holds the core's facts (outcomes, diagnosis, labels, errors), ``index.py`` the
production index's sentences, ``report.py`` the HTML report's and the command line's words, and ``ragviz_app/texts.py`` the app's own strings,
which it ``register``s here when it is imported (the core never imports the app).
``t(key, lang, **values)`` formats a string; a missing key or language is a bug, and a
test checks that every key has both languages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ragviz.i18n.core import CORE
from ragviz.i18n.index import INDEX
from ragviz.i18n.report import REPORT

LANGUAGES: tuple[str, ...] = ("en", "pt")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pt": "Português (Brasil)"}

STRINGS: dict[str, dict[str, str]] = {**CORE, **REPORT, **INDEX}


def register(strings: dict[str, dict[str, str]]) -> None:
    """Add another part's strings (the app's); a key taken with other text is a bug, not an
    override (registering the same strings again, as a module reload does, changes nothing)."""
    taken = sorted(key for key in strings if STRINGS.get(key, strings[key]) != strings[key])
    if taken:
        raise KeyError(f"i18n keys registered twice: {', '.join(taken)}")
    STRINGS.update(strings)


def t(key: str, lang: str = "en", **values: object) -> str:
    """The string ``key`` in ``lang`` (falling back to English), formatted with ``values``
    (a value that is a ``Phrase`` or a keyed error is said in ``lang`` too)."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry["en"]
    if not values:
        return template
    return template.format(**{name: say(value, lang) if isinstance(value, Phrase | KeyedError)
                               else value for name, value in values.items()})


@dataclass(frozen=True)
class Phrase:
    """A catalog string not yet said: a key and its values, put into words at display."""

    key: str
    values: dict[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return t(self.key, "en", **self.values)


def phrase(key: str, **values: object) -> Phrase:
    return Phrase(key, values)


class KeyedError(Exception):
    """An error a user can meet, carried as a message key plus values, never a sentence:
    the CLI and the app say it in the user's language (``localized``); ``str()`` is English.

    ``cli_key`` names the same sentence in the command line's terms (files and options
    instead of "paste" and "upload"), when the two differ; ``message`` is for the few errors
    whose English text comes from elsewhere (a library's reason) and is shown as it is.
    """

    def __init__(self, message: str | None = None, key: str | None = None, *,
                 cli_key: str | None = None, **values: object) -> None:
        self.key = key
        self.values = values
        self.cli_key = cli_key
        super().__init__(message if message is not None or key is None
                         else t(key, "en", **values))

    def localized(self, lang: str) -> str:
        """By key; else its message, said again when it can be (the index's ``Sentence``)."""
        if self.key:
            return t(self.key, lang, **self.values)
        return say(self.args[0], lang) if self.args else str(self)

    def for_cli(self, lang: str = "en") -> str:
        """The sentence the ``ragviz`` command prints."""
        return t(self.cli_key, lang, **self.values) if self.cli_key else self.localized(lang)


def say(said: object, lang: str) -> str:
    """An error, a ``Phrase`` or any value in ``lang``: keyed ones translated, others as text."""
    if isinstance(said, KeyedError):
        return said.localized(lang)
    if isinstance(said, Phrase):
        return t(said.key, lang, **said.values)
    again = getattr(said, "localized", None)  # the index's Sentence (ragviz.index.messages)
    return str(again(lang)) if callable(again) else str(said)


def decimal(value: float, digits: int, language: str = "en") -> str:
    """``value`` with ``digits`` decimals, with a decimal comma in Portuguese."""
    text = f"{value:.{digits}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]  # "-0.00" says nothing "0.00" does not
    return text.replace(".", ",") if language == "pt" else text


def grouped(n: int, language: str = "en") -> str:
    """An integer with its thousands grouped as ``language`` writes them (1,234 / 1.234)."""
    text = f"{n:,}"
    return text.replace(",", ".") if language == "pt" else text


def count(n: int, key: str, lang: str = "en", **values: object) -> str:
    """``n`` with its word in agreement: ``key + ".one"`` for one, ``key`` for any other
    (``values`` fill the sentence's other placeholders)."""
    return t(f"{key}.one" if n == 1 else key, lang, n=n, **values)


def pick_language(accept_language: str | None) -> str:
    """The interface language for a browser's Accept-Language / locale value."""
    if not accept_language:
        return "en"
    for part in accept_language.split(","):
        code = part.split(";")[0].strip().lower()
        if code.startswith("pt"):
            return "pt"
        if code.startswith("en"):
            return "en"
    return "en"
