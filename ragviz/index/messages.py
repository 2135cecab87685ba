"""The index's sentences in both languages (kept beside the index code until the app's
Index source moves them into the shared catalog)."""

from __future__ import annotations

_STRINGS: dict[str, dict[str, str]] = {
    "mismatch_warning": {
        "en": "{share} of the stored vectors differ from {model}'s embedding of their own "
              "text: the index was probably built with another model than the one embedding "
              "the questions, so its scores are noise.",
        "pt": "{share} dos vetores guardados diferem da incorporação que {model} faz do próprio "
              "texto: o índice provavelmente foi construído com outro modelo que não o que "
              "incorpora as perguntas, e as pontuações são ruído.",
    },
    "dimension": {
        "en": "The index stores {stored}-dimension vectors but {model} makes {dimension}-"
              "dimension ones: choose the model the index was built with.",
        "pt": "O índice guarda vetores de {stored} dimensões, mas {model} produz vetores de "
              "{dimension} dimensões: escolha o modelo com que o índice foi construído.",
    },
    "stale_chunk": {
        "en": "Chunk {chunk}'s text is no longer in {file}: the file changed after indexing.",
        "pt": "O texto do trecho {chunk} não está mais em {file}: o arquivo mudou depois da "
              "indexação.",
    },
}


def say(key: str, lang: str = "en", **values: object) -> str:
    """The sentence ``key`` in ``lang`` (English when the language is not known)."""
    entry = _STRINGS[key]
    return (entry.get(lang) or entry["en"]).format(**values)


def languages() -> set[str]:
    """The languages every sentence has (checked by the tests)."""
    return set.intersection(*(set(entry) for entry in _STRINGS.values()))
