"""The colours every view shares (score bars, the floor line, the answer's outline): the
app's charts, the highlighted document and the HTML report draw with the same ones."""

from __future__ import annotations

HIT = "#1d4ed8"
UNDER_FLOOR = "#f59e0b"
OTHER = "#cbd5e1"
FLOOR = "#dc2626"
ANSWERABLE = "#16a34a"
UNANSWERABLE = "#9333ea"
