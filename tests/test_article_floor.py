"""The article's floor the tests name (``tests/article.py``) is what the article's procedure
measures on the bundled model, so a model or calibration change shows up here first."""

from __future__ import annotations

from article import ARTICLE_FLOOR, article_floor_text

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.inputs.questions import LabelledQuestion


def test_the_article_floor_is_the_floor_calibrated_on_the_article(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    config = ChunkerConfig("sentence", max_chars=220, overlap_sentences=1)
    calibration = analyse(seed_doc, config, use_model, seed_questions).calibration
    assert calibration is not None and calibration.separable
    assert round(calibration.floor, 2) == ARTICLE_FLOOR


def test_the_article_floor_is_written_as_the_page_writes_it() -> None:
    assert (article_floor_text(), article_floor_text("pt")) == ("0.19", "0,19")
