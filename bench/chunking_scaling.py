"""Chunking time grows linearly with the document, also on inputs built to make regexes
backtrack. Peer: ordinary prose of the same length, measured in the same run; the ratio
should stay near 1 as the length grows tenfold (a quadratic regex shows ~10x per step)."""

from __future__ import annotations

import time

from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig, make_chunks

PROSE = "O prazo do estorno é de até 7 dias úteis. Pedidos cancelados não geram devolução. "
BUILDERS = {
    "dots": lambda n: "." * n + "x",
    "heading spaces": lambda n: "# a" + " " * n + "b\n",
    "delimiter spaces": lambda n: "a|b\n" + " " * n + "|---|\n",
}


def seconds(document: str, chunker: str) -> float:
    started = time.perf_counter()
    make_chunks(document, ChunkerConfig(chunker, size=500, max_chars=500))
    return time.perf_counter() - started


def main() -> None:
    args = bench_parser(__doc__).parse_args()
    with on_machine(args.smoke):
        scale((2_000,) if args.smoke else (20_000, 200_000))


def scale(lengths: tuple[int, ...]) -> None:
    for n in lengths:
        prose = (PROSE * (n // len(PROSE) + 1))[:n]
        for chunker in ("sentence", "recursive", "markdown"):
            peer = seconds(prose, chunker)
            for name, build in BUILDERS.items():
                hostile = seconds(build(n), chunker)
                print(f"{n:>7} chars {chunker:<9} {name:<16} {hostile * 1000:8.1f} ms"
                      f"   prose {peer * 1000:8.1f} ms   ratio {hostile / peer:5.2f}")


if __name__ == "__main__":
    main()
