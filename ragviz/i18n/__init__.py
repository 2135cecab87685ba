"""Every interface string, one catalog file per language: ``catalogs/<code>.json``.

Each catalog is a flat ``{key: text}`` map (sorted, one entry per line) holding the core's facts,
the production index's sentences, the report's and the command line's words and the app's own
strings; its ``language.name`` entry is the language's name in itself. The languages are the
catalog files present (English, the source language, first), so adding a language is one file;
``register_language`` adds one at run time (the tests' pseudo-locale).
``t(key, lang, **values)`` formats a string; a missing key is a bug, a missing translation falls
back to English, and a test checks that every key has every language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

CATALOGS = Path(__file__).with_name("catalogs")
SOURCE_LANGUAGE = "en"
NAME_KEY = "language.name"

STRINGS: dict[str, dict[str, str]] = {}
"""Every key's texts by language code (``STRINGS[key][code]``), read from the catalogs."""
LANGUAGES: list[str] = []
"""The language codes, the source language first (changed in place, so importers see new ones)."""
LANGUAGE_NAMES: dict[str, str] = {}
"""Each language's name in itself (its catalog's ``language.name``)."""


def _add_catalog(code: str, catalog: Mapping[str, str]) -> None:
    if not catalog.get(NAME_KEY):
        raise KeyError(f"the catalog for {code!r} has no {NAME_KEY!r} entry")
    for key, text in catalog.items():
        STRINGS.setdefault(key, {})[code] = text
    LANGUAGES.append(code)
    LANGUAGE_NAMES[code] = catalog[NAME_KEY]


def _load_catalogs() -> None:
    paths = sorted(CATALOGS.glob("*.json"), key=lambda p: (p.stem != SOURCE_LANGUAGE, p.stem))
    for path in paths:
        _add_catalog(path.stem, json.loads(path.read_text(encoding="utf-8")))


_load_catalogs()


def register_language(code: str, catalog: Mapping[str, str]) -> None:
    """Add (or replace) the language ``code`` from a ``{key: text}`` catalog (with its
    ``language.name``): what a catalog file does, at run time."""
    remove_language(code)
    _add_catalog(code, catalog)


def remove_language(code: str) -> None:
    """Take a language registered at run time away again (never the source language)."""
    if code == SOURCE_LANGUAGE:
        raise ValueError("the source language cannot be removed")
    for key in [key for key, entry in STRINGS.items() if entry.pop(code, None) and not entry]:
        del STRINGS[key]
    if code in LANGUAGES:
        LANGUAGES.remove(code)
    LANGUAGE_NAMES.pop(code, None)


def register(strings: dict[str, dict[str, str]]) -> None:
    """Add strings given as ``{key: {code: text}}``; a key taken with other text is a bug, not an
    override (registering the same strings again, as a module reload does, changes nothing)."""
    taken = sorted(key for key in strings if STRINGS.get(key, strings[key]) != strings[key])
    if taken:
        raise KeyError(f"i18n keys registered twice: {', '.join(taken)}")
    STRINGS.update({key: dict(entry) for key, entry in strings.items()})


def t(key: str, lang: str = "en", **values: object) -> str:
    """The string ``key`` in ``lang`` (falling back to English), formatted with ``values``
    (a value that is a ``Phrase`` or a keyed error is said in ``lang`` too)."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry[SOURCE_LANGUAGE]
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
    """The interface language for a browser's Accept-Language / locale value: the first
    language it names (by its primary subtag, ``pt-BR`` → ``pt``) that has a catalog."""
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    return SOURCE_LANGUAGE
