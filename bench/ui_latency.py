"""One user's latency in a real headless Chromium against `streamlit run`, next to issue 11's
goals, with the server's CPU time separated from the browser's.

Measures (medians; the first page after the server starts is reported on its own):

1. *First page*: from navigation start of a fresh page to the first question's score bars
   drawn (the first visible Vega-Lite chart has ``svg.marks``), and to all 14 charts drawn with
   the app idle. Goal 6: the article's story visible in <= 8 s.
2. *Floor* and *top_k* on "Questions & scores": one ArrowRight/ArrowLeft (alternating, so the
   value stays near the default) on the focused slider, timed from the key press to the last
   chart update. "Updated" is decided in the page (see ``browser_common``): a MutationObserver
   set just before the press timestamps every DOM change inside a chart; done at the first
   frame where a chart changed, the app is idle (``notRunning``, no running indicator, no
   stale element), every visible chart has its marks and no chart changed for 1.5 s; the time
   is max(last chart change, first idle frame) - press. Goal 1: <= 0.3 s.
3. *Chunk size* on "Document & chunks" (sample, 508 characters): A's size slider one step
   right (a size never seen), until A's first chunk badge shows the new size and the app is
   idle (``browser_timing.SLIDER_DONE_JS``).
4. *Chunk size on a 200,000-character document* (the sample docs repeated, pasted): one step
   of A's size slider, timed to the highlighted document or a chunk count caption showing the
   new chunks (goal 2: <= 0.5 s) and, separately, to the rerun finished (scores back).

Server CPU: utime+stime of the `streamlit run` process tree from /proc/<pid>/stat; browser
CPU: the rest of this script's process tree (Playwright's driver and Chromium). Both are
deltas over each phase divided by its number of actions. Not a test: nothing is asserted.

The first pages open the app as its link does (first level); the steps run on a page opened
with ``more=1`` added (second level: the "Document & chunks" tab is there; the same widgets are
drawn on both levels, the first only hides some by style).

    .venv/bin/python bench/ui_latency.py [--runs 10] [--big-steps 3] [--skip-big] [--steps-only]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from browser_common import (
    ALL_CHARTS_IDLE_JS,
    FIRST_CHART_JS,
    IDLE_NOW_JS,
    CpuMeter,
    big_document,
    more_controls_url,
    paste_document,
    press_and_wait_charts,
    served_page_context,
)
from browser_timing import RENDERED_JS, slider_change_ms
from machine import bench_parser, on_machine

TIMEOUT_MS = 180_000
BIG_TIMEOUT_MS = 600_000
CHARTS = 14  # 7 questions x configurations A and B
# The chunk-count captions ("5 chunks · fixed(...)") and A's first badge: what a size step changes.
CHUNKS_SIGNATURE_JS = """() => JSON.stringify([
    [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
        .map(e => e.innerText).filter(t => /^\\d+ chunks · /.test(t)),
    document.querySelector('.rv-doc .rv-badge')?.title || ''])"""
CHUNKS_CHANGED_JS = "(before) => (" + CHUNKS_SIGNATURE_JS + ")() !== before && performance.now()"
DOC_IDLE_JS = (
    "() => { const doc = document.querySelector('.rv-doc');"
    " return !!doc && doc.checkVisibility() && (" + IDLE_NOW_JS + ")(); }"
)

Row = tuple[str, list[float], float, float, str]  # name, ms runs, server s, browser s, goal


def measured(meter: CpuMeter, count: int, action: Callable[[], list[float]]) -> tuple[
        list[float], float, float]:
    """Run ``action`` (it returns ms timings) and the CPU seconds per action it cost."""
    server0, browser0 = meter.read()
    runs = action()
    server1, browser1 = meter.read()
    return runs, (server1 - server0) / count, (browser1 - browser0) / count


def first_page(context: Any, url: str) -> tuple[float, float]:
    """ms from navigation start to the first question's bars, and to all charts drawn + idle."""
    page = context.new_page()
    try:
        page.goto(url)
        first = page.wait_for_function(FIRST_CHART_JS, polling="raf", timeout=TIMEOUT_MS)
        full = page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling="raf",
                                      timeout=TIMEOUT_MS)
        return float(first.json_value()), float(full.json_value())
    finally:
        page.close()


def alternate(page: Any, key: str, runs: int) -> list[float]:
    arrows = ("ArrowRight", "ArrowLeft")
    return [press_and_wait_charts(page, key, arrows[i % 2], TIMEOUT_MS) for i in range(runs)]


def open_tab(page: Any, label: str) -> None:
    page.get_by_role("tab", name=label, exact=True).click()
    page.wait_for_function(RENDERED_JS, polling="raf", timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)


def big_steps(page: Any, steps: int) -> tuple[list[float], list[float]]:
    """Per size step on the big document: ms to new chunks shown, ms to the rerun finished."""
    to_chunks, to_idle = [], []
    for _ in range(steps):
        before = page.evaluate(CHUNKS_SIGNATURE_JS)
        slider = page.locator('.st-key-a_size input[type="range"]')
        slider.focus()
        began = float(page.evaluate("() => performance.now()"))
        slider.press("ArrowRight")
        shown = page.wait_for_function(CHUNKS_CHANGED_JS, arg=before, polling="raf",
                                       timeout=BIG_TIMEOUT_MS)
        to_chunks.append(float(shown.json_value()) - began)
        done = page.wait_for_function(DOC_IDLE_JS, polling="raf", timeout=BIG_TIMEOUT_MS)
        to_idle.append(float(done.json_value()) - began)
        page.wait_for_timeout(500)
    return to_chunks, to_idle


def first_page_rows(context: Any, url: str, meter: CpuMeter, runs: int) -> list[Row]:
    """The first page after the server starts, then ``runs`` fresh pages on a warm server."""
    rows: list[Row] = []
    (cold, cold_full), server, browser = measured(meter, 1, lambda: list(first_page(context, url)))
    rows.append(("first page after server start: first bars", [cold], server, browser, "<= 8 s"))
    rows.append(("first page after server start: 14 charts", [cold_full], server, browser, ""))
    pages: list[tuple[float, float]] = []

    def load_pages() -> list[float]:
        pages.extend(first_page(context, url) for _ in range(runs))
        return [p[0] for p in pages]

    loads, server, browser = measured(meter, runs, load_pages)
    rows.append(("first page (warm server): first bars", loads, server, browser, "<= 8 s"))
    rows.append(("first page (warm server): 14 charts", [p[1] for p in pages], server, browser,
                 ""))
    return rows


def small_document_rows(context: Any, url: str, meter: CpuMeter, runs: int,
                        smoke: bool = False, steps_only: bool = False) -> list[Row]:
    """First pages, then floor, top_k and size steps on one page (a smoke run or
    ``--steps-only``: that page only)."""
    rows = [] if smoke or steps_only else first_page_rows(context, url, meter, runs)
    page = context.new_page()
    page.goto(more_controls_url(url))  # the tabs are on the second level ("More controls")
    page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling="raf", timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)
    for key, name in (("floor", "floor step"), ("top_k", "top_k step")):
        times, server, browser = measured(meter, runs, lambda k=key: alternate(page, k, runs))
        rows.append((f"{name} on Questions & scores", times, server, browser, "<= 300 ms"))
    open_tab(page, "Document & chunks")
    times, server, browser = measured(
        meter, runs, lambda: [slider_change_ms(page, 1) for _ in range(runs)])
    rows.append(("chunk size step, sample (508 chars)", times, server, browser, ""))
    page.close()
    return rows


def big_document_rows(context: Any, url: str, meter: CpuMeter, steps: int) -> list[Row]:
    page = context.new_page()
    page.goto(more_controls_url(url))  # the tabs are on the second level ("More controls")
    page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling="raf", timeout=TIMEOUT_MS)
    open_tab(page, "Document & chunks")
    text = big_document()

    def paste() -> list[float]:
        began = time.perf_counter()
        paste_document(page, text, BIG_TIMEOUT_MS)
        page.locator(".rv-doc").first.get_by_text(text[:30]).first.wait_for(timeout=BIG_TIMEOUT_MS)
        page.wait_for_function(DOC_IDLE_JS, polling="raf", timeout=BIG_TIMEOUT_MS)
        return [(time.perf_counter() - began) * 1000]

    pasted, server, browser = measured(meter, 1, paste)
    rows: list[Row] = [(f"paste {len(text):,} chars: analysed + drawn", pasted, server,
                        browser, "")]
    page.wait_for_timeout(500)
    server0, browser0 = meter.read()
    to_chunks, to_idle = big_steps(page, steps)
    server1, browser1 = meter.read()
    server, browser = (server1 - server0) / steps, (browser1 - browser0) / steps
    rows.append(("200k doc, size step: new chunks shown", to_chunks, server, browser,
                 "<= 500 ms"))
    rows.append(("200k doc, size step: scores back (idle)", to_idle, server, browser, ""))
    page.close()
    return rows


def print_table(rows: list[Row], flush: bool = False) -> None:
    print(f"{'measure':<46} {'median':>9} {'n':>3} {'server CPU':>11} {'browser CPU':>12}"
          f"  {'goal':<10} runs (ms)")
    for name, runs, server, browser, goal in rows:
        print(f"{name:<46} {statistics.median(runs):7.0f}ms {len(runs):>3} {server:10.2f}s"
              f" {browser:11.2f}s  {goal:<10} {', '.join(f'{x:.0f}' for x in runs)}")
    print("(server/browser CPU: seconds per action over the phase, from /proc)", flush=flush)


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--runs", type=int, default=10)
    found.add_argument("--big-steps", type=int, default=3)
    found.add_argument("--skip-big", action="store_true")
    found.add_argument("--query", default="",
                       help="a link's query for the page, e.g. a reranked configuration: "
                            "'scorer=cosine%%2Brerank(sentence-max)' (issue 33's 0.3 s step)")
    found.add_argument("--steps-only", action="store_true",
                       help="no first-page rows: the floor, top_k and size steps only")
    found.add_argument("--chromium", default="/usr/bin/chromium")
    args = found.parse_args(argv)
    if args.smoke:  # one of each step on the sample; the 200k document's embedding is minutes
        args.runs, args.skip_big = 1, True
    with on_machine(args.smoke):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    with served_page_context(args.chromium) as (proc, url, context):
        meter = CpuMeter(proc.pid)
        if args.query:
            url = f"{url.rstrip('/')}/?{args.query}"
            print(f"page: {url}")
        print_table(small_document_rows(context, url, meter, args.runs, args.smoke,
                                        args.steps_only), flush=True)
        if not args.skip_big:
            print_table(big_document_rows(context, url, meter, args.big_steps))


if __name__ == "__main__":
    main()
