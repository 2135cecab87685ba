"""Issue 34 item 4 and issue 33 items 5/7 in the report and the downloads: the LLM's answers
(from the loopback chat server of tests/chat_server.py) with their verdicts, escaped, the
answers' metrics, the verdicts that flip from A to B, the CSV's columns, and the table of the
failures each other retrieval setting fixes and breaks (``report --also``)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from article import ARTICLE_FLOOR

from ragviz.answering.chat import ChatModel
from ragviz.answering.prompt import default_template, token_counter
from ragviz.answering.run import AnswerSet, Asker, answer_all, answer_set, llm_metrics
from ragviz.answering.verdict import CORRECT, WRONG_CHUNK
from ragviz.chunking import ChunkerConfig
from ragviz.cli import command as cli
from ragviz.embedding.base import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.exports import LLM_COLUMNS, answers_csv, results_csv
from ragviz.present.report import render_report
from tests.test_llm_answer import FIXED, KEY, MODEL, REFUND, SAMPLE, SENTENCE, serve

HOSTILE = ("=SUM(1+1) Refunds take <b>7 days</b> <script>alert(1)</script> after approval.\n\n"
           "Boletos clear in three business days.\n")
QUESTIONS = [LabelledQuestion("How long do refunds take?", "7 days", True),
             LabelledQuestion("What is the office wifi password?", "", False)]


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    yield from serve()


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the operator allows the test server


def _asked(analysis: Analysis, base: str, lang: str = "en") -> AnswerSet:
    asker = Asker(ChatModel(MODEL, base), default_template(lang), token_counter(MODEL))
    results = answer_all(analysis, asker)
    return AnswerSet(asker.model.name, tuple(results),
                     llm_metrics(analysis.outcomes, results, asker.calls))


@pytest.fixture(scope="module")
def hostile(use_model: Embedder, base: str) -> tuple[Analysis, AnswerSet]:
    import os

    os.environ["RAGVIZ_LLM_API_KEY"] = KEY  # module scope: monkeypatch is per test
    os.environ["RAGVIZ_KEY_HOSTS"] = "127.0.0.1"  # the operator allows the test server
    analysis = analyse(HOSTILE, ChunkerConfig("sentence", max_chars=220), use_model, QUESTIONS,
                       RetrievalSettings(top_k=1))
    try:
        return analysis, _asked(analysis, base)
    finally:
        del os.environ["RAGVIZ_KEY_HOSTS"]


def test_the_report_carries_each_answer_escaped_with_its_verdict_and_metrics(
        hostile: tuple[Analysis, AnswerSet]) -> None:
    analysis, answers = hostile
    assert answers.results[0] is not None and answers.results[0].verdict == CORRECT
    html = render_report([analysis], answers=[answers])
    assert "<script>" not in html and "<b>7 days</b>" not in html
    answer = re.search(r'<p class="llm">(.*?)</p>', html, re.S)
    assert answer is not None, "no LLM answer in the report"
    said = answer.group(1)
    assert '<b class="ok">correct</b>' in said
    assert "&lt;b&gt;7 days&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;" in said
    assert "hallucinated" in html or "refused by the LLM" in html or "not asked" in html
    assert f"LLM answers: openai:{MODEL} @ " in html
    for name in ("answer accuracy", "LLM refusal precision", "LLM refusal recall", "calls",
                 "tokens (prompt + completion)"):
        assert f'<span class="metric">{name}<b>' in html
    assert KEY not in html


def test_a_report_without_an_llm_has_no_answer_part(hostile: tuple[Analysis, AnswerSet]
                                                     ) -> None:
    html = render_report([hostile[0]])
    assert 'class="llm"' not in html and "LLM answers" not in html


def test_the_results_csv_carries_the_answers_and_the_answers_csv_guards_them(
        hostile: tuple[Analysis, AnswerSet]) -> None:
    analysis, answers = hostile
    rows = list(csv.DictReader(io.StringIO(results_csv([analysis], "en", [answers]))))
    assert set(LLM_COLUMNS) <= set(rows[0])
    assert rows[0]["llm_verdict"] == CORRECT and rows[0]["llm_model"].startswith("openai:")
    assert rows[0]["llm_answer"].startswith("'=SUM(1+1) Refunds take <b>7 days</b>")
    assert int(rows[0]["llm_prompt_tokens"]) > 0 and float(rows[0]["llm_latency_s"]) >= 0
    assert "llm_verdict" not in next(csv.reader(io.StringIO(results_csv([analysis]))))
    table = list(csv.DictReader(io.StringIO(answers_csv([analysis], [answers], "en"))))
    assert list(table[0]) == ["configuration", "scorer", "question", "expected",
                              "answerable", *LLM_COLUMNS]
    assert [row["question"] for row in table] == [q.question for q in QUESTIONS]
    assert table[0]["llm_verdict_text"] == "correct"
    assert table[0]["llm_answer"].startswith("'=SUM")  # a formula shown, never evaluated
    assert table[1]["llm_verdict"] in ("not-asked", "hallucinated", "refused-by-llm")


def test_a_question_not_asked_yet_has_empty_llm_cells(hostile: tuple[Analysis, AnswerSet]
                                                      ) -> None:
    analysis, answers = hostile
    partial = answer_set(answers.model, analysis.outcomes, (answers.results[0], None))
    assert not partial.complete and partial.metrics.calls == 1
    rows = list(csv.DictReader(io.StringIO(answers_csv([analysis], [partial]))))
    assert rows[1]["llm_model"] == answers.model and rows[1]["llm_verdict"] == ""
    html = render_report([analysis], answers=[partial])
    assert "not asked yet" in html


def test_report_llm_names_the_wrong_chunk_and_report_also_tables_fixes_and_breaks(
        base: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    code = cli.main(["report", *SAMPLE, *FIXED, "--lang", "pt", "--llm", f"openai:{MODEL}",
                     "--llm-base", base, "--also", "bm25", "--also", "hybrid",
                     "--html", str(out)])
    said = capsys.readouterr()
    assert code == 0, said.err
    html = out.read_text(encoding="utf-8")
    assert KEY not in html + said.out + said.err
    refund = html[html.index(f"<h3>{REFUND}"):]
    refund = refund[: refund.index('<div class="q">') if '<div class="q">' in refund else None]
    assert "respondida a partir do chunk errado" in refund and "chunk #1" in refund
    assert "três dias úteis" in refund
    assert "acurácia das respostas" in html
    study = html[html.index('<table class="study">'):]
    study = study[: study.index("</table>")]
    assert "<td>bm25</td>" in study and "<td>hybrid</td>" in study
    assert "O que outras configurações de recuperação corrigem e quebram" in html


def test_the_report_lists_the_verdicts_that_flip_from_a_to_b(
        use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion],
        base: str) -> None:
    settings = RetrievalSettings(top_k=1)
    a = analyse(seed_doc, ChunkerConfig("fixed", size=120, overlap=0), use_model,
                seed_questions, settings)
    b = analyse(seed_doc, ChunkerConfig("sentence", max_chars=220, overlap_sentences=1),
                use_model, seed_questions, RetrievalSettings(top_k=1, floor=ARTICLE_FLOOR))
    answers = [_asked(a, base, "pt"), _asked(b, base, "pt")]
    position = [o.question.question for o in a.outcomes].index(REFUND)
    assert [s.results[position].verdict for s in answers  # type: ignore[union-attr]
            ] == [WRONG_CHUNK, CORRECT]
    html = render_report([a, b], lang="en", answers=answers)
    flips = html[html.index("Questions whose LLM verdict flips"):]
    flips = flips[: flips.index("</table>")]
    row = next(r for r in flips.split("<tr") if REFUND in r)
    assert "answered from the wrong chunk" in row and ">correct<" in row
    assert "fixed by B" in row
    assert SENTENCE  # the CLI's B (sentence 220/1, the article's floor), as above


def test_a_reranked_report_gives_each_bar_its_first_stage_rank(
        use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]) -> None:
    settings = RetrievalSettings(top_k=1, scorer="hybrid+rerank(sentence-max)")
    analysis = analyse(seed_doc, ChunkerConfig("fixed", size=120, overlap=0), use_model,
                       seed_questions, settings)
    html = render_report([analysis])
    first = analysis.outcomes[0]
    assert first.first_stage is not None and first.diagnosis is not None
    ranked = sorted(range(len(first.first_stage)), key=lambda i: -first.first_stage[i])
    chunk = int(first.decision.ranking[0])
    assert f"<title>#{chunk}: " in html
    assert f"first-stage rank #{ranked.index(chunk) + 1}</title>" in html
    note = (f"The answer&#39;s chunk: first stage #{first.diagnosis.first_rank} → "
            f"#{first.diagnosis.answer_rank} after reranking.")
    assert note in html
    assert "first-stage rank" not in render_report([analyse(
        seed_doc, ChunkerConfig("fixed", size=120, overlap=0), use_model, seed_questions,
        RetrievalSettings(top_k=1))])


def test_past_twenty_questions_the_table_carries_each_verdict(use_model: Embedder,
                                                              base: str) -> None:
    questions = [LabelledQuestion(f"How long do refunds take, case {n}?", "7 days", True)
                 for n in range(21)]
    analysis = analyse(HOSTILE, ChunkerConfig("sentence", max_chars=220), use_model, questions,
                       RetrievalSettings(top_k=1))
    answers = _asked(analysis, base)
    html = render_report([analysis], answers=[answers])
    table = html[html.index('<table class="all-questions">'):]
    table = table[: table.index("</table>")]
    assert "<th>LLM</th>" in table
    rows = table.split("<tr>")[2:]
    assert len(rows) == 21
    assert all(row.endswith(f"<td>{result.verdict}</td></tr>")  # type: ignore[union-attr]
               for row, result in zip(rows, answers.results, strict=True))


def test_compare_says_what_bs_scorer_fixes_and_breaks(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert cli.main(["compare", *SAMPLE, *FIXED, "--b-chunker", "fixed", "--b-size", "120",
                     "--b-overlap", "0", "--b-scorer", "bm25"]) == 0
    lines = capsys.readouterr().out.splitlines()
    fixed = sum(1 for line in lines if line.startswith("  [fixed] "))
    broken = sum(1 for line in lines if line.startswith("  [broken] "))
    assert f"B's bm25 fixes {fixed}, breaks {broken}" in lines and fixed >= 1
    assert cli.main(["compare", *SAMPLE, *FIXED, "--b-chunker", "sentence"]) == 0
    assert "B's " not in capsys.readouterr().out  # one scorer: nothing to say about it
