"""What the browser benches share: a `streamlit run` server with its pid, CPU seconds from /proc,
and the in-page JavaScript that decides when a rerun has reached the screen.

"Updated" after a key press is decided in the page, not by sleeping: a MutationObserver set up
just before the press records the time of every DOM change inside a Vega-Lite chart. The move
counts as done at the first animation frame where (1) at least one chart changed since the
press, (2) the app is idle (script state ``notRunning``, no running indicator, no stale
element), (3) every visible chart has its ``svg.marks``/``canvas.marks`` and (4) no chart has
changed for ``quiet_ms`` (checked again when that time is over). The reported time is
max(last chart change, first idle frame) minus the press time, so the quiet wait itself is not
counted. Frames are polled until the first idle frame, then every 100 ms: the quiet wait's
polling was once counted in the browser CPU per step as if the app spent it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "streamlit_app.py"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1600, "height": 1000}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

IDLE_JS_BODY = """
    const app = document.querySelector('[data-testid="stApp"]');
    const idle = !!app && app.getAttribute('data-test-script-state') === 'notRunning'
        && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')
        && !document.querySelector('[data-stale="true"]');
"""

# Installs the chart observer; returns the press-time origin (performance.now()).
WATCH_CHARTS_JS = """() => {
    const w = window;
    if (w.__rvObs) w.__rvObs.disconnect();
    w.__rv = {last: 0, n: 0, idleAt: 0};
    w.__rvObs = new MutationObserver(muts => {
        for (const m of muts) {
            const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
            if (el && el.closest('[data-testid="stVegaLiteChart"]')) {
                w.__rv.last = performance.now(); w.__rv.n++; w.__rv.idleAt = 0; return;
            }
        }
    });
    w.__rvObs.observe(document.body,
        {subtree: true, childList: true, attributes: true, characterData: true});
    return performance.now();
}"""

# The chart queries (every chart's visibility and marks) run only until the first idle frame
# and once more when the quiet time is over: run on every frame of the quiet wait, they cost
# the renderer about 0.13 s per step, which the browser CPU per step then counted as the app's.
CHARTS_SETTLED_JS = (
    """(quietMs) => {
    const w = window;"""
    + IDLE_JS_BODY
    + """
    if (!idle) { w.__rv.idleAt = 0; return false; }
    if (w.__rv.n === 0) return false;
    const drawn = () => {
        const shown = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
            .filter(c => c.checkVisibility());
        return shown.length > 0 && shown.every(c => c.querySelector('svg.marks, canvas.marks'));
    };
    const failed = () => !!document.querySelector('[data-testid="stException"]');
    const now = performance.now();
    if (!w.__rv.idleAt) {
        if (failed()) return {exception: true};
        if (!drawn()) return false;
        w.__rv.idleAt = now;
    }
    if (now - w.__rv.last < quietMs) return false;
    if (failed()) return {exception: true};
    if (!drawn()) { w.__rv.idleAt = 0; return false; }
    return {done: Math.max(w.__rv.last, w.__rv.idleAt), changes: w.__rv.n};
}"""
)

# Phase 1 of a step, polled every animation frame: the settled result, or true from the first
# idle frame with every chart drawn (its time is kept as ``idleAt``).
CHARTS_IDLE_JS = ("(quietMs) => (" + CHARTS_SETTLED_JS + ")(quietMs) || window.__rv.idleAt > 0")
# Phase 2, polled every 100 ms (a frame-by-frame poll costs the renderer ~0.065 s a second):
# the settled result, or {busy} when a chart changed again (back to phase 1, so that the next
# idle frame is timed to the frame).
CHARTS_QUIET_JS = ("(quietMs) => window.__rv.idleAt ? (" + CHARTS_SETTLED_JS
                   + ")(quietMs) : {busy: true}")

# The first question's bars: the first visible chart has drawn its marks.
FIRST_CHART_JS = """() => {
    const chart = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .find(c => c.checkVisibility());
    return !!chart && !!chart.querySelector('svg.marks, canvas.marks') && performance.now();
}"""

ALL_CHARTS_IDLE_JS = (
    """(count) => {"""
    + IDLE_JS_BODY
    + """
    if (!idle) return false;
    const shown = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .filter(c => c.checkVisibility());
    return shown.length >= count
        && shown.every(c => c.querySelector('svg.marks, canvas.marks')) && performance.now();
}"""
)

IDLE_NOW_JS = "() => {" + IDLE_JS_BODY + " return idle && performance.now(); }"

# The link parameter that opens the page with its second level on ("More controls": the tabs,
# overlaps, typed boxes, gear menus; ragviz.share.links.MORE_KEY). The second level's widgets
# are drawn on both levels and only hidden by style on the first, so the page does the same
# work either way: a bench that clicks a tab or another second-level control opens it on.
MORE_CONTROLS = "more=1"


def more_controls_url(url: str) -> str:
    """``url`` with the page's second level on: ``more=1`` added to its query (kept as given)."""
    base, _, query = url.partition("?")
    kept = [p for p in query.split("&") if p and p.split("=", 1)[0] != "more"]
    return f"{base.rstrip('/')}/?" + "&".join([*kept, MORE_CONTROLS])


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(log_dir: Path, timeout_s: float = 120,
                 app: Path = APP) -> tuple[subprocess.Popen[bytes], str]:
    """`streamlit run` on 127.0.0.1 and a free port; returns the process and URL once healthy."""
    port = free_port()
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true", "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    log_dir.mkdir(parents=True, exist_ok=True)
    err_path = log_dir / "streamlit.err"
    with (log_dir / "streamlit.out").open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("streamlit exited:\n" + err_path.read_text(errors="replace"))
        with (
            contextlib.suppress(urllib.error.URLError, OSError),
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp,
        ):
            if resp.read().decode().strip() == "ok":
                return proc, url
        time.sleep(0.2)
    stop_server(proc)
    raise SystemExit(f"streamlit was not healthy after {timeout_s:.0f} s")


@contextlib.contextmanager
def served_page_context(chromium: str) -> Iterator[tuple[subprocess.Popen[bytes], str, Any]]:
    """A `streamlit run` server and a headless Chromium context (the benches' viewport and
    locale): the server process, its URL and the context; both closed at the end."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="ragviz-bench-") as tmp:
        proc, url = start_server(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                             args=CHROMIUM_ARGS)
                yield proc, url, browser.new_context(viewport=VIEWPORT, locale="en-US")
                browser.close()
        finally:
            stop_server(proc)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the server this bench started (only it); kill it after 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def _parents() -> dict[int, int]:
    """pid -> parent pid for every process visible in /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
    return parents


def descendants(pid: int) -> set[int]:
    """``pid`` and every live process below it."""
    parents = _parents()
    found, frontier = {pid}, [pid]
    while frontier:
        current = frontier.pop()
        for child, parent in parents.items():
            if parent == current and child not in found:
                found.add(child)
                frontier.append(child)
    return found


def cpu_seconds(pids: set[int]) -> float:
    """utime+stime of each process (all its threads) plus its reaped children's, in seconds."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            ticks += sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    return ticks / CLOCK_TICKS


class CpuMeter:
    """CPU seconds of the server's process tree and of the browsers (the rest of this
    process's tree: Playwright's driver and the Chromium processes) between two reads."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid

    def read(self) -> tuple[float, float]:
        server = descendants(self.server_pid)
        mine = descendants(os.getpid()) - server - {os.getpid()}
        return cpu_seconds(server), cpu_seconds(mine)


def vm_rss_mb(pids: set[int]) -> float:
    """Sum of VmRSS over ``pids``, in MB."""
    total_kb = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
    return total_kb / 1024


def big_document(chars: int = 200_000) -> str:
    """``chars`` characters of varied real text: the bundled sample documents, then the
    documentation files installed in site-packages (``chunker_peers.varied_corpus``). Never
    one short text repeated: its copies make tied chunks and scores, which once hid a gap."""
    from chunker_peers import varied_corpus  # the peers bench's corpus, imported when needed

    parts, _ = varied_corpus(chars * 1.1 / 1_000_000)
    text = "\n\n".join(parts)
    if len(text) < chars:
        raise SystemExit(f"only {len(text):,} characters of documentation installed, "
                         f"{chars:,} wanted")
    return text[:chars]


def press_and_wait_charts(page: Any, key: str, arrow: str, timeout_ms: int,
                          quiet_ms: int = 1500) -> float:
    """Milliseconds from one arrow key on slider ``key`` to its last chart update (see the
    module docstring)."""
    slider = page.locator(f'.st-key-{key} input[type="range"]').first
    slider.focus()
    began = float(page.evaluate(WATCH_CHARTS_JS))
    page.keyboard.press(arrow)
    while True:
        value = page.wait_for_function(CHARTS_IDLE_JS, arg=quiet_ms, polling="raf",
                                       timeout=timeout_ms).json_value()
        if value is True:
            value = page.wait_for_function(CHARTS_QUIET_JS, arg=quiet_ms, polling=100,
                                           timeout=timeout_ms).json_value()
        if "busy" not in value:
            break
    if "exception" in value:
        raise SystemExit("the app shows an exception")
    return float(value["done"]) - began


# The page's answer to keep-or-clear, which a new document under the sample's questions asks
# first (a long document embeds nothing until it is answered: issue 45 item 5)
CLEAR_OLD_QUESTIONS = "clear_questions_for_document"
KEEP_QUESTIONS = "keep_questions"


def paste_document(page: Any, text: str, timeout_ms: int,
                   answer: str | None = CLEAR_OLD_QUESTIONS) -> None:
    """Switch the source to Paste, fill ``text``, apply it (Ctrl+Enter) and, unless
    ``answer`` is None, press that keep-or-clear button once the page asks."""
    page.locator(".st-key-doc_source").get_by_text("Paste", exact=True).click()
    area = page.locator(".st-key-doc_paste textarea")
    area.wait_for(timeout=timeout_ms)
    page.wait_for_function(IDLE_NOW_JS, polling=100, timeout=timeout_ms)
    area.fill(text, timeout=timeout_ms)
    area.press("Control+Enter")
    if answer is not None:
        button = page.locator(f".st-key-{answer} button")
        button.wait_for(timeout=timeout_ms)
        button.click()
