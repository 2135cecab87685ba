"""``ragviz questions``: every kept excerpt slices its file exactly, invented excerpts never
survive, a question repeated in every reply is kept once, replies that are not JSON are
counted, unanswerable questions are checked, a stopped run keeps its file, and the file
evaluates, in ``ragviz eval`` and in the app; the key, the timeout, the retries and the redirect
rule are the answer step's. The model is tests/question_server.py on loopback
(deterministic); tests/hostile_server.py plays the servers that misbehave."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from ragviz.answering.chat import ChatModel
from ragviz.answering.excerpt_match import locate_excerpt
from ragviz.answering.passages import passage_chars, spread_passages
from ragviz.answering.prompt import token_counter
from ragviz.answering.question_replies import parse_reply
from ragviz.answering.question_run import QuestionRun, Row, WritingSettings, csv_header, csv_row
from ragviz.answering.question_writing import GIVEAWAY, Repeats, overlap
from ragviz.answering.run import Asker
from ragviz.cli import command as cli
from ragviz.cli import output as cli_output
from ragviz.embedding.base import Embedder
from ragviz.inputs.corpus import Corpus, Source, load_paths
from ragviz.inputs.questions import parse_questions_csv
from tests.hostile_server import hostile_server, silent_server
from tests.loopback import serve_script
from tests.question_server import INVENTED, REPEATED, UNANSWERABLE
from tests.test_llm_answer import _calls, _control

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "question_server.py"
KEY = "sk-questions-test-never-print-me"
MODEL = "question-writer"
FILES = {
    "returns.txt": 'Refunds are accepted within thirty days of purchase.\nThe customer must keep '
                   'the\nreceipt and the original "packaging" for any return.\n\nStore credit is '
                   "offered when the receipt is lost, valid for one year.\nDamaged items are "
                   "replaced at no cost within two weeks.\n",
    "cafe.md": unicodedata.normalize("NFD", "# Café\n\nO café da loja abre às oito horas e "
                                     "fecha às dezoito.\nAos domingos o café   fica fechado "
                                     "para limpeza geral.\n\nO cartão fidelidade dá um café "
                                     "grátis a cada dez compras.\n"),
    "wifi.txt": "The guest network's password changes every Monday morning.\nAsk the front desk "
                "for the new password; it is printed on the daily sheet.\nDevices are limited "
                "to two per guest room.\n",
    "hours.txt": "The shop opens at nine on weekdays and at ten on Saturdays.\nPublic holidays "
                 "follow the Sunday timetable, closing at four.\n",
    "parking.txt": "Guests may park in the underground garage beneath the lobby.\nThe barrier "
                   "opens for the key card issued at check-in.\n\nElectric cars can charge at "
                   "four stations on the lowest level.\nOvernight parking costs twelve euros, "
                   "added to the room bill.\n",
    "delivery.txt": "Orders placed before noon leave the warehouse that same afternoon.\nCouriers "
                    "deliver between eight in the morning and six in the\nevening.\n\nA "
                    "signature is required for parcels worth over two hundred euros.\nMissed "
                    "deliveries wait at the nearest pickup point for seven days.\n",
    "loyalty.txt": "Members collect one point for every euro spent in the shop.\nFive hundred "
                   "points become a voucher worth ten euros.\n\nPoints expire after eighteen "
                   "months without any purchase.\nA lost membership card is replaced online "
                   "free of charge.\n",
    "pets.txt": "Small dogs are welcome in rooms on the ground floor.\nA cleaning fee of fifteen "
                "euros is charged per stay.\n\nCats and birds must stay in their carriers in "
                "the restaurant.\nGuide dogs are allowed everywhere without any fee.\n",
    "laundry.txt": "Laundry bags hang in every wardrobe next to the ironing board.\nClothes "
                   "handed in before nine come back the same evening.\nExpress washing within "
                   "three hours costs double the listed price.\n",
    "breakfast.txt": "Breakfast is served in the garden hall from seven until half\npast ten.\n"
                     "Children under six eat breakfast for free beside their parents.\nGluten-free "
                     "bread is baked fresh each morning on request.\n",
    "gym.txt": "The fitness room on the roof is open 'around the clock'.\nTowels and drinking "
               "water are provided beside the treadmills.\nPersonal trainers can be booked at "
               "the spa reception.\n",
    "luggage.txt": "Suitcases can be stored free of charge after checkout.\nThe luggage room "
                   "behind the concierge desk closes at midnight.\nValuables belong in the "
                   "safe, never in the stored luggage.\n",
}
COUNT = 12  # the Done-when: ``--count 12`` over a corpus of several files


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    """The question-writing model on a free port of 127.0.0.1, stopped after the module."""
    yield from serve_script(SERVER, "--key", KEY, "--model", MODEL)


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    for name, text in FILES.items():
        (out / name).write_bytes(text.encode("utf-8"))
    return out


class Written(NamedTuple):
    path: Path
    summary: dict[str, object]
    stderr: str  # as a terminal's stderr shows it


def _written_as_from_a_terminal(options: list[str]) -> Written:
    """``ragviz questions`` with ``options`` (``--out FILE --json`` among them) as from a
    terminal: the file, its --json summary and what stderr showed."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAGVIZ_LLM_API_KEY", KEY)
        patch.setattr(cli_output, "stderr_is_terminal", lambda: True)
        stdout, stderr = io.StringIO(), io.StringIO()
        patch.setattr(sys, "stdout", stdout)
        patch.setattr(sys, "stderr", stderr)
        code = cli.main(["questions", *options])
    assert code == 0, stderr.getvalue()
    return Written(Path(options[options.index("--out") + 1]), json.loads(stdout.getvalue()),
                   stderr.getvalue())


@pytest.fixture(scope="module")
def written(base: str, folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Written:
    """``ragviz questions --count 12 --unanswerable 2`` run once, as from a terminal."""
    out = tmp_path_factory.mktemp("out") / "questions.csv"
    return _written_as_from_a_terminal([
        str(folder), "--llm", f"openai:{MODEL}", "--llm-base", base, "--count", str(COUNT),
        "--unanswerable", "2", "--out", str(out), "--json"])


@pytest.fixture(scope="module")
def flagged(base: str, folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Written:
    """``ragviz questions --count 4 --keep-giveaways`` run once."""
    out = tmp_path_factory.mktemp("flagged") / "flagged.csv"
    return _written_as_from_a_terminal([
        str(folder), "--llm", f"openai:{MODEL}", "--llm-base", base, "--count", "4",
        "--keep-giveaways", "--out", str(out), "--json"])


# -- locating excerpts -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "excerpt", "expected"), [
    ("a b\n\n  keep the\nreceipt now", "keep the receipt", "keep the\nreceipt"),
    ('say "hi" there', "say \u201chi\u201d there", 'say "hi" there'),
    ("it\u2019s here", "it's here", "it\u2019s here"),
    (unicodedata.normalize("NFD", "o café abre"), "café abre",
     unicodedata.normalize("NFD", "café abre")),
    ("\ufb01nal o\ufb00er", "final offer", "\ufb01nal o\ufb00er"),
])
def test_an_excerpt_is_found_despite_whitespace_quotes_and_normalisation(
        text: str, excerpt: str, expected: str) -> None:
    located = locate_excerpt(text, excerpt)
    assert located is not None
    assert text[located.start:located.end] == expected


@pytest.mark.parametrize(("text", "excerpt"), [
    ("Refunds within thirty days.", "refunds within thirty days."),  # case is not forgiven
    ("Refunds within thirty days.", "Refunds within 30 days."),
    (unicodedata.normalize("NFD", "o café"), "o cafe"),  # half of a decomposed letter
    ("keep the receipt", "keep the receipt and the box"),
    ("anything", "   "),
])
def test_an_excerpt_that_differs_otherwise_is_not_found(text: str, excerpt: str) -> None:
    assert locate_excerpt(text, excerpt) is None


def test_the_occurrence_in_the_passage_read_is_preferred() -> None:
    text = "The fee is ten.\n\nLater: The fee  is ten."
    later = text.index("Later")
    located = locate_excerpt(text, "The fee is ten.", near=later)
    assert located is not None and located.start > later
    assert text[located.start:located.end] == "The fee  is ten."


# -- reading replies ---------------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    '```json\n{"questions": [{"question": "Q?", "excerpts": ["E."]}]}\n```',
    'Sure! Here they are:\n{"questions": [{"question": "Q?", "excerpts": ["E."]}]}\nEnjoy.',
    '[{"question": "Q?", "excerpt": "E."}]',
])
def test_replies_are_read_fenced_or_not(reply: str) -> None:
    parsed = parse_reply(reply)
    assert parsed.json and [(d.question, d.excerpts) for d in parsed.drafts] == [("Q?", ("E.",))]


def test_a_reply_without_json_is_said_so_and_bad_items_counted() -> None:
    assert not parse_reply("I cannot help with that.").json
    parsed = parse_reply('{"questions": [{"question": ""}, 3, {"question": "Q?", "excerpts": []}]}')
    assert parsed.json and parsed.malformed == 2 and len(parsed.drafts) == 1


def test_passages_visit_every_file_before_any_second_passage() -> None:
    corpus = Corpus(tuple(Source(f"f{n}.txt", "\n\n".join(f"Paragraph {n}.{k} " + "word " * 60
                                                           for k in range(5)))
                          for n in range(3)))
    passages = spread_passages(corpus, 400)
    assert [p.source for p in passages[:3]] == ["f0.txt", "f1.txt", "f2.txt"]
    for passage in passages:
        assert corpus.source(passage.source).text[passage.start:passage.end] == passage.text
    middles = [p.start for p in passages if p.source == "f0.txt"]
    assert middles[0] > middles[1]  # the middle first, then the first half's middle


def test_a_small_corpus_is_cut_finer_so_each_request_has_its_own_passage() -> None:
    text = " ".join(f"Sentence number {n} says something about topic {n}." for n in range(60))
    corpus = Corpus((Source("one.txt", text),))
    counter = token_counter()
    whole = passage_chars(corpus, counter, 1_000)
    assert len(spread_passages(corpus, whole)) == 1
    finer = passage_chars(corpus, counter, 1_000, wanted=8)
    assert len(spread_passages(corpus, finer)) >= 8
    assert passage_chars(corpus, counter, 1_000, wanted=10_000) == 300  # never below


def test_repeats_by_words_and_near_duplicates_by_the_model(use_model: Embedder) -> None:
    repeats = Repeats(use_model)
    assert repeats.why_not("How long does a refund take?") is None
    assert repeats.why_not("how long does a REFUND take") == "repeat"  # the same words
    assert repeats.why_not("How long does the refund take?") == "near-duplicate"  # 0.995
    assert repeats.why_not("How many days does a refund take?") is None  # 0.85: kept
    assert repeats.why_not("Can I change my password?") is None


def test_a_giveaway_is_a_question_made_of_its_excerpts_words() -> None:
    excerpt = ["Refunds are accepted within thirty days of purchase."]
    assert overlap("Are refunds accepted within thirty days of purchase?", excerpt) == 1.0
    assert overlap("How long do I have to get my money back?", excerpt) < GIVEAWAY


# -- the command -------------------------------------------------------------------------------

def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def test_every_kept_excerpt_slices_its_file_exactly(written: Written, folder: Path) -> None:
    rows = [r for r in _rows(written.path) if r["answerable"] == "true"]
    assert len(rows) == COUNT
    assert len({r["corpus_id"] for r in rows}) >= 4  # spread over the files
    assert list(_rows(written.path)[0]) == ["question", "references", "corpus_id", "answerable"]
    squashed = 0
    for row in rows:
        text = (folder / row["corpus_id"]).read_bytes().decode("utf-8")
        for ref in json.loads(row["references"]):
            assert text[ref["start_index"]:ref["end_index"]] == ref["content"]
            squashed += ref["content"] != " ".join(ref["content"].split())
            assert INVENTED not in ref["content"]
    assert squashed  # some excerpt was found although the model squashed its whitespace


def test_drops_are_counted_and_a_repeated_question_kept_once(written: Written) -> None:
    summary = written.summary
    questions = [r["question"] for r in _rows(written.path)]
    assert questions.count(REPEATED) == 1
    assert not any(INVENTED.lower() in q for q in questions)
    dropped = summary["dropped"]
    assert isinstance(dropped, dict)
    assert dropped["not-json"] >= 1 and dropped["excerpt-not-in-file"] >= 1
    assert dropped["repeat"] >= 1 and dropped["give-away"] >= 1
    assert summary["kept"] == COUNT and summary["thresholds"] == {"near_duplicate": 0.95,
                                                              "giveaway": 0.8}
    assert summary["tokens"]["prompt"] > 0  # type: ignore[index]


def test_unanswerable_questions_are_checked_and_written_false(written: Written) -> None:
    summary = written.summary
    rows = [r for r in _rows(written.path) if r["answerable"] == "false"]
    assert sorted(r["question"] for r in rows) == sorted(UNANSWERABLE)
    assert all(not r["references"] for r in rows)
    assert summary["unanswerable"]["kept"] == 2  # type: ignore[index]


def _evaluated(path: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """How many of the file's questions ``ragviz eval`` evaluated (all of them, or it fails)."""
    capsys.readouterr()
    code = cli.main(["eval", str(folder), "--questions", str(path), "--top-k", "2", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    payload = json.loads(out.out)
    assert payload["questions_given"] == payload["questions_evaluated"]
    assert not payload["left_out_rows"]
    return int(payload["questions_evaluated"])


def test_the_file_evaluates(written: Written, folder: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert _evaluated(written.path, folder, capsys) == COUNT + 2


def test_a_terminal_sees_the_progress_line(written: Written, base: str) -> None:
    """One line rewritten in place (``\\r``), ended by a newline when every question is
    written: answerable and unanswerable ones counted together."""
    total = COUNT + 2
    line = re.compile(rf"writing questions with openai:{MODEL} @ {re.escape(base)}: "
                      rf"(\d+) of {total}([\r\n])")
    shown = [(int(done), end) for done, end in line.findall(written.stderr)]
    assert len(shown) >= 3, written.stderr[-500:]
    assert [done for done, _end in shown] == sorted(done for done, _end in shown)
    assert shown[-1] == (total, "\n") and {end for _done, end in shown[:-1]} == {"\r"}
    assert KEY not in written.stderr


def test_kept_giveaways_are_flagged_in_the_file(flagged: Written, folder: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``--keep-giveaways``: a ``giveaway`` column, ``true`` on the rows whose words are
    their excerpts'; the readers accept it and ignore it."""
    rows = _rows(flagged.path)
    assert list(rows[0]) == ["question", "references", "corpus_id", "answerable", "giveaway"]
    marked = [r for r in rows if r["giveaway"] == "true"]
    assert marked and len(marked) == flagged.summary["flagged_giveaways"]
    assert {r["giveaway"] for r in rows} == {"true", "false"}
    for row in rows:
        excerpts = [ref["content"] for ref in json.loads(row["references"])]
        assert (overlap(row["question"], excerpts) >= GIVEAWAY) == (row["giveaway"] == "true")
    read = parse_questions_csv(flagged.path.read_text(encoding="utf-8"))
    assert [q.question for q in read] == [r["question"] for r in rows]
    import pandas as pd

    from ragviz.api.sources import read_questions

    assert read_questions(pd.read_csv(flagged.path)) == read  # the Python API's DataFrame
    assert _evaluated(flagged.path, folder, capsys) == len(rows)


def test_the_app_loads_the_files_as_written(written: Written, flagged: Written,
                                            folder: Path) -> None:
    """Both files uploaded in the app (AppTest) over the corpus: the same questions,
    excerpts and answerable flags, every one scored."""
    from ragviz_app import app_state
    from tests.test_app import rerun, run_app
    from tests.test_app_corpus import upload
    from tests.test_app_questions import headings

    app = upload(run_app("questions"), {name: (folder / name).read_bytes() for name in FILES})
    for path in (written.path, flagged.path):
        app.file_uploader(key="questions_upload").set_value(
            (path.name, path.read_bytes(), "text/csv"))
        rerun(app)
        expected = parse_questions_csv(path.read_text(encoding="utf-8"))
        table = app_state.frame_questions(app.session_state.questions_base)
        assert [(q.question, q.references, q.is_answerable) for q in table] == [
            (q.question, q.references, q.is_answerable) for q in expected]
        assert len(headings(app)) == len(expected)
        assert not app.error, [e.value for e in app.error]


# -- the answer step's key, timeout, retries and redirect rule ---------------------------------

def test_a_5xx_is_retried_and_the_run_goes_on(base: str, folder: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "q.csv"
    _control(base, "/control/fault", {"kind": "status", "status": 503})
    before = _calls(base)
    code = cli.main(["questions", str(folder), "--llm", f"openai:{MODEL}", "--llm-base", base,
                     "--count", "2", "--out", str(out), "--json"])
    said = capsys.readouterr()
    assert code == 0, said.err
    summary = json.loads(said.out)
    assert summary["kept"] == 2 and summary["failed_calls"] == 0
    assert _calls(base) - before == summary["calls"] + 1  # the 503, then its retry answered
    assert len(parse_questions_csv(out.read_text(encoding="utf-8"))) == 2


def test_the_key_goes_to_the_operators_base_and_nowhere_in_the_output(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On the command line the base typed is the operator's (docs/security.md): it gets the
    key; a model that echoes the key sees it blanked out, in no output and not in the file."""
    out = tmp_path / "q.csv"
    with hostile_server() as (root, state):
        code = cli.main(["questions", str(folder), "--llm", "openai:m", "--llm-base",
                         f"{root}/echo/v1", "--count", "1", "--out", str(out)])
    said = capsys.readouterr()
    assert code == 0, said.err
    sent = [auth for path, auth in state.requests if path.startswith("/echo/")]
    assert sent and set(sent) == {f"Bearer {KEY}"}
    assert "0 of 1 questions written" in said.out
    assert KEY not in said.out + said.err + out.read_text(encoding="utf-8")


def test_no_key_for_openai_is_refused_before_any_work(
        folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    monkeypatch.delenv("RAGVIZ_LLM_API_KEY")
    assert cli.main(["questions", str(folder), "--llm", "openai:gpt-4o-mini", "--count",
                     "1"]) == 2
    said = capsys.readouterr()
    assert "needs a key: set RAGVIZ_LLM_API_KEY" in said.err and not said.out


def test_a_redirect_is_refused_and_the_second_host_gets_nothing(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with hostile_server() as (root, state):
        code = cli.main(["questions", str(folder), "--llm", "openai:m", "--llm-base",
                         f"{root}/redirect/v1", "--count", "1", "--out",
                         str(tmp_path / "q.csv")])
    err = capsys.readouterr().err
    assert code == 2
    port = root.rsplit(":", 1)[1]
    assert err.count("\n") == 1 and err.startswith("ragviz questions: ")
    assert "redirect (HTTP 307)" in err and f"localhost:{port}" in err, err
    assert not [path for path, _auth in state.requests if path.startswith("/stolen/")]


def test_a_server_that_never_answers_ends_at_the_timeout(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with silent_server() as (root, state):
        code = cli.main(["questions", str(folder), "--llm", "openai:m", "--llm-base",
                         f"{root}/v1", "--llm-timeout", "1", "--count", "1", "--out",
                         str(tmp_path / "q.csv")])
        err = capsys.readouterr().err
        assert state.accepted == 1  # a deadline spent is not retried
    assert code == 2
    assert err.count("\n") == 1 and "did not answer within 1 s" in err, err


def test_the_runs_llm_budget_bounds_question_writing(
        base: str, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--llm-budget``: a model that stalls on the second passage is cut at the budget, and
    nothing more is sent (before, question writing ignored the budget)."""
    _control(base, "/control/reset", {})
    for fault in ({"kind": "none"}, {"kind": "slow", "seconds": 10}):
        _control(base, "/control/fault", fault)
    code = cli.main(["questions", str(folder), "--llm", f"openai:{MODEL}", "--llm-base", base,
                     "--count", str(COUNT), "--llm-budget", "2", "--out",
                     str(tmp_path / "q.csv")])
    err = capsys.readouterr().err
    assert code == 2
    assert "the time budget for the language model (2 s for the run) is spent" in err, err
    assert _calls(base) == 2
    # the summary of the one reply comes first; nothing after the budget was "skipped"
    assert err.splitlines()[0].endswith("; requests: 1)") and "skipped" not in err, err


def test_a_model_that_fails_three_times_in_a_row_ends_with_the_summary_then_the_error(
        base: str, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One reply, then three refusals in a row: the run stops (exit 2), the file keeps the
    first reply's questions, and stderr says what was written and spent before the error's
    sentence (before, only the error: the tokens already paid for went unsaid)."""
    _control(base, "/control/reset", {})
    _control(base, "/control/fault", {"kind": "none"})
    _control(base, "/control/fault", {"kind": "status", "status": 400, "times": 3})
    out = tmp_path / "q.csv"
    code = cli.main(["questions", str(folder), "--llm", f"openai:{MODEL}", "--llm-base", base,
                     "--count", str(COUNT), "--out", str(out)])
    said = capsys.readouterr()
    assert code == 2 and not said.out
    kept = parse_questions_csv(out.read_text(encoding="utf-8"))
    lines = said.err.splitlines()
    assert lines[0].startswith(f"{len(kept)} of {COUNT} questions written, every excerpt"), \
        said.err
    assert lines[0].endswith("; requests: 1)"), said.err
    assert 0 < len(kept) < COUNT and _calls(base) == 4
    assert "2 requests failed and were skipped" in said.err  # the third one ended the run
    assert "stopped: the file holds every question written until then." in said.err
    assert lines[-1].startswith("ragviz questions: ") and "400" in lines[-1], said.err


def test_the_summary_says_the_drops_and_the_cost(base: str, folder: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "q.csv"
    code = cli.main(["questions", str(folder), "--llm", f"openai:{MODEL}", "--llm-base", base,
                     "--count", "4", "--out", str(out), "--price", "1000,2000", "--model",
                     "use-multilingual"])
    said, err = capsys.readouterr()
    assert code == 0
    assert "writing questions" not in err  # the progress line is a terminal's only
    assert "4 of 4 questions written" in said
    assert "1 question dropped: the reply held no JSON" in said
    prompt, completion = (int(n) for n in re.findall(r"(\d+) (?:prompt|completion)", said))
    assert f"cost about {(prompt * 1000 + completion * 2000) / 1e6:.4f}" in said


@pytest.mark.parametrize(("options", "said"), [
    (["--count", "3"], "needs the chat model"),
    (["--count", "3", "--llm", "openai:x", "--json"], "--out"),
    (["--count", "3", "--llm", "openai:x", "--template", "TEMPLATE"], "{passage}"),
])
def test_mistakes_end_with_a_sentence(options: list[str], said: str, folder: Path,
                                      tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    template = tmp_path / "t.txt"
    template.write_text("Write {count} questions.", encoding="utf-8")
    given = [str(template) if o == "TEMPLATE" else o for o in options]
    assert cli.main(["questions", str(folder), *given]) == 2
    assert said in capsys.readouterr().err


def test_a_template_that_is_not_utf8_is_said_in_the_users_language(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    template = tmp_path / "t.txt"
    template.write_bytes("Écrivez {count} questions".encode("utf-16"))
    assert cli.main(["questions", str(folder), "--count", "3", "--llm", "openai:x",
                     "--template", str(template), "--lang", "pt"]) == 2
    assert "não é texto UTF-8" in capsys.readouterr().err


def test_a_stopped_run_keeps_a_file_that_reads(base: str, folder: Path,
                                               use_model: Embedder) -> None:
    corpus = load_paths([str(folder)])
    model = ChatModel(MODEL, base, KEY, stream=False)
    run = QuestionRun(corpus, Asker(model, "{context}{question}", token_counter()), use_model,
                      WritingSettings(8))
    buffer = io.StringIO(csv_header())
    buffer.seek(0, io.SEEK_END)

    def keep(row: Row) -> None:
        buffer.write(csv_row(row))

    def stop(done: int, _total: int) -> None:
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run.run(keep, stop)
    kept = parse_questions_csv(buffer.getvalue())
    assert 2 <= len(kept) < 8 and run.summary.kept == len(kept)


def test_ctrl_c_keeps_the_file_written_so_far(base: str, folder: Path, tmp_path: Path) -> None:
    """A real SIGINT while the model holds the third reply: exit 130, the summary says it was
    stopped, and the file holds the questions of the first two replies, readable."""
    from tests.test_llm_answer import _calls, _control
    from tests.test_openai_embedder import AS_FROM_A_TERMINAL

    _control(base, "/control/reset", {})
    for fault in ({"kind": "none"}, {"kind": "none"}, {"kind": "gate", "gated": True}):
        _control(base, "/control/fault", fault)
    out = tmp_path / "stopped.csv"
    env = {**os.environ, "RAGVIZ_LLM_API_KEY": KEY, "PYTHONPATH": str(ROOT)}
    # as from a terminal: a test worker (pytest-xdist) starts its children with SIGINT
    # ignored, and a child that inherits that never hears the Ctrl-C (a timeout on CI)
    proc = subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, "questions", str(folder), "--llm",
         f"openai:{MODEL}", "--llm-base", base, "--count", "40", "--out", str(out)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while _calls(base) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # waits for the state: the third request held at the gate
        assert _calls(base) == 3, proc.poll()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        _control(base, "/control/release", {"n": 1})
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert "stopped: the file holds every question written until then" in err
    kept = parse_questions_csv(out.read_text(encoding="utf-8"))
    assert kept and all(q.references for q in kept)
