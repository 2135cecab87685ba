"""Both interface languages are complete: no key misses a language or a placeholder."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import ragviz_app  # noqa: F401  (registers the app's strings)
from ragviz.i18n import LANGUAGES, STRINGS, pick_language, t

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "ragviz").rglob("*.py")), *sorted((ROOT / "ragviz_app").rglob("*.py")),
           ROOT / "streamlit_app.py"]
KEY_CALL = re.compile(r"""\btr?\(\s*["']([a-z0-9_.]+)["']""")


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_every_key_has_every_language_with_the_same_placeholders(key: str) -> None:
    entry = STRINGS[key]
    assert set(entry) == set(LANGUAGES), f"{key} lacks {set(LANGUAGES) - set(entry)}"
    assert all(entry[lang].strip() for lang in LANGUAGES)
    assert _placeholders(entry["en"]) == _placeholders(entry["pt"])


def test_every_key_the_code_asks_for_exists() -> None:
    used = {key for path in SOURCES if path.exists() for key in KEY_CALL.findall(path.read_text())}
    assert used, "the scan found no t() calls"
    missing = sorted(key for key in used if key not in STRINGS)
    assert missing == []


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt"),
        ("en-US,en;q=0.9", "en"),
        ("fr-FR", "en"),
        (None, "en"),
        ("de, pt;q=0.5", "pt"),
    ],
)
def test_browser_language_picks_the_interface(header: str | None, lang: str) -> None:
    assert pick_language(header) == lang


def test_unknown_language_falls_back_to_english() -> None:
    assert t("outcome.context", "fr", chunks="1") == "context: chunks 1"


def test_keys_built_at_run_time_exist() -> None:
    from ragviz.embedding.models import BUNDLED_MODELS
    from ragviz.evaluation.diagnosis import LABELS
    from ragviz.evaluation.measures import metric_names
    from ragviz_app.walkthrough import STEPS

    wanted = [f"model.{m}" for m in BUNDLED_MODELS]
    wanted += [f"metric{kind}.{m}" for m in metric_names() for kind in ("", "_short")]
    wanted += [f"walk.{s.key}.{part}" for s in STEPS for part in ("title", "body")]
    wanted += [f"app.source_{s}" for s in ("sample", "paste", "upload")]
    wanted += [f"app.direction_{d}" for d in ("fixed", "broken", "changed")]
    assert LABELS
    assert [key for key in wanted if key not in STRINGS] == []


def test_counts_agree_with_their_words() -> None:
    """Issue 19, low 10: "1 respostas" (one count, a plural word)."""
    from ragviz.i18n import count

    assert count(1, "count.false_answers", "pt") == "1 resposta indevida"
    assert count(2, "count.false_answers", "pt") == "2 respostas indevidas"
    assert count(0, "count.false_refusals", "en") == "0 false refusals"
    assert count(1, "count.false_refusals", "en") == "1 false refusal"


PLURAL_HEDGE = re.compile(r"\w\((s|es|ns|ões)\)|\ba\(s\)")


def test_no_sentence_hedges_its_plural() -> None:
    """Issue 19, low 10: "question(s)", "pergunta(s)": a count picks its word instead."""
    hedged = sorted(key for key, entry in STRINGS.items()
                    for text in entry.values() if PLURAL_HEDGE.search(text))
    assert hedged == []


@pytest.mark.parametrize("key", sorted(k for k in STRINGS if k.endswith(".one")))
def test_a_singular_has_its_plural_with_the_same_placeholders(key: str) -> None:
    plural = key.removesuffix(".one")
    assert plural in STRINGS
    for lang in ("en", "pt"):
        assert _placeholders(STRINGS[key][lang]) == _placeholders(STRINGS[plural][lang])


def test_question_counts_agree_with_their_words() -> None:
    from ragviz.i18n import count

    assert count(1, "app.questions_uploaded", "pt") == "1 pergunta carregada do arquivo."
    assert count(1, "app.flips", "en") == "1 question changes outcome between A and B"
    assert count(1, "app.question_count", "en", answerable=1, unanswerable=0).startswith(
        "1 question in use")


def test_the_core_finds_its_sentences_without_the_app() -> None:
    """Issue 18, part 5: the catalog is split by who speaks; the core's keys live in its own
    files, the app's in ``ragviz_app/texts.py`` (registered when the app is imported)."""
    from ragviz.i18n.core import CORE
    from ragviz.i18n.index import INDEX
    from ragviz.i18n.report import REPORT
    from ragviz_app.texts import APP

    core_sources = sorted((ROOT / "ragviz").rglob("*.py"))
    used = {key for path in core_sources for key in KEY_CALL.findall(path.read_text())}
    assert sorted(key for key in used if key not in {**CORE, **REPORT}) == []
    assert not set(APP) & (set(CORE) | set(REPORT) | set(INDEX))
    assert all(key.startswith("idx.") for key in INDEX)  # the index's Sentence keys
    assert "app.share" in APP and "app.share" not in CORE


def test_registering_other_text_under_a_taken_key_is_refused() -> None:
    from ragviz.i18n import register

    register({"outcome.context": STRINGS["outcome.context"]})  # the same again: a reload
    with pytest.raises(KeyError, match=r"outcome\.context"):
        register({"outcome.context": {"en": "other", "pt": "outro"}})


def test_no_placeholder_shadows_the_lookup_arguments() -> None:
    """``t(key, lang, **values)``: a sentence with ``{key}`` or ``{lang}`` cannot be filled."""
    clashing = sorted(key for key, entry in STRINGS.items()
                      if _placeholders(entry["en"]) & {"key", "lang"})
    assert clashing == []
