"""The chunkers' exact output, pinned: a speed-up must not move a single offset.

``tests/data/chunker_golden.json`` holds a short hash of every chunk field (offsets,
over_size, heading path, context prefix) per document and configuration (in the order of
its ``configs`` list, then ``split_sentences``), recorded from the chunkers
before they were optimised. The documents are the sample docs, the spec article (when it
sits beside the repo) and 240 seeded random documents built from the tricky fragments
(abbreviations, decimals, CJK stops, headings, fences, tables, odd whitespace).

Regenerate only when a chunker's output is meant to change:
``PYTHONPATH=. python tests/test_chunker_golden.py --write`` (from the repo root, so the
repo's ragviz is the one recorded).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.chunking.text import ABBREVIATIONS, split_sentences

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "chunker_golden.json"
ARTICLE_CANDIDATES = tuple(
    base / "shared" / "seed" / "000_83e5f4a51228e27c.txt" for base in (ROOT.parent, ROOT.parents[1])
)
CONFIGS: tuple[tuple[str, dict[str, int]], ...] = (
    ("fixed", {"size": 120, "overlap": 0}),
    ("fixed", {"size": 37, "overlap": 11}),
    ("fixed", {"size": 1000, "overlap": 150}),
    ("recursive", {"size": 7, "overlap": 3}),
    ("recursive", {"size": 60, "overlap": 20}),
    ("recursive", {"size": 120, "overlap": 0}),
    ("recursive", {"size": 200, "overlap": 30}),
    ("recursive", {"size": 1000, "overlap": 0}),
    ("recursive", {"size": 1000, "overlap": 150}),
    ("sentence", {"max_chars": 50, "overlap_sentences": 2}),
    ("sentence", {"max_chars": 220, "overlap_sentences": 1}),
    ("sentence", {"max_chars": 1000, "overlap_sentences": 0}),
    ("markdown", {"max_chars": 60, "overlap_sentences": 2}),
    ("markdown", {"max_chars": 200, "overlap_sentences": 1}),
    ("markdown", {"max_chars": 800, "overlap_sentences": 0}),
    ("paragraph", {"max_chars": 100, "overlap_paragraphs": 1}),
    ("paragraph", {"max_chars": 600, "overlap_paragraphs": 0}),
)
FRAGMENTS = (
    " ", " ", " ", ". ", "! ", "? ", ".", ",", "\r\n", "\n", "\n\n", "\n \n", "\t", "😀",
    "漢字。", "東京？", "「はい。」", "Dr. ", "Sra. ", "dr. ", "(Prof. ", "R$ 1.000,00",
    "3.5", "...", "…", "… ", "?!", ".\" ", ".) ", "e-mail.com", "config.yaml", "U.S. ",
    "J. R. ", "e.g. ", "p.ex. ", "nº. ", "etc. ", "ção", "e\u0301", "\u200b", "\u00a0",
    "\u3000", "\u2028", "\x1c", "\x85", "\x0b", "# Título\n", "## Sub\n", "### A ##\n",
    "- item\n", "* item\n", "1. um\n", "2) dois\n", "```\ncode # x\n```\n", "~~~~\n# no\n~~~\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n", "|:-:|\n", "| x |\n", '"', "(", ")",
    "A", "O", "Ele", "the", "Isto", "x" * 30, "y" * 130,
)
WORDS = "abcdefghijklmnopqrstuvwxyzÁÉçãõABCXYZ0123456789"


def random_document(rng: random.Random) -> str:
    """Fragments and random words; a few documents are long enough to need every level."""
    pieces = rng.choice((10, 40, 120, 600))
    out: list[str] = []
    for _ in range(rng.randrange(pieces + 1)):
        if rng.random() < 0.45:
            out.append(rng.choice(FRAGMENTS))
        else:
            out.append("".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 10))))
    return "".join(out)


def documents() -> dict[str, str]:
    """Every pinned document by name (the article only when it is beside the repo)."""
    docs: dict[str, str] = {}
    for path in sorted((ROOT / "sample_docs").rglob("*")):
        if path.suffix in {".txt", ".md", ".html"} and path.name != "README.md":  # prose that
            # describes the samples and changes with them; the samples themselves are pinned
            docs[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    article = next((p for p in ARTICLE_CANDIDATES if p.exists()), None)
    if article is not None:
        docs["article"] = article.read_text(encoding="utf-8")
    rng = random.Random(20261203)
    for i in range(240):
        docs[f"random/{i:03d}"] = random_document(rng)
    return docs


def fingerprint(document: str, chunker: str, values: dict[str, int]) -> str:
    """Hash of every chunk's offsets and metadata, checking each text is its slice."""
    rows: list[object] = []
    for chunk in make_chunks(document, ChunkerConfig.create(chunker, **values)).chunks:
        assert document[chunk.start : chunk.end] == chunk.text
        rows.append([chunk.index, chunk.start, chunk.end, chunk.over_size,
                     list(chunk.heading_path), chunk.context_prefix])
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()[:8]


def config_key(chunker: str, values: dict[str, int]) -> str:
    return chunker + " " + " ".join(f"{k}={v}" for k, v in values.items())


def sentence_fingerprint(document: str) -> str:
    spans = split_sentences(document)
    return hashlib.sha256(json.dumps(spans).encode()).hexdigest()[:8]


def keys() -> list[str]:
    return [config_key(c, v) for c, v in CONFIGS] + ["split_sentences"]


def fingerprints(document: str) -> list[str]:
    """One hash per configuration of ``CONFIGS``, then the sentence spans' hash."""
    row = [fingerprint(document, c, v) for c, v in CONFIGS]
    return [*row, sentence_fingerprint(document)]


def record() -> dict[str, object]:
    """What the chunkers give today: the configuration keys and each document's hashes."""
    return {
        "configs": keys(),
        "documents": {name: " ".join(fingerprints(doc)) for name, doc in documents().items()},
    }


GOLDEN_DATA: dict[str, Any] = (
    json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
)
DOCUMENTS = documents()


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_chunks_match_the_recorded_output(name: str) -> None:
    assert GOLDEN_DATA["configs"] == keys()
    expected = dict(zip(keys(), GOLDEN_DATA["documents"][name].split(), strict=True))
    got = dict(zip(keys(), fingerprints(DOCUMENTS[name]), strict=True))
    assert got == expected


def test_every_recorded_document_is_checked() -> None:
    recorded = set(GOLDEN_DATA["documents"])
    assert recorded - set(DOCUMENTS) <= {"article"}  # outside the repo: absent in some clones
    assert len(recorded) >= 240


def test_abbreviations_are_shorter_than_the_long_word_shortcut() -> None:
    # The sentence scan skips the abbreviation lookup after seven word characters; an
    # abbreviation of seven or more letters would then never be found.
    assert max(len(abbreviation) for abbreviation in ABBREVIATIONS) < 7
    assert split_sentences("Aproxim. Isto") == [(0, 8), (9, 13)]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(record(), indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
