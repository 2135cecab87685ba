"""Facts into words: one display rule for numbers, decimal commas and translated names in
Portuguese, and sentences that agree with one another.

The scores are written by hand: the tests are about how numbers are said, not about the
model.
"""

from __future__ import annotations

import pytest

from ragviz.chunking import CHUNKER_PARAMS, ChunkerConfig
from ragviz.chunking.base import Chunk, make_chunk
from ragviz.evaluation.calibration import calibrate
from ragviz.evaluation.diagnosis import LABELS, OK, diagnose
from ragviz.evaluation.results import QuestionOutcome
from ragviz.i18n import t
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.charts import score_bars, score_rows
from ragviz.present.presentation import (
    calibration_message,
    config_text,
    decimal,
    decision_text,
    diagnosis_text,
    distinct_digits,
    label_name,
    numbers,
    outcome_texts,
    param_name,
)
from ragviz.retrieval.decision import decide

DOC = "Reembolso. O prazo é de 7 dias úteis. Suporte das 9h às 18h."
CHUNKS = [make_chunk(DOC, i, a, b) for i, (a, b) in enumerate([(0, 10), (11, 37), (38, len(DOC))])]
REFUND = LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis")


def outcome(scores: list[float], floor: float, question: LabelledQuestion = REFUND,
            top_k: int = 2, chunks: list[Chunk] = CHUNKS) -> QuestionOutcome:
    decision = decide(scores, top_k, floor)
    return QuestionOutcome(question, decision,
                           diagnose(DOC, chunks, decision, question, [None] * len(chunks)))


# --- the display rule -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "digits"),
    [
        ([0.41, 0.3], 2),  # distinct at two decimals
        ([0.1851, 0.19], 3),  # 0.19 and 0.19 would look equal
        ([0.2096, 0.21], 4),
        ([0.47, 0.4712, 0.0012], 3),  # a gap of 0.0012 must not read 0.00
        ([0.5, 0.5], 2),  # equal values may look equal
        ([0.1, 0.1 + 1e-9], 6),  # never more than six
    ],
)
def test_fewest_decimals_at_which_distinct_numbers_look_distinct(
    values: list[float], digits: int
) -> None:
    assert distinct_digits(values) == digits


def test_refusal_and_its_diagnosis_write_the_same_numbers() -> None:
    # "refused: best score 0.185 is under the floor 0.190" and then "the best is 0.19 ...
    # under the floor 0.19" contradicted each other: both now say 0.185 and 0.190.
    verdict, explanation = outcome_texts(outcome([0.1, 0.1851, 0.05], 0.19))
    assert verdict == "refused: best score 0.185 is under the floor 0.190"
    assert "floor 0.190: the best is 0.185 for chunk #1" in explanation
    assert "0.19 " not in explanation


def test_outranked_gap_is_never_shown_as_zero() -> None:
    # The answer's chunk (#1) loses to #0 by 0.0012: "0.00 below the winner (0.47)" hid it.
    # (top_k 1: at top_k 2 the answer is in the context at rank 2, and that is ok.)
    said = diagnosis_text(outcome([0.4712, 0.47, 0.1], 0.0, top_k=1).diagnosis)  # type: ignore[arg-type]
    assert "ranks 2 with 0.470, 0.001 below the winner, chunk #0 (0.471)" in said
    assert "0.00 below" not in said


def test_two_bars_that_differ_are_labelled_differently() -> None:
    # One chunk sent (top_k=1) and one not retrieved must not both read 0.197.
    decision = decide([0.1974, 0.1968, 0.05], 1, 0.19)
    shown = {row["index"]: row["shown"] for row in score_rows(decision, CHUNKS)}
    assert shown[0] != shown[1]
    assert (shown[0], shown[1]) == ("0.1974", "0.1968")


def test_score_bars_write_the_shown_numbers_and_a_distinct_floor() -> None:
    chart = score_bars(decide([0.1901, 0.1, 0.05], 2, 0.19), CHUNKS, 0.19).to_dict()
    texts = [str(v) for d in chart["datasets"].values() for row in d for v in row.values()]
    assert "0.1901" in texts and "floor 0.19" in texts  # issue 19 low 9: one floor format


# --- Portuguese -----------------------------------------------------------------------


def test_portuguese_writes_decimal_commas() -> None:
    assert decimal(0.19, 2, "pt") == "0,19"
    assert numbers([0.1851, 0.19], "pt") == ["0,185", "0,190"]
    assert decision_text(decide([0.17, 0.1], 2, 0.21), "pt") == (
        "recusada: o melhor score 0,17 está abaixo do piso 0,21"
    )
    message = calibration_message(calibrate([0.474, 0.5], [0.346, 0.2]), "pt")
    assert "piso 0,41" in message and "0.41" not in message


def test_portuguese_score_chart_writes_decimal_commas() -> None:
    chart = score_bars(decide([0.4, 0.1, 0.05], 2, 0.19), CHUNKS, 0.19, lang="pt").to_dict()
    texts = [str(v) for d in chart["datasets"].values() for row in d for v in row.values()]
    assert "0,400" in texts and t("chart.floor", "pt", floor="0,19") in texts


def test_every_diagnosis_label_has_a_portuguese_name() -> None:
    for label in LABELS:
        assert label_name(label, "en") == label  # English shows the identifier
        if label != OK:
            assert label_name(label, "pt") != label
    assert label_name("outranked", "pt") == "superada"


def test_every_chunker_parameter_has_a_portuguese_name() -> None:
    names = {name for params in CHUNKER_PARAMS.values() for name in params}
    for name in names:
        assert param_name(name, "en") == name
        assert param_name(name, "pt") != name, name


def test_configuration_in_portuguese_names_its_parameters() -> None:
    config = ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)
    assert config_text(config, "en") == config.label() == (
        "sentence(max_chars=220, overlap_sentences=1)"
    )
    assert config_text(config, "pt") == "sentence(máx_caracteres=220, frases_sobrepostas=1)"
    semantic = ChunkerConfig("semantic", threshold=0.5, max_chars=800)
    assert config_text(semantic, "pt") == "semantic(limiar=0,5, máx_caracteres=800)"


# --- the CLI keeps its English sentences ----------------------------------------------


def test_english_sentences_are_the_ones_the_cli_always_printed() -> None:
    said = diagnosis_text(outcome([0.2, 0.5, 0.1], 0.4).diagnosis)  # type: ignore[arg-type]
    assert said == ('Chunk #1 holds the answer "7 dias úteis", ranks first with 0.50 and '
                    "passes the floor 0.40.")

