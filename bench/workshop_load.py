"""A workshop room on one server: N browser sessions against ONE `streamlit run` (issue 11,
goal 4), loopback only (127.0.0.1), every wait bounded, stops by itself.

How it runs:

1. The server starts; one *warm-up* session (not counted in N) opens the default page alone,
   so the model load is seen once and the RSS before/after it gives the model's size.
2. N sessions open the default page at once. Page load = ``performance.now()`` (from the
   page's navigation start) at the first question's bars drawn; each session then waits for
   all 14 charts drawn and the app idle.
3. Three times, all N sessions move the floor slider at once (one ArrowRight/ArrowLeft/
   ArrowRight on the focused slider). A move is timed in the page from the key press to the
   last chart update, as ``browser_common`` defines it (chart MutationObserver + idle +
   1.5 s without chart changes, the quiet wait not counted).
4. Contention: a floor move in one session alone (baseline), then the warm-up session pastes
   a 200,000-character document (the sample docs repeated) and, while its script runs,
   another session moves the floor ``--contention-moves`` times. Goal: <= 1 s.

5. Peers (browser clients; on unless ``--no-peers``): the same N pages at once against two
   pages that are not ragviz, in the same run: a bare Streamlit page (a title and a line) and
   fourteen one-layer Altair charts (``bench/peer_pages``). Their load p95 and browser CPU per
   page say what any Streamlit page, and any page of fourteen charts, costs the two cores when
   the browsers run beside the server; ragviz's figures are read against them.

Browsers: ``--pages-per-browser`` pages (default 11) share one Chromium process and one
context (each page is its own Streamlit session), so N=10 (plus the warm-up) is one Chromium
and N=30 three; the Playwright async API drives them concurrently from one thread; pages
poll every 100 ms (not every frame) so 30 pages do not spend the two cores on polling.

Figures: p50/p95 of page loads and of slider moves; CPU seconds per session of the server's
process tree and of the browsers (the rest of this script's tree), from /proc/<pid>/stat;
peak VmRSS of the server's tree (and of the browsers), sampled every 0.5 s. "Model loaded
once": the server's RSS grows by the model's size when the warm-up session loads it; if each
further session added less than half that, the model was not loaded again (the app keeps it
in ``st.cache_resource``). A firmer check would be a log line in the app's ``get_model``.

    .venv/bin/python bench/workshop_load.py --sessions 10 [--pages-per-browser 11]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from browser_common import (
    ALL_CHARTS_IDLE_JS,
    CHARTS_SETTLED_JS,
    CHROMIUM_ARGS,
    CLEAR_OLD_QUESTIONS,
    FIRST_CHART_JS,
    IDLE_NOW_JS,
    ROOT,
    VIEWPORT,
    WATCH_CHARTS_JS,
    CpuMeter,
    big_document,
    descendants,
    start_server,
    stop_server,
    vm_rss_mb,
)
from machine import bench_parser, on_machine
from protocol_session import ProtocolSession

CHARTS = 14
POLL_MS = 100
QUIET_MS = 1500
RUNNING_JS = """() => document.querySelector('[data-testid="stApp"]')
    ?.getAttribute('data-test-script-state') === 'running'"""


class RssSampler(threading.Thread):
    """Peak VmRSS (MB) of the server's tree and of the browsers' tree, every 0.5 s."""

    def __init__(self, server_pid: int, driver_pid: int) -> None:
        super().__init__(daemon=True)
        self.server_pid, self.driver_pid = server_pid, driver_pid
        self.server_peak = self.browser_peak = 0.0
        self.stopped = threading.Event()

    def server_now(self) -> float:
        return vm_rss_mb(descendants(self.server_pid))

    def run(self) -> None:
        while not self.stopped.wait(0.5):
            server = descendants(self.server_pid)
            self.server_peak = max(self.server_peak, vm_rss_mb(server))
            browsers = descendants(self.driver_pid) - server - {self.driver_pid}
            self.browser_peak = max(self.browser_peak, vm_rss_mb(browsers))


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (share in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


async def open_session(page: Any, url: str, timeout_ms: int,
                       drawn: list[float] | None = None) -> float | None:
    """ms from navigation start to the first question's bars; None if it timed out. The
    time to every chart drawn and the app idle goes to ``drawn`` (compared with the peers)."""
    try:
        await page.goto(url, timeout=timeout_ms)
        first = await page.wait_for_function(FIRST_CHART_JS, polling=POLL_MS, timeout=timeout_ms)
        idle = await page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling=POLL_MS,
                                            timeout=timeout_ms)
        if drawn is not None:
            drawn.append(float(await idle.json_value()))
        return float(await first.json_value())
    except Exception as error:  # a timed-out or crashed page is counted, not fatal
        print(f"  page load failed: {type(error).__name__}: {str(error)[:120]}", file=sys.stderr)
        return None


async def move_floor(page: Any, arrow: str, timeout_ms: int) -> float | None:
    """ms from one key press on the floor slider to the last chart update; None on timeout."""
    try:
        slider = page.locator('.st-key-floor input[type="range"]')
        await slider.focus(timeout=timeout_ms)
        began = float(await page.evaluate(WATCH_CHARTS_JS))
        await page.keyboard.press(arrow)
        handle = await page.wait_for_function(CHARTS_SETTLED_JS, arg=QUIET_MS,
                                              polling=POLL_MS, timeout=timeout_ms)
        value = await handle.json_value()
        return None if "exception" in value else float(value["done"]) - began
    except Exception as error:
        print(f"  slider move failed: {type(error).__name__}: {str(error)[:120]}",
              file=sys.stderr)
        return None


async def paste_big(page: Any, text: str, timeout_ms: int) -> None:
    """Paste ``text`` as the document and return once its rerun has started."""
    await page.locator(".st-key-doc_source").get_by_text("Paste", exact=True).click()
    area = page.locator(".st-key-doc_paste textarea")
    await area.wait_for(timeout=timeout_ms)
    await page.wait_for_function(IDLE_NOW_JS, polling=POLL_MS, timeout=timeout_ms)
    await area.fill(text, timeout=timeout_ms)
    await area.press("Control+Enter")
    # the page asks to keep or clear the sample's questions first, and embeds a document this
    # long only once answered: Clear starts the long run
    clear = page.locator(f".st-key-{CLEAR_OLD_QUESTIONS} button")
    await clear.wait_for(timeout=timeout_ms)
    await clear.click()
    await page.wait_for_function(RUNNING_JS, polling=50, timeout=timeout_ms)


async def contention(warm: Any, other: Any, moves: int, timeout_ms: int) -> dict[str, Any]:
    """Floor moves in ``other`` alone, then while ``warm`` analyses a 200k document."""
    alone = [await move_floor(other, ("ArrowRight", "ArrowLeft")[i % 2], timeout_ms)
             for i in range(moves)]
    await paste_big(warm, big_document(), timeout_ms)
    began = time.perf_counter()
    busy = [await move_floor(other, ("ArrowRight", "ArrowLeft")[i % 2], timeout_ms)
            for i in range(moves)]
    still_running = bool(await warm.evaluate(RUNNING_JS))
    return {"alone": alone, "busy": busy, "busy_s": time.perf_counter() - began,
            "big_still_running": still_running}


async def open_pages(pw: Any, args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """N + 1 pages (one to warm up), ``--pages-per-browser`` per Chromium and context."""
    count = math.ceil((args.sessions + 1) / args.pages_per_browser)
    browsers = [await pw.chromium.launch(executable_path=args.chromium, headless=True,
                                         args=CHROMIUM_ARGS) for _ in range(count)]
    contexts = [await b.new_context(viewport=VIEWPORT, locale="en-US") for b in browsers]
    return browsers, [await contexts[i % count].new_page() for i in range(args.sessions + 1)]


async def drive(args: argparse.Namespace, url: str, meter: CpuMeter,
                sampler: RssSampler) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    timeout_ms = int(args.timeout * 1000)
    found: dict[str, Any] = {}
    async with async_playwright() as pw:
        browsers, pages = await open_pages(pw, args)
        count = len(browsers)
        warm, sessions = pages[0], pages[1:]
        rss_before = sampler.server_now()
        cpu0 = meter.read()
        found["warm_load_ms"] = await open_session(warm, url, timeout_ms)
        rss_model = sampler.server_now()
        cpu1 = meter.read()
        drawn: list[float] = []
        loads = await asyncio.gather(*(open_session(p, url, timeout_ms, drawn)
                                       for p in sessions))
        rss_sessions = sampler.server_now()
        cpu2 = meter.read()
        moves: list[float | None] = []
        for arrow in ("ArrowRight", "ArrowLeft", "ArrowRight"):
            moves += await asyncio.gather(*(move_floor(p, arrow, timeout_ms) for p in sessions))
        cpu3 = meter.read()
        if args.contention_moves:
            found["contention"] = await contention(warm, sessions[0], args.contention_moves,
                                                   timeout_ms)
        for browser in browsers:
            await browser.close()
    found.update(loads=loads, drawn=drawn, moves=moves,
                 rss=(rss_before, rss_model, rss_sessions), cpu=(cpu0, cpu1, cpu2, cpu3),
                 browsers=count)
    return found


async def protocol_open(session: ProtocolSession, http: Any) -> float | None:
    """ms from the page request to the first score chart's delta; None on failure."""
    try:
        return (await session.open(http))["first_chart"] * 1000
    except Exception as error:
        print(f"  protocol load failed: {type(error).__name__}: {str(error)[:120]}",
              file=sys.stderr)
        return None


async def protocol_move(session: ProtocolSession, value: float) -> float | None:
    """ms from sending the floor's new value to the end of the rerun; None on failure."""
    try:
        return await session.set_slider("floor", value) * 1000
    except Exception as error:
        print(f"  protocol move failed: {type(error).__name__}: {str(error)[:120]}",
              file=sys.stderr)
        return None


async def protocol_contention(warm: ProtocolSession, other: ProtocolSession,
                              moves: int) -> dict[str, Any]:
    """Floor moves in ``other`` alone, then while ``warm`` analyses a pasted 200k document."""
    values = [(0.2, 0.19)[i % 2] for i in range(moves)]
    alone = [await protocol_move(other, v) for v in values]
    await warm.set_text("doc_source", "Paste")
    await warm.set_text("doc_paste", big_document())  # asks keep-or-clear, embeds nothing yet
    big = asyncio.create_task(warm.click(CLEAR_OLD_QUESTIONS))  # the answer starts the run
    await asyncio.sleep(0.3)  # the big run has started (its script is busy embedding)
    began = time.perf_counter()
    busy = [await protocol_move(other, v) for v in values]
    still_running = not big.done()
    await big
    return {"alone": alone, "busy": busy, "busy_s": time.perf_counter() - began,
            "big_still_running": still_running}


async def drive_protocol(args: argparse.Namespace, url: str, meter: CpuMeter,
                         sampler: RssSampler) -> dict[str, Any]:
    """The same room with protocol clients (``protocol_session``) in place of browsers:
    the server's share of the figures, with no rendering on the server's two cores."""
    import httpx

    found: dict[str, Any] = {}
    limits = httpx.Limits(max_connections=args.sessions + 1)
    async with httpx.AsyncClient(timeout=args.timeout, limits=limits) as http:
        warm = ProtocolSession(url)
        sessions = [ProtocolSession(url) for _ in range(args.sessions)]
        rss_before = sampler.server_now()
        cpu0, own0 = meter.read(), time.process_time()
        found["warm_load_ms"] = await protocol_open(warm, http)
        rss_model = sampler.server_now()
        cpu1, own1 = meter.read(), time.process_time()
        loads = await asyncio.gather(*(protocol_open(s, http) for s in sessions))
        rss_sessions = sampler.server_now()
        cpu2, own2 = meter.read(), time.process_time()
        moves: list[float | None] = []
        for value in (0.2, 0.19, 0.2):
            moves += await asyncio.gather(*(protocol_move(s, value) for s in sessions))
        cpu3, own3 = meter.read(), time.process_time()
        if args.contention_moves:
            found["contention"] = await protocol_contention(warm, sessions[0],
                                                            args.contention_moves)
        for session in (warm, *sessions):
            await session.close()
    # the clients' CPU is this process's own (there is no browser tree)
    cpus = [(c[0], own) for c, own in ((cpu0, own0), (cpu1, own1), (cpu2, own2), (cpu3, own3))]
    found.update(loads=loads, moves=moves, rss=(rss_before, rss_model, rss_sessions),
                 cpu=tuple(cpus), browsers=0)
    return found


PEER_PAGES = {
    "bare Streamlit page": ROOT / "bench" / "peer_pages" / "bare_page.py",
    "14 one-layer Altair charts": ROOT / "bench" / "peer_pages" / "fourteen_charts.py",
}
PEER_READY_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
    return !!app && !!document.querySelector('h1')
        && app.getAttribute('data-test-script-state') === 'notRunning'
        && charts.every(c => c.querySelector('svg.marks, canvas.marks')) && performance.now();
}"""


async def peer_load(args: argparse.Namespace, url: str, meter: CpuMeter) -> dict[str, Any]:
    """N pages of a peer app opened at once, as ragviz's are: ms to the page drawn and idle,
    and the browsers' CPU seconds per page (after one warm-up page)."""
    from playwright.async_api import async_playwright

    timeout_ms = int(args.timeout * 1000)

    async def open_peer(page: Any) -> float | None:
        try:
            await page.goto(url, timeout=timeout_ms)
            ready = await page.wait_for_function(PEER_READY_JS, polling=POLL_MS,
                                                 timeout=timeout_ms)
            return float(await ready.json_value())
        except Exception as error:
            print(f"  peer load failed: {type(error).__name__}: {str(error)[:120]}",
                  file=sys.stderr)
            return None

    async with async_playwright() as pw:
        browsers, pages = await open_pages(pw, args)
        await open_peer(pages[0])
        cpu0 = meter.read()
        loads = await asyncio.gather(*(open_peer(p) for p in pages[1:]))
        cpu1 = meter.read()
        for browser in browsers:
            await browser.close()
    return {"loads": loads, "server_cpu": (cpu1[0] - cpu0[0]) / args.sessions,
            "browser_cpu": (cpu1[1] - cpu0[1]) / args.sessions}


def run_peers(args: argparse.Namespace, tmp: Path) -> dict[str, dict[str, Any]]:
    found = {}
    for name, app in PEER_PAGES.items():
        proc, url = start_server(tmp / name.replace(" ", "_"), app=app)
        try:
            found[name] = asyncio.run(asyncio.wait_for(
                peer_load(args, url, CpuMeter(proc.pid)), timeout=args.max_seconds))
        finally:
            stop_server(proc)
    return found


def report_peers(args: argparse.Namespace, ours: dict[str, Any],
                 peers: dict[str, dict[str, Any]]) -> None:
    cpu1, cpu2 = ours["cpu"][1], ours["cpu"][2]
    print(f"\npeers, the same {args.sessions} pages at once in this run (page drawn and idle):")
    drawn: list[float | None] = list(ours["drawn"])
    drawn += [None] * (len(ours["loads"]) - len(drawn))  # the pages that timed out
    print(summary("ragviz default page", drawn),
          f"  browser CPU per page {(cpu2[1] - cpu1[1]) / args.sessions:5.2f} s")
    for name, found in peers.items():
        print(summary(name, found["loads"]),
              f"  browser CPU per page {found['browser_cpu']:5.2f} s"
              f" (server {found['server_cpu']:.2f} s)")


def summary(name: str, values: list[float | None]) -> str:
    done = [v for v in values if v is not None]
    if not done:
        return f"{name:<34} all {len(values)} failed"
    return (f"{name:<34} p50 {statistics.median(done) / 1000:6.2f} s   p95"
            f" {percentile(done, 0.95) / 1000:6.2f} s   max {max(done) / 1000:6.2f} s"
            f"   ({len(done)}/{len(values)} done)")


def report(args: argparse.Namespace, found: dict[str, Any], sampler: RssSampler,
           load_avg: str) -> None:
    n = args.sessions
    cpu0, cpu1, cpu2, cpu3 = found["cpu"]
    rss_before, rss_model, rss_sessions = found["rss"]
    model_mb = rss_model - rss_before
    per_session_mb = (rss_sessions - rss_model) / n
    clients = "browser"
    if args.clients == "protocol":
        clients = "client"
        print(f"\nworkshop load: {n} sessions as protocol clients (no browser on this machine:"
              f" the server's share); load before: {load_avg}")
    else:
        print(f"\nworkshop load: {n} sessions, {found['browsers']} Chromium process(es),"
              f" {args.pages_per_browser} pages each at most; load before: {load_avg}")
    warm = found["warm_load_ms"] or float("nan")
    print(f"{'warm-up session first page (cold)':<34} {warm / 1000:6.2f} s   server CPU"
          f" {cpu1[0] - cpu0[0]:.2f} s, {clients} CPU {cpu1[1] - cpu0[1]:.2f} s")
    print(summary("page load (first bars), N at once", found["loads"]), "  goal p95 <= 15 s")
    print(summary("floor move, N at once (x3)", found["moves"]), "  goal p95 <= 5 s")
    print(f"{'server CPU per session':<34} load {(cpu2[0] - cpu1[0]) / n:6.2f} s"
          f"   per move {(cpu3[0] - cpu2[0]) / (3 * n):6.2f} s")
    print(f"{clients + ' CPU per session':<34} load {(cpu2[1] - cpu1[1]) / n:6.2f} s"
          f"   per move {(cpu3[1] - cpu2[1]) / (3 * n):6.2f} s")
    browsers_rss = f"   (browsers peak {sampler.browser_peak:.0f} MB)" if found["browsers"] else ""
    print(f"{'server RSS':<34} peak {sampler.server_peak:7.0f} MB   goal <= 2048 MB"
          + browsers_rss)
    loaded_once = per_session_mb < 0.5 * model_mb
    print(f"{'model loaded once':<34} {'yes' if loaded_once else 'NO?'}: first load added"
          f" {model_mb:.0f} MB, each further session {per_session_mb:.1f} MB")
    if "contention" in found:
        cont = found["contention"]
        print(summary("floor move, alone", cont["alone"]))
        print(summary("floor move while a 200k doc embeds", cont["busy"]), "  goal <= 1 s",
              f"  (big analysis still running after: {cont['big_still_running']})")


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--sessions", type=int, default=10)
    found.add_argument("--pages-per-browser", type=int, default=11)
    found.add_argument("--timeout", type=float, default=240.0, help="seconds per wait")
    found.add_argument("--max-seconds", type=float, default=900.0, help="whole run")
    found.add_argument("--contention-moves", type=int, default=3)
    found.add_argument("--chromium", default="/usr/bin/chromium")
    found.add_argument("--clients", choices=("browser", "protocol"), default="browser",
                        help="real Chromium pages, or protocol clients (the server's share)")
    found.add_argument("--no-peers", dest="peers", action="store_false",
                        help="browser clients: skip the peer pages (bare page, 14 charts)")
    args = found.parse_args(argv)
    if not 1 <= args.sessions <= 60:
        raise SystemExit("--sessions must be 1..60 on this machine")
    if args.smoke:  # one session, no 200k paste, no peer servers
        args.sessions, args.contention_moves, args.peers = 1, 0, False
    with on_machine(args.smoke):
        room(args)


def room(args: argparse.Namespace) -> None:
    load_avg = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="ragviz-workshop-") as tmp:
        proc, url = start_server(Path(tmp))
        sampler = RssSampler(proc.pid, os.getpid())
        sampler.start()
        try:
            driver = drive_protocol if args.clients == "protocol" else drive
            found = asyncio.run(asyncio.wait_for(
                driver(args, url, CpuMeter(proc.pid), sampler), timeout=args.max_seconds))
        finally:
            sampler.stopped.set()
            stop_server(proc)
        peers = run_peers(args, Path(tmp)) if args.clients == "browser" and args.peers else {}
    report(args, found, sampler, load_avg)
    if peers:
        report_peers(args, found, peers)


if __name__ == "__main__":
    main()
