"""The guided replay: every step's text is filled from live analyses of the seed sample."""

from __future__ import annotations

import pytest

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse, rescore
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.i18n import LANGUAGES, number_symbols
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.render import STYLE
from ragviz_app.walkthrough import (
    FIXED,
    REFUND_QUESTION,
    SENTENCE,
    STEPS,
    VARIANT,
    WIFI_QUESTION,
    distance_domain,
    step_from_query,
    step_query,
    step_values,
)


@pytest.fixture(params=["use_model", "minilm_model"])
def bundled_model(request: pytest.FixtureRequest) -> Embedder:
    """Each bundled model in turn: the replay's sentences must be true on both."""
    model: Embedder = request.getfixturevalue(request.param)
    return model


@pytest.fixture(scope="module")
def pair(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> tuple[Analysis, Analysis]:
    return (
        analyse(seed_doc, FIXED, use_model, seed_questions),
        analyse(seed_doc, SENTENCE, use_model, seed_questions),
    )


def test_step_questions_point_at_the_right_sample_questions(
    seed_questions: list[LabelledQuestion],
) -> None:
    assert "reembolso" in seed_questions[REFUND_QUESTION].question
    assert "wifi" in seed_questions[WIFI_QUESTION].question


def test_the_story_goes_fixed_then_sentence_then_floor() -> None:
    assert [s.config.chunker for s in STEPS[:2]] == ["fixed", "fixed"]
    assert all(s.config.chunker == "sentence" for s in STEPS[2:])
    assert [s.floor for s in STEPS][-1] == "calibrated"
    assert STEPS[1].top_k == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_text_is_filled_from_live_numbers(
    pair: tuple[Analysis, Analysis], lang: str
) -> None:
    values = step_values(*pair)
    for step in STEPS:
        body = step.body(lang, values)
        assert "{" not in body and step.title(lang)
        assert body.count(". ") + body.count(": ") + 1 >= 2


def test_values_tell_the_article_story(pair: tuple[Analysis, Analysis]) -> None:
    fixed, sentence = pair
    values = step_values(fixed, sentence)
    winner = int(values["winner"])
    assert "7 dias úteis" not in fixed.chunks[winner].text
    assert "7 dias úteis" in sentence.chunks[int(values["sentence_winner"])].text
    assert float(values["hit_fixed"]) < float(values["hit_sentence"])
    assert float(values["highest"]) < float(values["floor"]) <= float(values["lowest"])
    assert float(values["wifi_best"]) < float(values["floor"])


def test_with_another_model_every_step_says_what_that_model_measured(
    minilm_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    """minilm-en does not separate the article's groups: step 5 must not say the floor goes
    between them, it must say they overlap and what the floor costs."""
    fixed = analyse(seed_doc, FIXED, minilm_model, seed_questions)
    sentence = analyse(seed_doc, SENTENCE, minilm_model, seed_questions)
    calibration = sentence.calibration
    assert calibration is not None and not calibration.separable  # the fact this test is about
    measured = next(s for s in STEPS if s.key == "measured")
    for lang, overlap in (("en", "overlap"), ("pt", "se sobrepõem")):
        body = measured.body(lang, step_values(fixed, sentence, lang))
        assert overlap in body
        assert "goes between them" not in body and "fica entre elas" not in body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_step_text_matches_its_facts(pair: tuple[Analysis, Analysis], lang: str) -> None:
    """On the article's model the article's text; the variants exist for the other cases."""
    fixed, sentence = pair
    values = step_values(fixed, sentence, lang)
    assert all(values.get(VARIANT + step.key) in ("", None) for step in STEPS[:-1])
    assert values[VARIANT + "refused"] == "_answered"  # no floor on these analyses yet
    calibrated = rescore(sentence, RetrievalSettings(2, sentence.calibration.floor))  # type: ignore[union-attr]
    assert step_values(fixed, calibrated, lang)[VARIANT + "refused"] == ""


def test_step_one_names_the_colours_the_document_draws() -> None:
    """Word cuts are red (#dc2626) and sentence cuts orange (#d97706) in render.STYLE."""
    assert ".rv-cut{color:#dc2626" in STYLE and ".rv-cut-s{color:#d97706}" in STYLE
    en = STEPS[0].body("en", {"n_fixed": "7", "winner": "1", "winner_end": "Reemb"})
    pt = STEPS[0].body("pt", {"n_fixed": "7", "winner": "1", "winner_end": "Reemb"})
    assert "red | marks a cut inside a word, an orange | a cut inside a sentence" in en
    assert "vermelho" in pt and "laranja" in pt


@pytest.mark.parametrize(("raw", "step"), [("1", 0), ("6", 5), ("7", 6), ("0", None), ("8", None),
                                           ("x", None), ("", None), ("-1", None),
                                           ("²", None), ("٣", None), ("9" * 5000, None)])
def test_a_links_walk_parameter_names_a_step_or_nothing(raw: str, step: int | None) -> None:
    assert step_from_query({"walk": raw, "k": "2"}) == step


def test_the_step_rides_in_the_query_next_to_the_other_parameters() -> None:
    query = {"a": "fixed", "k": "2", "walk": "1"}
    assert step_query(query, 3) == {"a": "fixed", "k": "2", "walk": "4"}
    assert step_query(query, None) == {"a": "fixed", "k": "2"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_cut_step_says_what_the_winning_chunk_really_holds(
    bundled_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion], lang: str
) -> None:
    """Issue 19, high 2: step 2 said chunk #1 holds "Reembolso" but no deadline and that the
    model "rightly says the excerpt gives no deadline"; the chunk holds the boleto's "até três
    dias úteis", so a model would plausibly answer that: a wrong answer, not a refusal. Each
    claim of the sentence is checked against the chunk on screen, on both bundled models."""
    model = bundled_model
    fixed = rescore(analyse(seed_doc, FIXED, model, seed_questions), RetrievalSettings(1, 0.0))
    sentence = analyse(seed_doc, SENTENCE, model, seed_questions)
    values = step_values(fixed, sentence, lang)
    body = STEPS[1].body(lang, values)
    winner = fixed.chunks[fixed.outcomes[REFUND_QUESTION].decision.ranking[0]].text
    refund = seed_questions[REFUND_QUESTION].answer
    assert refund not in winner, "the article's story: the refund deadline is cut away"
    others = [q.answer for q in seed_questions
              if q.is_answerable and q.answer and q.answer != refund and q.answer in winner]
    assert others == ["até três dias úteis"]
    assert f"“{others[0]}”" in body, "the deadline the chunk does hold is named"
    assert ("“Reembolso”" in body) == ("Reembolso" in winner)
    for untrue in ("rightly", "com razão", "no deadline", "não informa prazo"):
        assert untrue not in body, untrue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_measured_step_margin_is_the_difference_of_the_shown_scores(
    bundled_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion], lang: str
) -> None:
    """Issue 19, low 10: on minilm-en step 5 said "0,48 … 0,52 … margem -0,03" where the
    shown values give -0,04; and "1 respostas": counts must agree with their words."""
    model = bundled_model
    fixed = analyse(seed_doc, FIXED, model, seed_questions)
    sentence = analyse(seed_doc, SENTENCE, model, seed_questions)
    values = step_values(fixed, sentence, lang)

    def number(key: str) -> float:
        return float(values[key].replace(",", "."))

    digits = len(values["lowest"].split(number_symbols(lang)["decimal"])[1])
    assert round(number("lowest") - number("highest"), digits) == number("margin")
    for step in STEPS:
        body = step.body(lang, values)
        for word in ("recusas", "respostas", "refusals", "answers"):
            assert f" 1 {word}" not in body and f"{{1}} {word}" not in body, body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_map_step_says_the_distances_the_model_measures(
    bundled_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion], lang: str
) -> None:
    """Issue 23: the map step's sentence compares the refund question's cosine distance to
    the fixed winner and to the chunk holding the deadline; every number and every "nearer"
    is checked against the scores, on both bundled models."""
    fixed = analyse(seed_doc, FIXED, bundled_model, seed_questions)
    sentence = analyse(seed_doc, SENTENCE, bundled_model, seed_questions)
    values = step_values(fixed, sentence, lang)
    body = next(s for s in STEPS if s.key == "map").body(lang, values)

    def distance(analysis: Analysis, index: int) -> float:
        return 1.0 - float(analysis.outcomes[REFUND_QUESTION].decision.scores[index])

    def number(key: str) -> float:
        return float(values[key].replace(",", "."))

    winner = int(fixed.outcomes[REFUND_QUESTION].decision.ranking[0])
    assert abs(number("map_winner_distance") - distance(fixed, winner)) < 5e-4
    assert "{" not in body and values["map_winner_distance"] in body
    variant = values[VARIANT + "map"]
    deadline = seed_questions[REFUND_QUESTION].answer
    if variant != "_found":
        holder = int(values["map_holder"])
        assert deadline in fixed.chunks[holder].text
        assert distance(fixed, holder) > distance(fixed, winner), "said: nearer than the holder"
        assert abs(number("map_holder_distance") - distance(fixed, holder)) < 5e-4
        assert f"#{holder}" in body and values["map_holder_distance"] in body
    if variant == "":
        nearest = int(sentence.outcomes[REFUND_QUESTION].decision.ranking[0])
        assert int(values["map_sentence_holder"]) == nearest, "said: the nearest holds it"
        assert deadline in sentence.chunks[nearest].text
        assert values["map_sentence_holder_distance"] in body


def test_the_map_strip_zooms_on_the_distances_it_draws() -> None:
    """Issue 43: 0.552 and 0.566 on an axis from 0 to 1 are one pixel apart; the strip's
    axis is zoomed so they are a tenth of it apart or more."""
    low, high = distance_domain([0.552, 0.566, 0.601])
    assert low < 0.552 and high > 0.601
    assert (0.566 - 0.552) / (high - low) >= 0.1
    assert distance_domain([0.5, 0.5]) == (0.495, 0.505)  # one value: still an axis
