"""The HTML report's map (issue 23): a static inline SVG of the chunks and questions, with
every piece of user text escaped and no script, built by the report and by `ragviz report`."""

from __future__ import annotations

import re

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.map_svg import map_svg
from ragviz.present.report import render_report
from ragviz.projection.space import static_maps
from ragviz.share.workspace import DEFAULT_CONFIG_A, DEFAULT_CONFIG_B

HOSTILE = ('<script>alert("chunk")</script> Política de reembolso: o prazo é de 7 dias úteis. '
           '<img src=x onerror=alert(1)> O boleto compensa em até três dias úteis.')


def test_the_report_draws_the_map_of_a_and_b(use_model: Embedder, seed_doc: str,
                                             seed_questions: list[LabelledQuestion]) -> None:
    analyses = [analyse(seed_doc, config, use_model, seed_questions)
                for config in (DEFAULT_CONFIG_A, DEFAULT_CONFIG_B)]
    maps = static_maps(analyses, [use_model, use_model])
    assert len(maps) == 1, "one model: A and B share one space"
    html = render_report(analyses, lang="pt", maps=maps)
    assert "Mapa do espaço de embeddings (PCA)" in html
    svg = html[html.index("Mapa do espaço"):]
    assert svg.count("<circle") >= len(analyses[0].chunks)  # A's dots (+ calibration dots)
    assert svg.count("<path") == len(seed_questions)  # one diamond per question
    assert "Q7</text>" in svg and 'stroke-dasharray="6 4"' in svg  # the answer's dashed line
    assert "<script" not in html.lower()


def test_the_map_escapes_every_piece_of_user_text(use_model: Embedder) -> None:
    questions = [LabelledQuestion('Qual o prazo? <b onmouseover="x">', "7 dias úteis", True)]
    analysis = analyse(HOSTILE, DEFAULT_CONFIG_A, use_model, questions)
    drawn = static_maps([analysis], [use_model])[0]
    svg = str(map_svg(drawn))
    assert "<script" not in svg and "<img" not in svg and "<b " not in svg
    assert "&lt;script&gt;" in svg and "&lt;b onmouseover=&#x27;x&#x27;&gt;" not in svg
    assert "&lt;b onmouseover=&quot;x&quot;&gt;" in svg
    html = render_report([analysis], lang="en", maps=[drawn])
    assert not re.search(r"<(script|img)\b", html, re.IGNORECASE)


def test_a_report_without_maps_has_no_map_section(use_model: Embedder, seed_doc: str,
                                                  seed_questions: list[LabelledQuestion]
                                                  ) -> None:
    html = render_report([analyse(seed_doc, DEFAULT_CONFIG_A, use_model, seed_questions)])
    assert "Map of the embedding space" not in html


def test_many_questions_are_marks_past_the_labelled_ones(use_model: Embedder,
                                                         seed_doc: str) -> None:
    """Issue 37 item 25: 5,000 questions' diamonds, labels and lines were a black blob."""
    from ragviz.present.map_svg import MAX_LABELLED

    questions = [LabelledQuestion(f"Qual o prazo número {n}?", "7 dias úteis", True)
                 for n in range(MAX_LABELLED + 70)]
    analysis = analyse(seed_doc, DEFAULT_CONFIG_A, use_model, questions)
    svg = str(map_svg(static_maps([analysis], [use_model])[0]))
    assert svg.count("<path") == MAX_LABELLED  # labelled diamonds
    assert f"Q{MAX_LABELLED}</text>" in svg and f"Q{MAX_LABELLED + 1}</text>" not in svg
    assert svg.count("<line") <= MAX_LABELLED * (analysis.top_k + 2)
    assert "the other 70 are the small dots" in svg
