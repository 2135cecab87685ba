"""Time and peak memory of `ragviz chunk` on each bomb of issue 24, against a small file.

Each file is made on the fly (tests/bombs.py: DOCX, PDF, zip and HTML bombs), written to a
temporary folder and given to ``python -m ragviz.cli.command chunk FILE --chunker fixed`` in a fresh
process; a wrapper process reports the wall time and the largest peak RSS among its
descendants (the PDF worker included). The peer in the same run is a small, ordinary text
file: "MB above" is the bomb's peak minus that one's. Goal: every bomb refused or cut within
10 s and under 300 MB above it. Nothing asserted.

    .venv/bin/python bench/hostile_files.py [--timeout 120] [--code OLDER_CHECKOUT]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from machine import bench_parser, on_machine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import bombs  # noqa: E402  (tests/bombs.py: the same files the bad-input table uses)

WRAPPER = """
import resource, subprocess, sys, time
began = time.perf_counter()
try:
    done = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=float(sys.argv[1]))
    code, said = done.returncode, (done.stderr.strip().splitlines() or [""])[0]
except subprocess.TimeoutExpired:
    code, said = "timeout", "still running: stopped"
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1000
print(f"{time.perf_counter() - began:.2f}\\t{peak:.0f}\\t{code}\\t{said}")
"""

CASES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "small text file (peer)": ("ok.txt", lambda: b"Refunds take seven days. " * 40),
    "DOCX: 300 MB of paragraph XML (0.9 MB)": ("bomb.docx", lambda: bombs.docx_bomb(300)),
    "DOCX: 30 MB of paragraph XML": ("bomb.docx", lambda: bombs.docx_bomb(30)),
    "DOCX: 300 MB of empty paragraphs": ("bomb.docx",
                                         lambda: bombs.docx_bomb(300, bombs.EMPTY_PARAGRAPH)),
    "DOCX: billion laughs": ("bomb.docx", lambda: bombs.docx_xml(bombs.BILLION_LAUGHS)),
    "PDF: 40 pages share 600,000 `0 0 Td`": ("bomb.pdf",
                                              lambda: bombs.pdf_cpu_bomb(40, 600_000)),
    "PDF: 3 pages share 600,000 `0 0 Td`": ("bomb.pdf", lambda: bombs.pdf_cpu_bomb(3, 600_000)),
    "PDF: 20,000 nested arrays": ("bomb.pdf", lambda: bombs.pdf_nested_arrays(20_000)),
    "PDF: stream past 75 MB": ("bomb.pdf", bombs.pdf_decompression_bomb),
    "zip: a 190 MB member": ("kb.zip", bombs.zip_bomb_member),
    "HTML: 2,000 nested tables": ("deep.html", lambda: b"<table><tr><td>" * 2000 + b"cell"
                                  + b"</td></tr></table>" * 2000),
}
SMOKE = ("small text file (peer)", "DOCX: billion laughs", "PDF: 20,000 nested arrays")


def measure(path: Path, timeout_s: float, code: Path) -> tuple[float, float, str, str]:
    """Wall seconds, peak RSS in MB, exit code and the first line of stderr."""
    command = [sys.executable, "-c", WRAPPER, str(timeout_s), sys.executable, "-m",
               "ragviz.cli.command", "chunk", str(path), "--chunker", "fixed"]
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=code, env=env)
    seconds, peak, code, said = out.stdout.rstrip("\n").split("\t", 3)
    return float(seconds), float(peak), code, said


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="a checkout whose ragviz runs (e.g. an older commit's worktree)")
    args = parser.parse_args()
    names = SMOKE if args.smoke else tuple(CASES)
    with on_machine(args.smoke), tempfile.TemporaryDirectory() as folder:
        baseline = 0.0
        print("| file | size | s | peak MB | MB above the small file | exit | first line |")
        print("|---|---:|---:|---:|---:|---|---|")
        for name in names:
            filename, make = CASES[name]
            data = make()
            path = Path(folder) / filename
            path.write_bytes(data)
            seconds, peak, code, said = measure(path, args.timeout, args.code)
            baseline = baseline or peak
            print(f"| {name} | {len(data):,} B | {seconds:.1f} | {peak:.0f} | "
                  f"{peak - baseline:.0f} | {code} | {said[:90]} |", flush=True)


if __name__ == "__main__":
    main()
