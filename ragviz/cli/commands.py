"""The commands on one configuration: chunk, search, eval, calibrate and report."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict, dataclass
from typing import Any

from ragviz.chunking import (
    chunk_corpus,
    get_spec,
)
from ragviz.cli import llm_options, output, study_options
from ragviz.cli.output import emit, progress_line, resolved_questions, source_prefix, writable_path
from ragviz.cli.payloads import analysis_header, eval_json, search_payload
from ragviz.cli.reading import (
    CLI_LANG,
    chunker_config,
    embedder_for,
    given_questions,
    labelled_questions,
    model_name,
    read_paths,
)
from ragviz.cli.retrieval_options import retrieval_settings, scorer_spec
from ragviz.cli.workspace_run import SIDES, workspace_runs
from ragviz.embedding.models import Embedder, load_embedder
from ragviz.embedding.openai_api import REQUEST_TIMEOUT_S
from ragviz.errors import UserError, os_reason
from ragviz.evaluation.overview import corpus_overview
from ragviz.evaluation.results import Analysis, Coverage, RetrievalSettings
from ragviz.i18n import grouped, t
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion


def cmd_chunk(args: argparse.Namespace) -> None:
    from ragviz.evaluation.pipeline import check_chunk_count

    corpus = read_paths(args.paths)
    config = chunker_config(args)
    embedder = embedder_for(args, get_spec(config.chunker).needs_model)
    result = check_chunk_count(chunk_corpus(corpus, config, embedder), config)
    rows: list[dict[str, Any]] = []
    for chunk in result.chunks:
        row = chunk.to_dict()
        if embedder is not None:
            row["tokens"] = embedder.count_tokens(chunk.text)
        rows.append(row)
    payload: dict[str, Any] = {
        "chunker": config.label(),
        "config": config.to_dict(),
        "model": embedder.name if embedder else None,
        "chunks": rows,
        "sources": [source.to_dict() for source in corpus.sources],
    }
    if result.boundary_similarities:
        payload["boundary_similarities"] = [
            {"offset": offset, "similarity": round(sim, 6)}
            for offset, sim in result.boundary_similarities
        ]
        payload["breakpoint_threshold"] = result.breakpoint_threshold

    def text() -> str:
        files = len(corpus.sources) if corpus.multi_file else 0
        lines = [f"{config.label()}: " + t("cli.chunk_count_files" if files else "cli.chunk_count",
                                           args.lang, n=len(rows), files=files)]
        lines += [f"#{c.index} {source_prefix(c, corpus)}[{c.start}:{c.end}] {c.text!r}"
                  for c in result.chunks]
        return "\n".join(lines) + "\n"

    emit(args, payload, text)


def cmd_search(args: argparse.Namespace) -> None:
    questions = given_questions(args)
    if not questions:
        raise UserError(key="cli.no_question")
    asker = llm_options.make_asker(args)  # its options checked before any model work
    analysis = _run_analysis(args, questions)
    payload = search_payload(analysis)
    answers, summary = llm_options.answer_into(asker, analysis, payload, args.lang)

    def text() -> str:
        from ragviz.present.presentation import decimal, decision_text, score_digits

        lines: list[str] = [*summary]
        for number, outcome in enumerate(analysis.outcomes):
            lines.append(outcome.question.question)
            digits = score_digits(outcome.decision.scores, outcome.decision.floor,
                                  outcome.decision.top_k)
            for hit in outcome.decision.hits:
                score = decimal(hit.score, digits, args.lang)
                chunk = analysis.chunks[hit.index]
                lines.append(f" {score} {source_prefix(chunk, analysis.corpus)}{chunk.text!r}")
            if outcome.decision.refused:
                lines.append(f" {decision_text(outcome.decision, args.lang)}")
            lines += llm_options.lines_for(answers, number, args.lang)
        return "\n".join(lines) + "\n"

    emit(args, payload, text)


def _inputs(args: argparse.Namespace) -> tuple[Corpus, Embedder, RetrievalSettings]:
    """The corpus, the model and the retrieval settings a command's analyses share."""
    corpus = read_paths(args.paths)
    name = model_name(args)
    if name.startswith("openai:") and output.stderr_is_terminal():
        sys.stderr.write(t("cli.connecting", CLI_LANG.get(),
                           seconds=f"{REQUEST_TIMEOUT_S:g}") + "\n")
    embedder = load_embedder(name)
    return corpus, embedder, retrieval_settings(args)


@dataclass(frozen=True)
class Prepared:
    """What every analysis of one command shares: the corpus, the model, the settings and
    the questions evaluated (those whose excerpts lie in the corpus), with their coverage."""

    corpus: Corpus
    embedder: Embedder
    settings: RetrievalSettings
    questions: list[LabelledQuestion]
    coverage: Coverage


def prepared_run(args: argparse.Namespace, questions: list[LabelledQuestion]) -> Prepared:
    corpus, embedder, settings = _inputs(args)
    kept, coverage = resolved_questions(questions, corpus)
    return Prepared(corpus, embedder, settings, kept, coverage)


def analysed_run(args: argparse.Namespace, prepared: Prepared, prefix: str = "") -> Analysis:
    """One configuration (``prefix`` "b_" reads configuration B's options) analysed."""
    from ragviz.evaluation.pipeline import analyse

    settings = prepared.settings
    if prefix and scorer_spec(args, prefix) != scorer_spec(args):  # compare's B
        settings = retrieval_settings(args, prefix)
    return analyse(prepared.corpus, chunker_config(args, prefix), prepared.embedder,
                   prepared.questions, settings, progress=progress_line(prepared.embedder))


def _run_analysis(
    args: argparse.Namespace, questions: list[LabelledQuestion], prefix: str = ""
) -> Analysis:
    return analysed_run(args, prepared_run(args, questions), prefix)


def cmd_eval(args: argparse.Namespace) -> None:
    from ragviz.present.presentation import (
        answerable_refused,
        label_name,
        token_text,
    )

    asker = llm_options.make_asker(args)  # its options checked before any model work
    index_run = None if args.workspace else index_run_of(args)  # None without --index
    embedder = None
    if args.workspace:
        run = workspace_runs(args, (args.side,))[0]
        analysis, coverage, embedder = run.analysis, run.coverage, run.embedder
    elif index_run:
        analysis, coverage = index_run.result.analysis, index_run.result.coverage
    else:
        prepared = prepared_run(args, labelled_questions(args))
        analysis, coverage, embedder = analysed_run(args, prepared), prepared.coverage, \
            prepared.embedder
    payload = eval_json(analysis, args.lang)
    others, study_table = study_options.study_into(args, analysis, embedder, payload)
    rows = payload["questions"]
    notes = index_run.decorate(payload) if index_run else []
    covered = output.with_coverage(payload, coverage, args.lang)
    stale, denominator = _index_facts(index_run, payload, args.lang)
    answers, summary = llm_options.answer_into(asker, analysis, payload, args.lang)

    def text() -> str:
        m = analysis.metrics
        files = len(analysis.corpus.sources) if analysis.corpus.multi_file else 0
        lines = [*notes,
            t("cli.eval_header_files" if files else "cli.eval_header", args.lang,
              config=payload["chunker"], model=analysis.model, scorer=payload["scorer"],
              n=len(analysis.chunks), files=files),
            "  ".join(filter(None, [output.metrics_line(m, args.lang, analysis.top_k),
                                    answerable_refused(m, args.lang)])),
            *_file_lines(analysis, args.lang),
            *covered, *denominator, *summary, *study_table]
        for number, (row, outcome) in enumerate(zip(rows, analysis.outcomes, strict=True)):
            names = ", ".join(label_name(label, args.lang) for label in row["labels"])
            lines.append(f"[{names or t('cli.unlabelled', args.lang)}] {row['question']}")
            if outcome.tokens is not None:
                lines.append(f"    {token_text(outcome.tokens, args.lang)}")
            if row["explanation"]:
                lines.append(f"    {row['explanation']}")
            lines += [f"    {sentence}" for sentence in stale.get(number, [])]
            lines += llm_options.lines_for(answers, number, args.lang)
            lines += others.get(number, [])
        return "\n".join(lines) + "\n"

    emit(args, payload, text)


def _file_lines(analysis: Analysis, lang: str) -> list[str]:
    """Per file of a corpus, what the app's file overview shows: its characters, its chunks
    and for how many questions one of them is in the top_k."""
    if not analysis.corpus.multi_file:
        return []
    return ["  " + t("cli.eval_file", lang, name=row.name, chars=grouped(row.chars, lang),
                     n=row.chunks, k=analysis.top_k, retrieved=row.retrieved,
                     total=len(analysis.outcomes))
            for row in corpus_overview(analysis)]


def _index_facts(index_run: Any, payload: dict[str, Any], lang: str
                 ) -> tuple[dict[int, list[str]], list[str]]:
    """``eval --index``: per question, the stale chunks in its top_k or holding its answer
    (also ``stale_chunks`` in its JSON row), and over whom the token metrics' means are."""
    if index_run is None:
        return {}, []
    from ragviz.index.placement import STALE_SUFFIX
    from ragviz.present.presentation import chunk_list

    result = index_run.result
    stale: dict[int, list[str]] = {}
    for number, (row, outcome) in enumerate(zip(payload["questions"], result.analysis.outcomes,
                                                strict=True)):
        held = outcome.diagnosis.holding_chunks if outcome.diagnosis else ()
        chunks = sorted(i for i in {*(h.index for h in outcome.decision.hits), *held}
                        if result.placed.stale[i] is not None)
        row["stale_chunks"] = chunks
        for file in dict.fromkeys(result.placed.stale[i] for i in chunks):
            mine = [i for i in chunks if result.placed.stale[i] == file]
            stale.setdefault(number, []).append(
                t("idx.stale_answer", lang, chunks=chunk_list(mine, lang), file=file))
    scored = [o for o in result.analysis.outcomes
              if o.question.is_answerable is True and o.question.expected]
    measured = sum(o.tokens is not None for o in scored)
    payload["token_metrics_over"] = measured
    if result.by_text or measured == len(scored):
        return stale, []
    stale_only = sum(1 for o in scored if o.tokens is None and o.diagnosis is not None
                     and o.diagnosis.answer_span is not None
                     and o.diagnosis.answer_span.source.endswith(STALE_SUFFIX))
    return stale, [t("idx.token_denominator", lang, n=measured, evaluated=len(scored),
                     missing=len(scored) - measured, stale=stale_only)]


def index_run_of(args: argparse.Namespace,
               asked: list[LabelledQuestion] | None = None) -> Any:
    """``eval --index``: the production index's chunks on its stored vectors (for the
    ``--questions`` file, or for ``asked``: ``explain``'s ticket)."""
    if not getattr(args, "index", None):
        if not args.paths:
            raise UserError(key="cli.no_paths")
        return None
    if args.paths:
        raise UserError(key="cli.paths_with_index")
    from ragviz.cli.index_command import open_from_args, run_index_eval

    reader = open_from_args(args, args.index)  # a server that does not answer: before the model
    questions = labelled_questions(args) if asked is None else asked
    sources = read_paths(args.sources) if args.sources else None
    if sources is not None:  # plain eval's checks, before the model loads (the analysis
        resolved_questions(questions, sources)  # leaves the same rows out and says why)
    embedder = load_embedder(model_name(args))
    return run_index_eval(args, reader, questions, embedder, sources,
                          retrieval_settings(args),
                          progress_line(embedder))


def cmd_calibrate(args: argparse.Namespace) -> None:
    from ragviz.evaluation.calibration import calibrate_outcomes
    from ragviz.present.presentation import calibration_message
    from ragviz.retrieval.scorers import get_scorer

    prepared = prepared_run(args, labelled_questions(args))
    analysis = analysed_run(args, prepared)
    if not {True, False} <= {o.question.is_answerable for o in analysis.outcomes}:
        raise UserError(key="cli.calibration_needs_both")
    calibration = calibrate_outcomes(
        analysis.outcomes, args.cost_false_refusal, args.cost_false_answer,
        get_scorer(analysis.settings.scorer).scale)
    payload = {
        **analysis_header("calibrate", analysis),
        "floor_given": analysis.floor,
        **asdict(calibration),  # its floor: the suggested one
        "message": calibration_message(calibration, args.lang),
        "best_scores": [
            {
                "question": o.question.question,
                "answerable": o.question.is_answerable,
                "best_score": round(o.decision.best_score, 6),
                "best_chunk": o.decision.best_index,
                "source": None if o.decision.best_index is None
                else analysis.chunks[o.decision.best_index].source,
            }
            for o in analysis.outcomes
            if o.question.is_answerable is not None
        ],
    }
    covered = output.with_coverage(payload, prepared.coverage, args.lang)
    emit(args, payload,
          lambda: "\n".join([calibration_message(calibration, args.lang), *covered]) + "\n")


def cmd_report(args: argparse.Namespace) -> None:
    from ragviz.present.report import render_report
    from ragviz.projection.space import static_maps

    if getattr(args, "format", None) in ("md", "csv"):  # before any work: a report has no table
        raise UserError(key="cli.no_table", command=args.command)
    out = writable_path(args.html)  # before the analysis, so a bad path costs no model run
    asker = llm_options.make_asker(args)  # its options checked before any model work
    if args.workspace:  # both configurations, as the app's report draws them
        runs = workspace_runs(args, SIDES)
        analyses, embedders = [r.analysis for r in runs], [r.embedder for r in runs]
        coverage = runs[0].coverage
    else:
        if not args.paths:
            raise UserError(key="cli.no_paths")
        prepared = prepared_run(args, labelled_questions(args))
        analyses, embedders = [analysed_run(args, prepared)], [prepared.embedder]
        coverage = prepared.coverage
    html = render_report(analyses, lang=args.lang, maps=static_maps(analyses, embedders),
                         coverage=coverage, answers=llm_options.answer_sets(asker, analyses),
                         study=study_options.studied(args, analyses[0], embedders[0]))
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as error:
        raise UserError(key="cli.html_unwritable", path=args.html,
                        reason=os_reason(error)) from None
    payload = {**analysis_header("report", analyses[0]), "html": str(out),
               "characters": len(html), "configurations": [a.config.label() for a in analyses]}
    emit(args, payload, lambda: t("cli.report_written", args.lang, path=out,
                                   chars=grouped(len(html), args.lang)) + "\n")
