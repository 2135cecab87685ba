"""Every interface string in English and Brazilian Portuguese, split by who makes the sentence.

``core.py`` holds the core's facts (outcomes, diagnosis, labels, errors), ``report.py`` the
HTML report's and the command line's words, and ``ragviz_app/texts.py`` the app's own strings,
which it ``register``s here when it is imported (the core never imports the app).
``t(key, lang, **values)`` formats a string; a missing key or language is a bug, and a
test checks that every key has both languages.
"""

from __future__ import annotations

from ragviz.i18n.core import CORE
from ragviz.i18n.report import REPORT

LANGUAGES: tuple[str, ...] = ("en", "pt")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pt": "Português (Brasil)"}

STRINGS: dict[str, dict[str, str]] = {**CORE, **REPORT}


def register(strings: dict[str, dict[str, str]]) -> None:
    """Add another part's strings (the app's); a key taken with other text is a bug, not an
    override (registering the same strings again, as a module reload does, changes nothing)."""
    taken = sorted(key for key in strings if STRINGS.get(key, strings[key]) != strings[key])
    if taken:
        raise KeyError(f"i18n keys registered twice: {', '.join(taken)}")
    STRINGS.update(strings)


def t(key: str, lang: str = "en", **values: object) -> str:
    """The string ``key`` in ``lang`` (falling back to English), formatted with ``values``."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry["en"]
    return template.format(**values) if values else template


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
