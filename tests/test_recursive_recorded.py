"""The recursive chunker's chunks on long, paragraph-heavy documents, pinned to the output of
the chunker that split the whole document into paragraphs up front (before issue 48 item 10
made it find paragraph breaks a chunk's window at a time).

``tests/data/recursive_recorded.json`` holds, per seeded document and (size, overlap), the
chunk count and a short hash of the chunks' offsets. The documents mix what the lazy walk
must get right: many short paragraphs per chunk, blank lines holding spaces, tabs or ``\\r``,
runs of blank lines, paragraphs longer than the size (cut by lines, sentences, words and
characters), words longer than the size, CJK text without spaces, a chunk limit falling
inside a long whitespace run.

Regenerate only when the chunker's output is meant to change:
``PYTHONPATH=. python tests/test_recursive_recorded.py --write`` (from the repo root).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from ragviz.chunking.recursive import chunk_recursive

RECORDED = Path(__file__).resolve().parent / "data" / "recursive_recorded.json"
SIZES = (1, 3, 16, 80, 200, 640, 1000, 4000)
WORDS = ("the", "chunker", "Dr.", "splits", "text", "3.5", "e.g.", "ção", "漢字。", "東京？",
         "x" * 30, "word.", "end!", "(Prof.", "R$ 1.000,00", "😀", "U.S.", "sentence.")
BREAKS = ("\n\n", "\n\n", "\n\n", "\n \n", "\n\t\n\n  ", "\r\n\r\n", "\n\n\n\n\n",
          "\n" + " " * 300 + "\n", " " * 50 + "\n\n" + "\t" * 40)
INSIDE = (" ", " ", " ", " ", "\n", "  ", "\t", ". ", "\u3000", "\u00a0")


def _paragraph(rng: random.Random, words: int) -> str:
    parts: list[str] = []
    for _ in range(words):
        parts.append(rng.choice(WORDS))
        parts.append(rng.choice(INSIDE))
    if rng.random() < 0.05:
        parts.append("y" * rng.choice((150, 700, 1500, 5000)))  # a word longer than the size
    return "".join(parts).strip()


def documents() -> dict[str, str]:
    """Eight seeded documents of roughly 4,000 to 40,000 characters."""
    found: dict[str, str] = {}
    for seed in range(8):
        rng = random.Random(seed)
        pieces: list[str] = [rng.choice(("", "  \n\n", "\t"))]
        length = rng.choice((4_000, 12_000, 40_000))
        while sum(len(p) for p in pieces) < length:
            words = rng.choice((1, 2, 3, 5, 8, 12, 25, 60, 300))
            pieces.append(_paragraph(rng, words))
            pieces.append(rng.choice(BREAKS))
        found[f"doc{seed}"] = "".join(pieces)
    return found


def configs() -> list[tuple[int, int]]:
    return [(size, overlap) for size in SIZES for overlap in sorted({0, size // 4, size // 2})]


def fingerprint(document: str, size: int, overlap: int) -> str:
    spans = [(c.start, c.end) for c in chunk_recursive(document, size, overlap).chunks]
    digest = hashlib.sha256(json.dumps(spans).encode()).hexdigest()[:16]
    return f"{len(spans)}:{digest}"


def record() -> dict[str, dict[str, str]]:
    return {name: {f"{size}/{overlap}": fingerprint(doc, size, overlap)
                   for size, overlap in configs()} for name, doc in documents().items()}


RECORDED_DATA: dict[str, dict[str, str]] = (
    json.loads(RECORDED.read_text(encoding="utf-8")) if RECORDED.exists() else {}
)
DOCUMENTS = documents()


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_recursive_chunks_match_the_eager_splitters_output(name: str) -> None:
    document = DOCUMENTS[name]
    got = {f"{size}/{overlap}": fingerprint(document, size, overlap)
           for size, overlap in configs()}
    assert got == RECORDED_DATA[name]


def test_every_recorded_document_is_checked() -> None:
    assert set(RECORDED_DATA) == set(DOCUMENTS)
    assert all(set(row) == {f"{s}/{o}" for s, o in configs()} for row in RECORDED_DATA.values())


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    RECORDED.write_text(json.dumps(record(), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {RECORDED}")
