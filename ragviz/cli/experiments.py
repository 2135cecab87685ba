"""The experiments the app runs, from a terminal: ``compare`` (configuration A against B, the
questions whose outcome flips) and ``sweep`` (the app's grid of chunkers x sizes x overlaps,
the best configuration named). Both print the results' own ``to_dict`` as JSON, or text."""

from __future__ import annotations

import argparse

from ragviz.cli import llm_options
from ragviz.cli.commands import analysed_run, prepared_run
from ragviz.cli.output import emit, metrics_line, with_coverage
from ragviz.cli.outputs import data
from ragviz.cli.payloads import analysis_header, header, settings_of
from ragviz.cli.reading import chunker_config, labelled_questions
from ragviz.cli.sweep_options import step_line, sweep_plan, sweep_scorers
from ragviz.evaluation.experiments import compare
from ragviz.evaluation.results import SweepResult
from ragviz.evaluation.sweeping import run_sweep
from ragviz.i18n import grouped, t


def cmd_compare(args: argparse.Namespace) -> None:
    """Configuration A (``--chunker`` ...) against B (``--b-chunker`` ...), one model, on
    the same evaluated questions (the corpus read and the questions checked once)."""
    chunker_config(args, "b_")  # B's options checked before any model work
    asker = llm_options.make_asker(args)
    prepared = prepared_run(args, labelled_questions(args))
    a = analysed_run(args, prepared)
    b = analysed_run(args, prepared, prefix="b_")
    result = compare(a, b)
    payload = {**analysis_header("compare", a),
               "b_settings": data(settings_of(b.settings, b.config)), **result.to_dict()}
    notes = with_coverage(payload, prepared.coverage, args.lang)
    answers = llm_options.compare_into(asker, a, b, payload, args.lang)  # none without --llm

    def text() -> str:
        from ragviz.present.answers import setting_sentence
        from ragviz.present.presentation import label_name

        lines = [f"A {result.label_a}: {metrics_line(result.metrics_a, args.lang, a.top_k)}",
                 f"B {result.label_b}: {metrics_line(result.metrics_b, args.lang, a.top_k)}",
                 t("cli.flips", args.lang, n=len(result.flips),
                   total=grouped(prepared.coverage.evaluated, args.lang)), *notes]
        for flip in result.flips:
            before = label_name(flip.label_a, args.lang) if flip.label_a else "-"
            after = label_name(flip.label_b, args.lang) if flip.label_b else "-"
            direction = t(f"cli.direction_{flip.direction}", args.lang)
            lines.append(f"  [{direction}] {flip.question.question}: {before} -> {after}")
        if a.settings.scorer != b.settings.scorer:  # B retrieves otherwise: what that does
            lines.append(setting_sentence(b.settings.scorer, result, args.lang))
        return "\n".join([*lines, *answers]) + "\n"

    emit(args, payload, text)


def cmd_sweep(args: argparse.Namespace) -> None:
    """The app's sweep grid on this corpus (or the chunkers named), and the best row; the
    questions left out (an excerpt not in the corpus) are out of every row, as in eval."""
    sweep_scorers(args)  # the axes' options checked before any model work
    prepared = prepared_run(args, labelled_questions(args))
    corpus, embedder, settings = prepared.corpus, prepared.embedder, prepared.settings
    grid, scorers = sweep_plan(args, corpus.total_chars)
    result: SweepResult = run_sweep(corpus, prepared.questions, embedder, grid, settings,
                                    scorers, report=step_line(args.lang))
    best = result.best(args.metric)
    payload = {**header("sweep", settings, None, embedder.name),
               "metric": args.metric, "best": best.to_dict(), **result.to_dict()}
    notes = with_coverage(payload, prepared.coverage, args.lang)

    def text() -> str:
        lines = [t("cli.sweep_header", args.lang, n=len(result.rows), model=embedder.name,
                   metric=args.metric, best=best.label()), *notes]
        for row in result.rows:
            mark = "*" if row is best else " "
            lines.append(f"{mark} {row.label()}: {t('cli.chunk_count', args.lang, n=row.chunks)}  "
                         f"{metrics_line(row.metrics, args.lang, settings.top_k)}")
        return "\n".join(lines) + "\n"

    emit(args, payload, text)
