"""A bar's status as the browser computes it: the score chart's Vega expression
(``ragviz.present.charts.status_expression``) evaluated in Python over the chart's two
datasets, since the data itself carries no status. A test's reading of a spec, not the product's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ragviz.i18n import t
from ragviz.present.charts import STATUS_KEYS


def chart_statuses(rows: Sequence[Mapping[str, Any]], retrieval: Mapping[str, Any],
                   lang: str = "en") -> list[str]:
    """Each bar's status from its rank and score and the decision's top_k and floor."""
    context, under, other = (t(f"chart.status_{key}", lang) for key in STATUS_KEYS)
    return [(context if row["score"] >= retrieval["decided"] else under)
            if row["rank"] <= retrieval["top_k"] else other for row in rows]
