"""The Map tab in the real Streamlit runtime (AppTest) with the real default model: it draws
for a document and for a corpus, a floor move reuses the projection, a new question leaves
the chunks where they were, and UMAP replaces the first PCA picture once fitted."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest
from streamlit import dataframe_util
from streamlit.testing.v1 import AppTest

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.i18n import t
from ragviz.present.presentation import format_score
from ragviz.projection import planar
from ragviz.share.samples import get_sample
from ragviz.share.workspace import DEFAULT_CONFIG_B
from ragviz_app import map_jobs
from ragviz_app.map_chart import PICK_CHUNK, PICK_QUESTION
from ragviz_app.views.map_view import PICKED_CHUNK, apply_pick
from ragviz_app.walkthrough import STEPS
from tests.test_app import APP, TIMEOUT, rerun


def map_specs(at: AppTest) -> list[tuple[dict[str, Any], list[pd.DataFrame]]]:
    """Every map chart on the page: its spec and its datasets (lines, chunks, questions)."""
    out = []
    for element in at.get("arrow_vega_lite_chart") + at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        if str(spec.get("description", "")).startswith("map:"):
            data = [dataframe_util.convert_arrow_bytes_to_pandas_df(d.data.data)
                    for d in element.proto.datasets]
            out.append((spec, data))
    return out


def frames(at: AppTest) -> dict[str, pd.DataFrame]:
    """The one map's chunk points, question points and lines, told apart by their columns."""
    specs = map_specs(at)
    assert len(specs) == 1, len(specs)
    named: dict[str, pd.DataFrame] = {"labels": pd.DataFrame(columns=["label", "tone"])}
    for data in specs[0][1]:
        if "label" in data.columns:  # the labels, one dataset per spot beside their points
            named["labels"] = pd.concat([named["labels"], data], ignore_index=True)
            continue
        kind = ("chunks" if "head" in data.columns else "questions" if "question" in data.columns
                else "lines")
        named[kind] = data
    return named


def named_ends(labels: pd.DataFrame) -> set[tuple[str, int]]:
    """The chunks the labels name (``1. A #3``: rank, side, index)."""
    found = labels["label"].str.extract(r"^(?:\d+\. )?([AB]) #(\d+)$").dropna()
    return {(side.lower(), int(index)) for side, index in found.itertuples(index=False)}


def open_map(method: str = planar.PCA, sample: str | None = None) -> AppTest:
    """The app with the Map tab open, drawn with ``method`` (on ``sample``)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["map_method"] = method
    at.run()
    if sample is not None:
        at.radio(key="sample_name").set_value(sample)
        rerun(at)
    at.session_state["tab"] = t("tab.map", "en")
    return rerun(at)


def positions(drawn: pd.DataFrame) -> dict[tuple[str, int], tuple[float, float]]:
    return {(str(r.side), int(r.index)): (float(r.x), float(r.y))
            for r in drawn.itertuples()}


def test_the_map_draws_every_chunk_of_a_and_b_and_every_question() -> None:
    at = open_map()
    drawn = frames(at)
    memo = list(at.session_state["_memo"].values())
    chunks = drawn["chunks"]
    assert sorted(chunks["side"].value_counts().items()) == sorted(
        zip("ab", [len(memo[0].chunks), len(memo[1].chunks)], strict=True))
    assert drawn["questions"]["name"].tolist() == [f"Q{i}" for i in range(1, 8)]
    refund = memo[0].outcomes[0]
    answer_lines = drawn["lines"][drawn["lines"]["kind"] == "answer"]
    assert len(answer_lines) == len(refund.diagnosis.holding_chunks) + len(  # type: ignore[union-attr]
        memo[1].outcomes[0].diagnosis.holding_chunks)  # type: ignore[union-attr]
    assert "Each point is a chunk" in " ".join(c.value for c in at.caption)
    ends = {("a", i) for i in [*refund.decision.ranking[:1].tolist(),
                               *refund.diagnosis.holding_chunks]}  # type: ignore[union-attr]
    assert ends <= named_ends(drawn["labels"]), "line ends named"
    top = refund.decision.ranking[0]
    assert f"1. A #{top}" in set(drawn["labels"]["label"]), "with their rank"


def test_the_map_draws_for_a_corpus_coloured_by_file() -> None:
    at = open_map(sample="help_center")
    chunks = frames(at)["chunks"]
    assert at.session_state["map_colour"] == "file"
    assert chunks["file"].nunique() == 6, chunks["file"].unique()


def test_coloured_by_diagnosis_each_point_and_the_legend_say_what_its_label_means() -> None:
    """Issue 43: coloured by diagnosis, a chunk's hover names its label and says what it
    means and what to change; under the chart, the folded legend of the labels drawn."""
    from ragviz.present.label_words import hover_text, legend_html
    from ragviz.projection.space import NOT_RETRIEVED

    at = open_map()
    at.radio(key="map_colour").set_value("diagnosis")
    rerun(at)
    spec, _ = map_specs(at)[0]
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point"
                  and "tooltip" in layer.get("encoding", {}) and "size" in layer["encoding"])
    fields = [tip["field"] for tip in points["encoding"]["tooltip"]]
    assert fields[-2:] == ["diagnosis", "meaning"]
    chunks = frames(at)["chunks"]
    labels = {label for memo in at.session_state["_memo"].values()
              for label in memo_labels(memo)}
    assert labels
    for label in labels:
        assert hover_text(label, "en") in set(chunks["meaning"])
    assert set(chunks["meaning"]) <= {hover_text(label, "en") for label in labels} | {"–"}
    legend = [e for e in at.expander if e.label == t("labels.legend", "en")]
    assert len(legend) == 1
    assert "".join(str(h.proto.body) for h in legend[0].get("html")) == \
        legend_html("en", labels)
    assert NOT_RETRIEVED not in labels


def memo_labels(analysis: Any) -> set[str]:
    """The primary labels the map colours chunks by (those some question retrieved)."""
    from ragviz.projection.space import chunk_labels

    return set(chunk_labels(analysis).values())


def test_a_floor_move_redraws_the_lines_over_the_same_projection() -> None:
    at = open_map()
    before = frames(at)
    fits = planar.CACHE.misses
    at.slider(key="floor").set_value(0.9)
    after = frames(rerun(at))
    assert planar.CACHE.misses == fits, "no projection was fitted again"
    assert positions(after["chunks"]) == positions(before["chunks"])
    assert set(after["lines"]["kind"]) != set(before["lines"]["kind"])
    assert "under_floor" in set(after["lines"]["kind"])


def test_a_new_question_moves_no_chunk() -> None:
    at = open_map()
    before = positions(frames(at)["chunks"])
    table = at.session_state["questions_base"]
    added = pd.concat([table, pd.DataFrame([{"question": "Posso pagar com pix?",
                                             "answer": "", "answerable": False}])],
                      ignore_index=True)
    at.session_state["questions_base"] = added.astype(table.dtypes.to_dict())
    after = frames(rerun(at))
    assert len(after["questions"]) == len(table) + 1
    assert positions(after["chunks"]) == before


def test_umap_replaces_the_first_pca_picture_once_fitted() -> None:
    at = open_map(planar.UMAP)
    first = map_specs(at)[0][0]
    if first["description"] == "map:pca":  # not fitted yet: the job runs in the background
        assert at.get("progress") or at.get("fragment") is not None
        for job in list(map_jobs.JOBS.values()):
            job.join(300)
        rerun(at)
    assert map_specs(at)[0][0]["description"] == "map:umap"
    assert not any("failed" in c.value for c in at.caption)


def test_a_click_on_a_question_or_a_chunk_picks_it_for_the_other_tabs(
        use_model: Embedder) -> None:
    sample = get_sample("help_center")
    corpus, questions = sample.corpus(), sample.questions()
    analysis = analyse(corpus, DEFAULT_CONFIG_B, use_model, questions)
    texts = [q.question for q in questions]
    state: dict[str, Any] = {}
    apply_pick({PICK_QUESTION: [{"kind": "question", "index": 2}]}, texts, [("b", analysis)],
               state)
    assert state["why_pick"] == texts[2] and state["map_lines"] == 2
    last = analysis.chunks[-1]
    apply_pick({PICK_CHUNK: [{"kind": "chunk", "side": "b", "index": last.index}]}, texts,
               [("b", analysis)], state)
    assert state["doc_file"] == last.source and state[PICKED_CHUNK] == ("b", last.index)
    before = dict(state)
    apply_pick({PICK_CHUNK: [{"kind": "chunk", "side": "a", "index": 0}],
                PICK_QUESTION: [{"kind": "question", "index": 99}]}, texts,
               [("b", analysis)], state)
    assert state == before, "a point of a side or question that is not there changes nothing"


def test_the_replay_map_step_draws_fixed_against_sentence_with_the_refund_lines() -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    step = next(i for i, s in enumerate(STEPS) if s.key == "map")
    at.query_params.update({"walk": str(step + 1)})
    rerun(at)
    assert STEPS[step].title("en") in " ".join(m.value for m in at.markdown) + " ".join(
        h.proto.body for h in at.get("html"))
    drawn = frames(at)
    assert sorted(set(drawn["chunks"]["side"])) == ["a", "b"]
    assert len(drawn["lines"]) and set(drawn["lines"]["kind"]) <= {"context", "answer",
                                                                    "under_floor"}


def test_a_and_b_on_different_models_get_one_map_each() -> None:
    """Their vectors live in different spaces (512 and 384 dimensions): never one fit."""
    at = open_map()
    at.toggle(key="model_b_on").set_value(True)
    rerun(at)
    at.radio(key="b_model_choice").set_value("minilm-en")
    rerun(at)
    specs = map_specs(at)
    assert len(specs) == 2
    sides = [sorted({str(s) for data in spec[1] if "head" in data.columns
                     for s in data["side"]}) for spec in specs]
    assert sides == [["a"], ["b"]]
    assert "different models" in " ".join(c.value for c in at.caption)


@pytest.mark.parametrize(("method", "says"), [
    (planar.PCA, "PCA keeps the two directions along which the chunks spread most"),
    (planar.UMAP, "UMAP keeps who is near whom, not how far"),
])
def test_the_caption_says_what_the_projection_keeps(method: str, says: str) -> None:
    """Issue 36 item 13: "near on the map means near for the model" was untrue under UMAP."""
    at = open_map(method)
    captions = " ".join(str(c.value) for c in at.caption)
    assert says in captions and "Near on the map means near" not in captions


def test_beside_the_map_the_shown_questions_top_k_in_numbers() -> None:
    """Under UMAP a line's length lies (issue 36 item 13): the shown question's top_k and
    answer chunks are listed beside the map by rank with the model's scores."""
    at = open_map()
    memo = list(at.session_state["_memo"].values())
    table = next(d.value for d in at.dataframe if "rank" in d.value.columns)
    expected = []
    for side, analysis in zip("AB", memo, strict=True):
        outcome = analysis.outcomes[0]
        holding = set(outcome.diagnosis.holding_chunks)  # type: ignore[union-attr]
        shown = {int(i) for i in outcome.decision.ranking[:outcome.decision.top_k]} | holding
        expected += sorted((outcome.decision.rank_of(i), f"{side} #{i}",
                            format_score(outcome.decision.score(i)), "✓" if i in holding else "")
                           for i in shown)
    assert [tuple(row) for row in table.itertuples(index=False)] == expected
    at.selectbox(key="map_lines").set_value(-1)  # every question: no one top_k to list
    rerun(at)
    assert not [d for d in at.dataframe if "rank" in d.value.columns]
    assert any("Pick one question" in c.value for c in at.caption)
