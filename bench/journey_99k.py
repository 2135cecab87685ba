"""The quick experimenter's journey of issue 19 on a 99,000-character paste, timed in a real
headless Chromium against `streamlit run` (medians of several; server and browser CPU apart).

After the paste (the sample documents, then installed documentation files: varied text,
``browser_common.big_document``):

1. On "Questions & scores": the floor and top_k one arrow step (alternating), timed to the
   last chart update (``browser_common.press_and_wait_charts``).
2. A's chunk size one step by arrow key to sizes never seen ("first time"), then back over
   them ("from the cache"); each timed to the new chunks shown and to the rerun finished.
3. A's chunk size dragged with the mouse to a new size (same two times).
4. A's chunker switched (fixed -> recursive -> sentence -> semantic -> fixed), same two times.

The semantic chunker's similarity profile is saved as a screenshot (issue 19, low 12).
Not a test: nothing is asserted about time.

    .venv/bin/python bench/journey_99k.py [--runs 5] [--shots /tmp/shots-h19b] [--steps-only]

``--steps-only``: after the paste, the floor and top_k steps only (step 1).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_common import (
    ALL_CHARTS_IDLE_JS,
    CHROMIUM_ARGS,
    KEEP_QUESTIONS,
    VIEWPORT,
    CpuMeter,
    big_document,
    more_controls_url,
    paste_document,
    start_server,
    stop_server,
)
from machine import bench_parser, on_machine
from ui_latency import (
    BIG_TIMEOUT_MS,
    CHARTS,
    CHUNKS_CHANGED_JS,
    CHUNKS_SIGNATURE_JS,
    DOC_IDLE_JS,
    Row,
    alternate,
    measured,
    open_tab,
    print_table,
)

CHARS = 99_000
SMOKE_CHARS = 3_000  # a smoke run: every step once on a short paste
CHUNKERS = ("recursive", "sentence", "semantic", "fixed")


def timed_change(page: Any, act: Callable[[], None]) -> tuple[float, float]:
    """ms from ``act`` to A's chunks shown changed, and to the rerun finished."""
    before = page.evaluate(CHUNKS_SIGNATURE_JS)
    began = float(page.evaluate("() => performance.now()"))
    act()
    shown = page.wait_for_function(CHUNKS_CHANGED_JS, arg=before, polling="raf",
                                   timeout=BIG_TIMEOUT_MS)
    done = page.wait_for_function(DOC_IDLE_JS, polling="raf", timeout=BIG_TIMEOUT_MS)
    page.wait_for_timeout(500)
    return float(shown.json_value()) - began, float(done.json_value()) - began


def size_key(page: Any, arrow: str) -> tuple[float, float]:
    slider = page.locator('.st-key-a_size input[type="range"]').first
    slider.focus()
    return timed_change(page, lambda: slider.press(arrow))


def drag_size(page: Any, pixels: int) -> tuple[float, float]:
    """Drag A's size slider's thumb ``pixels`` to the right (a new size each time)."""
    slider = page.locator('.st-key-a_size input[type="range"]').first
    box = slider.bounding_box()
    where = slider.evaluate("e => (e.value - e.min) / (e.max - e.min)")
    x, y = box["x"] + box["width"] * float(where), box["y"] + box["height"] / 2

    def drag() -> None:
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + pixels, y, steps=8)
        page.mouse.up()

    return timed_change(page, drag)


def pick_chunker(page: Any, name: str) -> tuple[float, float]:
    def pick() -> None:  # the select filters its options as one types
        box = page.locator('.st-key-a_chunker input[role="combobox"]')
        box.click()
        box.fill(name)
        box.press("Enter")

    return timed_change(page, pick)


def pairs_rows(name: str, meter: CpuMeter, count: int,
               action: Callable[[], list[tuple[float, float]]]) -> list[Row]:
    holder: list[tuple[float, float]] = []

    def run() -> list[float]:
        holder.extend(action())
        return [shown for shown, _ in holder]

    shown, server, browser = measured(meter, count, run)
    print(f"{name}: shown {[round(x) for x in shown]} ms, idle "
          f"{[round(d) for _, d in holder]} ms, server {server:.2f} s, browser {browser:.2f} s",
          flush=True)
    return [(f"{name}: new chunks shown", shown, server, browser, ""),
            (f"{name}: scores back (idle)", [done for _, done in holder], server, browser, "")]


def journey(page: Any, meter: CpuMeter, runs: int, shots: Path,
            steps_only: bool = False) -> list[Row]:
    rows: list[Row] = []
    for key in ("floor", "top_k"):  # on the pasted document, before any size change
        rows += floor_rows(page, meter, runs, key)
    if steps_only:
        return rows
    open_tab(page, "Document & chunks")
    rows += pairs_rows("size step by key, first time", meter, runs,
                       lambda: [size_key(page, "ArrowRight") for _ in range(runs)])
    rows += pairs_rows("size step by key, from the cache", meter, runs,
                       lambda: [size_key(page, "ArrowLeft") for _ in range(runs)])
    rows += pairs_rows("size dragged to a new size", meter, runs,
                       lambda: [drag_size(page, 25 + 7 * i) for i in range(runs)])
    switches: list[tuple[float, float]] = []
    for name in CHUNKERS:
        rows += pairs_rows(f"chunker switch to {name}", meter, 1,
                           lambda n=name: [pick_chunker(page, n)])
        switches.append((rows[-2][1][0], rows[-1][1][0]))
        if name == "semantic":
            chart = page.locator('[data-testid="stVegaLiteChart"]').first
            chart.scroll_into_view_if_needed()
            chart.screenshot(path=str(shots / "semantic-profile-99k.png"))
    return rows


def floor_rows(page: Any, meter: CpuMeter, runs: int, key: str) -> list[Row]:
    open_tab(page, "Questions & scores")
    page.wait_for_timeout(500)
    times, server, browser = measured(meter, runs, lambda: alternate(page, key, runs))
    row: Row = (f"{key} step on Questions & scores", times, server, browser, "<= 300 ms")
    print_table([row], flush=True)
    return [row]


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--runs", type=int, default=5)
    found.add_argument("--shots", default=tempfile.gettempdir())
    found.add_argument("--chromium", default="/usr/bin/chromium")
    found.add_argument("--steps-only", action="store_true",
                       help="after the paste, the floor and top_k steps only")
    args = found.parse_args(argv)
    with on_machine(args.smoke):
        rows = measure(args.chromium, 1 if args.smoke else args.runs, Path(args.shots),
                       SMOKE_CHARS if args.smoke else CHARS, args.steps_only)
    print_table(rows)


def measure(chromium: str, runs: int, shots: Path, chars: int,
            steps_only: bool = False) -> list[Row]:
    """The journey on a fresh server and page: first page, paste, then ``journey``."""
    from playwright.sync_api import sync_playwright

    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ragviz-bench-") as tmp, sync_playwright() as pw:
        proc, url = start_server(Path(tmp))
        try:
            browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                         args=CHROMIUM_ARGS)
            page = browser.new_context(viewport=VIEWPORT, locale="en-US").new_page()
            page.goto(more_controls_url(url))  # the journey opens tabs: the second level
            page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling="raf",
                                   timeout=BIG_TIMEOUT_MS)
            open_tab(page, "Document & chunks")
            # the sample's questions kept (their answers are in the pasted text, which
            # begins with the samples): the floor and top_k steps redraw their charts
            paste_document(page, big_document(chars), BIG_TIMEOUT_MS, KEEP_QUESTIONS)
            page.wait_for_function(DOC_IDLE_JS, polling="raf", timeout=BIG_TIMEOUT_MS)
            page.wait_for_timeout(1000)
            return journey(page, CpuMeter(proc.pid), runs, shots, steps_only)
        finally:
            stop_server(proc)


if __name__ == "__main__":
    main()
