"""Issue 34: the LLM's answer. The built prompt asked of an OpenAI-compatible chat server the
tests start on loopback (tests/chat_server.py, a model answering by a fixed rule), the answer
judged, every fault one sentence for its question, the key in no output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from article import ARTICLE_FLOOR

from ragviz.answering.chat import ChatModel
from ragviz.answering.prompt import (
    ESTIMATE,
    TokenCounter,
    build_llm_prompt,
    check_template,
    fill,
    token_counter,
)
from ragviz.answering.verdict import (
    ANSWERED,
    CORRECT,
    HALLUCINATED,
    INCORRECT,
    NOT_ASKED,
    REFUSED_BY_LLM,
    WRONG_CHUNK,
    SentChunk,
    judge,
    normalise,
)
from ragviz.chunking import ChunkerConfig
from ragviz.chunking.base import Chunk
from ragviz.cli import command as cli
from ragviz.embedding.base import Embedder
from ragviz.errors import InputError, LLMError
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import parse_questions_csv
from ragviz.present.presentation import prompt_text
from ragviz.retrieval.decision import Hit
from tests.loopback import serve_script
from tests.test_openai_embedder import AS_FROM_A_TERMINAL

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "chat_server.py"
KEY = "sk-llm-test-5d1e-never-print-me"
MODEL = "test-llm"
SAMPLE = ["sample:politica_reembolso", "--questions", "sample:politica_reembolso"]
FIXED = ["--chunker", "fixed", "--size", "120", "--overlap", "0", "--top-k", "1"]
SENTENCE = ["--chunker", "sentence", "--max-chars", "220", "--overlap-sentences", "1",
            "--top-k", "1", "--floor", str(ARTICLE_FLOOR)]
REFUND = "Qual o prazo do reembolso?"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    """The chat server on a free port of 127.0.0.1, stopped after the module."""
    yield from serve()


def serve() -> Iterator[str]:
    """Start the chat server, yield its base URL, stop it."""
    yield from serve_script(SERVER, "--key", KEY, "--model", MODEL)


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _control(base: str, path: str, payload: dict[str, Any] | None = None) -> Any:
    data = None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(base.removesuffix("/v1") + path, data=data)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _calls(base: str) -> int:
    return int(_control(base, "/control/stats")["calls"])


def _eval(base: str, capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, Any]:
    code = cli.main(["eval", *SAMPLE, "--lang", "pt", "--json", "--llm", f"openai:{MODEL}",
                     "--llm-base", base, *options])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert KEY not in out.out + out.err
    payload: dict[str, Any] = json.loads(out.out)
    return payload


def _row(payload: dict[str, Any], question: str) -> dict[str, Any]:
    return next(r for r in payload["questions"] if r["question"] == question)


# --- the verdict and the prompt, without a server --------------------------------------------

def test_correct_is_the_expected_text_normalised_for_case_accents_and_spaces() -> None:
    assert normalise("  Até  7 DIAS Úteis ") == "ate 7 dias uteis"
    assert judge("O estorno leva ate 7  dias UTEIS.", True, "7 dias úteis", ()) == (CORRECT, None)


@pytest.mark.parametrize("said", ["Não sei.", "I don't know.", "I do not know the answer",
                                  "A resposta não está nos trechos."])
def test_a_model_that_does_not_know_is_a_refusal_in_en_and_pt(said: str) -> None:
    assert judge(said, True, "7 dias úteis", ())[0] == REFUSED_BY_LLM
    assert judge(said, False, "", ())[0] == REFUSED_BY_LLM


def test_an_extra_refusal_phrase_is_recognised() -> None:
    assert judge("Sem dados.", True, "x", ())[0] == INCORRECT
    assert judge("Sem dados.", True, "x", (), ("sem dados",))[0] == REFUSED_BY_LLM


def test_not_asked_hallucinated_and_unlabelled() -> None:
    assert judge(None, False, "", ()) == (NOT_ASKED, None)
    assert judge("O wifi é abc123.", False, "", ()) == (HALLUCINATED, None)
    assert judge("Algo.", None, "", ()) == (ANSWERED, None)


def test_the_answer_from_a_chunk_without_the_answer_names_that_chunk() -> None:
    sent = [SentChunk(1, "até três dias úteis. Reembolso. Quando o cliente cancela", False),
            SentChunk(2, "O prazo é de até 7 dias úteis", True)]
    assert judge("até três dias úteis.", True, "7 dias úteis", sent) == (WRONG_CHUNK, 1)
    assert judge("O prazo é de até 8 dias", True, "7 dias úteis", sent) == (INCORRECT, None)


def test_the_template_needs_both_fields_and_keeps_other_braces() -> None:
    with pytest.raises(InputError, match=r"\{question\}"):
        check_template("Contexto: {context}")
    assert fill('{"ctx": "{context}"} {question}', "A {question} B", "Q?") == \
        '{"ctx": "A {question} B"} Q?'


def test_the_budget_cuts_the_context_and_says_where() -> None:
    text = "um dois três quatro cinco seis sete oito nove dez"
    chunk = Chunk(0, 0, len(text), text)
    counter = TokenCounter(ESTIMATE, lambda s: s.split(), " ".join)
    whole = build_llm_prompt("Q?", [chunk], [Hit(0, 0.9)], "{context}|{question}", counter)
    cut = build_llm_prompt("Q?", [chunk], [Hit(0, 0.9)], "{context}|{question}", counter, 4)
    assert whole is not None and whole.text == f"{text}|Q?" and whole.cut_at is None
    assert cut is not None and cut.text == "um dois três quatro|Q?"
    assert (cut.context_tokens, cut.cut_at) == (4, len("um dois três quatro"))
    assert build_llm_prompt("Q?", [chunk], [], "{context}{question}", counter) is None


def test_the_counter_says_which_it_is() -> None:
    name = token_counter("gpt-4o-mini").name
    assert name in ("o200k_base", "cl100k_base", ESTIMATE)  # tiktoken's file may be offline


@pytest.mark.parametrize("expand", [0, 1])
def test_the_llm_gets_exactly_the_previews_prompt(use_model: Embedder, expand: int) -> None:
    """The default template, the overlap removed, the neighbours of --expand, the floor's
    refusal: the same text the app's prompt preview shows."""
    from ragviz.answering.prompt import default_template
    from ragviz.answering.run import sent_hits

    text = (ROOT / "sample_docs" / "politica_reembolso.txt").read_text(encoding="utf-8")
    questions = parse_questions_csv(
        (ROOT / "sample_docs" / "politica_reembolso.csv").read_text(encoding="utf-8"))
    config = ChunkerConfig("sentence", {"max_chars": 220, "overlap_sentences": 1})
    analysis = analyse(text, config, use_model, questions,
                       RetrievalSettings(2, ARTICLE_FLOOR, expand=expand))
    counter = token_counter()
    for outcome in analysis.outcomes:
        built = build_llm_prompt(outcome.question.question, analysis.chunks,
                                 sent_hits(analysis, outcome), default_template("pt"), counter)
        preview = prompt_text(outcome, analysis.chunks, "pt", expand)
        assert (built.text if built else None) == preview
    assert any(o.decision.refused for o in analysis.outcomes)


def test_a_tokenizer_file_that_never_arrives_falls_back_to_the_estimate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tiktoken downloads its file with no timeout: a network that drops packets would hang
    the command; the load is waited for a bounded time, then words are counted (said)."""
    import threading

    import tiktoken

    from ragviz.answering import prompt

    never = threading.Event()
    monkeypatch.setattr(tiktoken, "get_encoding", lambda name: never.wait())
    monkeypatch.setattr(prompt, "LOAD_WAIT_S", 0.2)
    prompt._encoding.cache_clear()
    try:
        assert token_counter("some-model").name == ESTIMATE
    finally:
        never.set()
        prompt._encoding.cache_clear()


# --- the article's story end to end ------------------------------------------------------------

def test_fixed_120_answers_the_refund_question_from_the_boleto_chunk(
        base: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = _calls(base)
    payload = _eval(base, capsys, *FIXED)
    refund = _row(payload, REFUND)["llm"]
    assert refund["verdict"] == WRONG_CHUNK and refund["chunk"] == 1
    assert "três dias úteis" in refund["answer"]
    assert set(refund) >= {"answer", "verdict", "chunk", "tokens", "latency_s"}
    assert refund["tokens"]["prompt"] > 0 and refund["latency_s"] >= 0
    assert _calls(base) - before == 7 == payload["llm"]["metrics"]["calls"]  # no floor


def test_sentence_220_answers_7_dias_uteis_and_the_floor_saves_three_calls(
        base: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = _calls(base)
    payload = _eval(base, capsys, *SENTENCE)
    refund = _row(payload, REFUND)["llm"]
    assert refund["verdict"] == CORRECT and "7 dias úteis" in refund["answer"]
    unanswerable = [r["llm"] for r in payload["questions"] if r["answerable"] is False]
    assert [r["verdict"] for r in unanswerable] == [NOT_ASKED] * 3
    assert all(r["answer"] is None and r["tokens"] is None for r in unanswerable)
    assert _calls(base) - before == 4
    metrics = payload["llm"]["metrics"]
    assert (metrics["answer_accuracy"], metrics["calls"]) == (1.0, 4)
    body = _control(base, "/control/stats")["bodies"][-1]
    assert body["temperature"] == 0 and body["stream"] is True
    assert body["messages"][0]["content"].startswith("Responda usando APENAS os trechos")


def test_whole_answers_match_streamed_ones_and_max_tokens_is_sent(
        base: str, capsys: pytest.CaptureFixture[str]) -> None:
    streamed = _eval(base, capsys, *SENTENCE)
    whole = _eval(base, capsys, *SENTENCE, "--llm-no-stream", "--max-tokens", "64")
    assert [r["llm"]["answer"] for r in whole["questions"]] == \
        [r["llm"]["answer"] for r in streamed["questions"]]
    body = _control(base, "/control/stats")["bodies"][-1]
    assert body["max_tokens"] == 64 and not body.get("stream")


def test_compare_names_the_flip_from_wrong_chunk_to_correct(
        base: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", *SAMPLE, *FIXED, "--b-chunker", "sentence", "--b-max-chars", "220",
            "--b-overlap-sentences", "1", "--llm", f"openai:{MODEL}", "--llm-base", base,
            "--lang", "pt"]
    assert cli.main([*args, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    flip = next(f for f in payload["llm"]["flips"] if f["question"] == REFUND)
    assert (flip["a"], flip["a_chunk"], flip["b"]) == (WRONG_CHUNK, 1, CORRECT)
    assert cli.main(args) == 0
    text = capsys.readouterr().out
    assert "chunk #1, que não contém a resposta esperada" in text


def test_a_custom_template_and_a_context_budget_reach_the_server(
        base: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    template = tmp_path / "t.txt"
    template.write_text("Seja breve.\nTrechos:\n{context}\n\nPergunta: {question}",
                        encoding="utf-8")
    payload = _eval(base, capsys, *SENTENCE, "--prompt-template", str(template),
                    "--max-context-tokens", "5")
    prompt = _control(base, "/control/stats")["bodies"][-1]["messages"][0]["content"]
    assert prompt.startswith("Seja breve.\nTrechos:\n")
    sent = _row(payload, REFUND)["llm"]["prompt"]
    assert sent["budget"] == 5 and sent["cut_at"] is not None and sent["context_tokens"] <= 5
    assert payload["llm"]["token_counter"] == sent["counter"]


def test_a_template_without_its_fields_is_one_sentence(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    template = tmp_path / "t.txt"
    template.write_text("Só {question}", encoding="utf-8")
    code = cli.main(["eval", *SAMPLE, "--llm", "openai:m", "--llm-base", "http://127.0.0.1:9/v1",
                     "--prompt-template", str(template)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "{context}" in err


def test_llm_options_without_llm_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["search", *SAMPLE, "--max-tokens", "10"]) == 2
    assert "these options need --llm openai:MODEL: --max-tokens;" in capsys.readouterr().err


def test_openai_without_a_key_is_refused_before_any_work(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("RAGVIZ_LLM_API_KEY")
    assert cli.main(["eval", *SAMPLE, "--llm", "openai:gpt-4o-mini"]) == 2
    assert "needs a key: set RAGVIZ_LLM_API_KEY" in capsys.readouterr().err


# --- faults: one sentence for that question ---------------------------------------------------

def _model(base: str, **options: Any) -> ChatModel:
    return ChatModel(MODEL, base, KEY, **{"retries": 0, **options})


PROMPT = "Trechos:\nO prazo é de 7 dias úteis.\n\nPergunta: Qual o prazo?"


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize(("fault", "says"), [
    ({"kind": "status", "status": 500}, "kept failing (HTTP 500) after 0 retries"),
    ({"kind": "empty"}, "returned no answer (an empty choice)"),
    ({"kind": "filter"}, "content filter of the server"),
    ({"kind": "filter400"}, "content filter of the server"),
    ({"kind": "html"}, "not like an OpenAI chat API"),
])
def test_each_fault_is_one_sentence(base: str, stream: bool, fault: dict[str, Any],
                                    says: str) -> None:
    _control(base, "/control/fault", fault)
    with pytest.raises(LLMError) as caught:
        _model(base, stream=stream).ask(PROMPT)
    assert says in str(caught.value) and base in str(caught.value)
    assert _model(base, stream=stream).ask(PROMPT).text == "O prazo é de 7 dias úteis."


def test_a_stream_cut_halfway_is_one_sentence(base: str) -> None:
    _control(base, "/control/fault", {"kind": "cut"})
    pieces: list[str] = []
    with pytest.raises(LLMError, match="stopped halfway"):
        _model(base).ask(PROMPT, pieces.append)
    assert pieces  # the first half had arrived
    assert KEY not in "".join(pieces)


def test_a_timeout_is_one_sentence(base: str) -> None:
    _control(base, "/control/fault", {"kind": "slow", "seconds": 3})
    with pytest.raises(LLMError, match=r"did not answer within 1 s"):
        _model(base, timeout_s=1.0).ask(PROMPT)


def test_a_wrong_key_is_refused_and_never_repeated(base: str) -> None:
    wrong = "sk-wrong-" + KEY
    with pytest.raises(LLMError) as caught:
        ChatModel(MODEL, base, wrong, retries=0).ask(PROMPT)
    assert "refused the API key (HTTP 401)" in str(caught.value)
    assert KEY not in str(caught.value) and KEY not in repr(caught.value.values)


def test_429_waits_as_retry_after_says_then_answers(base: str) -> None:
    _control(base, "/control/fault", {"kind": "status", "status": 429, "retry_after": 1})
    before = _calls(base)
    started = time.monotonic()
    answer = _model(base, retries=2).ask(PROMPT)
    assert answer.text == "O prazo é de 7 dias úteis."
    assert _calls(base) - before == 2 and time.monotonic() - started >= 0.9


def test_a_failed_question_keeps_the_others_answers(
        base: str, capsys: pytest.CaptureFixture[str]) -> None:
    _control(base, "/control/fault", {"kind": "status", "status": 401})
    payload = _eval(base, capsys, *SENTENCE)
    rows = [r["llm"] for r in payload["questions"]]
    assert rows[0]["verdict"] == "failed" and rows[0]["answer"] is None
    assert rows[0]["error"].startswith(f"o modelo de linguagem em {base} recusou a chave")
    assert [r["verdict"] for r in rows[1:4]] == [CORRECT] * 3
    assert payload["llm"]["metrics"]["failures"] == 1


def test_the_key_is_in_no_output(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--json"]):
        for command in ("eval", "search"):
            assert cli.main([command, *SAMPLE, *SENTENCE, "--llm", f"openai:{MODEL}",
                             "--llm-base", base, *extra]) == 0
    out = capsys.readouterr()
    assert "LLM, " in out.out and KEY not in out.out + out.err


def test_ctrl_c_while_the_model_answers_is_one_line(base: str) -> None:
    _control(base, "/control/fault", {"kind": "slow", "seconds": 20})
    before = _calls(base)
    proc = subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, "eval", *SAMPLE, *SENTENCE, "--llm",
         f"openai:{MODEL}", "--llm-base", base], stderr=subprocess.PIPE,
        stdout=subprocess.PIPE, env={**os.environ, "RAGVIZ_LLM_API_KEY": KEY}, text=True)
    try:
        for _ in range(600):  # the question reached the server: the client is waiting
            if _calls(base) > before:
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, (out[-500:], err[-2000:])
    assert err.strip() == "ragviz eval: interrupted"


def test_the_csv_carries_each_answer_and_its_verdict(
        base: str, capsys: pytest.CaptureFixture[str]) -> None:
    import csv
    import io

    assert cli.main(["eval", *SAMPLE, *FIXED, "--lang", "pt", "--format", "csv", "--llm",
                     f"openai:{MODEL}", "--llm-base", base]) == 0
    text = capsys.readouterr().out
    rows = list(csv.reader(io.StringIO(text)))
    header = next(r for r in rows if "llm_verdict" in r)
    refund = next(r for r in rows if r and r[0] == REFUND)
    named = dict(zip(header, refund, strict=False))
    assert (named["llm_verdict"], named["llm_chunk"]) == (WRONG_CHUNK, "1")
    assert "três dias úteis" in named["llm_answer"]
    assert KEY not in text
    assert cli.main(["eval", *SAMPLE, *FIXED, "--format", "md", "--llm", f"openai:{MODEL}",
                     "--llm-base", base]) == 0
    assert "| answer_accuracy | 0.2500 |" in capsys.readouterr().out
