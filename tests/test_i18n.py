"""English is complete and every other catalog says a subset of its keys with the same
placeholders, so a language can start with a few keys (the rest falls back to English); the
shipped Portuguese is complete."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from ragviz.chunking.base import Chunk
from ragviz.i18n import CATALOGS, LANGUAGE_NAMES, LANGUAGES, STRINGS, pick_language, t
from ragviz.present.render import chunk_title

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "ragviz").rglob("*.py")), *sorted((ROOT / "ragviz_app").rglob("*.py")),
           ROOT / "streamlit_app.py"]
KEY_CALL = re.compile(r"""\btr?\(\s*["']([a-z0-9_.]+)["']""")


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# CLDR's plural forms a language may need beyond "one" and "other" (the key itself): only the
# languages that have them hold them, beside the key they are a form of.
OTHER_PLURAL_FORMS = (".zero", ".two", ".few", ".many")


COMPLETE = ("en", "pt")  # the source language and the shipped translation hold every key


def test_every_key_is_in_english_and_said_with_its_placeholders_everywhere() -> None:
    """Issue 48 item 2: a catalog may hold a subset of English's keys, never another key,
    and each text it holds fills the same placeholders as English's."""
    wrong = []
    for key, entry in STRINGS.items():
        english = key.rsplit(".", 1)[0] if key.endswith(OTHER_PLURAL_FORMS) else key
        if "en" not in STRINGS.get(english, {}):
            wrong.append(f"{key}: not in en.json")
            continue
        wanted = _placeholders(STRINGS[english]["en"])
        wrong += [f"{key} ({code}): {sorted(_placeholders(text))} vs {sorted(wanted)}"
                  for code, text in entry.items() if _placeholders(text) != wanted]
        wrong += [f"{key} ({code}): empty" for code, text in entry.items() if not text.strip()]
    assert wrong == []


def test_the_shipped_translation_is_complete() -> None:
    lacking = {code: sorted(key for key, entry in STRINGS.items()
                            if not key.endswith(OTHER_PLURAL_FORMS) and code not in entry)
               for code in COMPLETE}
    assert lacking == {code: [] for code in COMPLETE}


def test_a_three_key_catalog_is_a_language(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 48 item 2: "a 3-key es.json works as a language": offered by the command line,
    its own keys said in it, every other sentence in English, an error path too."""
    from ragviz.cli.command import main
    from ragviz.i18n import register_language, remove_language

    shipped = {key: entry["es"] for key, entry in STRINGS.items() if "es" in entry}
    register_language("es", {"cli.chunk_count": "{n} fragmentos", "cli.missing":
                             "{what} {name} no existe", "language.name": "Español"})
    try:
        doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
        assert main(["chunk", doc, "--chunker", "fixed", "--size", "300", "--lang", "es"]) == 0
        out = capsys.readouterr().out
        assert "2 fragmentos" in out and "fixed(size=300, overlap=0)" in out
        assert main(["chunk", doc + ".nowhere", "--lang", "es"]) != 0
        assert "no existe" in capsys.readouterr().err
        assert t("outcome.context", "es", chunks="1") == t("outcome.context", "en", chunks="1")
        assert t("app.flips", "es", n=1) == t("app.flips", "en", n=1)  # plural form in English
    finally:
        remove_language("es")
        if shipped:  # an es.json of the future comes back as it was
            register_language("es", shipped)


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
    from ragviz.share.samples import load_samples
    from ragviz_app.walkthrough import STEPS

    wanted = [f"model.{m}" for m in BUNDLED_MODELS]
    wanted += [f"metric{kind}.{m}" for m in metric_names() for kind in ("", "_short")]
    wanted += [f"walk.{s.key}.{part}" for s in STEPS for part in ("title", "body")]
    wanted += [f"app.source_{s}" for s in ("sample", "paste", "upload")]
    wanted += [f"app.direction_{d}" for d in ("fixed", "broken", "changed")]
    wanted += [f"sample.{s.name}.{part}" for s in load_samples()
               for part in ("title", "demonstrates")]
    assert LABELS
    assert [key for key in wanted if key not in STRINGS] == []


def test_counts_agree_with_their_words() -> None:
    """Issue 19, low 10: "1 respostas" (one count, a plural word)."""

    assert t("count.false_answers", "pt", n=1) == "1 resposta indevida"
    assert t("count.false_answers", "pt", n=2) == "2 respostas indevidas"
    assert t("count.false_refusals", "en", n=0) == "0 false refusals"
    assert t("count.false_refusals", "en", n=1) == "1 false refusal"


def test_a_one_character_chunk_and_one_prompt_are_said_in_the_singular() -> None:
    """A fixed chunker of size 1 makes one-character chunks ("1 chars" before), and one
    prompt left to ask is common ("1 prompts not answered yet")."""
    chunk = Chunk(index=0, text="a", start=0, end=1)
    assert chunk_title(chunk, 1, "en") == "chunk #0 · 1 char · 1 tokens"
    assert chunk_title(chunk, None, "pt") == "chunk #0 · 1 caractere"
    two = Chunk(index=1, text="ab", start=1, end=3)
    assert chunk_title(two, None, "en") == "chunk #1 · 2 chars"
    assert t("llm.app.ask", "en", n=1) == "Ask the LLM (1 prompt not answered yet)"
    assert t("llm.flips", "pt", n=1) == "1 resposta muda de veredito de A para B:"


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

    assert t("app.questions_uploaded", "pt", n=1) == "1 pergunta carregada do arquivo."
    assert t("app.flips", "en", n=1) == "1 question changes outcome between A and B"
    assert t("app.question_count", "en", n=1, answerable=1, unanswerable=0).startswith(
        "1 question in use")


def test_the_languages_are_the_catalog_files_present() -> None:
    """Issue 32, item 2: one catalog file per language, each a flat sorted ``{key: text}`` map
    (one entry a line) naming its language; the interface's languages are those files."""
    files = sorted(CATALOGS.glob("*.json"))
    assert sorted(path.stem for path in files) == sorted(LANGUAGES)
    assert LANGUAGES[0] == "en"
    for path in files:
        catalog = json.loads(path.read_text(encoding="utf-8"))
        assert list(catalog) == sorted(catalog)
        assert path.read_text(encoding="utf-8").count("\n") == len(catalog) + 2
        assert LANGUAGE_NAMES[path.stem] == catalog["language.name"]
    assert LANGUAGE_NAMES["pt"] == "Português (Brasil)"


def test_a_language_registered_at_run_time_is_offered_and_said() -> None:
    from ragviz.i18n import register_language, remove_language

    register_language("xx", {"language.name": "Xx", "outcome.context": "xx {chunks}"})
    try:
        assert "xx" in LANGUAGES and LANGUAGE_NAMES["xx"] == "Xx"
        assert pick_language("xx-YY,en;q=0.5") == "xx"
        assert t("outcome.context", "xx", chunks="1") == "xx 1"
        assert t("outcome.refused", "xx", best="0.1", floor="0.2").startswith("refused")
    finally:
        remove_language("xx")
    assert "xx" not in LANGUAGES



def test_no_placeholder_shadows_the_lookup_arguments() -> None:
    """``t(key, lang, **values)``: a sentence with ``{key}`` or ``{lang}`` cannot be filled."""
    clashing = sorted(key for key, entry in STRINGS.items()
                      if _placeholders(entry["en"]) & {"key", "lang"})
    assert clashing == []


SUFFIX_LIST = re.compile(r"\.[a-z]{2,8}, \.[a-z]{2,8}, \.[a-z]{2,8}")


def test_no_sentence_types_a_list_of_formats() -> None:
    """Issue 32, item 2: five messages spelled ".txt, .md, .html, .pdf, .docx" by hand and went
    stale when a format was added; the list is a ``{formats}`` value from the suffix table."""
    typed = sorted(key for key, entry in STRINGS.items() if not key.startswith("sample.")
                   for text in entry.values() if SUFFIX_LIST.search(text))  # a sample's own files
    assert typed == []


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_format_list_in_a_sentence_is_the_suffix_table(lang: str) -> None:
    from ragviz.inputs.convert import ACCEPTED_FORMATS, ACCEPTED_SUFFIXES

    said = t("corpus.other_files", lang, n=2, name="sub", formats=ACCEPTED_FORMATS)
    assert all(suffix in said for suffix in ACCEPTED_SUFFIXES)
    assert said.endswith({"en": ", or .zip and were not read.",
                          "pt": " ou .zip e não foram lidos."}[lang])


def test_numbers_plurals_and_lists_follow_cldr() -> None:
    """Issue 32, item 2: no hand-written Portuguese rule: the decimal sign, the grouping, the
    plural form and the list's conjunction come from each language's CLDR data (Babel)."""
    from ragviz.i18n import decimal, grouped, joined

    assert (decimal(0.5, 2, "en"), decimal(0.5, 2, "pt"), decimal(-0.001, 2, "pt")) == (
        "0.50", "0,50", "0,00")
    assert (grouped(1234567, "en"), grouped(1234567, "pt")) == ("1,234,567", "1.234.567")
    assert joined(["a", "b", "c"], "en", style="or") == "a, b, or c"
    assert joined(["a", "b", "c"], "pt") == "a, b e c"
    assert t("corpus.other_files", "en", n=1, name="x", formats="y").startswith("1 file in x is")
    assert t("corpus.other_files", "pt", n=1, name="x", formats="y").startswith("1 arquivo")
    assert t("corpus.other_files", "pt", n=2, name="x", formats="y").startswith("2 arquivos")


def test_one_message_type_and_one_renderer() -> None:
    """Issue 32, item 1: a ``Message(key, values)`` is what stages return; an error carries
    one (the index's too); ``render(message, lang)`` says any of them, and a message inside
    another is said in the same language."""
    from ragviz.errors import ConversionError, IndexInputError, InputError
    from ragviz.i18n import Message, message, render

    refused = message("outcome.refused", best="0,31", floor="0,50")
    assert refused == Message("outcome.refused", {"best": "0,31", "floor": "0,50"})
    assert render(refused, "pt") == "recusada: o melhor score 0,31 está abaixo do piso 0,50"
    assert str(refused) == render(refused, "en")

    error = InputError(key="input.empty_document")
    assert error.message == Message("input.empty_document", {})
    assert render(error, "pt") == t("input.empty_document", "pt")
    nested = ConversionError("x.png", "unsupported", "empty")
    assert render(nested, "pt") == t("convert.could_not_read", "pt", name="x.png",
                                     reason=t("convert.empty", "pt"))

    counted = Message("idx.listing_chunks", {"n": 2})
    assert str(counted) == "2 chunks"
    built = IndexInputError.of(counted)
    assert built.message == counted and str(built) == "2 chunks"
    assert render(built, "pt") == t("idx.listing_chunks", "pt", n=2)


def test_an_index_refusal_is_a_message_until_it_is_shown(tmp_path: Path) -> None:
    """Issue 32, item 1: the index's refusals were English strings that knew their key
    (``Sentence(str)``), made when raised; now each carries its ``Message`` (a place named
    in it is one too), and only the page or the CLI says it."""
    from ragviz.errors import IndexInputError
    from ragviz.i18n import Message, render
    from ragviz.index.chroma import open_persistent
    from ragviz.index.pgvector import where_of

    with pytest.raises(IndexInputError) as refused:
        open_persistent(str(tmp_path / "absent"))
    assert refused.value.message == Message("idx.not_folder",
                                            {"path": str(tmp_path / "absent")})
    assert render(refused.value, "pt") == t("idx.not_folder", "pt", path=str(tmp_path / "absent"))
    assert render(refused.value, "pt") != str(refused.value)

    where = where_of("postgresql://me:secret@db.example:5433/rag")
    assert where == Message("idx.pg_where", {"target": "me@db.example:5433/rag"})
    assert render(where, "pt") == "o banco Postgres me@db.example:5433/rag"
    assert isinstance(where_of("postgresql://[broken"), Message)
    error = IndexInputError(key="idx.pg_no_extension", where=where)
    assert render(error, "pt").startswith(t("idx.pg_no_extension", "pt", where=render(where, "pt")))
    assert "secret" not in render(error, "pt") + str(error)


def test_no_code_picks_a_plural_by_hand() -> None:
    """Issue 32, item 2: ``key + ".one" if n == 1`` is English's and Portuguese's rule, not
    every language's; ``t`` picks the form from the count ``n`` by the language's CLDR rules."""
    picking = [f"{path.relative_to(ROOT)}:{number}" for path in SOURCES if path.exists()
               and "i18n" not in path.parts
               for number, line in enumerate(path.read_text().splitlines(), 1)
               if '.one"' in line or "'.one'" in line]
    assert picking == []


def test_a_catalog_file_is_a_language(tmp_path: Path) -> None:
    """Issue 32, item 2: adding a language is one catalog file; a language with more plural
    forms than English (Polish: few, many) holds them beside the key, and a key it lacks is
    said in English."""
    from ragviz.i18n import load_catalog, remove_language

    english = {key: entry["en"] for key, entry in STRINGS.items()}
    polish = {**english, "language.name": "Polski",
              "count.false_answers": "{n} fałszywej odpowiedzi",
              "count.false_answers.one": "{n} fałszywa odpowiedź",
              "count.false_answers.few": "{n} fałszywe odpowiedzi",
              "count.false_answers.many": "{n} fałszywych odpowiedzi"}
    del polish["outcome.context"]
    path = tmp_path / "pl.json"
    path.write_text(json.dumps(polish, ensure_ascii=False), encoding="utf-8")
    assert load_catalog(path) == "pl"
    try:
        assert LANGUAGE_NAMES["pl"] == "Polski" and pick_language("pl-PL") == "pl"
        assert [t("count.false_answers", "pl", n=n) for n in (1, 3, 5, 1234)] == [
            "1 fałszywa odpowiedź", "3 fałszywe odpowiedzi", "5 fałszywych odpowiedzi",
            "1\xa0234 fałszywe odpowiedzi"]
        assert t("outcome.context", "pl", chunks="1") == "context: chunks 1"
    finally:
        remove_language("pl")
    assert "pl" not in LANGUAGES and "count.false_answers.few" not in STRINGS


def test_no_sentence_types_a_list_of_scorers_or_chunkers() -> None:
    """Issue 32, item 2: lists of chunkers and scorers in sentences come from their registries
    (a ``{known}`` value), so a new one is named without editing a sentence."""
    from ragviz.chunking.registry import chunker_names
    from ragviz.errors import InputError
    from ragviz.i18n import render
    from ragviz.retrieval.scorers import scorer_names
    from ragviz.share.workspace import check_scorer

    names = "|".join(map(re.escape, (*chunker_names(), *scorer_names())))
    typed = re.compile(rf"\b({names}), ({names})\b")
    assert sorted(key for key, entry in STRINGS.items() if not key.startswith("sample.")
                  for text in entry.values() if typed.search(text)) == []
    with pytest.raises(InputError) as refused:
        check_scorer("")
    assert all(name in render(refused.value, "pt") for name in scorer_names())


def test_no_code_outside_the_i18n_package_names_portuguese() -> None:
    """Issue 32, item 2: a third language must not need code edits, so no code outside
    ``ragviz/i18n`` compares with "pt" (BM25's stemmer table is about the document's language,
    which a stemmer supports, not about the interface's)."""
    naming = [f"{path.relative_to(ROOT)}:{number}" for path in SOURCES if path.exists()
              and "i18n" not in path.parts and path.name != "bm25.py"
              for number, line in enumerate(path.read_text().splitlines(), 1)
              if re.search(r"""["']pt(-BR)?["']""", line)]
    assert naming == []


def test_an_empty_list_is_said_in_the_sentence_s_language() -> None:
    """A store with no collection said "(collections: none)" in Portuguese too: the word was
    typed in the code; it is a message now, rendered with the sentence."""
    from ragviz.i18n import Message, render
    from ragviz.index.messages import NONE

    said = Message("idx.no_collection", {"where": "x", "name": "y", "known": NONE})
    assert str(said).endswith("(collections: none)")
    assert render(said, "pt").endswith("(coleções: nenhuma)")
    typed = [f"{path.relative_to(ROOT)}:{number}" for path in SOURCES if path.exists()
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"""(\bor|\belse) ["']none["']""", line)]
    assert typed == []


KEYED_ERRORS = {"KeyedError", "InputError", "IndexInputError", "IndexLimitError",
                "RerankAPIError", "UserError", "ModelLoadError", "EmbeddingAPIError", "LLMError"}


def test_no_error_a_user_meets_carries_english_text() -> None:
    """Issue 48 item 1: an error a user can meet (a ``KeyedError``) is a key and values; none
    is built with an English sentence (a string or f-string as its message)."""
    import ast

    english = []
    for path in SOURCES:
        name = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in KEYED_ERRORS):
                continue
            given = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "message")]
            if any(isinstance(arg, ast.Constant | ast.JoinedStr) for arg in given):
                english.append(f"{name}:{node.lineno}")
    assert english == []



# Where an f-string may group a number with Python's "," (English grouping): only text that
# never reaches a user, each with the reason ("path:line text" -> why). None today.
GROUPED_BY_HAND: dict[str, str] = {}
BY_HAND = re.compile(r"\{[^{}\n]*:,[^{}\n]*\}|format\([^()\n]*,\s*['\"],")


def test_no_number_reaching_a_user_is_grouped_by_python() -> None:
    """Issue 48 item 1: ``f"{n:,}"`` writes 1,234 in every language (Portuguese writes 1.234):
    a number reaching a user goes as ``n`` (``t`` groups and plural-picks it), ``Grouped`` or
    ``decimal`` (CLDR), so the sentence's language writes it."""
    from ragviz.errors import IndexLimitError
    from ragviz.i18n import Grouped, render

    by_hand = {f"{path.relative_to(ROOT)}:{number} {line.strip()}"
               for path in SOURCES for number, line in enumerate(path.read_text().splitlines(), 1)
               if BY_HAND.search(line)}
    assert by_hand <= set(GROUPED_BY_HAND)
    assert BY_HAND.search('limit=f"{MAX_RECORD_BYTES:,}")') and BY_HAND.search('f"{x:,.2f}"')
    refused = IndexLimitError(key="idx.chunk_too_long", where="x", n=12345, limit=Grouped(20000))
    assert "12.345" in render(refused, "pt") and "20.000" in render(refused, "pt")
    assert "12,345" in str(refused) and "20,000" in str(refused)


# A plain ValueError/TypeError raised with an English sentence is a programming error a user
# never meets (the CLI prints any ValueError's text, the app's ``refusing`` too): each one
# here says why no user input reaches it. A new one is a KeyedError with a catalog key.
PROGRAMMING_ERRORS = {
    "ragviz/answering/question_run.py::WritingSettings.__post_init__":
        "per_passage is no option of the CLI or the app: a Python caller's argument",
    "ragviz/chunking/base.py::<module>": "Chunk's fields out of step with make_chunk, at import",
    "ragviz/chunking/base.py::make_chunk": "a chunker's code passing a field Chunk lacks",
    "ragviz/chunking/peers/chonkie_token_model.py::_run":
        "a Chonkie release whose windows break the adapter's invariant (bench and peers)",
    "ragviz/chunking/peers/common.py::find_text":
        "a peer library returning text not in the document: the adapter's invariant",
    "ragviz/chunking/registry.py::register": "a chunker module registered twice or clashing",
    "ragviz/chunking/sweep_grid.py::sweep_values": "a chunker spec declaring no sweep sizes",
    "ragviz/evaluation/calibration.py::calibrate":
        "the CLI refuses first (cli.calibration_needs_both, --cost-* parsed as cli.number_not_"
        "negative), the app shows app.calibration_needs and bounds its costs",
    "ragviz/evaluation/experiments.py::compare": "two analyses of one frame share questions",
    "ragviz/evaluation/measures.py::get_metric":
        "the CLI's --metric has the registry's names as choices, the app a select box",
    "ragviz/evaluation/pipeline.py::rescore": "callers rescore with the analysis' own scorer",
    "ragviz/evaluation/results.py::RetrievalSettings.__post_init__":
        "the CLI's --top-k/--floor/--expand types and the app's sliders bound them first",
    "ragviz/evaluation/results.py::SweepResult.best":
        "callers check rows first (the app's sweep view, charts); the CLI's grid is never empty",
    "ragviz/i18n/__init__.py::remove_language": "a test or plugin removing English",
    "ragviz/index/chroma_child.py::serve": "the parent process' own protocol, never shown",
    "ragviz/present/presentation.py::_label_sentence": "a diagnosis label without a sentence",
    "ragviz/present/report.py::render_report": "callers pass the analyses they ran",
    "ragviz/projection/planar.py::_checked": "callers pass the embedder's 2-D array",
    "ragviz/projection/planar.py::project": "callers pass planar.PCA or planar.UMAP",
    "ragviz/retrieval/decision.py::decide": "RetrievalSettings checked top_k and floor first",
    "ragviz/share/samples.py::Sample.document": "the app asks corpus() of a several-file sample",
    "ragviz/share/samples.py::_files": "the bundled samples' manifest, shipped and tested",
    "ragviz/share/samples.py::_sample": "the bundled samples' manifest, shipped and tested",
    "ragviz/share/samples.py::load_samples": "the bundled samples' manifest, shipped and tested",
}


def _english_raises(path: Path) -> list[str]:
    """``path::function`` of each ``raise ValueError/TypeError("…")`` (a string, f-string or
    concatenation as its text) in ``path``."""
    import ast

    found: list[str] = []

    def visit(node: ast.AST, owner: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = owner
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{owner}.{child.name}" if owner else child.name
            if (isinstance(child, ast.Raise) and isinstance(child.exc, ast.Call)
                    and isinstance(child.exc.func, ast.Name)
                    and child.exc.func.id in ("ValueError", "TypeError")
                    and any(isinstance(arg, ast.Constant | ast.JoinedStr | ast.BinOp)
                            for arg in child.exc.args[:1])):
                found.append(f"{path.relative_to(ROOT)}::{name or '<module>'}")
            visit(child, name)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_no_plain_error_with_english_text_reaches_users_unkeyed() -> None:
    """Issue 48 item 1: an English ``ValueError`` a user can provoke reaches them as it is (the
    CLI prints its text, the app's ``refusing`` too): each one is an internal programming
    error on the list above, with its reason, or a ``KeyedError`` with a catalog key."""
    raised = {where for path in SOURCES for where in _english_raises(path)}
    assert raised - set(PROGRAMMING_ERRORS) == set()
    assert set(PROGRAMMING_ERRORS) - raised == set()  # the list names no error since keyed


def test_one_prefix_for_the_index_keys() -> None:
    """Issue 48 item 1: the index's sentences were under ``idx.`` and ``index.``; one now."""
    assert [key for key in STRINGS if key.startswith("index.")] == []
    assert any(key.startswith("idx.") for key in STRINGS)


def test_a_corpus_problem_is_a_message_not_an_english_text(tmp_path: Path) -> None:
    """Issue 48 item 1: a ``Problem`` carried an English ``message`` beside its ``phrase``;
    now only what to say (a ``Message`` or the keyed error met), said in any language."""
    from dataclasses import fields

    from ragviz.i18n import Message, render
    from ragviz.inputs.corpus import Problem, load_paths, short_name

    assert [f.name for f in fields(Problem)] == ["name", "kind", "said"]
    (tmp_path / "a.txt").write_text("Some text.", encoding="utf-8")
    absent = str(tmp_path / "absent.txt")
    [problem] = load_paths([str(tmp_path / "a.txt"), absent]).problems
    assert isinstance(problem.said, Message) and problem.kind == "missing"
    assert render(problem.said, "pt") == t("corpus.missing", "pt", name=short_name(absent))
    assert str(problem) == t("corpus.missing", "en", name=short_name(absent))


def test_an_error_crosses_a_process_boundary_with_its_key_and_values() -> None:
    """A KeyedError is pickled with its message (a worker's error said in the page's
    language), a subclass with its own constructor too."""
    import pickle

    from ragviz.errors import ConversionError, InputError

    for error in (InputError(key="workspace.between", name="top_k", low=1, high=10, got="99"),
                  ConversionError("x.pdf", "mismatch", "not_pdf")):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and back.message == error.message
        assert back.localized("pt") == error.localized("pt") and str(back) == str(error)
    assert pickle.loads(pickle.dumps(ConversionError("x.pdf", "mismatch", "not_pdf"))).kind == \
        "mismatch"
