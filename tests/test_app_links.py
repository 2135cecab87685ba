"""Issues 9 and 12 in the real Streamlit runtime: a link with a pasted document reopens
it with its questions and says so; a hostile link or workspace never breaks the page."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from ragviz.i18n import t
from ragviz.inputs.limits import TOP_K_RANGE
from ragviz.inputs.questions import LabelledQuestion, Reference
from ragviz.share import links
from ragviz.share.workspace import Settings, Workspace

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
TIMEOUT = 120
DOCUMENT = "\n".join(
    f"Regra {n}: o pedido {n} é reembolsado em {n + 3} dias úteis — “sem taxa” ✅.\r"
    for n in range(40)
)
QUESTIONS = (
    *(LabelledQuestion(f"Em quantos dias o pedido {n} é reembolsado?", f"{n + 3} dias úteis", True)
      for n in range(5)),
    LabelledQuestion("Tem wifi?", "", False),
)


def unescaped(markdown: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def shown(at: AppTest) -> list[str]:
    return [e.value for e in (*at.success, *at.warning, *at.error, *at.info)]


def started(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    return at


def test_a_link_with_a_pasted_document_reopens_it_and_says_so() -> None:
    work = Workspace(DOCUMENT, QUESTIONS, Settings(top_k=3, floor=0.3))
    at = started(links.share_query(work.settings, work).query)
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state.doc_source == "paste"
    assert at.session_state.doc_paste == DOCUMENT
    table = at.session_state.questions_base
    assert list(table["question"]) == [q.question for q in QUESTIONS]
    assert list(table["answerable"]) == [True] * 5 + [False]
    assert (at.session_state.top_k, at.session_state.floor) == (3, 0.3)
    expected = f"Restored from the link: your pasted document ({len(DOCUMENT):,} characters)"
    assert any(expected in text and "6 questions" in text for text in shown(at)), shown(at)
    assert links.decode_work(work_token(at)) == work  # the reopened page links the same work


def work_token(at: AppTest) -> str:
    value = at.query_params[links.WORK_KEY]
    return value[0] if isinstance(value, list) else value


def test_a_document_too_long_for_a_link_says_so_before_sharing() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.radio(key="doc_source").set_value("paste").run()
    words = " ".join(f"item{n * 7919 % 10007}" for n in range(4000))
    at.text_area(key="doc_paste").set_value(words).run()
    assert not at.exception
    assert links.WORK_KEY not in at.query_params
    assert any("does not carry your document" in w.value for w in at.warning)


def test_k_11_and_a_huge_size_do_not_break_the_session() -> None:
    at = started({"k": str(TOP_K_RANGE[1] + 1), "a": "fixed", "a_size": "1" + "0" * 400,
                  "b_max_chars": "300", "model": "/etc"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state.b_max_chars == 300
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 3 and all(len(w) < 300 for w in warnings), warnings
    at.run()
    assert not at.exception


KEYS = ["a", "b", "a_size", "a_overlap", "b_max_chars", "b_overlap_sentences", "a_threshold",
        "a_percentile", "k", "floor", "model", "lang", "sample", links.WORK_KEY, "zz", "tab"]
VALUES = st.one_of(
    st.sampled_from(["fixed", "semantic", "tokens", "nan", "inf", "-inf", "1e309", "-0", "0",
                     "11", "50", "0.5", "en", "pt", "/etc", "minilm-en", "politica_reembolso",
                     "1" + "0" * 400, "9" * 5000, "", "x" * 100_000]),
    st.text(max_size=30),
    st.integers(-(10**12), 10**12).map(str),
)


@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_link_breaks_the_first_rerun(query: dict[str, str]) -> None:
    at = started(query)
    assert not at.exception, (query, [e.value for e in at.exception])
    assert all(len(text) < 400 for text in shown(at))


def mutated_workspaces() -> st.SearchStrategy[str]:
    base = json.loads(Workspace(DOCUMENT[:300], QUESTIONS[:2]).to_json())
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-(10**400), 10**400),
                     st.floats(), st.text(string.printable, max_size=20))

    def mutate(path_value: tuple[str, str, object]) -> str:
        section, key, value = path_value
        data = json.loads(json.dumps(base))
        target = data["settings"] if section == "settings" else data["settings"]["config_a"]
        target[key] = value
        return json.dumps(data)

    return st.tuples(st.sampled_from(["settings", "config_a"]),
                     st.sampled_from(["top_k", "floor", "model", "size", "overlap", "chunker",
                                      "language", "max_chars"]), leaf).map(mutate)


@given(mutated_workspaces())
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_workspace_in_a_link_breaks_the_first_rerun(text: str) -> None:
    token = links.encode_work(text.encode("utf-8"))
    at = started({links.WORK_KEY: token})
    assert not at.exception, (text[-300:], [e.value for e in at.exception])
    assert all(len(message) < 400 for message in shown(at))


def test_a_link_whose_excerpt_names_a_file_opens_and_evaluates_it() -> None:
    """Issue 37 item 4: a pasted document and one excerpt naming its benchmark file
    (``corpus_id``) made a ~550-character link that broke the page for everyone opening it.
    The one document stands for that file: the excerpt is found there and evaluated."""
    excerpt = DOCUMENT.split("\n")[2].rstrip("\r")
    start = DOCUMENT.index(excerpt)
    question = LabelledQuestion("Em quantos dias o pedido 2 é reembolsado?", "", None, (
        Reference(excerpt, start, start + len(excerpt), source="politica"),))
    work = Workspace(DOCUMENT, (question,), Settings())
    query = links.share_query(work.settings, work).query
    at = started(query)
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value for e in at.error] == []
    at.session_state["tab"] = t("tab.questions", "en")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [str(m.value) for m in at.markdown if str(m.value).startswith("#### ")]
    assert len(headings) == 1 and "pedido 2" in headings[0], headings


def test_a_link_to_a_peer_chunker_with_a_small_size_keeps_both() -> None:
    """Issue 37 item 16: the page opens on the link's chunker and size, with an overlap that
    fits, and the note names only what it changed (not the default overlap 200)."""
    at = started({"a": "langchain_recursive", "a_chunk_size": "5"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state.a_chunker == "langchain_recursive"
    assert (at.session_state.a_chunk_size, at.session_state.a_chunk_overlap) == (5, 4)
    notes = [unescaped(note) for note in shown(at)]
    assert "Fitted from the link: a: chunk_overlap set to 4, the most that fits under " \
        "chunk_size 5." in notes, notes
    assert not [note for note in notes if "200" in note or "ignored" in note], notes
