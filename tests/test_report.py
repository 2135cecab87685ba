"""The HTML report: self-contained, escaped, and inert in a real headless Chromium."""

from __future__ import annotations

import html as html_text
import re

import pytest
from hostile_report import HOSTILE_DOC, HOSTILE_QUESTIONS

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.experiments import compare
from ragviz.evaluation.pipeline import analyse
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.label_words import hover_text
from ragviz.present.presentation import label_name
from ragviz.present.report import render_report

# A label as the report draws it: its name, its definition and fix on hover.
LABEL_CHIP = re.compile(r'<span class="label(?: ok)?" data-label="([a-z-]+)" '
                        r'title="([^"]*)">([^<]*)</span>')


def label_chips(fragment: str, lang: str = "en") -> list[str]:
    """The labels drawn in ``fragment``, each checked to carry its own name and hover text;
    the fragment holds nothing but them (and separators)."""
    found = LABEL_CHIP.findall(fragment)
    for label, title, name in found:
        assert html_text.unescape(title) == hover_text(label, lang)
        assert html_text.unescape(name) == label_name(label, lang)
    assert not LABEL_CHIP.sub("", fragment).strip(" ,0123456789"), fragment
    return [label for label, _, _ in found]


@pytest.fixture(scope="module")
def hostile_html(use_model: Embedder) -> str:
    a = analyse(HOSTILE_DOC, ChunkerConfig("fixed", size=40), use_model, HOSTILE_QUESTIONS)
    b = analyse(HOSTILE_DOC, ChunkerConfig("sentence", max_chars=80), use_model, HOSTILE_QUESTIONS)
    return render_report([a, b], compare(a, b), lang="en")


def test_report_escapes_every_piece_of_user_text(hostile_html: str) -> None:
    assert "<script>" not in hostile_html
    assert "<img src=x" not in hostile_html
    assert "<svg onload" not in hostile_html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile_html
    assert "&lt;b&gt;refunds&lt;/b&gt;" in hostile_html


def test_report_needs_nothing_from_the_network(hostile_html: str) -> None:
    assert "http://" not in hostile_html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in hostile_html
    assert "script-src" not in hostile_html and "default-src 'none'" in hostile_html


def test_report_in_both_languages(use_model: Embedder, seed_doc: str) -> None:
    questions = [LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis", True)]
    analysis = analyse(seed_doc, ChunkerConfig("fixed"), use_model, questions)
    html = render_report([analysis], lang="pt")
    assert 'lang="pt-BR"' in html and "Perguntas" in html


def test_portuguese_report_has_no_english_chart_labels(use_model: Embedder, seed_doc: str) -> None:
    questions = [
        LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis", True),
        LabelledQuestion("Qual a senha do wifi?", "", False),
    ]
    a = analyse(seed_doc, ChunkerConfig("fixed"), use_model, questions)
    b = analyse(seed_doc, ChunkerConfig("sentence"), use_model, questions)
    html = render_report([a, b], compare(a, b), lang="pt")
    assert "piso " in html and "com resposta" in html and "sem resposta" in html
    assert ">floor " not in html and ">answerable<" not in html


def test_a_corpus_report_labels_chunks_and_bars_by_file(use_model: Embedder) -> None:
    from ragviz.inputs.corpus import Corpus, Source

    corpus = Corpus((
        Source("refunds.txt", "Refunds. Refunds take 7 days after the return arrives."),
        Source("<b>evil</b>.md", "# Support\n\nSupport answers on weekdays from 9 to 5."),
    ))
    questions = [LabelledQuestion("How long do refunds take?", "7 days", True)]
    analysis = analyse(corpus, ChunkerConfig("sentence", max_chars=80), use_model, questions)
    html = render_report([analysis], lang="en")
    assert '<h4 class="file">refunds.txt · ' in html
    assert '<h4 class="file">&lt;b&gt;evil&lt;/b&gt;.md · ' in html
    assert "<b>evil</b>" not in html
    for chunk in analysis.chunks:
        assert f"#{chunk.index} " + (chunk.source if "<" not in chunk.source
                                     else "&lt;b&gt;evil&lt;/b&gt;.md") in html
    single = render_report([analyse(corpus.sources[0].text, ChunkerConfig("sentence",
                                    max_chars=80), use_model, questions)], lang="en")
    assert '<h4 class="file">' not in single and "refunds.txt" not in single


def test_the_report_counts_answerable_questions_the_floor_refused(
    use_model: Embedder, seed_doc: str,
) -> None:
    """Issue 19 medium 7 in the report, next to the refusal figures, in both languages."""
    from ragviz.evaluation.results import RetrievalSettings
    questions = [LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis", True),
                 LabelledQuestion("Qual a senha do wifi?", "", False)]
    analysis = analyse(seed_doc, ChunkerConfig("sentence"), use_model, questions,
                       RetrievalSettings(2, 0.95))
    assert analysis.metrics.answerable_refused == 1
    assert "1 of 1 answerable refused" in render_report([analysis], lang="en")
    assert "respondíveis recusadas: 1 de 1" in render_report([analysis], lang="pt")


def test_the_report_is_a_template_with_autoescape() -> None:
    """The page is report.html.j2 rendered by Jinja2 with autoescape, not HTML in
    f-strings with html.escape here and there (issue 18 part 7)."""
    from pathlib import Path

    from ragviz.present import report

    source = Path(report.__file__).read_text(encoding="utf-8")
    assert Path(report.__file__).with_name("report.html.j2").is_file()
    assert "from html import escape" not in source and "<div" not in source
    assert report._macros().outcome({
        "labels": [{"ok": False, "name": "<b>", "title": "\"<i>", "label": "\"<u>"}],
        "verdict": "<script>", "css": "bad", "explanation": None, "svg": "",
        "prompt_title": "p", "prompt": "&"}) == (
        '<div><span class="label" data-label="&#34;&lt;u&gt;" title="&#34;&lt;i&gt;">'
        '&lt;b&gt;</span>'
        '<b class="bad">&lt;script&gt;</b>'
        "<details><summary>p</summary><pre>&amp;</pre></details></div>")


def test_a_report_of_many_questions_is_a_table_and_the_worst_drawn(
        use_model: Embedder) -> None:
    """Issue 20: a thousand questions must not draw a thousand chart pairs. Past
    DRAWN_QUESTIONS the report lists every question (labels, recall, IoU) and draws only
    the worst in full, worst first, and says so; a question's bars stop at MAX_BARS."""
    import re
    from pathlib import Path

    from ragviz.evaluation.excerpts import resolve_questions
    from ragviz.inputs.corpus import load_paths
    from ragviz.inputs.questions import parse_questions_csv
    from ragviz.present.report import DRAWN_QUESTIONS, MAX_BARS, worst_questions
    from tests.chroma_questions import chroma_questions

    folder = Path(__file__).resolve().parent.parent / "sample_docs" / "help_center"
    corpus = load_paths([str(folder)])
    asked, _ = resolve_questions(parse_questions_csv(chroma_questions(folder, 45)), corpus)
    asked.append(LabelledQuestion("<script>alert(1)</script> refunds?", "", False))
    analysis = analyse(corpus, ChunkerConfig("fixed", size=60), use_model, asked)
    assert len(analysis.chunks) > MAX_BARS
    html = render_report([analysis], lang="en")
    rows = re.findall(r"<tr><td>(\d+)</td>", html)
    assert rows == [str(n) for n in range(1, 47)]
    assert html.count('<div class="q">') == DRAWN_QUESTIONS
    assert (f"46 questions: the table lists every one with its labels, recall and IoU; only "
            f"the {DRAWN_QUESTIONS} worst") in html
    worst = worst_questions([analysis], DRAWN_QUESTIONS)
    first = analysis.outcomes[worst[0]]
    assert first.diagnosis is not None and not first.diagnosis.ok
    drawn = re.findall(r'<div class="q"><h3>([^<]*)', html)
    assert drawn[0].startswith(first.question.question.replace("?", "")[:20])
    assert max(svg.count("<rect") for svg in html.split("<svg")[1:]) <= MAX_BARS
    assert f"the {MAX_BARS} best of {len(analysis.chunks):,} chunks" in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)" in html
    # every question's labels in the table, each with its definition on hover
    cells = re.findall(r"<tr><td>\d+</td><td>[^<]*</td><td>(.*?)</td>", html)
    assert [label_chips(c) for c in cells] == [
        list(o.diagnosis.labels) if o.diagnosis else [] for o in analysis.outcomes]
    assert "piores (erradas primeiro" in render_report([analysis], lang="pt")


def test_hit_at_1_is_listed_once_at_top_k_1() -> None:
    """Issue 36, low: at top_k 1 the report said "hit@1" twice (hit@k is hit@1 there)."""
    from ragviz.present.presentation import shown_metrics

    assert "hit_at_k" not in shown_metrics(1) and "hit_at_k" in shown_metrics(3)
    assert shown_metrics(1).count("hit_at_1") == 1


def test_every_table_column_has_a_header(hostile_html: str) -> None:
    """The flips table's last column (fixed / broken by B) had an empty header."""
    assert "flip" in hostile_html  # the compare report has its flips table
    assert "<th></th>" not in hostile_html
    assert "<th>Change</th>" in hostile_html


def test_a_bm25_report_and_its_tables_name_bm25(use_model: Embedder, seed_doc: str) -> None:
    """Issue 48 item 7: the report's header read "floor 0.00" and never said bm25; the
    header, the results CSV and the command line's md tables name the scorer, its reranker
    and the expansion."""
    import csv
    import io

    from ragviz.cli.tables import markdown, tables
    from ragviz.evaluation.results import RetrievalSettings
    from ragviz.present.exports import results_csv

    questions = [LabelledQuestion("Qual o prazo do estorno?", "7 dias úteis", True)]
    bm25 = analyse(seed_doc, ChunkerConfig("fixed", size=200, overlap=0), use_model, questions,
                   RetrievalSettings(top_k=2, floor=0.0, scorer="bm25", expand=1))
    html = render_report([bm25])
    assert "scorer bm25" in html and "expansion 1" in html
    assert "pontuação bm25" in render_report([bm25], lang="pt")
    rows = list(csv.DictReader(io.StringIO(results_csv([bm25]))))
    assert {(row["scorer"], row["expand"]) for row in rows} == {("bm25", "1")}
    payload = {"model": "m", "scorer": "bm25", "reranker": None, "expand": 1, "metrics": {},
               "questions": []}
    assert "| scorer | bm25 |" in markdown(tables("eval", payload))


def test_every_label_the_report_shows_has_its_definition_on_hover(
        hostile_html: str, use_model: Embedder, seed_doc: str) -> None:
    """Issue 43: the metrics' label counts and the flips named labels as plain text; now
    each is a chip whose hover says what it means and what to change (in pt too)."""
    counts = re.findall(r'<p class="label-counts">[^:<]*: (.*?)</p>', hostile_html)
    assert len(counts) == 2 and all(label_chips(line) for line in counts)
    flips = re.findall(r'<tr class="flip"><td>[^<]*</td><td>(.*?)</td><td>(.*?)</td>',
                       hostile_html)
    assert flips
    for cell in (cell for row in flips for cell in row):
        assert cell == "—" or len(label_chips(cell)) == 1
    questions = [LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis", True)]
    pt = render_report([analyse(seed_doc, ChunkerConfig("fixed"), use_model, questions)],
                       lang="pt")
    line = re.findall(r'<p class="label-counts">[^:<]*: (.*?)</p>', pt)
    assert len(line) == 1 and label_chips(line[0], "pt")
