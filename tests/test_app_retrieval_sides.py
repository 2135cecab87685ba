"""Retrieval per configuration in the app (issue 33.7): A dense, B hybrid reranked by
sentence-max with one neighbour in the prompt, on the same questions; B's floor on its own
scale; the link carries both sides' retrieval and reopens it."""

from __future__ import annotations

from ragviz.present import link_notes
from ragviz.share import links
from ragviz.share.workspace import Settings
from tests.test_app import open_tab, rerun, run_app
from tests.test_app_links import started

B_SPEC = "hybrid+rerank(sentence-max)"


def test_a_dense_and_b_hybrid_reranked_side_by_side() -> None:
    at = run_app("questions")
    at.selectbox(key="b_scorer").select("hybrid")
    at.selectbox(key="b_rerank").select("sentence-max")
    at.number_input(key="b_expand").set_value(1)
    at = open_tab(rerun(at), "questions")
    state = at.session_state
    assert (state.a_scorer, state.a_rerank, state.a_expand) == ("cosine", "—", 0)
    assert (state.b_scorer, state.b_rerank, state.b_expand) == ("hybrid", "sentence-max", 1)
    captions = [str(c.value) for c in at.caption]
    assert "Retrieval: cosine" in captions
    assert f"Retrieval: {B_SPEC} · 1 neighbour in the prompt" in captions
    floors = [s for s in at.slider if s.key in ("floor", "floor_b")]
    assert {s.key for s in floors} == {"floor", "floor_b"}  # two scorers: two floors
    b_floor = next(s for s in floors if s.key == "floor_b")
    assert b_floor.step == 0.01 and b_floor.max == 1.0  # sentence-max: cosine's scale


def test_the_link_carries_each_sides_retrieval() -> None:
    settings = Settings(scorer="bm25", scorer_b=B_SPEC, expand=0, expand_b=2, floor=1.5,
                        floor_b=0.2)
    query = links.settings_to_query(settings)
    assert (query["scorer"], query["b_scorer"], query["b_expand"]) == ("bm25", B_SPEC, "2")
    back, problems = link_notes.import_query(query, Settings())
    assert problems == [] and back.scorer_of("b") == B_SPEC and back.expand_of("b") == 2
    assert (back.floor, back.floor_b) == (1.5, 0.2)  # 1.5 is on BM25's scale, not cosine's
    at = started(query)
    assert not at.exception, [e.value for e in at.exception]
    state = at.session_state
    assert (state.a_scorer, state.b_scorer, state.b_rerank, state.b_expand) == (
        "bm25", "hybrid", "sentence-max", 2)


def test_a_link_may_not_ask_the_app_to_send_questions_elsewhere() -> None:
    query = {"b_scorer": "cosine+rerank(api:m,base=http://10.0.0.1:9)"}
    back, problems = link_notes.import_query(query, Settings())
    assert back.scorer_of("b") == "cosine"
    assert any("the app reranks only with sentence-max" in str(p) for p in problems)
