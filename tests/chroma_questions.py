"""Writes a questions file in exactly the shape of Chroma's chunking benchmark
(``question,references,corpus_id``) for a folder of text files: every question takes one or
two sentences of one file as its excerpts, at their character offsets, and asks about a few
of their words. Deterministic (seeded), so tests and benches see the same file.

    python tests/chroma_questions.py sample_docs/help_center 400 > questions.csv
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sys
from pathlib import Path

_SENTENCE = re.compile(r"[A-Z][^.!?\n]{30,240}[.!?]")


def sentences(text: str) -> list[tuple[int, int]]:
    """Offsets of the plain sentences of a text (30 to 240 characters, one line)."""
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text)]


def chroma_questions(folder: Path, count: int, seed: int = 20) -> str:
    """``count`` questions over the .txt and .md files of ``folder`` (sorted), as CSV."""
    files = sorted(p for p in folder.iterdir() if p.suffix in {".txt", ".md"})
    texts = {p: p.read_text(encoding="utf-8") for p in files}
    pool = [(p, s) for p in files if (s := sentences(texts[p]))]
    rng = random.Random(seed)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["question", "references", "corpus_id"])
    for n in range(count):
        path, spans = pool[n % len(pool)]
        picked = sorted(rng.sample(spans, min(len(spans), 1 + n % 2)))
        text = texts[path]
        refs = [{"content": text[a:b], "start_index": a, "end_index": b} for a, b in picked]
        words = re.findall(r"[A-Za-z]{4,}", text[picked[0][0]:picked[0][1]])
        about = " ".join(rng.sample(words, min(4, len(words))))
        writer.writerow([f"What does the help centre say about {about}? ({n})",
                         json.dumps(refs), path.stem])
    return buffer.getvalue()


if __name__ == "__main__":
    sys.stdout.write(chroma_questions(Path(sys.argv[1]), int(sys.argv[2])))
