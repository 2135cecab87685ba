"""How far a sweep is, in words: the CLI's progress line and the app's progress bar."""

from __future__ import annotations

from ragviz.evaluation.sweeping import SweepStep, time_left_text
from ragviz.i18n import grouped, t


def step_text(step: SweepStep, lang: str) -> str:
    """Configurations done, chunk texts embedded (within a configuration too) and the time
    left at the pace so far (issue 44.4)."""
    parts = [t("sweep.progress", lang, done=step.rows_done, total=step.rows_total)]
    if step.texts_total:
        parts.append(t("sweep.progress_texts", lang, done=grouped(step.texts_done, lang),
                       total=grouped(step.texts_total, lang)))
    left = time_left_text(step.seconds_left())
    if left is not None:
        parts.append(t("sweep.time_left", lang, time=left))
    return " · ".join(parts)
