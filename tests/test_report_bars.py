"""The report's score bars speak the app's language: its colours, its legend words."""

from __future__ import annotations

import re

import pytest

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.i18n import LANGUAGES, t
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.palette import FLOOR, HIT, OTHER, UNDER_FLOOR
from ragviz.present.report import render_report, score_svg
from ragviz.share.workspace import DEFAULT_CONFIG_B


@pytest.fixture(scope="module")
def analysis(use_model: Embedder, seed_doc: str,
             seed_questions: list[LabelledQuestion]) -> Analysis:
    # a floor between the two best scores of the first question: one bar sent, one in
    # top_k but under the floor, the rest not retrieved
    base = analyse(seed_doc, DEFAULT_CONFIG_B, use_model, seed_questions)
    scores = sorted(base.outcomes[0].decision.scores, reverse=True)
    return analyse(seed_doc, DEFAULT_CONFIG_B, use_model, seed_questions,
                   RetrievalSettings(2, (scores[0] + scores[1]) / 2))


def test_each_bar_has_the_colour_of_what_retrieval_did(analysis: Analysis) -> None:
    outcome = analysis.outcomes[0]
    svg = score_svg(outcome, analysis)
    ranking = outcome.decision.ranking
    fills_in_order = re.findall(r'<rect [^>]*fill="(#[0-9a-f]+)"', svg)
    assert fills_in_order[0] == HIT and fills_in_order[1] == UNDER_FLOOR
    assert set(fills_in_order[2:]) == {OTHER}
    assert len(fills_in_order) == len(ranking)
    assert f'stroke="{FLOOR}"' in svg


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bars_carry_the_apps_legend(analysis: Analysis, lang: str) -> None:
    report = render_report([analysis], None, lang)
    for key in ("chart.status_context", "chart.status_under_floor", "chart.status_other"):
        assert f"</i>{t(key, lang)}</span>" in report


def test_the_report_opens_the_document_box_for_print_and_full_page_shots(
    analysis: Analysis,
) -> None:
    report = render_report([analysis], None, "en")
    assert "body .rv-doc{max-height:none;overflow:visible}" in report
    assert "@media print" in report
