"""``ragviz explain`` (issue 45 item 1): a support ticket (question, the bot's answer, maybe
the right answer) explained with no labels file, on the article's refund policy and on an
English FAQ written here; its labels are ``eval``'s own for the same question."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from tests.index_fixtures import DOC

FIXED = ["--chunker", "fixed", "--size", "120", "--overlap", "0", "--top-k", "1"]
QUESTION = "Qual o prazo do reembolso?"
FROM_CHUNK = ("Quando o cliente cancela a assinatura dentro do período de garantia, o valor "
              "pago é devolvido integralmente.")
FAQ = ("# Shipping\n\nOrders leave our warehouse on weekdays. Standard delivery takes five "
       "business days within the country. Express delivery arrives the next day for an extra "
       "fee.\n\n# Returns\n\nYou can return an unused item within thirty days of delivery. "
       "Refunds reach your card within ten business days after we receive the item.\n\n"
       "# Support\n\nOur team answers e-mails from Monday to Friday, nine to five.\n")


def _run(*args: str) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(list(args)) == 0, args
    return buffer.getvalue()


def _explain(*args: str) -> dict[str, Any]:
    return json.loads(_run("explain", *args, "--json"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def faq(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("explain") / "faq.md"
    path.write_text(FAQ, encoding="utf-8")
    return path


def _exact(out: dict[str, Any], texts: dict[str, str]) -> None:
    """Every chunk sent and every candidate slices its file exactly."""
    for row in [*out["context"], *out["candidates"]]:
        assert texts[row["source"]][row["start"]:row["end"]] == row["text"]


def test_an_answer_taken_from_the_chunk_sent_is_attributed_to_it(use_model: Embedder) -> None:
    out = _explain(str(DOC), *FIXED, "--question", QUESTION, "--bot-answer", FROM_CHUNK)
    _exact(out, {DOC.name: DOC.read_text(encoding="utf-8")})
    assert [c["index"] for c in out["context"]] == [1] and out["context"][0]["rank"] == 1
    assert [a["index"] for a in out["answer_from"]] == [1]
    assert out["answer_from"][0]["share"] >= 0.8
    assert any("7 dias úteis" in c["text"] for c in out["candidates"][:3])
    assert len(out["candidates"]) >= 3
    assert "labels" not in out and "explanation" not in out  # no label invented
    assert "comes from chunk #1" in out["summary"][0]


def test_an_answer_with_none_of_the_contexts_words_comes_from_no_chunk(
        use_model: Embedder) -> None:
    out = _explain(str(DOC), *FIXED, "--question", QUESTION,
                   "--bot-answer", "Trinta semanas, conforme a legislação europeia.")
    assert out["answer_from"] == [] and out["shares"][0]["share"] == 0
    text = _run("explain", str(DOC), *FIXED, "--question", QUESTION, "--bot-answer",
                "Trinta semanas, conforme a legislação europeia.", "--lang", "pt")
    assert "o modelo respondeu de outro lugar" in text


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_expected_gives_evals_labels_and_explanation(tmp_path: Path, use_model: Embedder,
                                                     lang: str) -> None:
    out = _explain(str(DOC), *FIXED, "--question", QUESTION, "--bot-answer",
                   "O documento não informa o prazo.", "--expected", "7 dias úteis",
                   "--lang", lang)
    questions = tmp_path / "q.csv"
    questions.write_text(f"question,answer\n{QUESTION},7 dias úteis\n", encoding="utf-8")
    row = json.loads(_run("eval", str(DOC), "--questions", str(questions), *FIXED, "--json",
                          "--lang", lang))["questions"][0]
    assert out["labels"] == row["labels"] and out["labels"]
    assert out["explanation"] == row["explanation"]
    assert out["diagnosis"] == row["diagnosis"]
    top = out["candidates"][0]  # the expected answer's passage first, at its offsets
    assert "7 dias úteis" in top["text"] and top["chunk"] == 2 and not top["sent"]
    assert out["summary"][-1].endswith(row["explanation"])


def test_an_english_faq_ticket_reads_as_a_support_answer(faq: Path, use_model: Embedder) -> None:
    args = [str(faq), "--chunker", "fixed", "--size", "100", "--overlap", "0", "--top-k", "1",
            "--question", "How long does a refund take?"]
    out = _explain(*args, "--bot-answer", "Refunds take thirty days.")
    _exact(out, {faq.name: FAQ})
    assert any("ten business days" in c["text"] for c in out["candidates"][:3])
    text = _run("explain", *args, "--bot-answer", "Refunds take thirty days.",
                "--expected", "ten business days")
    lines = text.splitlines()
    assert lines[0].startswith("The bot was sent chunk #")
    assert lines[1].startswith("The passage most likely to hold the right answer is faq.md ")
    assert "ten business days" in lines[1]
    assert lines[-1].startswith("Diagnosis [")


def test_a_bot_answer_past_the_limit_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(DOC), "--question", QUESTION,
                 "--bot-answer", "x" * 100_000]) == 2
    err = capsys.readouterr().err
    assert "the bot's answer is" in err and "Traceback" not in err


def test_a_production_index_is_explained_as_eval_index_labels_it(
        tmp_path: Path, use_model: Embedder) -> None:
    from tests.index_fixtures import SOURCE, fixed_120, write_jsonl

    chunks = fixed_120(DOC.read_text(encoding="utf-8"))
    vectors = use_model.encode_documents([c.text for c in chunks])
    index = tmp_path / "chunks.jsonl"
    write_jsonl(index, [{"page_content": c.text, "metadata": {"source": SOURCE},
                         "embedding": v.tolist()} for c, v in zip(chunks, vectors, strict=True)])
    given = ["--index", str(index), "--sources", str(DOC), "--top-k", "1"]
    out = _explain(*given, "--question", QUESTION, "--bot-answer", FROM_CHUNK,
                   "--expected", "7 dias úteis")
    assert out["chunker"] == "index()" and [c["index"] for c in out["context"]] == [1]
    assert [a["index"] for a in out["answer_from"]] == [1]
    questions = tmp_path / "q.csv"
    questions.write_text(f"question,answer\n{QUESTION},7 dias úteis\n", encoding="utf-8")
    row = json.loads(_run("eval", *given, "--questions", str(questions), "--json"))[
        "questions"][0]
    assert out["labels"] == row["labels"] == ["outranked"]
    assert out["explanation"] == row["explanation"]


def test_one_explanation_says_every_score_at_the_same_decimals(use_model: Embedder) -> None:
    """A chunk's score reads the same in each sentence: the candidates need three decimals
    (0.346 against 0.347), so the diagnosis says 0.346 too, not 0.35."""
    billing = Path(__file__).resolve().parent.parent / "sample_docs" / "billing_help_center.txt"
    text = _run("explain", str(billing), "--chunker", "fixed", "--size", "150", "--overlap",
                "0", "--question", "How do I cancel my subscription?",
                "--bot-answer", "You cannot cancel.",
                "--expected", "select Cancel subscription and confirm with your password")
    assert {len(d) for d in re.findall(r"\b\d\.(\d+)\b", text)} == {3}, text
    candidate = re.search(r"ranked (\d+) with (\d\.\d+)", text.splitlines()[1])
    diagnosis = re.search(r"ranks (\d+) with (\d\.\d+)", text.splitlines()[-1])
    assert candidate and diagnosis and candidate.groups() == diagnosis.groups(), text
