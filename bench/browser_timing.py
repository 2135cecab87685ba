"""Time the app as a user sees it, measured inside a real headless Chromium.

1. *First complete render*: from navigation start (a fresh page) to the moment the highlighted
   documents are visible, the charts are in the DOM, every visible chart is drawn and the
   script is idle (``performance.now()`` at the first animation frame where all of that holds).
2. *Slider change*: from the key press that moves A's chunk-size slider by one step to the
   frame where A's chunk badges show the new size and the app is idle again; once for sizes
   never seen (new chunks to embed) and once stepping back over them (memoised).

Each is repeated (default 5 times) and the median printed in milliseconds. The first page load
after the server starts (model load, cold caches) is reported on its own and left out of
the median. The fresh pages open the app as a link without parameters does (its first level);
the tab and slider timings run on a page opened with ``more=1`` (its second level, where the
tabs are: the same widgets are drawn on both levels). Not a test: nothing is asserted about
time.

    .venv/bin/python bench/browser_timing.py [--runs 5] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the Chromium flags live with the browser tests
from browser_common import more_controls_url  # noqa: E402
from machine import bench_parser, on_machine  # noqa: E402

from tests.browser.chromium import CHROMIUM_ARGS  # noqa: E402

APP = ROOT / "streamlit_app.py"
TIMEOUT_MS = 120_000

# Same definition of "rendered" as tests/browser/conftest.py: the app idle, and the open
# tab's score charts drawn (first screen) or its highlighted document shown.
RENDERED_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    if (document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')) return false;
    if (document.querySelector('[data-stale="true"]')) return false;
    if (document.querySelector('[data-testid="stException"]')) return 'exception';
    const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
    const docs = [...document.querySelectorAll('.rv-doc')];
    // The first tab shows the score charts, the document tab the highlighted document.
    if (!charts.some(c => c.checkVisibility()) && !docs.some(d => d.checkVisibility()))
        return false;
    if (!charts.filter(c => c.checkVisibility())
            .every(c => c.querySelector('svg.marks, canvas.marks'))) return false;
    return performance.now();
}"""

# A's first chunk is exactly `size` characters (fixed windows are not trimmed).
SLIDER_DONE_JS = (
    """(want) => {
    const badge = document.querySelector('.rv-doc .rv-badge');
    if (!badge || !badge.title.includes('· ' + want + ' chars')) return false;
    return ("""
    + RENDERED_JS
    + """)();
}"""
)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(log_dir: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    """`streamlit run` on a free port; returns the process, its URL and seconds to healthy."""
    port = free_port()
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.headless", "true", "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    err_path = log_dir / "streamlit.err"
    with (log_dir / "streamlit.out").open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err)
    url = f"http://127.0.0.1:{port}"
    began = time.perf_counter()
    while time.perf_counter() - began < 90:
        if proc.poll() is not None:
            raise SystemExit("streamlit exited:\n" + err_path.read_text(errors="replace"))
        with (
            contextlib.suppress(urllib.error.URLError, OSError),
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp,
        ):
            if resp.read().decode().strip() == "ok":
                return proc, url, time.perf_counter() - began
        time.sleep(0.1)
    proc.terminate()
    raise SystemExit("streamlit was not healthy after 90 s:\n" + err_path.read_text())


def first_render_ms(context: Any, url: str) -> float:
    """Milliseconds from navigation start to the first frame with a complete render (the
    first tab: seven questions, fourteen score charts drawn)."""
    page = context.new_page()
    try:
        page.goto(url)
        handle = page.wait_for_function(QUESTIONS_DRAWN_JS, arg=14, polling="raf",
                                        timeout=TIMEOUT_MS)
        value = handle.json_value()
        if value == "exception":
            raise SystemExit("the app shows an exception")
        return float(value)
    finally:
        page.close()


def slider_change_ms(page: Any, step: int) -> float:
    """Milliseconds from one key press on A's size slider to the updated, idle page."""
    slider = page.locator('.st-key-a_size input[type="range"]')
    want = int(slider.get_attribute("value") or 0) + step
    slider.focus()
    began = page.evaluate("() => performance.now()")
    slider.press("ArrowRight" if step > 0 else "ArrowLeft")
    handle = page.wait_for_function(SLIDER_DONE_JS, arg=want, polling="raf", timeout=TIMEOUT_MS)
    return float(handle.json_value()) - float(began)


QUESTIONS_DRAWN_JS = """(count) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .filter(c => c.checkVisibility());
    if (charts.length < count) return false;
    return charts.every(c => c.querySelector('svg.marks, canvas.marks')) && performance.now();
}"""


def questions_tab_ms(page: Any, tab: str, back: str, charts: int) -> float:
    """Milliseconds from a click on the questions tab to every score chart drawn."""
    page.get_by_role("tab", name=back, exact=True).click()
    page.wait_for_function(RENDERED_JS, polling="raf", timeout=TIMEOUT_MS)
    began = page.evaluate("() => performance.now()")
    page.get_by_role("tab", name=tab, exact=True).click()
    handle = page.wait_for_function(QUESTIONS_DRAWN_JS, arg=charts, polling="raf",
                                    timeout=TIMEOUT_MS)
    return float(handle.json_value()) - float(began)


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--runs", type=int, default=5)
    found.add_argument("--chromium", default="/usr/bin/chromium")
    args = found.parse_args(argv)
    if args.smoke:
        args.runs = 1
    with on_machine(args.smoke):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="ragviz-bench-") as tmp:
        proc, url, healthy_s = start_server(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS
                )
                context = browser.new_context(viewport={"width": 1600, "height": 1000})
                cold = first_render_ms(context, url)
                # a smoke run opens no extra page: the cold load stands in for them
                loads = [first_render_ms(context, url)
                         for _ in range(0 if args.smoke else args.runs)] or [cold]

                # the tabs are on the page's second level ("More controls")
                page = context.new_page()
                page.goto(more_controls_url(url))
                page.wait_for_function(RENDERED_JS, polling="raf", timeout=TIMEOUT_MS)
                tabs = [questions_tab_ms(page, "Questions & scores", "Document & chunks", 14)
                        for _ in range(args.runs)]
                page.get_by_role("tab", name="Document & chunks", exact=True).click()
                page.wait_for_selector(".rv-doc .rv-badge", timeout=TIMEOUT_MS)
                page.wait_for_function(RENDERED_JS, polling="raf", timeout=TIMEOUT_MS)
                page.wait_for_timeout(300)
                # Right: every size is new, so its chunks are cut and embedded afresh.
                # Left: back over sizes this session has seen (memoised analysis).
                fresh = [slider_change_ms(page, 1) for _ in range(args.runs)]
                seen = [slider_change_ms(page, -1) for _ in range(args.runs)]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    print(f"server start to healthy:            {healthy_s * 1000:8.0f} ms")
    print(f"first page load after start (cold): {cold:8.0f} ms")
    print(
        f"first complete render, median of {args.runs}: {statistics.median(loads):8.0f} ms"
        f"   (runs: {', '.join(f'{x:.0f}' for x in loads)})"
    )
    print(
        f"open the questions tab (14 score charts), median of {args.runs}: "
        f"{statistics.median(tabs):8.0f} ms   (runs: {', '.join(f'{x:.0f}' for x in tabs)})"
    )
    for name, runs in (("new size", fresh), ("size seen before", seen)):
        print(
            f"slider change to updated page ({name}), median of {args.runs}: "
            f"{statistics.median(runs):8.0f} ms   (runs: {', '.join(f'{x:.0f}' for x in runs)})"
        )


if __name__ == "__main__":
    main()
