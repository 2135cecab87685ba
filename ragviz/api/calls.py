"""The four calls of ragviz's Python API: ``chunk``, ``evaluate``, ``sweep`` and
``calibrate``. Each reads its inputs with the CLI's readers and runs the pipeline the CLI
and the app run (``ragviz.evaluation.pipeline``, ``experiments``, ``sweeping``,
``calibration``): the same corpus, questions and settings give the same numbers as
``ragviz eval``."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ragviz.api.chunkers import ChunkText, user_chunker
from ragviz.api.evaluation import Chunks, Evaluation, LLMRun
from ragviz.api.sources import CorpusInput, QuestionsInput, read_corpus, read_questions
from ragviz.chunking import ChunkerConfig, check_config, chunk_corpus, get_spec
from ragviz.errors import InputError
from ragviz.evaluation.calibration import Calibration
from ragviz.evaluation.results import Coverage, RetrievalSettings, SweepResult
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import DEFAULT_SCORER

Chunker = str | ChunkerConfig | Any  # a registered name, a configuration, or a user object


def chunker_of(chunker: Chunker, params: Mapping[str, Any]) -> tuple[ChunkerConfig,
                                                                     ChunkText | None]:
    """The configuration of ``chunker`` (a registered name with ``params``, a
    ``ChunkerConfig``, or a user's splitter object) and, for an object, its chunk function."""
    if isinstance(chunker, str):
        spec = get_spec(chunker)  # ValueError naming the registered chunkers
        foreign = sorted(set(params) - set(spec.names))
        if foreign:
            raise InputError(key="python.param_not_for_chunker", chunker=spec.name,
                             params=", ".join(foreign), takes=", ".join(spec.names))
        return check_config(ChunkerConfig.create(spec.name, **params)), None
    if params:
        raise InputError(key="python.params_with_object", params=", ".join(sorted(params)))
    if isinstance(chunker, ChunkerConfig):
        return check_config(chunker), None
    return user_chunker(chunker)


def _chunked(corpus: Corpus, config: ChunkerConfig, chunk_text: ChunkText | None,
             model: str | None) -> Any:
    from ragviz.embedding.models import DEFAULT_MODEL, load_embedder
    from ragviz.evaluation.pipeline import check_chunk_count

    needs = chunk_text is None and get_spec(config.chunker).needs_model
    embedder = load_embedder(model or DEFAULT_MODEL) if needs or model else None
    return check_chunk_count(chunk_corpus(corpus, config, embedder, chunk_text), config)


def chunk(text_or_paths: CorpusInput, chunker: Chunker = "sentence", *,
          model: str | None = None, **params: Any) -> Chunks:
    """Chunk a text, several texts or files with a ragviz chunker or your own splitter.

    Args:
        text_or_paths: a text, a list of texts, a dict of name -> text, or paths (files,
            folders, ``sample:NAME``) read as ``ragviz chunk`` reads them.
        chunker: a registered chunker's name (``ragviz chunkers`` lists them), or your own
            splitter: a LangChain ``TextSplitter``, a LlamaIndex ``NodeParser``, a Chonkie
            chunker or any callable ``str -> list[str]``. Its texts are located in the
            document; a text the document does not hold is an error that quotes it.
        model: the embedding model a token-counting chunker counts with (the default
            model when it needs one and none is given).
        **params: the registered chunker's parameters (``size=120, overlap=0``).

    Returns:
        The chunks, each with ``source``, ``start``, ``end`` and ``text`` equal to its
        document's ``text[start:end]``.
    """
    corpus = read_corpus(text_or_paths)
    config, chunk_text = chunker_of(chunker, params)
    result = _chunked(corpus, config, chunk_text, model)
    return Chunks(result.chunks, config.label(), corpus.names)


def _scorer(scorer: str, rerank: str | None) -> str:
    """``scorer`` with ``rerank`` (a reranker spec: ``cross-encoder:NAME,depth=20``)
    appended as ``--rerank`` appends it."""
    return scorer if not rerank else f"{scorer}+rerank({rerank})"


def _resolved(questions: list[LabelledQuestion], corpus: Corpus
              ) -> tuple[list[LabelledQuestion], Coverage]:
    from ragviz.cli.output import resolved_questions

    return resolved_questions(questions, corpus)


def evaluate(
    corpus: CorpusInput | None, questions: QuestionsInput, *, chunker: Chunker = "sentence",
    model: str | None = None, scorer: str = DEFAULT_SCORER, rerank: str | None = None,
    expand: int = 0, top_k: int = 2, floor: float | None = None, retriever: Any = None,
    index: Any = None, llm: str | None = None, llm_base: str | None = None, lang: str = "en",
    **params: Any,
) -> Evaluation:
    """Evaluate retrieval on a corpus and labelled questions: ``ragviz eval`` in Python.

    Args:
        corpus: paths (files, folders, ``sample:NAME``), a text, a list of texts, or a
            dict of name -> text. With ``index``: the files it was built from, or None.
        questions: a CSV path (``question,answer,answerable`` or Chroma's
            ``question,references,corpus_id``), a DataFrame or a list of dicts with those
            columns, or a list of question strings (unlabelled).
        chunker: a registered chunker's name with its ``**params``, a ``ChunkerConfig``,
            or your own splitter object (see ``chunk``).
        model: the embedding model (``ragviz models``; the CLI's default when None). With
            ``retriever``, optional: it only counts tokens and finds chunks the model cuts.
        scorer: a scorer spec (``cosine``, ``bm25``, ``hybrid(alpha=0.5)``).
        rerank: a reranker spec applied after the scorer (``--rerank``).
        expand: chunks on each side of every hit added to the context sent (``--expand``).
        top_k: how many chunks retrieval hands on.
        floor: the score a chunk must reach (None: no floor).
        retriever: your own retriever, asked each question instead of ragviz's ranking: a
            LangChain ``BaseRetriever``, a LlamaIndex retriever, or a callable
            ``question -> list[str | Document | (text, score)]``. Each text returned is
            located in the corpus; a text the corpus does not hold is an error naming it.
        index: a production index read on its stored vectors (``--index``): a path or URL
            (``postgresql://USER@HOST/DB`` with ``table=`` and its columns for a table of
            your own), or a Chroma, Qdrant or Postgres vector store object (LangChain's
            ``Chroma`` and ``PGVector``, LlamaIndex's ``ChromaVectorStore``,
            ``QdrantVectorStore`` and ``PGVectorStore``, a chromadb collection, a
            ``QdrantClient``); ``collection`` and the other ``--index`` options go in
            ``**params``.
        llm: a chat model that answers every question from the context sent (``--llm``);
            ``llm_base`` its OpenAI-compatible API base URL.
        lang: the language of the sentences (one of ``ragviz.i18n.LANGUAGES``).
        **params: the chunker's parameters (or, with ``index``, the ``--index`` options).

    Returns:
        The evaluation: metrics, one row per question, charts, sentences, report, JSON.
    """
    if retriever is not None and index is not None:
        raise InputError(key="python.retriever_and_index")
    settings = RetrievalSettings.checked(top_k, floor, _scorer(scorer, rerank), expand)
    asker = _asker(llm, llm_base, lang)
    labelled = read_questions(questions)
    with speaking(lang):  # what the readers note on stderr, in ``lang`` too
        if index is not None:
            evaluation = _index_evaluation(index, corpus, labelled, settings, model, lang, params)
        elif corpus is None:
            raise InputError(key="python.empty_corpus")
        elif retriever is not None:
            evaluation = _retriever_evaluation(retriever, read_corpus(corpus), labelled,
                                               settings, model, lang, params)
        else:
            evaluation = _chunker_evaluation(chunker, read_corpus(corpus), labelled, settings,
                                             model, lang, params)
        return _finished(evaluation, asker)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """The CLI's readers' notes (a file skipped, questions left out) said in ``lang``."""
    from ragviz.cli.reading import CLI_LANG

    token = CLI_LANG.set(lang)
    try:
        yield
    finally:
        CLI_LANG.reset(token)


def _chunker_evaluation(chunker: Chunker, documents: Corpus,
                        questions: list[LabelledQuestion], settings: RetrievalSettings,
                        model: str | None, lang: str, params: Mapping[str, Any]) -> Evaluation:
    """``ragviz eval``'s analysis, with the user's splitter's chunks when it is one."""
    from ragviz.embedding.models import DEFAULT_MODEL, load_embedder
    from ragviz.evaluation.pipeline import analyse

    kept, coverage = _resolved(questions, documents)
    config, chunk_text = chunker_of(chunker, params)
    embedder = load_embedder(model or DEFAULT_MODEL)
    chunking = _chunked(documents, config, chunk_text, embedder.name) \
        if chunk_text is not None else None
    analysis = analyse(documents, config, embedder, kept, settings, chunking=chunking)
    return Evaluation(analysis, coverage, lang)


def _retriever_evaluation(retriever: Any, documents: Corpus,
                          questions: list[LabelledQuestion], settings: RetrievalSettings,
                          model: str | None, lang: str, params: Mapping[str, Any]) -> Evaluation:
    """The pipeline after scoring on what the user's retriever returned for each question."""
    from ragviz.api.retrievers import retrieve_all, retriever_config, retriever_name
    from ragviz.embedding.models import load_embedder
    from ragviz.evaluation.pipeline import analyse_scored

    if params:
        raise InputError(key="python.params_with_object", params=", ".join(sorted(params)))
    questions, coverage = _resolved(questions, documents)
    name = retriever_name(retriever)
    retrieved = retrieve_all(retriever, questions, documents)
    embedder = load_embedder(model) if model else None
    analysis = analyse_scored(documents, retriever_config(retriever), questions,
                              retrieved.chunking, retrieved.score_rows, settings,
                              embedder.name if embedder else name, embedder)
    return Evaluation(analysis, coverage, lang, name, retrieved.returned)


def _asker(llm: str | None, base: str | None, lang: str) -> Any:
    """The asker ``--llm`` makes of the same options (None without ``llm``)."""
    from ragviz.cli.llm_options import make_asker

    return make_asker(argparse.Namespace(
        llm=llm, llm_base=base, max_tokens=None, llm_timeout=None, llm_no_stream=False,
        prompt_template=None, max_context_tokens=None, refusal_phrase=None, lang=lang))


def _finished(evaluation: Evaluation, asker: Any) -> Evaluation:
    """The evaluation with the LLM's answers when an ``llm`` was given."""
    if asker is None:
        return evaluation
    from dataclasses import replace

    from ragviz.cli.llm_options import ask

    results, metrics = ask(asker, evaluation.analysis)
    return replace(evaluation, llm=LLMRun(asker, results, metrics))


INDEX_OPTIONS = ("collection", "index_mode", "margin", "timeout", "table", "text_column",
                 "vector_column", "id_column", "metadata_column", "vector_name")


def _index_evaluation(index: Any, corpus: CorpusInput | None,
                      questions: list[LabelledQuestion], settings: RetrievalSettings,
                      model: str | None, lang: str, options: Mapping[str, Any]) -> Evaluation:
    """``ragviz eval --index``: the index read by the CLI's own path."""
    from ragviz.api.stores import index_spec
    from ragviz.cli.index_command import open_from_args, run_index_eval
    from ragviz.embedding.models import DEFAULT_MODEL, load_embedder
    from ragviz.index.stores import REQUEST_TIMEOUT_S

    unknown = sorted(set(options) - set(INDEX_OPTIONS))
    if unknown:
        raise InputError(key="python.param_not_for_chunker", chunker="index",
                         params=", ".join(unknown), takes=", ".join(INDEX_OPTIONS))
    spec, collection = index_spec(index, options.get("collection"))
    args = argparse.Namespace(**dict.fromkeys(INDEX_OPTIONS))
    args.__dict__.update({"index_mode": "auto", "timeout": REQUEST_TIMEOUT_S, **options,
                          "collection": collection, "index": spec, "lang": lang})
    reader = open_from_args(args, spec)
    sources = read_corpus(corpus) if corpus is not None else None
    if sources is not None:
        _resolved(questions, sources)
    embedder = load_embedder(model or DEFAULT_MODEL)
    run = run_index_eval(args, reader, questions, embedder, sources, settings, None)
    return Evaluation(run.result.analysis, run.result.coverage, lang, index_run=run)


def sweep(corpus: CorpusInput, questions: QuestionsInput, *,
          chunkers: Sequence[str] | None = None, sizes: Sequence[int] = (),
          overlaps: Sequence[int] = (), scorers: Sequence[str] = (),
          model: str | None = None, scorer: str = DEFAULT_SCORER, top_k: int = 2,
          floor: float | None = None) -> SweepResult:
    """The app's sweep: every chunker x size x overlap of the grid, each evaluated.

    Args:
        corpus: as for ``evaluate``.
        questions: as for ``evaluate``.
        chunkers: registered chunker names (None: the app's default grid).
        sizes: sizes in each chunker's size unit (replacing its steps).
        overlaps: overlaps in percent of the size.
        scorers: a scorer axis (each configuration ranked by each; empty: ``scorer``).
        model: the embedding model (the CLI's default when None).
        scorer: the scorer without a scorer axis.
        top_k: how many chunks retrieval hands on.
        floor: the score a chunk must reach (None: no floor).

    Returns:
        ``SweepResult``: ``rows`` (each configuration's metrics), ``best(metric)``,
        ``to_dict()`` (``ragviz sweep --json``'s rows).
    """
    from ragviz.embedding.models import DEFAULT_MODEL, load_embedder
    from ragviz.evaluation.sweeping import check_size, run_sweep, scorer_axis, sweep_grid

    documents = read_corpus(corpus)
    kept, _ = _resolved(read_questions(questions), documents)
    settings = RetrievalSettings.checked(top_k, floor, scorer)
    grid = sweep_grid(documents.total_chars, chunkers, sizes, overlaps)
    axis = scorer_axis(scorers) if scorers else ()
    check_size(grid, axis)
    return run_sweep(documents, kept, load_embedder(model or DEFAULT_MODEL), grid, settings, axis)


def calibrate(evaluation: Evaluation, cost_false_refusal: float = 1.0,
              cost_false_answer: float = 1.0) -> Calibration:
    """The floor measured on an evaluation's labelled questions, as ``ragviz calibrate``.

    Args:
        evaluation: an ``evaluate`` result with both answerable and unanswerable questions.
        cost_false_refusal: the cost of refusing an answerable question.
        cost_false_answer: the cost of answering an unanswerable one.

    Returns:
        ``Calibration``: ``floor`` (the suggested one), whether the labels separate, the
        trade-off curve; ``ragviz.evaluate(..., floor=calibration.floor)`` applies it.
    """
    from ragviz.evaluation.calibration import calibrate_outcomes
    from ragviz.retrieval.scorers import get_scorer

    analysis = evaluation.analysis
    if not {True, False} <= {o.question.is_answerable for o in analysis.outcomes}:
        raise InputError(key="cli.calibration_needs_both")
    return calibrate_outcomes(analysis.outcomes, cost_false_refusal, cost_false_answer,
                              get_scorer(analysis.settings.scorer).scale)
