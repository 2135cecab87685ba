"""Links carry the work (issue 9) and cannot break a session (issue 12): the core part."""

from __future__ import annotations

import base64
import json
import zlib
from urllib.parse import urlencode

import pytest
from article import ARTICLE_FLOOR
from hypothesis import given, settings
from hypothesis import strategies as st

from ragviz.chunking import ChunkerConfig, get_spec
from ragviz.errors import InputError
from ragviz.inputs.documents import looks_binary_text
from ragviz.inputs.limits import FLOOR_RANGE, MODELS_DIR_ENV, TOP_K_RANGE
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present import link_notes
from ragviz.present.link_notes import import_link
from ragviz.share import links
from ragviz.share.samples import load_samples
from ragviz.share.workspace import MAX_WORKSPACE_BYTES, Settings, Workspace
from ragviz_app.app_state import config_from_values

QUESTIONS = (
    LabelledQuestion("Qual é o prazo? 🤔", "30 dias", True),
    LabelledQuestion("Tem wifi?", "", False),
)


def pasted(document: str, questions: tuple[LabelledQuestion, ...] = QUESTIONS) -> Workspace:
    return Workspace(document, questions, Settings(top_k=3, floor=0.31, language="pt"))


def carried(workspace: Workspace) -> Workspace:
    link = links.share_query(workspace.settings, workspace)
    assert links.WORK_KEY in link.query and link.missing_chars is None
    work, problem = link_notes.work_from_query(link.query)
    assert problem is None and work is not None
    return work


@pytest.mark.parametrize("document", [
    "Reembolso em até 30 dias.\r\nTroca em 7 dias.\r\n",
    "línea uno\rlínea dos\n\n\tçãõ — “aspas” 😀👍🏽 漢字。",
    "a\u200bb\u00a0c\ufeffd \U0001f9d1\u200d\U0001f4bb",
])
def test_the_link_gives_back_the_exact_work(document: str) -> None:
    work = pasted(document)
    assert carried(work) == work


@given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=400)
       .filter(lambda s: bool(s.strip()) and not looks_binary_text(s)))
@settings(max_examples=60)
def test_any_document_comes_back_exact(document: str) -> None:
    """Any text the uploader would take (binary-looking text is refused, as there)."""
    work = pasted(document)
    assert carried(work).document == document


def test_the_sample_itself_needs_no_work_in_the_link() -> None:
    sample = load_samples()[0]
    work = Workspace(sample.document(), tuple(sample.questions()), Settings(sample=sample.name))
    link = links.share_query(work.settings, work)
    assert links.WORK_KEY not in link.query and link.missing_chars is None
    edited = Workspace(work.document, work.questions[:-1], work.settings)
    assert links.WORK_KEY in links.share_query(edited.settings, edited).query


def test_every_link_fits_the_budget_or_says_it_does_not() -> None:
    words = [f"palavra{n * 7919 % 10007}" for n in range(3000)]
    for size in (500, 5_000, 10_000, 20_000, 40_000):
        document = " ".join(words)[:size]
        link = links.share_query(Settings(), pasted(document))
        if links.WORK_KEY in link.query:
            assert len(urlencode(link.query)) <= links.MAX_QUERY_CHARS
        else:
            assert link.missing_chars is not None and link.missing_chars > 0
    assert links.WORK_KEY not in links.share_query(Settings(), pasted(" ".join(words))).query


def test_a_few_pages_of_the_sample_documents_fit() -> None:
    """Every sample document, pasted with its questions, rides in the link (they are 1-5
    pages); this is the figure reported as "how much fits"."""
    for sample in load_samples():
        work = pasted(sample.document(), tuple(sample.questions()))
        assert links.share_query(work.settings, work).missing_chars is None, sample.name


def token(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_a_decompression_bomb_is_refused_without_inflating_it() -> None:
    bomb = zlib.compress(b"{" + b" " * (5 * MAX_WORKSPACE_BYTES), 9)
    assert len(token(bomb)) < 2 * links.MAX_LINK_CHARS
    with pytest.raises(InputError, match="more than a workspace may hold"):
        links.decode_work(token(bomb))


@pytest.mark.parametrize(("value", "message"), [
    ("not base64!", "characters a link cannot"),
    ("A", "cut or mistyped"),
    (token(b"plain text, not deflate"), "does not unpack"),
    (token(zlib.compress(b'{"format": "ragviz-workspace"')[:-6]), "cut short"),
    (token(zlib.compress(b"[1, 2")), "not valid JSON"),
    (token(zlib.compress(b'{"format": "ragviz-workspace", "version": 1}')), "missing field"),
    (token(zlib.compress(b"NaN")), "cannot read"),
    ("A" * (3 * links.MAX_LINK_CHARS), "longer than any link"),
])
def test_a_damaged_work_parameter_is_one_short_sentence(value: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as raised:
        links.decode_work(value)
    assert len(str(raised.value)) < 300 and "\n" not in str(raised.value)


def test_the_link_is_checked_like_a_workspace_file() -> None:
    bad = Workspace("doc", (LabelledQuestion("q", "answer", False),))
    link = {links.WORK_KEY: links.encode_work(links.compact_json(bad))}
    work, problem = link_notes.work_from_query(link)
    assert work is None and problem is not None and "unanswerable" in problem


def test_a_workspace_with_a_309_digit_size_is_refused_not_overflowed() -> None:
    text = Workspace("doc").to_json().replace('"size": 120', '"size": 1' + "0" * 309)
    with pytest.raises(InputError, match="too large"):
        links.read_workspace(text)


def test_top_k_and_floor_ranges_are_the_widgets_ranges() -> None:
    high = TOP_K_RANGE[1]
    assert link_notes.import_query({"k": str(high)}, Settings())[0].top_k == high
    settings_, problems = link_notes.import_query({"k": str(high + 1)}, Settings())
    assert settings_.top_k == Settings().top_k and problems
    with pytest.raises(InputError):
        Workspace.from_json(Workspace("doc", settings=Settings(top_k=high + 1)).to_json())
    assert link_notes.import_query({"floor": str(FLOOR_RANGE[0])}, Settings())[0].floor == -1.0


def test_every_bad_value_is_named_short_and_the_good_ones_apply() -> None:
    query = {"k": "11", "floor": "nan", "a_size": "1" + "0" * 400, "model": "/etc",
             "lang": "pt", "b": "sentence", "b_max_chars": "300", "a": "x" * 100_000,
             "sample": "y" * 1000}
    result, problems = link_notes.import_query(query, Settings())
    assert (result.language, result.config_b.get("max_chars")) == ("pt", 300)
    assert len(problems) == 6
    for key in ("k:", "floor:", "a_size=", "model:", "a=", "sample:"):
        assert sum(p.startswith(key) for p in problems) == 1, (key, problems)
    assert all(len(p) < 220 for p in problems)


def test_a_model_path_is_refused_the_same_way_whether_it_exists_or_not(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(MODELS_DIR_ENV, raising=False)
    messages = [link_notes.import_query({"model": path}, Settings())[1][0].replace(path, "P")
                for path in ("/etc", "/no/such/folder", "/etc/passwd")]
    assert len(set(messages)) == 1 and "etc" not in messages[0]
    for accepted in ("minilm-en", "intfloat/multilingual-e5-small"):
        assert link_notes.import_query({"model": accepted}, Settings()) == (
            Settings(model=accepted), [])


def test_a_folder_under_the_models_dir_is_accepted(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "mine").mkdir()
    monkeypatch.setenv(MODELS_DIR_ENV, str(root))
    inside, outside = str(root / "mine"), str(root / "mine" / ".." / "..")
    assert link_notes.import_query({"model": inside}, Settings())[0].model == inside
    assert link_notes.import_query({"model": outside}, Settings())[1]


# --- property tests: nothing a link or a workspace holds escapes as an exception -----------

QUERY_KEYS = ["a", "b", "k", "floor", "model", "lang", "sample", "w", "junk", "a_size",
              "floor_on", "b_floor_on", "a_overlap", "b_max_chars", "b_overlap_sentences",
              "a_threshold", "b_percentile"]
HOSTILE = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "1e309", "1" + "0" * 400, "9" * 5000,
                     "x" * 100_000, "", " ", "0x10", "1_000", "٣", "/etc", "../..", "~",
                     "org/name", "fixed", "semantic", "pt"]),
    st.text(max_size=60),
    st.integers().map(str),
    st.floats().map(str),
)


@given(st.dictionaries(st.sampled_from(QUERY_KEYS), HOSTILE, max_size=10))
@settings(max_examples=300)
def test_no_query_raises_and_every_message_is_short(query: dict[str, str]) -> None:
    result, problems = link_notes.import_query(query, Settings())
    assert result.checked() == result
    assert all(len(problem) < 300 and "\n" not in problem for problem in problems)
    _work, problem = link_notes.work_from_query(query)
    assert problem is None or len(problem) < 300


JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(10**400), 10**400),
                        st.floats(), st.text(max_size=20))
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["format", "version", "document", "questions", "settings",
                                       "top_k", "size", "chunker", "x"]), inner, max_size=5),
    max_leaves=20,
)


def mutated(valid: dict[str, object], path: list[str], value: object) -> dict[str, object]:
    data: dict[str, object] = json.loads(json.dumps(valid))
    target: dict[str, object] = data
    for key in path[:-1]:
        child = target.get(key)
        if not isinstance(child, dict):
            return data
        target = child
    target[path[-1]] = value
    return data


VALID = json.loads(Workspace("Reembolso em 30 dias.", QUESTIONS).to_json())
PATHS = st.sampled_from([["document"], ["questions"], ["version"], ["settings", "top_k"],
                         ["settings", "floor"], ["settings", "model"], ["settings", "config_a"],
                         ["settings", "config_a", "size"], ["settings", "config_b", "chunker"],
                         ["settings", "config_b", "overlap_sentences"], ["settings", "sample"]])


@given(st.one_of(JSON_VALUES, st.builds(mutated, st.just(VALID), PATHS, JSON_VALUES)))
@settings(max_examples=300)
def test_no_workspace_json_raises_anything_but_a_short_input_error(data: object) -> None:
    text = json.dumps(data)
    for reader in (lambda: links.read_workspace(text),
                   lambda: links.decode_work(links.encode_work(text.encode()))):
        try:
            workspace = reader()
        except InputError as error:
            assert len(str(error)) < 300
        else:
            assert workspace.settings.checked() == workspace.settings
            for config in (workspace.settings.config_a, workspace.settings.config_b):
                config_from_values(config.chunker, config.params(), 10**6)  # widgets can hold it


def test_each_side_may_name_its_model_and_an_old_link_means_one_model() -> None:
    two = Settings(model="use-multilingual", model_b="minilm-en", floor=0.2, floor_b=0.4)
    query = links.share_query(two, None).query
    assert (query["model"], query["b_model"], query["b_floor"]) == (
        "use-multilingual", "minilm-en", "0.4")
    assert link_notes.import_query(query, Settings()) == (two, [])
    assert link_notes.import_query({"a_model": "minilm-en", "b_model": "use-multilingual"},
                              Settings())[0].model_of("a") == "minilm-en"
    old, problems = link_notes.import_query({"model": "minilm-en", "floor": "0.3"}, two)
    assert problems == []
    assert (old.model_of("a"), old.model_of("b"), old.floor_of("b")) == ("minilm-en",) * 2 + (0.3,)
    assert "b_model" not in links.share_query(old, None).query


def test_an_api_model_in_a_link_names_its_server_but_never_credentials() -> None:
    api = "openai:text-embedding-3-small@http://127.0.0.1:8080/v1"
    assert link_notes.import_query({"b_model": api}, Settings())[0].model_b == api
    for bad in ("openai:m@http://user:sk-secret@host/v1", "openai:m@http://host/v1?key=sk-1",
                "openai:m@file:///etc/passwd", "openai: m"):
        settings, problems = link_notes.import_query({"b_model": bad}, Settings())
        assert settings.model_b is None and problems and problems[0].startswith("b_model:")


@pytest.mark.parametrize("raw", ["²", "٣", "３", "1_000", "¹²"])
def test_link_numbers_are_ascii_digits_only(raw: str) -> None:
    """``str.isdigit()`` takes "²" (``int()`` does not) and ``int()`` takes "٣": a link
    number in any other spelling is named, never parsed and never a traceback."""
    settings_, problems = link_notes.import_query(
        {"k": raw, "floor": raw, "a": "fixed", "a_size": raw}, Settings())
    assert settings_ == Settings() and len(problems) == 3, problems
    restored, named, _notes = import_link({"k": raw, "floor": raw, "a_size": raw}, Settings())
    assert restored == Settings() and len(named) == 3, named
    size = get_spec("fixed").param("size")
    assert size.clamp(raw) == size.default
    with pytest.raises(ValueError, match="is not a number"):
        size.parse(raw)


def test_the_model_a_floor_was_set_on_travels_in_links_and_files() -> None:
    """Issue 19 medium 4: a floor set on another model reopens as set on that model."""
    settings = Settings(model="minilm-en", floor=ARTICLE_FLOOR, floor_on="use-multilingual")
    query = links.share_query(settings, None).query
    assert query["floor_on"] == "use-multilingual"
    opened, problems = link_notes.import_query(query, Settings())
    assert opened.floor_on == "use-multilingual" and not problems
    plain, _ = link_notes.import_query({"model": "minilm-en", "floor": "0.3"}, settings)
    assert plain.floor_on is None  # an older link: its floor was set on its model
    bad, problems = link_notes.import_query({**query, "floor_on": "../etc"}, Settings())
    assert bad.floor_on is None and problems
    file = Workspace("Documento.", (), settings).to_json()
    assert Workspace.from_json(file).settings.floor_on == "use-multilingual"


def test_a_link_keeps_its_chunker_and_size_and_fits_the_overlap_it_did_not_set() -> None:
    """Issue 37 item 16: ``?a=langchain_recursive&a_chunk_size=5`` fell back to fixed(120)
    and blamed "got 200", the default overlap the link never set."""
    result, problems = link_notes.import_query({"a": "langchain_recursive", "a_chunk_size": "5"},
                                          Settings())
    assert result.config_a.chunker == "langchain_recursive"
    assert (result.config_a.get("chunk_size"), result.config_a.get("chunk_overlap")) == (5, 4)
    assert problems == ["a: chunk_overlap set to 4, the most that fits under chunk_size 5."]
    assert not any("200" in problem for problem in problems), "never the value it did not set"
    pt = link_notes.import_query({"a": "langchain_recursive", "a_chunk_size": "5"}, Settings(),
                            "pt")[1]
    assert pt == ["a: chunk_overlap passou a 4, o máximo que cabe abaixo de chunk_size 5."]


def test_an_overlap_the_link_set_too_large_is_named_and_fitted() -> None:
    result, problems = link_notes.import_query(
        {"b": "fixed", "b_size": "50", "b_overlap": "80"}, Settings())
    assert (result.config_b.chunker, result.config_b.get("size")) == ("fixed", 50)
    assert result.config_b.get("overlap") == 49
    assert problems == ["b: b_overlap=80 does not fit under size 50; it was set to 49, the "
                        "most that fits."]


FLOORS = st.floats(min_value=FLOOR_RANGE[0], max_value=FLOOR_RANGE[1], allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(floor=FLOORS, floor_b=FLOORS, top_k=st.integers(*TOP_K_RANGE),
       model_b=st.sampled_from([None, "minilm-en"]), threshold=st.floats(-1.0, 1.0),
       more=st.booleans())
def test_what_a_link_writes_it_reads_back_exactly(
        floor: float, floor_b: float, top_k: int, model_b: str | None, threshold: float,
        more: bool) -> None:
    """A calibrated floor such as 0.30000000000000004 or 1e-05 was written in a form the
    reader refused ("is not a number"), and B's floor was written where the reader drops it
    (one model, one scorer: one floor); what the page writes, a link reopens as it was."""
    config_b = ChunkerConfig.create("semantic", threshold=threshold)
    written = Settings(config_b=config_b, floor=floor, top_k=top_k, model_b=model_b,
                       floor_b=floor_b if model_b else None, more_controls=more).checked()
    read, problems, notes = import_link(links.settings_to_query(written), Settings())
    assert (read, problems, notes) == (written, [], [])
