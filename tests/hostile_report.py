"""A document and questions full of markup, for the report's escaping tests (in-process and
in a real Chromium): every piece must come out as text, never as a tag or a script."""

from __future__ import annotations

from ragviz.inputs.questions import LabelledQuestion

HOSTILE_DOC = (
    "Refunds. <script>alert(1)</script> Refunds take 7 days.\n\n"
    "<img src=x onerror=alert(1)> Support answers on weekdays. "
    '"><svg onload=alert(1)> The end.'
)
HOSTILE_QUESTIONS = [
    LabelledQuestion("How long do <b>refunds</b> take?", "7 days", True),
    LabelledQuestion("<script>alert('q')</script> wifi?", "", False),
]
