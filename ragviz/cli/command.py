"""The ``ragviz`` command: chunk, search, eval, calibrate and report from a terminal.

Each command reads a corpus: one text file or ``-`` (read as before, with its encoding
note and size checks), or several paths, folders, ``.html``/``.pdf``/``.docx``/``.zip``
files (``ragviz.inputs.corpus.load_paths``; a file that cannot be converted is one sentence on
stderr and the others still load). Every chunk in the JSON output carries its ``source``.

User mistakes (a missing file, a bad parameter, an unknown model) end with one sentence on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from ragviz.chunking import (
    CHUNKER_NAMES,
    Chunk,
    ChunkerConfig,
    check_config,
    chunk_corpus,
    get_spec,
)
from ragviz.chunking.registry import PEERS_EXTRA, missing_peers, param_kind, param_names, specs
from ragviz.cli.app import DESCRIPTION, run_app
from ragviz.embedding.base import Progress
from ragviz.embedding.models import (
    BUNDLED_MODELS,
    DEFAULT_MODEL,
    Embedder,
    ModelLoadError,
    load_embedder,
)
from ragviz.embedding.openai_api import REQUEST_TIMEOUT_S
from ragviz.evaluation.measures import metric_names
from ragviz.inputs.convert import TEXT_SUFFIXES, suffix_of
from ragviz.inputs.corpus import Corpus, Source, load_paths, short_name
from ragviz.inputs.documents import (
    MAX_CLI_QUESTIONS,
    MAX_CLI_QUESTIONS_BYTES,
    MAX_FLOOR,
    MAX_TOP_K,
    MIN_FLOOR,
    MIN_TOP_K,
    DecodedText,
    InputError,
    check_document,
    decode_upload,
    shorten,
)
from ragviz.inputs.questions import LabelledQuestion, check_question, read_questions_file
from ragviz.present.safe_text import visible_controls as terminal_safe
from ragviz.retrieval.scorers import DEFAULT_SCORER, scorer_names
from ragviz.share.samples import Sample, get_sample, load_samples

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130  # as shells report a Ctrl-C
SAMPLE_PREFIX = "sample:"  # `ragviz chunk sample:politica_reembolso`: a packaged sample
# Embedding, override and isolate marks: they reorder what the terminal shows (Trojan Source).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


QUESTIONS_HELP = "a CSV file with question,answer,answerable, or sample:NAME for its questions"


class UserError(Exception):
    """A mistake the user can fix; printed as one sentence."""


def _read_text(path: str, what: str = "document") -> str:
    """The file's text; a file that is not UTF-8 is named on stderr with the encoding used."""
    data, name = _read_bytes(path, what)
    decoded = decode_upload(data, name)
    _note_encoding(name, decoded)
    return decoded.text


def _read_bytes(path: str, what: str) -> tuple[bytes, str]:
    if path.startswith(SAMPLE_PREFIX):
        return _sample_bytes(path.removeprefix(SAMPLE_PREFIX), what)
    if path == "-":
        return sys.stdin.buffer.read(), "standard input"
    file, shown = Path(path), short_name(path)
    if file.is_dir():
        raise UserError(f"the {what} {shown} is a folder; give a text file")
    if not file.is_file():
        raise UserError(f"the {what} {shown} does not exist")
    try:
        return file.read_bytes(), file.name
    except OSError as error:
        raise UserError(f"cannot read the {what} {shown}: {_reason(error)}") from None


def _reason(error: OSError) -> str:
    return (error.strerror or type(error).__name__).lower()


def _note_encoding(name: str, decoded: DecodedText) -> None:
    if decoded.notice:
        check = "; check accented letters" if decoded.guessed else ""
        sys.stderr.write(
            terminal_safe(f"ragviz: note: {name} is not UTF-8; read it as {decoded.notice}{check}")
            + "\n"
        )


def _shown_name(path: str) -> str:
    return "on standard input" if path == "-" else path


STDIN_NAME = "stdin.txt"  # the source name of standard input, as ragviz.inputs.corpus names it


def _read_corpus(paths: Sequence[str]) -> Corpus:
    """One text file or ``-`` as before (one source named after the file); anything else
    through the corpus loader, each file that fails named on stderr."""
    if len(paths) == 1 and paths[0].startswith(SAMPLE_PREFIX):
        sample = _sample(paths[0].removeprefix(SAMPLE_PREFIX))
        if sample.is_corpus:
            return sample.corpus()
    if len(paths) == 1 and _plain_text(paths[0]):
        path = paths[0]
        text = check_document(_read_text(path), _shown_name(path))
        return Corpus((Source(_source_name(path), text),))
    if paths.count("-") > 1:
        raise UserError("standard input (-) can be given only once")
    corpus = load_paths(paths)
    for problem in corpus.problems:
        sys.stderr.write(terminal_safe(f"ragviz: skipped: {problem.message}", keep="") + "\n")
    for source in corpus.sources:
        if source.notice:
            said = source.notice if source.notice.startswith(source.name) else (
                f"{source.name}: {source.notice}")
            sys.stderr.write(terminal_safe(f"ragviz: note: {said}", keep="") + "\n")
    if not corpus.sources:
        shown = (short_name(_shown_name(path)) for path in paths)
        raise UserError("no file could be read from " + ", ".join(shown))
    return corpus


def _source_name(path: str) -> str:
    """The name a single document's chunks carry: its file name, whoever names it."""
    if path == "-":
        return STDIN_NAME
    if path.startswith(SAMPLE_PREFIX):
        return _sample(path.removeprefix(SAMPLE_PREFIX)).path.name
    return Path(path).name


def _plain_text(path: str) -> bool:
    """Standard input, or one path that is not a folder and not a converted format."""
    if path == "-":
        return True
    suffix = suffix_of(path)
    return not Path(path).is_dir() and (suffix in TEXT_SUFFIXES or suffix not in _CONVERTED)


_CONVERTED = (".html", ".htm", ".pdf", ".docx", ".zip")


def _where(chunk: Chunk, corpus: Corpus) -> str:
    """``name `` before a chunk's offsets when the corpus has several files, else nothing."""
    return f"{chunk.source} " if corpus.multi_file else ""


def _sources(corpus: Corpus) -> list[dict[str, Any]]:
    return [{"name": s.name, "chars": len(s.text)} for s in corpus.sources]


def _config(args: argparse.Namespace) -> ChunkerConfig:
    """The chunker options given, the chunker's spec defaults for the rest, checked."""
    spec = get_spec(args.chunker)
    values: dict[str, Any] = {}
    for name in param_names():
        value = getattr(args, name)
        if value is not None and name in spec.names:  # another chunker's option is ignored
            values[name] = value
    return check_config(ChunkerConfig.create(spec.name, **values))


def _flag(name: str) -> str:
    return name.replace("_", "-")


def _sample(name: str) -> Sample:
    """A packaged sample by name, or one sentence listing the samples there are."""
    try:
        return get_sample(name)
    except KeyError:
        names = ", ".join(s.name for s in load_samples(corpora=True))
        raise UserError(f"no sample called {name!r}; the samples are {names}") from None


def _sample_bytes(name: str, what: str) -> tuple[bytes, str]:
    """A packaged sample's document or questions CSV: works without the repository."""
    sample = _sample(name)
    path = sample.questions_path if what.startswith("questions") else sample.path
    return path.read_bytes(), path.name


def _questions(args: argparse.Namespace) -> list[LabelledQuestion]:
    questions: list[LabelledQuestion] = []
    if getattr(args, "questions", None):
        if args.questions == "-" and "-" in args.paths:
            raise UserError(
                "the document and --questions cannot both be standard input (-); "
                "give the questions as a file"
            )
        data, name = _read_bytes(args.questions, "questions file")
        labelled, decoded = read_questions_file(data, name, MAX_CLI_QUESTIONS,
                                                MAX_CLI_QUESTIONS_BYTES)
        _note_encoding(name, decoded)
        questions.extend(labelled)
    for text in getattr(args, "question", None) or []:
        if not text.strip():
            raise UserError("a --question is empty")
        questions.append(check_question(LabelledQuestion(text.strip()), "--question"))
    return questions


def _model_name(args: argparse.Namespace) -> str:
    """``--model``, with ``--api-base`` folded in for ``openai:`` models."""
    name: str = args.model or DEFAULT_MODEL
    if getattr(args, "api_base", None):
        if not name.startswith("openai:"):
            raise UserError("--api-base only applies to openai:<model> models")
        from ragviz.embedding.openai_api import openai_name, parse_openai_name

        name = openai_name(parse_openai_name(name)[0], args.api_base)
    return name


def _model(args: argparse.Namespace, needed: bool) -> Embedder | None:
    if not needed and args.model is None:
        return None
    return load_embedder(_model_name(args))


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: Callable[[], str]) -> None:
    if args.json:
        # json escapes C0 controls itself; DEL, C1 and bidi marks become \\u escapes here
        dumped = json.dumps(payload, ensure_ascii=False, indent=2)
        sys.stdout.write(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped) + "\n")
    else:
        sys.stdout.write(terminal_safe(text()))


def cmd_chunk(args: argparse.Namespace) -> None:
    from ragviz.evaluation.pipeline import check_chunk_count

    corpus = _read_corpus(args.paths)
    config = _config(args)
    embedder = _model(args, get_spec(config.chunker).needs_model)
    result = check_chunk_count(chunk_corpus(corpus, config, embedder), config)
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
        "sources": _sources(corpus),
    }
    if result.boundary_similarities:
        payload["boundary_similarities"] = [
            {"offset": offset, "similarity": round(sim, 6)}
            for offset, sim in result.boundary_similarities
        ]
        payload["breakpoint_threshold"] = result.breakpoint_threshold

    def text() -> str:
        lines = [f"{config.label()}: {len(rows)} chunks"
                 + (f" from {len(corpus.sources)} files" if corpus.multi_file else "")]
        lines += [f"#{c.index} {_where(c, corpus)}[{c.start}:{c.end}] {c.text!r}"
                  for c in result.chunks]
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
        "sources": _sources(analysis.corpus),
        "questions": [
            {
                "question": o.question.question,
                "scores": [round(s, 6) for s in o.decision.scores.tolist()],
                "hits": [analysis.hit_dict(h) for h in o.decision.hits],
                "decision": "refused" if o.decision.refused else "context",
            }
            for o in analysis.outcomes
        ],
    }

    def text() -> str:
        from ragviz.present.presentation import decimal, decision_text, distinct_digits

        lines: list[str] = []
        for outcome in analysis.outcomes:
            lines.append(outcome.question.question)
            digits = distinct_digits([*outcome.decision.scores.tolist(), args.floor], fewest=3)
            for hit in outcome.decision.hits:
                score = decimal(hit.score, digits, args.lang)
                chunk = analysis.chunks[hit.index]
                lines.append(f" {score} {_where(chunk, analysis.corpus)}{chunk.text!r}")
            if outcome.decision.refused:
                lines.append(f" {decision_text(outcome.decision, args.lang)}")
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
    from ragviz.evaluation.pipeline import analyse
    from ragviz.evaluation.results import RetrievalSettings

    corpus = _read_corpus(args.paths)
    questions = _resolved(questions, corpus)
    name = _model_name(args)
    if name.startswith("openai:") and _stderr_is_terminal():
        sys.stderr.write(f"ragviz: connecting to the embedding API (each request waits at "
                         f"most {REQUEST_TIMEOUT_S:g} s; Ctrl-C stops)\n")
    embedder = load_embedder(name)
    settings = RetrievalSettings(top_k=args.top_k, floor=args.floor, scorer=args.scorer)
    return analyse(corpus, _config(args), embedder, questions, settings,
                   progress=_progress(embedder))


def _resolved(questions: list[LabelledQuestion], corpus: Corpus) -> list[LabelledQuestion]:
    """The questions whose labelled excerpts lie in the corpus; a sentence on stderr for each
    row left out (the others are evaluated)."""
    from ragviz.evaluation.excerpts import resolve_questions

    kept, problems = resolve_questions(questions, corpus)
    for problem in problems:
        sys.stderr.write(f"ragviz: {problem}\n")
    if questions and not kept:
        raise UserError("no question's excerpts lie in the corpus: check corpus_id and the "
                        "offsets against the files given")
    return kept


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _progress(embedder: Embedder) -> Progress | None:
    """Batch-by-batch progress on a terminal's stderr (never in pipes, files or tests'
    captures), so a slow embedding API is seen working, not hanging."""
    if not _stderr_is_terminal():
        return None
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        if total == 0:
            return
        seconds = time.monotonic() - started
        end = "\n" if done == total else "\r"
        sys.stderr.write(f"ragviz: embedded {done:,} of {total:,} chunks with "
                         f"{terminal_safe(embedder.name, keep='')} ({seconds:.0f} s){end}")
        sys.stderr.flush()

    return show


def cmd_eval(args: argparse.Namespace) -> None:
    from ragviz.present.presentation import label_name, metric_label, share, token_text

    analysis = _run_analysis(args, _labelled(args))
    rows = [_eval_row(analysis, outcome, args.lang) for outcome in analysis.outcomes]
    payload = {
        "model": analysis.model,
        "chunker": analysis.config.label(),
        "top_k": analysis.top_k,
        "floor": analysis.floor,
        "chunks": len(analysis.chunks),
        "chunk_list": [c.to_dict() for c in analysis.chunks],
        "sources": _sources(analysis.corpus),
        "metrics": analysis.metrics.to_dict(),
        "questions": rows,
    }

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else share(value, args.lang)

    def text() -> str:
        m = analysis.metrics
        files = f" from {len(analysis.corpus.sources)} files" if analysis.corpus.multi_file else ""
        lines = [
            f"{analysis.config.label()} on {analysis.model}: {len(analysis.chunks)} chunks{files}",
            "  ".join(f"{metric_label(name, args.lang, short=True, k=analysis.top_k)} "
                      f"{fmt(m.values.get(name))}" for name in metric_names()),
        ]
        for row, outcome in zip(rows, analysis.outcomes, strict=True):
            names = ", ".join(label_name(label, args.lang) for label in row["labels"])
            lines.append(f"[{names or 'unlabelled'}] {row['question']}")
            if outcome.tokens is not None:
                lines.append(f"    {token_text(outcome.tokens, args.lang)}")
            if row["explanation"]:
                lines.append(f"    {row['explanation']}")
        return "\n".join(lines) + "\n"

    _emit(args, payload, text)


def _eval_row(analysis: Any, outcome: Any, lang: str) -> dict[str, Any]:
    """One question of ``eval --json``: the decision, the diagnosis, the token measures."""
    from ragviz.evaluation.results import token_fields
    from ragviz.present.presentation import diagnosis_text

    diagnosis = outcome.diagnosis
    return {
        "question": outcome.question.question,
        "answer": outcome.question.answer,
        "answerable": outcome.question.is_answerable,
        "decision": "refused" if outcome.decision.refused else "context",
        "best_score": round(outcome.decision.best_score, 6),
        "hits": [analysis.hit_dict(h) for h in outcome.decision.hits],
        "labels": list(diagnosis.labels) if diagnosis else [],
        "explanation": diagnosis_text(diagnosis, lang) if diagnosis else "",
        "diagnosis": diagnosis.to_dict() if diagnosis else None,
        **token_fields(outcome.tokens),
        **({"references": [r.to_dict() for r in outcome.question.references]}
           if outcome.question.references else {}),
    }


def cmd_calibrate(args: argparse.Namespace) -> None:
    from ragviz.evaluation.calibration import calibrate
    from ragviz.present.presentation import calibration_message

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
    _emit(args, payload, lambda: calibration_message(calibration, args.lang) + "\n")


def cmd_report(args: argparse.Namespace) -> None:
    from ragviz.present.report import render_report

    out = _writable(args.html)  # before the analysis, so a bad path costs no model run
    analysis = _run_analysis(args, _labelled(args))
    html = render_report([analysis], lang=args.lang)
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write --html {args.html}: {_reason(error)}") from None
    sys.stdout.write(terminal_safe(f"wrote {out} ({len(html):,} characters)") + "\n")


def _writable(path: str) -> Path:
    """The output file, or a sentence saying why it cannot be written there."""
    out = Path(path)
    if out.is_dir():
        raise UserError(
            f"--html {path} is a folder; give a file name such as {out / 'report.html'}"
        )
    folder = out.parent
    if not folder.is_dir():
        raise UserError(f"--html {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UserError(f"--html {path}: the folder {folder} is not writable")
    return out


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type that refuses values outside what the app's widgets allow."""

    def parse(raw: str) -> int:
        text = raw.strip()
        if not re.fullmatch(r"[+-]?\d+", text):
            raise argparse.ArgumentTypeError(
                f"give a whole number from {low} to {high}, got {shorten(raw)!r}"
            )
        digits = len(text.lstrip("+-"))
        if digits > 6:
            raise argparse.ArgumentTypeError(
                f"give a whole number from {low} to {high}, got a {digits:,}-digit number"
            )
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"give a whole number from {low} to {high}, got {value}"
            )
        return value

    return parse


def _score(low: float, high: float) -> Callable[[str], float]:
    """An argparse type for a cosine score: a finite number inside [low, high]."""

    def parse(raw: str) -> float:
        try:
            value = float(raw) if len(raw) <= 100 else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"give a number from {low:g} to {high:g}, got {shorten(raw)!r}"
            )
        return value

    return parse


def _number(kind: str) -> Callable[[str], int | float]:
    """An argparse type for a chunker option: a short message for any unreadable value
    (a 5,001-digit number included); the range is checked against the chosen chunker."""

    def parse(raw: str) -> int | float:
        try:
            return int(raw) if kind == "int" else float(raw)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {kind} value: {shorten(raw)!r}") from None

    parse.__name__ = kind
    return parse


def _option_help(name: str) -> str:
    """Which chunkers read an option, with each one's default and unit."""
    uses: list[str] = []
    for spec in (s for s in specs() if name in s.names):
        if name in spec.alternatives[1:]:
            uses.append(f"{spec.name}: instead of --{_flag(spec.alternatives[0])}")
        else:
            param = spec.param(name)
            uses.append(f"{spec.name} {param.default} {param.unit.say('en')}".rstrip())
    return "default: " + "; ".join(uses)


def _add_chunker_options(parser: argparse.ArgumentParser) -> None:
    """One option per parameter of any registered chunker; defaults depend on the chunker,
    so they come from its spec in ``_config``."""
    group = parser.add_argument_group("chunker")
    missing = missing_peers()  # named, so choosing one says how to install it
    group.add_argument("--chunker", choices=CHUNKER_NAMES + tuple(missing), default="sentence",
                       help=f"not installed: {', '.join(missing)} (pip install "
                       f"'{PEERS_EXTRA}')" if missing else None)
    for name in param_names():
        group.add_argument(
            f"--{_flag(name)}", dest=name, type=_number(param_kind(name)), help=_option_help(name)
        )
    parser.add_argument(
        "--model",
        help=f"{', '.join(BUNDLED_MODELS)} (default {DEFAULT_MODEL}), "
        "a sentence-transformers id or path, or openai:<model> (key from OPENAI_API_KEY)",
    )
    parser.add_argument(
        "--api-base",
        dest="api_base",
        help="base URL of an OpenAI-compatible API for openai:<model> "
        "(default OPENAI_BASE_URL or https://api.openai.com/v1)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--lang", choices=("en", "pt"), default="en", help="language of explanations"
    )


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        shown = _LONG_QUOTED.sub(lambda m: repr(shorten(m.group(1))), message)
        text = terminal_safe(f"{self.prog}: {shown} (see {self.prog} --help)", keep="")
        self.exit(EXIT_USER_ERROR, text + "\n")


_LONG_QUOTED = re.compile(r"'([^']{61,})'")


def _cost(raw: str) -> float:
    """A cost weight for calibration: a finite number, zero or more."""
    try:
        value = float(raw) if len(raw) <= 100 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"give a number, zero or more, got {shorten(raw)!r}")
    return value


COST_HELP = "weight of this error when the floor cannot separate the labels (default 1)"
TOP_K = _whole_number(MIN_TOP_K, MAX_TOP_K)
TOP_K_HELP = f"chunks given to the model, {MIN_TOP_K} to {MAX_TOP_K} (default 2)"
FLOOR = _score(MIN_FLOOR, MAX_FLOOR)
FLOOR_HELP = f"score floor, {MIN_FLOOR:g} to {MAX_FLOOR:g} (default -1: none)"


PATHS_HELP = ("files (.txt, .md, .html, .pdf, .docx, .zip), folders, - for standard "
              "input, or sample:NAME for a bundled sample; several make one corpus")


def _add_scorer_option(parser: argparse.ArgumentParser) -> None:
    """``--scorer``, its choices read from the scorer registry when the parser is built."""
    parser.add_argument("--scorer", choices=scorer_names(), default=DEFAULT_SCORER,
                        help=f"how chunks are scored (default {DEFAULT_SCORER})")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ragviz", description="See why retrieval returns the wrong passage."
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    chunk = sub.add_parser("chunk", help="split a document into chunks with exact offsets")
    chunk.add_argument("paths", nargs="+", metavar="path", help=PATHS_HELP)
    _add_chunker_options(chunk)
    chunk.set_defaults(handler=cmd_chunk)

    search = sub.add_parser("search", help="score questions against every chunk")
    search.add_argument("paths", nargs="+", metavar="path", help=PATHS_HELP)
    search.add_argument("--question", action="append", help="a question (repeatable)")
    search.add_argument("--questions", help=QUESTIONS_HELP)
    search.add_argument("--top-k", dest="top_k", type=TOP_K, default=2, help=TOP_K_HELP)
    search.add_argument("--floor", type=FLOOR, default=-1.0, help=FLOOR_HELP)
    _add_scorer_option(search)
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
        parser_.add_argument("paths", nargs="+", metavar="path", help=PATHS_HELP)
        parser_.add_argument(
            "--questions", required=True, help=QUESTIONS_HELP
        )
        parser_.add_argument("--top-k", dest="top_k", type=TOP_K, default=2, help=TOP_K_HELP)
        parser_.add_argument("--floor", type=FLOOR, default=-1.0, help=FLOOR_HELP)
        _add_scorer_option(parser_)
        _add_chunker_options(parser_)
        parser_.set_defaults(handler=handler)
    calibrate.add_argument("--cost-false-refusal", type=_cost, default=1.0, help=COST_HELP)
    calibrate.add_argument("--cost-false-answer", type=_cost, default=1.0, help=COST_HELP)
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
    # the model library's "Loading weights" bars are not ragviz's output: keep stderr for
    # ragviz's own sentences (set before the library is imported, when a model is chosen)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:
        args.handler(args)
    except KeyboardInterrupt:
        sys.stderr.write(f"\nragviz {args.command}: interrupted\n")
        return EXIT_INTERRUPTED
    except (UserError, InputError, ModelLoadError, ValueError, OSError) as error:
        message = error.for_cli() if isinstance(error, InputError) else str(error)
        message = message.strip() or type(error).__name__
        sys.stderr.write(terminal_safe(f"ragviz {args.command}: {message}", keep="") + "\n")
        return EXIT_USER_ERROR
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
