"""Every interface string, one catalog file per language: ``catalogs/<code>.json``.

Each catalog is a flat ``{key: text}`` map (sorted, one entry per line) holding the core's facts,
the production index's sentences, the report's and the command line's words and the app's own
strings; its ``language.name`` entry is the language's name in itself. The languages are the
catalog files present (English, the source language, first), so adding a language is one file;
``register_language`` adds one at run time (the tests' pseudo-locale).

A ``Message(key, values)`` is a string not yet said (errors carry one); ``render(message, lang)``
says it, and ``t(key, lang, **values)`` is its shorthand. Stages return messages; only the
stages that speak to the reader (``present``, ``cli``) and the app say them (a test checks).
A missing key is a bug; a catalog may hold only some of English's keys (a language can start
with three), the rest falling back to English; a test checks that every catalog's keys are
English's with the same placeholders. Numbers, plural forms and lists follow each language's CLDR
data (Babel).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, Self

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.lists import format_list
from babel.numbers import (
    format_decimal,
    format_percent,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)

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


def load_catalog(path: Path) -> str:
    """Add the language of the catalog file ``path`` (``<code>.json``): what every file in
    ``catalogs/`` gets at import. Returns its code."""
    register_language(path.stem, json.loads(path.read_text(encoding="utf-8")))
    return path.stem


def register_language(code: str, catalog: Mapping[str, str]) -> None:
    """Add (or replace) the language ``code`` from a ``{key: text}`` catalog (with its
    ``language.name``): what a catalog file does, at run time."""
    if code in LANGUAGES:
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


def _load_catalogs() -> None:
    paths = sorted(CATALOGS.glob("*.json"), key=lambda p: (p.stem != SOURCE_LANGUAGE, p.stem))
    for path in paths:
        load_catalog(path)


_load_catalogs()



def t(key: str, lang: str = "en", **values: object) -> str:
    """The string ``key`` in ``lang`` (falling back to English), formatted with ``values``
    (a value that is a ``Message`` or a keyed error is said in ``lang`` too). A count ``n``
    picks the key's plural form by ``lang``'s CLDR rules (``key.one`` for "1 question"); an
    integer ``n`` is written grouped as ``lang`` writes numbers (1,234 / 1.234)."""
    template = catalog_text(_plural_key(key, lang, values), lang)
    if not values:
        return template
    return template.format(**{name: _said(name, value, lang) for name, value in values.items()})


def catalog_text(key: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A catalog entry that is content rather than a sentence to the reader (the article's
    prompt template, which goes to the language model): as the catalog holds it in ``lang``
    (English when it has none), unformatted, for the stage that fills it in."""
    entry = STRINGS[key]
    return entry.get(lang) or entry[SOURCE_LANGUAGE]


def _said(name: str, value: object, lang: str) -> object:
    """A value as the sentence in ``lang`` shows it: phrases and lists said in ``lang``, the
    count ``n`` grouped as ``lang`` writes numbers, anything else as it is."""
    if isinstance(value, _SAID) or isinstance(getattr(value, "message", None), Message):
        return render(value, lang)
    if name == "n" and isinstance(value, int) and not isinstance(value, bool):
        return grouped(value, lang)
    return value


@dataclass(frozen=True)
class Message:
    """The one message type: a catalog key and its values, not yet said. Stages return these
    (an error carries one: ``KeyedError.message``); only the
    CLI's output, the report and the app put them into words, with ``render(message, lang)``.
    ``str()`` is the source language (English)."""

    key: str
    values: dict[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, SOURCE_LANGUAGE)



@dataclass(frozen=True)
class LogLine:
    """A message and the language a log line is to say it in: a logging record's argument,
    put into words only when a handler formats the record (``str()``)."""

    message: Message
    lang: str = "en"

    def __str__(self) -> str:
        return render(self.message, self.lang)


@dataclass(frozen=True)
class Listed:
    """Items not yet said as a list: "a, b, or c" in English, "a, b ou c" in Portuguese (CLDR),
    so a sentence gets its list (of formats, chunkers, scorers…) from a registry as one value."""

    items: tuple[str, ...]
    style: Literal["standard", "or"] = "or"

    def localized(self, lang: str) -> str:
        return joined(self.items, lang, style=self.style)

    def __str__(self) -> str:
        return self.localized(SOURCE_LANGUAGE)


@dataclass(frozen=True)
class Grouped:
    """A number not yet written: grouped as the sentence's language groups thousands
    (1,234 / 1.234), for a value other than the count ``n`` (which ``t`` groups itself)."""

    value: int | float

    def localized(self, lang: str) -> str:
        return grouped(self.value, lang)

    def __str__(self) -> str:
        return self.localized(SOURCE_LANGUAGE)


def message(key: str, **values: object) -> Message:
    """``Message(key, values)`` written as a call: ``message("outcome.refused", best=…)``."""
    return Message(key, values)


class KeyedError(Exception):
    """An error a user can meet, carried as a message key plus values, never a sentence:
    the CLI and the app say it in the user's language (``localized``); ``str()`` is English.

    ``cli_key`` names the same sentence in the command line's terms (files and options
    instead of "paste" and "upload"), when the two differ.
    """

    def __init__(self, *, key: str, cli_key: str | None = None, **values: object) -> None:
        self.key = key
        self.values = values
        self.cli_key = cli_key
        super().__init__(t(key, "en", **values))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its key and values (a worker process's error reaches the page whole;
        the default would call the class with the English text alone)."""
        return _restored_error, (type(self), self.args, self.__dict__)

    @classmethod
    def of(cls, said: Message) -> Self:
        """The error that says ``said`` (a message a stage built before knowing it would fail)."""
        values: dict[str, Any] = dict(said.values)
        return cls(key=said.key, **values)

    @property
    def message(self) -> Message:
        """The message this error carries."""
        return Message(self.key, self.values)

    def localized(self, lang: str) -> str:
        """``render(self, lang)``: its message in ``lang``."""
        return render(self.message, lang)

    def for_cli(self, lang: str = "en") -> str:
        """The sentence the ``ragviz`` command prints."""
        return t(self.cli_key, lang, **self.values) if self.cli_key else self.localized(lang)


def _restored_error(kind: type[KeyedError], args: tuple[object, ...],
                    state: dict[str, object]) -> KeyedError:
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


def render(said: object, lang: str) -> str:
    """The one renderer: a ``Message`` in ``lang``; an error by the message it carries; a
    ``Listed`` as ``lang`` lists; anything else as its text.

    The shorthands all come down to it, and only the CLI, the report and the app use them:
    ``t(key, lang, **values)`` renders ``Message(key, values)`` (a count ``n`` picks the plural
    form); the app's ``tr`` and the CLI's ``cli_say`` bind the page's or ``--lang``'s
    language."""
    if isinstance(said, Message):
        return t(said.key, lang, **said.values)
    if isinstance(said, KeyedError):
        return said.localized(lang)
    carried = getattr(said, "message", None)
    if isinstance(carried, Message):
        return render(carried, lang)
    if isinstance(said, Listed | Grouped):
        return said.localized(lang)
    return str(said)


@cache
def _locale(lang: str) -> Locale:
    """The CLDR locale behind a language code (the source language's for a code CLDR does not
    know, such as the tests' pseudo-locale)."""
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(SOURCE_LANGUAGE)


def _plural_key(key: str, lang: str, values: Mapping[str, object]) -> str:
    """``key`` or its plural form for the count ``n`` in ``lang`` (CLDR's categories: a catalog
    holds ``key`` for "other" and ``key.one``, ``key.few``… where the language has them)."""
    n = values.get("n")
    if isinstance(n, int | float) and not isinstance(n, bool):
        form = f"{key}.{_locale(lang).plural_form(abs(n))}"
        if form in STRINGS and (lang in STRINGS[form] or lang not in STRINGS[key]):
            return form
    return key


def decimal(value: float, digits: int, language: str = "en", *, group: bool = False) -> str:
    """``value`` with ``digits`` decimals, written with ``language``'s decimal sign (CLDR), its
    thousands grouped too when ``group``."""
    text = f"{value:{',' if group else ''}.{digits}f}"
    if text.startswith("-") and float(text.replace(",", "")) == 0:
        text = text[1:]  # "-0.00" says nothing "0.00" does not
    symbols = number_symbols(language)
    table: dict[str, str | int | None] = {"-": symbols["minus"], ".": symbols["decimal"],
                                          ",": symbols["thousands"]}
    return text.translate(str.maketrans(table))


def grouped(n: int | float, language: str = "en") -> str:
    """A number with its thousands grouped as ``language`` writes them (1,234 / 1.234)."""
    return format_decimal(n, locale=_locale(language))


def percent(share: float, language: str = "en") -> str:
    """A share (0-1) as a whole percentage written as ``language`` writes it (82% / 82 %)."""
    return format_percent(round(share, 2), locale=_locale(language))


@cache
def number_symbols(language: str) -> dict[str, str]:
    """How ``language`` writes numbers (CLDR): its decimal sign, thousands separator and minus."""
    locale = _locale(language)
    return {"decimal": get_decimal_symbol(locale), "thousands": get_group_symbol(locale),
            "minus": get_minus_sign_symbol(locale)}


def language_tag(language: str) -> str:
    """The BCP 47 tag of ``language`` as written by its catalog (``pt`` → ``pt-BR``, CLDR's likely
    region), for ``<html lang>``; a code CLDR does not know is its own tag."""
    likely = get_global("likely_subtags").get(language)
    if not likely:
        return language
    parsed = Locale.parse(likely)
    return f"{parsed.language}-{parsed.territory}" if parsed.territory else parsed.language


def joined(items: Iterable[object], language: str = "en", *,
           style: Literal["standard", "or"] = "standard") -> str:
    """Items as ``language`` lists them (CLDR): "a, b, and c" / "a, b e c"; ``style="or"``
    for alternatives ("a, b, or c")."""
    return format_list([str(item) for item in items], style=style, locale=_locale(language))


_SAID = (Message, KeyedError, Listed, Grouped)  # values said in the sentence's language


def pick_language(accept_language: str | None) -> str:
    """The interface language for a browser's Accept-Language / locale value: the first
    language it names (by its primary subtag, ``pt-BR`` → ``pt``) that has a catalog."""
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    return SOURCE_LANGUAGE
