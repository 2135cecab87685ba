"""The seed article's numbers as the tests replay them (seed/000_83e5f4a51228e27c.txt).

``ARTICLE_FLOOR`` is the article's calibrated floor on the bundled model: the article's
procedure (take each of its seven labelled questions' best score and put the floor between
the lowest answerable and the highest unanswerable) run on its refund policy
(``sample_docs/politica_reembolso``) with sentence chunks of 220 characters and one sentence
of overlap, on ``use-multilingual``. The groups separate (lowest answerable 0.24, highest
unanswerable 0.14) and the floor sits between them at 0.19, the floor the app starts with
(configuration B's calibrated floor) and ``tests/golden/single_document_calibrate.json``
records. The article printed 0.41 for the model it used: a floor holds for one model only.
A test that means this floor names it; a number in a formatting test is just a number.
"""

from __future__ import annotations

ARTICLE_FLOOR = 0.19


def article_floor_text(lang: str = "en") -> str:
    """The floor as the page writes it with two decimals: 0.19 in English, 0,19 in Portuguese."""
    text = f"{ARTICLE_FLOOR:.2f}"
    return text.replace(".", ",") if lang == "pt" else text
