"""BM25 and hybrid scorers: BM25 equals Lucene's formula computed here by hand, RRF is worked
by hand on four chunks, a question sharing no word is refused (not ranked), and the CLI checks
a floor on the scorer's own scale."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.chunking.base import make_chunk
from ragviz.cli.command import main
from ragviz.errors import InputError
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.present.presentation import decision_text
from ragviz.retrieval.hybrid import min_max, rrf
from ragviz.retrieval.scorers import get_scorer
from ragviz.share.samples import get_sample
from tests.test_cli_schema import _out as cli_stdout

TOKEN = re.compile(r"(?u)\b\w\w+\b")


def lucene_bm25(chunks: list[str], question: str, k1: float = 1.5, b: float = 0.75,
                ) -> list[float]:
    """Lucene's BM25 (since Lucene 8, without the constant (k1 + 1) factor), written out:
    idf = ln(1 + (N - df + 0.5) / (df + 0.5)), each query word's
    idf·tf / (tf + k1·(1 - b + b·dl/avgdl)) summed over the query's words (a repeated word
    counts each time, as in a Lucene boolean query of its terms)."""
    docs = [Counter(TOKEN.findall(text.lower())) for text in chunks]
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / len(docs)
    words = TOKEN.findall(question.lower())
    scores = []
    for doc, length in zip(docs, lengths, strict=True):
        total = 0.0
        for word in words:
            df = sum(1 for d in docs if word in d)
            if not df or not doc[word]:
                continue
            idf = math.log(1 + (len(docs) - df + 0.5) / (df + 0.5))
            tf = doc[word]
            total += idf * tf / (tf + k1 * (1 - b + b * length / average))
        scores.append(total)
    return scores


@pytest.mark.parametrize("sample", ["politica_reembolso", "help_center"])
def test_bm25_equals_lucenes_formula_on_the_samples(sample: str) -> None:
    loaded = get_sample(sample)
    document = loaded.corpus().sources[0].text if loaded.is_corpus else loaded.document()
    chunks = make_chunks(document, ChunkerConfig("fixed", size=120, overlap=20)).chunks
    scorer = get_scorer("bm25")
    prepared = scorer.prepare(chunks, np.zeros((len(chunks), 1), dtype=np.float32))
    questions = ["Qual o prazo do reembolso?", "How do I cancel my order and get a refund?",
                 "prazo prazo boleto"]
    rows = scorer.score_rows(prepared, questions, np.zeros((3, 1), dtype=np.float32))
    for question, row in zip(questions, rows, strict=True):
        expected = lucene_bm25([c.text for c in chunks], question)
        assert np.asarray(row) == pytest.approx(expected, rel=1e-5, abs=1e-6)


def test_rrf_worked_by_hand_on_four_chunks() -> None:
    dense = np.array([0.9, 0.5, 0.7, 0.1])  # ranks 1, 3, 2, 4
    lexical = np.array([0.0, 2.0, 1.0, 0.5])  # ranks -, 1, 2, 3 (0: no shared word)
    expected = [1 / 61, 1 / 63 + 1 / 61, 1 / 62 + 1 / 62, 1 / 64 + 1 / 63]
    assert rrf(dense, lexical, 60) == pytest.approx(expected)
    # ties keep chunk order: equal dense scores rank 1 then 2
    assert rrf(np.array([0.5, 0.5]), np.array([0.0, 0.0]), 10) == pytest.approx([1 / 11, 1 / 12])


def test_weighted_fusion_is_alpha_dense_plus_the_rest_bm25_min_max_normalised() -> None:
    scorer = get_scorer("hybrid(fusion=weighted,alpha=0.3)")
    dense, lexical = np.array([0.2, 0.6, 0.4]), np.array([3.0, 0.0, 1.5])
    assert scorer.fuse(dense, lexical) == pytest.approx([0.7, 0.3, 0.5])  # type: ignore[attr-defined]
    assert min_max(np.array([2.0, 2.0])).tolist() == [0.0, 0.0]
    assert scorer.name == "hybrid(alpha=0.3,fusion=weighted)"
    assert get_scorer("hybrid(fusion=rrf,k=60)").name == "hybrid"


def test_a_question_sharing_no_word_is_refused_not_ranked() -> None:
    text = "Refunds take ten days. The office wifi password is on the board. Lunch is at noon."
    chunks = [make_chunk(text, 0, 0, 22), make_chunk(text, 1, 23, 64), make_chunk(text, 2, 65, 83)]
    from ragviz.embedding.models import load_embedder
    from ragviz.inputs.questions import LabelledQuestion

    analysis = analyse(text, ChunkerConfig("fixed", size=30, overlap=0),
                       load_embedder("use-multilingual"),
                       [LabelledQuestion("Zebra xylophone?"), LabelledQuestion("wifi password")],
                       RetrievalSettings(2, 0.0, "bm25"))
    nothing, wifi = analysis.outcomes
    assert nothing.decision.refused and nothing.decision.nothing_matched
    assert "no chunk holds a word of the question" in decision_text(nothing.decision)
    assert not wifi.decision.refused
    assert all(hit.score > 0 for hit in wifi.decision.hits)  # zeros are never handed on
    assert len(chunks) == 3


def test_scorer_options_are_checked_with_one_sentence() -> None:
    for spec, says in [("bm25(stopwords=fr)", "cannot be 'fr': choose en, pt"),
                       ("hybrid(alpha=2)", "alpha cannot be '2': choose 0 to 1"),
                       ("hybrid(fusion)", "is not name=value"),
                       ("cosine(x=1)", "takes no options"),
                       ("dense", "unknown scorer 'dense'")]:
        with pytest.raises(InputError, match=re.escape(says)):
            get_scorer(spec)


def test_the_cli_checks_the_floor_on_the_scorers_scale(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "doc.txt"
    document.write_text("Refunds take ten days. The office wifi password is on the board. "
                        "Refunds of gift cards take longer.", encoding="utf-8")
    base = ["search", str(document), "--question", "refunds days", "--chunker", "fixed",
            "--size", "40", "--overlap", "0", "--json"]
    # read from the run's own buffer: once, on a fresh clone, capsys read nothing while
    # the JSON reached pytest's outer capture
    out = json.loads(cli_stdout(*base, "--scorer", "bm25", "--floor", "0.5"))
    assert out["floor"] == 0.5 and out["scorer"] == "bm25"
    assert main([*base, "--scorer", "bm25", "--floor", "-0.5"]) == 2
    assert "off this scorer's scale: give a number from 0 to 1e+06" in capsys.readouterr().err
    assert main([*base, "--floor", "3"]) == 2  # cosine: -1 to 1
    assert "give a number from -1 to 1" in capsys.readouterr().err
    weighted = cli_stdout(*base, "--scorer", "hybrid", "--fusion", "weighted", "--alpha", "0.25")
    assert json.loads(weighted)["scorer"] == "hybrid(alpha=0.25,fusion=weighted)"



def test_the_app_draws_bm25_on_its_open_scale() -> None:
    """BM25 has no top: the floor slider and the bars' axis reach past the best score."""
    from tests.test_app import charts, open_tab, rerun, run_app

    at = run_app("questions")
    assert {"bm25", "hybrid"} <= set(at.selectbox(key="a_scorer").options)
    at.selectbox(key="a_scorer").select("bm25")
    at.selectbox(key="b_scorer").select("bm25")
    at = open_tab(rerun(at), "questions")
    assert not at.exception
    floor = at.slider(key="floor")
    assert (floor.min, floor.step) == (0.0, 0.1)
    bars = [spec for spec, _ in charts(at) if str(spec.get("description", "")).startswith("a: ")]
    x = next(layer["encoding"]["x"] for layer in bars[0]["layer"] if "x" in layer["encoding"]
             and layer["encoding"]["x"].get("field") == "score")
    best = max(float(frame["score"].max()) for spec, data in charts(at)
               if str(spec.get("description", "")).startswith(("a: ", "b: "))
               for frame in data.values() if "score" in frame)
    assert x["scale"]["domain"][1] >= best > 1.0  # past cosine's top
    assert floor.max >= best


# --- issue 42, items 12 and 19: a question with no term, a document with no word ----------

NO_TERM = ["?", "a ?", "é", "😀"]


@pytest.mark.parametrize(("scorer", "question"), [
    *(("bm25", q) for q in NO_TERM), ("hybrid", "?"), ("hybrid", "😀"),
    ("bm25(stopwords=en)", "the")])
def test_a_question_with_no_term_scores_zero_and_says_so(
        capsys: pytest.CaptureFixture[str], scorer: str, question: str) -> None:
    asked = ["search", "sample:politica_reembolso", "--question", question, "--scorer", scorer]
    (result,) = json.loads(cli_stdout(*asked, "--json"))["questions"]
    if scorer.startswith("bm25"):
        assert result["decision"] == "refused" and set(result["scores"]) == {0.0}
        assert "no chunk holds a word of the question (every BM25 score is 0)" in cli_stdout(
            *asked)
    else:  # hybrid: the dense ranking alone, nothing from BM25
        assert result["hits"] and result["decision"] != "refused"


def test_a_document_of_emoji_only_scores_zero_without_a_warning(tmp_path: Path) -> None:
    import warnings

    document = tmp_path / "emoji.txt"
    document.write_text("😀😀 🎉🎉\n\n🚀🚀🚀\n", encoding="utf-8")
    for scorer in ("bm25", "hybrid"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy's "invalid value" is a failure here
            out = cli_stdout("search", str(document), "--question", "rocket 🚀",
                             "--scorer", scorer, "--json")
        (result,) = json.loads(out)["questions"]
        assert (result["decision"] == "refused") == (scorer == "bm25")


def test_a_shared_link_with_bm25_and_a_question_of_punctuation_opens() -> None:
    from ragviz.inputs.questions import LabelledQuestion
    from ragviz.share import links
    from ragviz.share.workspace import Settings, Workspace
    from tests.test_app import open_tab, page_text
    from tests.test_app_links import started

    work = Workspace("Refunds take ten days. The wifi password is on the board.",
                     (LabelledQuestion("?"), LabelledQuestion("wifi password")),
                     Settings(scorer="bm25", floor=0.0))
    at = started(links.share_query(work.settings, work).query)
    assert not at.exception, [e.value for e in at.exception]
    at = open_tab(at, "questions")
    assert not at.exception
    assert "no chunk holds a word of the question" in page_text(at)


# --- issue 42, item 23: a scorer spec read strictly, an open scale's floor bounded ----------

@pytest.mark.parametrize(("spec", "says"), [
    ("cosine+rerank(sentence-max)+rerank(sentence-max)", "more than one rerank(...) stage"),
    ("cosine+rerank(sentence-max))", "more than one rerank(...) stage"),
    ("hybrid(k=1,k=2)", "the option k is given twice in 'hybrid(k=1,k=2)'"),
    ("cosine+rerank(sentence-max,depth=3,depth=4)", "the option depth is given twice"),
])
def test_a_malformed_scorer_spec_is_one_sentence_before_any_model_loads(
        spec: str, says: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz.retrieval import rerank

    def no_load(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a model was loaded for {spec!r}")

    monkeypatch.setattr(rerank.CrossEncoderReranker, "__init__", no_load)
    with pytest.raises(InputError, match=re.escape(says)):
        get_scorer(spec)


@pytest.mark.parametrize("scorer", ["bm25", "hybrid(fusion=weighted)", "cosine"])
def test_a_huge_floor_is_refused_without_an_overflow_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], scorer: str) -> None:
    import warnings

    document = tmp_path / "doc.txt"
    document.write_text("Refunds take ten days. The wifi password is on the board.",
                        encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["search", str(document), "--question", "refunds", "--scorer", scorer,
                     "--floor", "1e308"]) == 2
    assert "the floor 1e+308 is off this scorer's scale" in capsys.readouterr().err
