"""ragviz's chunkers against their peers on the same corpora, every chunker with offsets.

Issue 11, goal 5: fixed and recursive at least as fast as langchain-text-splitters'
RecursiveCharacterTextSplitter, chonkie and semchunk at the same size; markdown at least as
fast as langchain's MarkdownTextSplitter; the sentence chunker at >= 10 MB/s, next to the
article's own sentence regex (which has no abbreviation handling).

Four corpora, each a row of every table (``--corpora`` picks some):

- long-document (issue 48 item 10): one multi-megabyte document, the five long files below
  (without the single line) joined by blank lines, twice: ~3.4 M characters in one piece,
  where a chunker that splits the whole document up front pays for every paragraph.
- long-files: the five files shaped as the research benchmark's and one 0.73 MB line, each
  chunked on its own (``long_files``).
- varied (the first row, issue 22): real text that installs with the project's dependencies,
  no download: the sample documents, then the licence, README, METADATA and documentation files
  (.md, .rst, .txt) of the venv's site-packages, then the docstrings of its Python modules, in
  sorted path order, each file capped at 100,000 characters, the whole at ``--mb`` MB: prose,
  markdown, changelogs, legal text, API docs and code examples, as people feed a RAG index.
  Each file is chunked on its own, as the app chunks a corpus (so one file's unclosed code
  fence does not swallow the files after it).
- repeated: the spec article (``../shared/seed/000_83e5f4a51228e27c.txt`` beside the repo, or
  one folder further up for a worktree; read at run time, never copied in) repeated to ``--mb``
  MB; without it, the sample documents repeated. A repeated short text is not representative
  (the same few paragraph shapes): kept as the second row only.

Sizes are in characters everywhere:

- ragviz: ``make_chunks(document, ChunkerConfig(...))``, the public entry; its chunks carry
  ``start``/``end``.
- langchain: ``create_documents([text], ...)`` on a splitter built with
  ``add_start_index=True`` (langchain's own offset recovery, ``str.find`` from the previous
  chunk), chunk_overlap 0, ``length_function=len``.
- chonkie: ``RecursiveChunker`` and ``TokenChunker`` with ``tokenizer="character"``; their
  chunks carry ``start_index``/``end_index``.
- semchunk: ``semchunk.chunk(text, size, len, offsets=True)`` (token counter = character
  count), memoize on (its default).

Each timing is the median of ``--runs`` runs (default 5) after one warm-up on a small slice,
in wall time and in this process's CPU time (which a shared machine's load moves much less);
every peer is timed in the same run, so the ratios compare like with like;
MB/s counts the corpus's UTF-8 bytes. Ratios > 1 mean ragviz is faster. The peers come from
the ``bench`` extra (``pip install -e '.[bench]'``); a missing peer is reported, not fatal.

    .venv/bin/python bench/chunker_peers.py [--mb 7] [--runs 5] [--sizes 200,1000]
        [--corpora long-document,long-files,varied,repeated] [--only recursive]

``--only recursive`` times ragviz's recursive chunker against the peers it is compared with
(Chonkie's ``RecursiveChunker`` first) and skips the other tables.
"""

from __future__ import annotations

import argparse
import ast
import re
import statistics
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig, make_chunks

ROOT = Path(__file__).resolve().parent.parent
# shared/ sits beside the repo (a clone, CI) or beside the worktrees folder (/work/wt/<name>).
ARTICLE_CANDIDATES = tuple(
    base / "shared" / "seed" / "000_83e5f4a51228e27c.txt" for base in (ROOT.parent, ROOT.parents[1])
)
SAMPLES = ROOT / "sample_docs"
ARTICLE_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")

Splitter = Callable[[str], int]  # returns the number of chunks, so the work is not optimised out
FILE_CAP = 100_000  # characters taken from one file, so no single licence dominates
DOC_SUFFIXES = {".md", ".rst", ".txt"}
DOC_NAMES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "README", "METADATA", "CHANGELOG")
# Word lists and machine files, not prose.
NOT_PROSE = re.compile(r"vocab|merges|RECORD|top_level|entry_points|requirements|SOURCES"
                       r"|dependency_links|installer|/tests?/|/_vendor/|\.dist-info/WHEEL", re.I)


def _site_files() -> list[Path]:
    site = Path(sysconfig.get_paths()["purelib"])
    return sorted(site.rglob("*"), key=lambda p: p.as_posix())


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")[:FILE_CAP]
    except (UnicodeDecodeError, OSError):
        return ""


def _documents(files: list[Path]) -> Iterator[str]:
    """The licence, README and documentation files, in path order."""
    for path in files:
        named = path.name.upper().startswith(DOC_NAMES) or path.suffix.lower() in DOC_SUFFIXES
        if named and path.is_file() and not NOT_PROSE.search(path.as_posix()):
            text = _read(path)
            if len(text) > 500 and text.count(" ") > len(text) // 20:
                yield text


def _docstrings(files: list[Path]) -> Iterator[str]:
    """Module, class and function docstrings of the installed Python files, in path order."""
    for path in files:
        if path.suffix != ".py" or NOT_PROSE.search(path.as_posix()):
            continue
        try:
            tree = ast.parse(_read(path) if path.stat().st_size < FILE_CAP else "")
        except (SyntaxError, ValueError, OSError):
            continue
        nodes = (n for n in ast.walk(tree) if isinstance(
            n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef))
        found = [doc for node in nodes if (doc := ast.get_docstring(node)) and len(doc) > 80]
        if found:
            yield "\n\n".join(found)


def varied_corpus(megabytes: float) -> tuple[list[str], str]:
    """Sample documents, then site-packages' documentation files, then docstrings, to the cap."""
    want = int(megabytes * 1_000_000)
    files = _site_files()
    samples = sorted(SAMPLES.rglob("*.txt")) + sorted(SAMPLES.rglob("*.md"))
    parts: list[str] = []
    seen: set[str] = set()  # the same licence shipped by many packages is taken once
    size = 0
    counts = {"samples": 0, "documentation files": 0, "files' docstrings": 0}
    sources = (("samples", (p.read_text(encoding="utf-8") for p in samples)),
               ("documentation files", _documents(files)),
               ("files' docstrings", _docstrings(files)))
    for kind, texts in sources:
        for text in texts:
            if size >= want:
                break
            if text in seen:
                continue
            seen.add(text)
            parts.append(text)
            counts[kind] += 1
            size += len(text.encode("utf-8")) + 2
    described = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    return parts, f"varied: {described} from site-packages"


def corpus(megabytes: float) -> tuple[str, str]:
    """The article (or the sample docs) repeated to ``megabytes`` MB; returns it and its source."""
    article = next((path for path in ARTICLE_CANDIDATES if path.exists()), None)
    if article is not None:
        base, source = article.read_text(encoding="utf-8"), f"repeated: the article {article.name}"
    else:
        parts = sorted(SAMPLES.glob("*.txt")) + sorted(SAMPLES.glob("*.md"))
        base = "\n\n".join(p.read_text(encoding="utf-8") for p in parts)
        source = "repeated: sample_docs"
    want = int(megabytes * 1_000_000)
    unit = len(base.encode("utf-8"))
    return base * max(1, round(want / unit)), source


def ragviz_splitter(config: ChunkerConfig) -> Splitter:
    return lambda text: len(make_chunks(text, config).chunks)


def langchain_splitters(size: int) -> dict[str, Splitter]:
    from langchain_text_splitters import MarkdownTextSplitter, RecursiveCharacterTextSplitter

    recursive = RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=0, length_function=len, add_start_index=True
    )
    markdown = MarkdownTextSplitter(chunk_size=size, chunk_overlap=0, add_start_index=True)
    return {
        "langchain recursive": lambda text: len(recursive.create_documents([text])),
        "langchain markdown": lambda text: len(markdown.create_documents([text])),
    }


def chonkie_splitters(size: int) -> dict[str, Splitter]:
    from chonkie import RecursiveChunker, TokenChunker

    recursive = RecursiveChunker(tokenizer="character", chunk_size=size)
    token = TokenChunker(tokenizer="character", chunk_size=size, chunk_overlap=0)
    return {
        "chonkie recursive": lambda text: len(recursive.chunk(text)),
        "chonkie token": lambda text: len(token.chunk(text)),
    }


def semchunk_splitters(size: int) -> dict[str, Splitter]:
    import semchunk

    def split(text: str) -> int:
        chunks, _offsets = semchunk.chunk(text, size, len, offsets=True)
        return len(chunks)

    return {"semchunk": split}


def peers(size: int) -> tuple[dict[str, Splitter], list[str]]:
    """Every peer that imports, and a note for each that does not."""
    found: dict[str, Splitter] = {}
    missing: list[str] = []
    for name, build in (("langchain-text-splitters", langchain_splitters),
                        ("chonkie", chonkie_splitters), ("semchunk", semchunk_splitters)):
        try:
            found.update(build(size))
        except ImportError as error:
            missing.append(f"{name}: {error} (pip install -e '.[bench]')")
    return found, missing


def median_seconds(split: Splitter, documents: list[str], runs: int) -> tuple[float, float, int]:
    """Median wall time and median CPU time (this process's) of ``runs`` runs over every
    document (after a warm-up on a slice), and the chunk count. On a shared machine the CPU
    time moves much less with the load than the wall time."""
    split(documents[0][:20_000])
    walls: list[float] = []
    cpus: list[float] = []
    count = 0
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.process_time()
        count = sum(split(document) for document in documents)
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - began_cpu)
    return statistics.median(walls), statistics.median(cpus), count


def report_group(title: str, ours: dict[str, Splitter], theirs: dict[str, Splitter],
                 documents: list[str], runs: int) -> None:
    """One block of the table: every ragviz row, then every peer with ragviz's ratio to it."""
    megabytes = sum(len(d.encode("utf-8")) for d in documents) / 1_000_000
    print(f"\n{title}")
    timings: dict[str, tuple[float, float, int]] = {}
    for name, split in {**ours, **theirs}.items():
        timings[name] = median_seconds(split, documents, runs)
        seconds, cpu, count = timings[name]
        print(f"  {name:<24} {seconds * 1000:9.0f} ms  {megabytes / seconds:7.1f} MB/s"
              f"  CPU {cpu * 1000:7.0f} ms  {count:>8} chunks")
    for mine in ours:
        ratios = ", ".join(f"{peer} {timings[peer][0] / timings[mine][0]:.2f}x"
                           for peer in theirs)
        if ratios:
            print(f"  -> {mine} speed vs peers (>1: ragviz faster): {ratios}")
            fastest = min(theirs, key=lambda peer: timings[peer][0])
            print(f"  => {mine}: fastest peer ({fastest}) time / ragviz time = "
                  f"{timings[fastest][0] / timings[mine][0]:.2f} wall, "
                  f"{timings[fastest][1] / timings[mine][1]:.2f} CPU")
            if "recursive" in mine and fastest != "chonkie recursive" and (
                    "chonkie recursive" in theirs):
                chonkie = timings["chonkie recursive"]
                print(f"  => {mine}: Chonkie RecursiveChunker time / ragviz time = "
                      f"{chonkie[0] / timings[mine][0]:.2f} wall, "
                      f"{chonkie[1] / timings[mine][1]:.2f} CPU")


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--mb", type=float, default=6.0)
    found.add_argument("--runs", type=int, default=5)
    found.add_argument("--sizes", default="200,1000")
    found.add_argument("--corpora", default=",".join(CORPORA),
                       help=f"comma-separated, of {', '.join(CORPORA)}")
    found.add_argument("--only", choices=("recursive",), default=None,
                       help="only the recursive chunker against its peers")
    args = found.parse_args(argv)
    if args.smoke:  # every peer on a small slice, once; a missing peer fails the run
        args.mb, args.runs, args.sizes = 0.05, 1, "200"
    with on_machine(args.smoke):
        compare_all(args)


def long_files(smoke: bool) -> tuple[list[str], str]:
    """Five files of 40,000 to 737,905 characters shaped as the research benchmark's (the
    standard library's docstrings and pydoc's topics, ``tests/benchmark_corpus.py``), each
    chunked whole (never cut at 100,000 characters), and the longest one again as a single
    line (a file without paragraphs or line breaks, the recursive chunker's worst shape)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from benchmark_corpus import benchmark_texts

    texts = list(benchmark_texts().values())
    texts.append(" ".join(texts[-1].split()))
    if smoke:
        texts = [text[:20_000] for text in texts]
    return texts, "long files: the benchmark's five shapes (0.04-0.74 MB) and one 0.73 MB line"


def long_document(smoke: bool) -> tuple[list[str], str]:
    """The five long files (not the single line) joined by blank lines, twice: one document
    of ~3.4 M characters (issue 48 item 10: the recursive chunker on one long document)."""
    texts, _about = long_files(smoke)
    five = "\n\n".join(texts[:5])
    if smoke:
        return [five], "long-document: the five long files' starts joined, as one"
    return [five + "\n\n" + five], "long-document: the five long files joined, twice, as one"


def repeated_corpus(megabytes: float) -> tuple[list[str], str]:
    text, source = corpus(megabytes)
    return [text], source


CORPORA: dict[str, Callable[[argparse.Namespace], tuple[list[str], str]]] = {
    "long-document": lambda args: long_document(args.smoke),
    "long-files": lambda args: long_files(args.smoke),
    "varied": lambda args: varied_corpus(args.mb),
    "repeated": lambda args: repeated_corpus(args.mb),
}


def compare_all(args: argparse.Namespace) -> None:
    for name in args.corpora.split(","):
        if name not in CORPORA:
            raise SystemExit(f"unknown corpus {name!r}: one of {', '.join(CORPORA)}")
        documents, about = CORPORA[name](args)
        chars = sum(len(d) for d in documents)
        megabytes = sum(len(d.encode("utf-8")) for d in documents) / 1e6
        print(f"\n=== corpus {about}: {chars:,} characters ({megabytes:.2f} MB) in "
              f"{len(documents)} document(s); median of {args.runs} runs")
        run_corpus(documents, args)


def run_corpus(documents: list[str], args: argparse.Namespace) -> None:
    """Every table on one corpus: per size fixed / recursive and markdown, then sentences."""
    runs = args.runs
    for size in (int(s) for s in args.sizes.split(",")):
        found, missing = peers(size)
        for note in missing:
            print(f"  peer missing: {note}")
        if missing and args.smoke:
            raise SystemExit(f"peer missing: {'; '.join(missing)}")
        ours = {
            f"ragviz fixed {size}": ragviz_splitter(ChunkerConfig("fixed", size=size, overlap=0)),
            f"ragviz recursive {size}": ragviz_splitter(
                ChunkerConfig("recursive", size=size, overlap=0)),
        }
        theirs = {n: s for n, s in found.items() if "markdown" not in n}
        if args.only == "recursive":
            ours.pop(f"ragviz fixed {size}")
            theirs = dict(sorted(theirs.items(), key=lambda item: item[0] != "chonkie recursive"))
        report_group(f"size {size} characters: fixed / recursive", ours, theirs, documents, runs)
        if args.only == "recursive":
            continue
        markdown = {f"ragviz markdown {size}": ragviz_splitter(
            ChunkerConfig("markdown", max_chars=size, overlap_sentences=0))}
        report_group(f"size {size} characters: markdown", markdown,
                     {n: s for n, s in found.items() if "markdown" in n}, documents, runs)
    if args.only == "recursive":
        return
    sentence = {"ragviz sentence 1000": ragviz_splitter(
        ChunkerConfig("sentence", max_chars=1000, overlap_sentences=0))}
    regex = {"article regex re.split": lambda t: len(ARTICLE_SENTENCE_RE.split(t))}
    report_group("sentences (goal: ragviz >= 10 MB/s; the regex has no abbreviation handling)",
                 sentence, regex, documents, runs)


if __name__ == "__main__":
    main()
