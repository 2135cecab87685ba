"""Every interface string in English and Brazilian Portuguese, in one place.

``t(key, lang, **values)`` formats a string; a missing key or language is a bug, and a
test checks that every key has both languages.
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "pt")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pt": "Português (Brasil)"}

STRINGS: dict[str, dict[str, str]] = {
    # --- retrieval outcomes -------------------------------------------------------------
    "outcome.context": {"en": "context: chunks {chunks}", "pt": "contexto: chunks {chunks}"},
    "outcome.context_one": {"en": "context: chunk {chunks}", "pt": "contexto: chunk {chunks}"},
    "outcome.refused": {
        "en": "refused: best score {best} is under the floor {floor}",
        "pt": "recusada: o melhor score {best} está abaixo do piso {floor}",
    },
    # --- diagnosis (ragviz.diagnosis) ---------------------------------------------------
    # --- app interface (streamlit_app.py) -----------------------------------------------
}


def t(key: str, lang: str = "en", **values: object) -> str:
    """The string ``key`` in ``lang`` (falling back to English), formatted with ``values``."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry["en"]
    return template.format(**values) if values else template


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
