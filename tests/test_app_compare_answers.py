"""The compare tab's other readings (AppTest, the real default model): what B's retrieval
setting fixes and breaks (issue 33 items 5/7), the first-stage rank of a reranked chart, and,
once the LLM answered A and B (the loopback chat server of tests/chat_server.py), the
questions whose verdict flips and the answers' CSV download (issue 34 item 4)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.i18n import t
from ragviz.present.exports import answers_csv
from tests.test_app import PRAZO, charts, open_tab, rerun, run_app
from tests.test_llm_answer import KEY, MODEL, serve


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    yield from serve()


def _flip_tables(at: AppTest) -> list[list[dict[str, str]]]:
    """The compare tab's tables of flips (question, A, B, direction), in page order."""
    direction = t("col.direction", "en")
    tables = []
    for frame in at.dataframe:
        data = getattr(frame.value, "data", frame.value)  # a Styler keeps its frame in .data
        if direction in data.columns and "A" in data.columns:
            tables.append([{str(k): str(v) for k, v in row.items()}
                           for row in data.to_dict("records")])
    return tables


def test_b_reranked_says_what_it_fixes_and_breaks_and_where_it_moved_the_chunk() -> None:
    at = run_app("questions")
    at.selectbox(key="b_scorer").select("hybrid")
    at.selectbox(key="b_rerank").select("sentence-max")
    at = open_tab(rerun(at), "questions")
    notes = [str(c.value) for c in at.caption if "first stage #" in str(c.value)]
    assert notes and all(re.fullmatch(r"The answer's chunk: first stage #\d+ → #\d+ after "
                                      r"reranking\.", note) for note in notes)
    reranked = [(spec, data) for spec, data in charts(at) if "first" in data.get("scores", {})]
    assert reranked, "no chart of B carries the first-stage ranks"
    spec, data = reranked[0]
    assert all(str(x).startswith("#") for x in data["scores"]["first"])
    assert "first-stage rank" in str(spec)
    at = open_tab(at, "compare")
    said = [m.value for m in at.markdown if m.value.startswith("**B's ")]
    assert len(said) == 1, [m.value for m in at.markdown]
    found = re.fullmatch(r"\*\*B's hybrid\\?\+rerank\\?\(sentence\\?-max\\?\) fixes (\d+), "
                         r"breaks (\d+)\*\*", said[0])
    assert found, said[0]
    rows = _flip_tables(at)[0]  # the outcomes' flips
    directions = [row[t("col.direction", "en")] for row in rows]
    assert int(found.group(1)) == directions.count(t("app.direction_fixed", "en"))
    assert int(found.group(2)) == directions.count(t("app.direction_broken", "en"))
    assert int(found.group(1)) >= 1
    fixed = [row[t("col.question", "en")] for row in rows
             if row[t("col.direction", "en")] == t("app.direction_fixed", "en")]
    listed = next(m.value for m in at.markdown if m.value.startswith("Fixed: "))
    assert all(question.replace("?", "") in listed.replace("\\", "").replace("?", "")
               for question in fixed)
    assert any("B's chunks differ from A's too" in str(c.value) for c in at.caption)


def test_a_and_b_with_one_scorer_say_no_setting_sentence() -> None:
    at = open_tab(run_app(None), "compare")
    assert not [m.value for m in at.markdown if m.value.startswith("**B's ")]


def test_after_asking_the_compare_tab_lists_the_verdicts_that_flip(
        monkeypatch: pytest.MonkeyPatch, base: str) -> None:
    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the operator allows the test server
    at = run_app("questions")
    at.text_input(key="llm_model").input(f"openai:{MODEL}")
    at.text_input(key="llm_base").input(base)
    rerun(at)
    at = open_tab(at, "compare")
    assert not any("LLM verdicts" in m.value for m in at.markdown)  # nothing asked yet
    assert "download_answers" not in str([b.proto for b in at.get("download_button")])
    at = open_tab(at, "questions")
    model = next(iter(at.session_state["_llm_models"].values()))
    at.button(key="llm_ask").click()
    rerun(at)
    kept = at.session_state["_llm_models"]
    assert list(kept.values()) == [model] and next(iter(kept.values())) is model  # made once
    at = open_tab(at, "compare")
    heading = next(m.value for m in at.markdown if "LLM verdicts" in m.value)
    tables = _flip_tables(at)
    assert len(tables) == 2  # the outcomes' flips, then the verdicts'
    verdict_rows = tables[1]
    assert heading == f"**LLM verdicts that differ between A and B: {len(verdict_rows)}**"
    refund = next(row for row in verdict_rows if row[t("col.question", "en")] == PRAZO)
    assert refund["A"].startswith("answered from the wrong chunk: its words come from chunk #")
    assert refund["B"] == "correct"
    assert refund[t("col.direction", "en")] == t("app.direction_fixed", "en")
    spared = next(row for row in verdict_rows if row["A"].startswith("hallucinated"))
    assert spared["B"].startswith("not asked")  # B's floor spared a false answer: fixed
    assert spared[t("col.direction", "en")] == t("app.direction_fixed", "en")
    labels = {b.proto.label for b in at.get("download_button")}
    assert t("app.download_answers", "en") in labels
    now = at.session_state["_share_now"]
    table = list(csv.DictReader(io.StringIO(answers_csv(now["ready"], now["answers"]()))))
    refund_rows = [row for row in table if row["question"] == PRAZO]
    assert [row["llm_verdict"] for row in refund_rows] == ["answered-from-wrong-chunk",
                                                          "correct"]
    assert "7 dias úteis" in refund_rows[1]["llm_answer"]
    assert KEY not in "\n".join(str(row) for row in table)
