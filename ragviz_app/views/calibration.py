"""The calibration tab: the cost weights, and for A and B the suggested floor, its margin,
the score strip and (when the labels overlap) the trade-off curve."""

from __future__ import annotations

import streamlit as st

from ragviz.evaluation.calibration import Calibration, calibrate_outcomes
from ragviz.evaluation.results import Analysis
from ragviz.present import charts, presentation
from ragviz_app.common import lang, scale_of, side_by_side, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import set_floor


def calibration_tab(frame: Frame) -> None:
    weights = st.columns(2)
    for column, key in zip(weights, ("cost_refusal", "cost_answer"), strict=True):
        column.number_input(tr(f"app.{key}"), 0.0, 100.0, step=0.5, key=key)
    for side, current in side_by_side(frame.analyses):
        if current is not None:
            calibration_view(current, side)


def calibration_view(analysis: Analysis, side: str) -> None:
    outcomes = analysis.outcomes
    labelled = [o for o in outcomes if o.question.is_answerable is not None and o.decision.ranked]
    if analysis.calibration is None:
        st.info(tr("app.calibration_needs"))
        return
    calibration: Calibration = calibrate_outcomes(labelled, ss.cost_refusal, ss.cost_answer,
                                                  scale_of(analysis))
    first, second = st.columns(2)
    first.metric(tr("app.suggested_floor"), presentation.format_score(calibration.floor, lang()))
    second.metric(tr("app.margin"), presentation.format_score(calibration.margin, lang()))
    st.write(presentation.calibration_message(calibration, lang()))
    st.altair_chart(charts.localised(
        charts.calibration_strip(calibration, labelled, analysis.floor, lang()), lang()),
                    width="stretch")
    if not calibration.separable:
        st.altair_chart(charts.localised(charts.tradeoff_curve(calibration, lang()), lang()),
                        width="stretch")
    st.button(tr("app.apply_floor"), key=f"apply_floor_{side}", on_click=set_floor,
              args=(calibration.floor, side), type="primary")
