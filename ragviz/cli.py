"""The ``ragviz`` command: chunk, search, eval, calibrate and report from a terminal.

User mistakes (a missing file, a bad parameter, an unknown model) end with one sentence on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from ragviz.app_command import DESCRIPTION, run_app
from ragviz.chunking import CHUNKER_NAMES, ChunkerConfig, make_chunks
from ragviz.documents import InputError, check_document, decode_upload
from ragviz.embedders import BUNDLED_MODELS, DEFAULT_MODEL, Embedder, ModelLoadError, load_embedder
from ragviz.questions import LabelledQuestion, check_question, parse_questions_csv
from ragviz.samples import get_sample, load_samples

EXIT_USER_ERROR = 2
SAMPLE_PREFIX = "sample:"  # `ragviz chunk sample:politica_reembolso`: a packaged sample
MODEL_CHUNKERS = {"tokens", "semantic"}


PATH_HELP = "a text file, - for standard input, or sample:NAME for a bundled sample"
QUESTIONS_HELP = "a CSV file with question,answer,answerable, or sample:NAME for its questions"


class UserError(Exception):
    """A mistake the user can fix; printed as one sentence."""


def _read_text(path: str, part: str = "document") -> str:
    if path.startswith(SAMPLE_PREFIX):
        return _sample_text(path.removeprefix(SAMPLE_PREFIX), part)
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "standard input"
    else:
        file = Path(path)
        if file.is_dir():
            raise UserError(f"{path} is a folder; give a text file")
        if not file.is_file():
            raise UserError(f"no such file: {path}")
        data = file.read_bytes()
        name = file.name
    return decode_upload(data, name).text


def _config(args: argparse.Namespace) -> ChunkerConfig:
    values: dict[str, Any] = {"chunker": args.chunker}
    for name in ("size", "overlap", "max_chars", "overlap_sentences", "threshold", "percentile"):
        value = getattr(args, name)
        if value is not None:
            values[name] = value
    if args.chunker == "markdown" and args.max_chars is None:
        values["max_chars"] = 800
    if args.chunker == "markdown" and args.overlap_sentences is None:
        values["overlap_sentences"] = 0
    return ChunkerConfig.from_dict(values)


def _sample_text(name: str, part: str) -> str:
    """A packaged sample's document or questions CSV: works without the repository."""
    try:
        sample = get_sample(name)
    except KeyError:
        names = ", ".join(s.name for s in load_samples())
        raise UserError(f"no sample called {name!r}; the samples are {names}") from None
    path = sample.questions_path if part == "questions" else sample.path
    return path.read_text(encoding="utf-8")


def _questions(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions: list[LabelledQuestion] = []
    if getattr(args, "questions", None):
        questions.extend(parse_questions_csv(_read_text(args.questions, "questions")))
    for text in getattr(args, "question", None) or []:
        if not text.strip():
            raise UserError("a --question is empty")
        questions.append(check_question(LabelledQuestion(text.strip()), "--question"))
    return questions


def _model(args: argparse.Namespace, needed: bool) -> Embedder | None:
    if not needed and args.model is None:
        return None
    return load_embedder(args.model or DEFAULT_MODEL)


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: Callable[[], str]) -> None:
    if args.json:
        json.dump(payload, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text())


def cmd_chunk(args: argparse.Namespace) -> None:
    document = check_document(_read_text(args.path))
    config = _config(args)
    embedder = _model(args, config.chunker in MODEL_CHUNKERS)
    result = make_chunks(document, config, embedder)
    rows = []
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
    }
    if result.boundary_similarities:
        payload["boundary_similarities"] = [
            {"offset": offset, "similarity": round(sim, 6)}
            for offset, sim in result.boundary_similarities
        ]
        payload["breakpoint_threshold"] = result.breakpoint_threshold

    def text() -> str:
        lines = [f"{config.label()}: {len(rows)} chunks"]
        lines += [f"#{r['index']} [{r['start']}:{r['end']}] {r['text']!r}" for r in rows]
        return "\n".join(lines) + "\n"

    _emit(args, payload, text)


def cmd_search(args: argparse.Namespace) -> None:
    questions = _questions(args)
    if not questions:
        raise UserError("give at least one --question")
    analysis = _run_analysis(args, questions)
    payload = {
        "model": analysis.model,
        "chunker": analysis.config.label(),
        "top_k": args.top_k,
        "floor": args.floor,
        "chunks": [c.to_dict() for c in analysis.chunks],
        "questions": [
            {
                "question": o.question.question,
                "scores": [round(s, 6) for s in o.decision.scores],
                "hits": [h.to_dict() for h in o.decision.hits],
                "decision": "refused" if o.decision.refused else "context",
            }
            for o in analysis.outcomes
        ],
    }

    def text() -> str:
        lines: list[str] = []
        for outcome in analysis.outcomes:
            lines.append(outcome.question.question)
            for hit in outcome.decision.hits:
                lines.append(f" {hit.score:.3f} {analysis.chunks[hit.index].text!r}")
            if outcome.decision.refused:
                lines.append(
                    f" refused: best score {outcome.decision.best_score:.3f} < floor {args.floor}"
                )
        return "\n".join(lines) + "\n"

    _emit(args, payload, text)


def _labelled(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions = _questions(args)
    if not questions:
        raise UserError(
            "give a questions file with --questions (columns question,answer,answerable)"
        )
    return questions


def _run_analysis(args: argparse.Namespace, questions: list[LabelledQuestion]) -> Any:
    from ragviz.analysis import analyse

    document = check_document(_read_text(args.path))
    embedder = load_embedder(args.model or DEFAULT_MODEL)
    return analyse(
        document,
        _config(args),
        embedder,
        questions,
        top_k=args.top_k,
        floor=args.floor,
        language=args.lang,
    )


def cmd_eval(args: argparse.Namespace) -> None:
    analysis = _run_analysis(args, _labelled(args))
    rows = []
    for outcome in analysis.outcomes:
        diagnosis = outcome.diagnosis
        rows.append(
            {
                "question": outcome.question.question,
                "answer": outcome.question.answer,
                "answerable": outcome.question.is_answerable,
                "decision": "refused" if outcome.decision.refused else "context",
                "best_score": round(outcome.decision.best_score, 6),
                "hits": [h.to_dict() for h in outcome.decision.hits],
                "labels": list(diagnosis.labels) if diagnosis else [],
                "explanation": diagnosis.explanation if diagnosis else "",
            }
        )
    payload = {
        "model": analysis.model,
        "chunker": analysis.config.label(),
        "top_k": analysis.top_k,
        "floor": analysis.floor,
        "chunks": len(analysis.chunks),
        "metrics": analysis.metrics.to_dict(),
        "questions": rows,
    }

    def text() -> str:
        m = analysis.metrics
        lines = [
            f"{analysis.config.label()} on {analysis.model}: {len(analysis.chunks)} chunks",
            f"hit@1 {_fmt(m.hit_at_1)}  hit@{analysis.top_k} {_fmt(m.hit_at_k)}  "
            f"MRR {_fmt(m.mrr)}  refusal precision {_fmt(m.refusal_precision)}  "
            f"recall {_fmt(m.refusal_recall)}",
        ]
        for row in rows:
            lines.append(f"[{', '.join(row['labels']) or 'unlabelled'}] {row['question']}")
            if row["explanation"]:
                lines.append(f"    {row['explanation']}")
        return "\n".join(lines) + "\n"

    _emit(args, payload, text)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def cmd_calibrate(args: argparse.Namespace) -> None:
    from ragviz.calibration import calibrate

    analysis = _run_analysis(args, _labelled(args))
    answerable = [o.decision.best_score for o in analysis.outcomes if o.question.is_answerable]
    unanswerable = [
        o.decision.best_score for o in analysis.outcomes if o.question.is_answerable is False
    ]
    if not answerable or not unanswerable:
        raise UserError(
            "calibration needs at least one answerable and one unanswerable labelled question"
        )
    calibration = calibrate(
        answerable, unanswerable, args.cost_false_refusal, args.cost_false_answer
    )
    payload = {
        "model": analysis.model,
        "chunker": analysis.config.label(),
        **calibration.to_dict(),
        "message": calibration.message(args.lang),
        "best_scores": [
            {
                "question": o.question.question,
                "answerable": o.question.is_answerable,
                "best_score": round(o.decision.best_score, 6),
            }
            for o in analysis.outcomes
            if o.question.is_answerable is not None
        ],
    }
    _emit(args, payload, lambda: calibration.message(args.lang) + "\n")


def cmd_report(args: argparse.Namespace) -> None:
    from ragviz.report import render_report

    analysis = _run_analysis(args, _labelled(args))
    html = render_report([analysis], lang=args.lang)
    out = Path(args.html)
    if out.parent and not out.parent.exists():
        raise UserError(f"the folder {out.parent} does not exist")
    out.write_text(html, encoding="utf-8")
    sys.stdout.write(f"wrote {out} ({len(html):,} characters)\n")


def _add_chunker_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("chunker")
    group.add_argument("--chunker", choices=CHUNKER_NAMES, default="sentence")
    group.add_argument("--size", type=int, help="characters (fixed, recursive) or tokens (tokens)")
    group.add_argument("--overlap", type=int, help="overlap in characters or tokens")
    group.add_argument("--max-chars", dest="max_chars", type=int, help="sentence, markdown")
    group.add_argument(
        "--overlap-sentences", dest="overlap_sentences", type=int, help="sentence, markdown"
    )
    group.add_argument("--threshold", type=float, help="semantic: similarity breakpoint")
    group.add_argument("--percentile", type=float, help="semantic: breakpoint percentile")
    parser.add_argument(
        "--model",
        help=f"{', '.join(BUNDLED_MODELS)} (default {DEFAULT_MODEL}), "
        "a sentence-transformers id or path",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--lang", choices=("en", "pt"), default="en", help="language of explanations"
    )


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USER_ERROR, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ragviz", description="See why retrieval returns the wrong passage."
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    chunk = sub.add_parser("chunk", help="split a document into chunks with exact offsets")
    chunk.add_argument("path", help=PATH_HELP)
    _add_chunker_options(chunk)
    chunk.set_defaults(handler=cmd_chunk)

    search = sub.add_parser("search", help="score questions against every chunk")
    search.add_argument("path", help=PATH_HELP)
    search.add_argument("--question", action="append", help="a question (repeatable)")
    search.add_argument("--questions", help=QUESTIONS_HELP)
    search.add_argument("--top-k", dest="top_k", type=int, default=2)
    search.add_argument("--floor", type=float, default=-1.0, help="score floor (default: none)")
    _add_chunker_options(search)
    search.set_defaults(handler=cmd_search)

    evaluate = sub.add_parser("eval", help="metrics and a diagnosis for labelled questions")
    calibrate = sub.add_parser("calibrate", help="measure the score floor from labelled questions")
    report = sub.add_parser("report", help="write a self-contained HTML report")
    for parser_, handler in (
        (evaluate, cmd_eval),
        (calibrate, cmd_calibrate),
        (report, cmd_report),
    ):
        parser_.add_argument("path", help=PATH_HELP)
        parser_.add_argument(
            "--questions", required=True, help=QUESTIONS_HELP
        )
        parser_.add_argument("--top-k", dest="top_k", type=int, default=2)
        parser_.add_argument(
            "--floor", type=float, default=-1.0, help="score floor (default: none)"
        )
        _add_chunker_options(parser_)
        parser_.set_defaults(handler=handler)
    calibrate.add_argument("--cost-false-refusal", type=float, default=1.0)
    calibrate.add_argument("--cost-false-answer", type=float, default=1.0)
    report.add_argument("--html", required=True, help="where to write the report")
    # Listed for --help; main() hands `ragviz app ...` to run_app before argparse sees it.
    app = sub.add_parser("app", help="start the explorer (Streamlit)", description=DESCRIPTION)
    app.set_defaults(handler=lambda _args: sys.exit(run_app([])))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:  # its other arguments belong to `streamlit run`
        return run_app(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.handler(args)
    except (UserError, InputError, ModelLoadError, ValueError, OSError) as error:
        message = str(error).strip() or type(error).__name__
        sys.stderr.write(f"ragviz {args.command}: {message}\n")
        return EXIT_USER_ERROR
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
