"""What embedding costs with the default model, in chunks and characters per second, on varied
real text: the figures the README's "Limits" and docs/benchmarks.md quote.

Text: the bundled sample documents, then the licence, readme and metadata files (METADATA holds
a package's long description) shipped in the installed packages' ``*.dist-info`` folders, in
name order: English prose, legal text, markdown and code samples, none of it repeated. Each
file is cut by the fixed chunker (overlap 0) and every distinct chunk text is kept until
``--chunks`` are found. A short text repeated would be cheaper than real text (the same
tokens, the same lengths), so the bench never builds its corpus that way.

Ours, end to end as an analysis does it: the chunking, then ``encode_documents`` on a cold cache
(cache lookups, length batching, windows, normalisation) and every chunk's token count and
truncation offset. Peer in the same run: the model's own ``encode`` of the same texts. Prints
chunks/s, chars/s and the ratio; nothing asserted.

    .venv/bin/python bench/embedding_cost.py [--chunks 10000] [--sizes 200,1000]
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

from embedding_path import ragviz_path, raw_encode
from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.embedding.models import DEFAULT_MODEL, EmbeddingCache, load_embedder

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"
PACKAGE_TEXTS = ("LICENSE*", "LICENCE*", "COPYING*", "NOTICE*", "AUTHORS*", "README*",
                 "licenses/*", "METADATA")
MAX_FILE_CHARS = 200_000


def real_texts() -> Iterator[tuple[str, str]]:
    """(name, text) of the samples, then of the installed packages' licence and readme files."""
    samples = sorted(p for p in SAMPLES.rglob("*") if p.suffix in {".txt", ".md"})
    site = Path(sysconfig.get_paths()["purelib"])
    shipped = sorted({path for info in sorted(site.glob("*.dist-info"))
                      for pattern in PACKAGE_TEXTS for path in info.glob(pattern)})
    for path in [*samples, *shipped]:
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")[:MAX_FILE_CHARS]
            yield str(path.relative_to(path.parents[1])), text


def corpus(size: int, count: int) -> tuple[list[str], int]:
    """``count`` distinct chunk texts of at most ``size`` characters, and the files they came
    from."""
    config = ChunkerConfig("fixed", size=size, overlap=0)
    seen: dict[str, None] = {}
    files = 0
    for _, text in real_texts():
        files += 1
        for chunk in make_chunks(text, config).chunks:
            if chunk.text.strip():
                seen.setdefault(chunk.text)
        if len(seen) >= count:
            break
    return list(seen)[:count], files


def measure(size: int, count: int) -> None:
    """Ours end to end (chunking included) and the raw encode, on one model object each."""
    began = time.perf_counter()
    texts, files = corpus(size, count)
    chunking = time.perf_counter() - began
    chars = sum(map(len, texts))
    embedder = load_embedder(DEFAULT_MODEL, cache=EmbeddingCache())
    raw = raw_encode(embedder)
    raw(["warm up"])
    embedder.encode_documents(["warm up"])
    timings = {}
    for who, run in (("raw encode", lambda: raw(texts)),
                     ("ragviz", lambda: ragviz_path(embedder, texts))):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        timings[who] = (time.perf_counter() - wall, time.process_time() - cpu)
    timings["ragviz"] = (timings["ragviz"][0] + chunking, timings["ragviz"][1])
    print(f"\n{len(texts):,} distinct chunks of <= {size} characters (mean"
          f" {chars / len(texts):.0f}), {chars:,} characters from {files} files,"
          f" {DEFAULT_MODEL}, cold cache")
    for who, (wall, cpu) in timings.items():
        print(f"  {who:<11} {wall:7.1f} s  {len(texts) / wall:8,.0f} chunks/s"
              f"  {chars / wall:9,.0f} chars/s  CPU {cpu:6.1f} s")
    print(f"  ragviz / raw: wall {timings['ragviz'][0] / timings['raw encode'][0]:.2f},"
          f" CPU {timings['ragviz'][1] / timings['raw encode'][1]:.2f}"
          " (ragviz's time includes the chunking)")


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--chunks", type=int, default=10_000)
    found.add_argument("--sizes", default="200,1000")
    args: argparse.Namespace = found.parse_args(argv)
    if args.smoke:
        args.chunks, args.sizes = 20, "200"
    with on_machine(args.smoke):
        for size in (int(s) for s in args.sizes.split(",")):
            measure(size, args.chunks)


if __name__ == "__main__":
    main()
