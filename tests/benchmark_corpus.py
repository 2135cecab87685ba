"""Test support: a corpus shaped like Chroma's chunking benchmark (five files of 40,000 to
740,000 characters) made of real, varied prose: the docstrings of Python's own standard
library, module by module in path order, then the language reference pydoc ships
(``pydoc_data.topics``), so every machine with the same Python builds the same files, and
no text is repeated."""

from __future__ import annotations

import ast
import sysconfig
from collections.abc import Iterator
from pathlib import Path

# The benchmark's files run from ~40,000 (chat logs) to 737,905 characters (finance).
SIZES = {"chatlogs.md": 40_000, "state_of_the_union.md": 120_000, "wikitexts.md": 300_000,
         "pubmed.txt": 501_965, "finance.md": 737_905}


def _docstrings() -> Iterator[str]:
    """Docstrings of the standard library's modules, in path order (tests left out)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(stdlib.rglob("*.py"), key=lambda p: p.as_posix()):
        if "test" in path.parts or "site-packages" in path.parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
            continue
        nodes = (n for n in ast.walk(tree) if isinstance(
            n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef))
        for node in nodes:
            doc = ast.get_docstring(node)
            if doc and len(doc) > 80:
                yield doc
    from pydoc_data.topics import topics

    yield from (topics[name] for name in sorted(topics))


def benchmark_texts() -> dict[str, str]:
    """The five files' texts by name, each cut to its size (no text repeated across them)."""
    texts = _docstrings()
    out: dict[str, str] = {}
    for name, size in SIZES.items():
        parts: list[str] = []
        total = 0
        for doc in texts:
            parts.append(doc)
            total += len(doc) + 2
            if total >= size:
                break
        out[name] = "\n\n".join(parts)[:size]
    return out


def write_benchmark_corpus(folder: Path) -> dict[str, int]:
    """The five files in ``folder``; their lengths."""
    lengths: dict[str, int] = {}
    for name, text in benchmark_texts().items():
        (folder / name).write_text(text, encoding="utf-8")
        lengths[name] = len(text)
    return lengths


if __name__ == "__main__":
    import sys

    print(write_benchmark_corpus(Path(sys.argv[1])))
