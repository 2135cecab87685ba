"""Real-browser fixtures: `streamlit run` on a free port, Debian's Chromium driven by Playwright.

The whole directory is skipped (with the reason shown) when Chromium or Playwright is missing,
so a machine without a browser still runs the rest of the suite. CI installs Debian's
``chromium``; Playwright's own browser download is never used (``executable_path``).

Environment:

- ``RAGVIZ_BROWSER_APP``: the app script (default ``streamlit_app.py`` in the repo root).
- ``RAGVIZ_CHROMIUM``: the Chromium binary (default ``/usr/bin/chromium``).
- ``RAGVIZ_SCREENSHOT_DIR``: where screenshots go (default ``/tmp/ragviz-screenshots``,
  outside the repository on purpose).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import CHROMIUM_ARGS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

ROOT = Path(__file__).resolve().parents[2]
APP = Path(os.environ.get("RAGVIZ_BROWSER_APP", ROOT / "streamlit_app.py"))
CHROMIUM = Path(os.environ.get("RAGVIZ_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOT_DIR = Path(os.environ.get("RAGVIZ_SCREENSHOT_DIR", "/tmp/ragviz-screenshots"))
VIEWPORT = {"width": 1600, "height": 1000}
SERVER_START_TIMEOUT_S = 90.0
RENDER_TIMEOUT_MS = 30_000

# --- selectors: what Streamlit renders, and the classes ragviz/present/render.py writes -------
APP_ROOT = '[data-testid="stApp"]'
APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
EXCEPTION = '[data-testid="stException"]'
DOC = ".rv-doc"  # the highlighted document (ragviz.present.render.highlight_document)
BADGE = ".rv-doc .rv-badge"  # the "#i" badge at each chunk start; title "chunk #i · N chars …"
CHART = '[data-testid="stVegaLiteChart"]'
CHART_DRAWN = "svg.marks, canvas.marks"  # what vega-embed draws inside the chart
# The script has run to the end, no spinner runs and no element is left over from a past run.
IDLE_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    if (document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')) return false;
    // an element whose code is still loading shows a grey placeholder (React Suspense)
    if (document.querySelector('[data-testid="stSkeleton"], [data-testid="stAppSkeleton"]'))
        return false;
    return !document.querySelector('[data-stale="true"]');
}"""
# At least one chart in the DOM, and every chart the user can see (open tab) drawn.
CHARTS_DRAWN_JS = """([chart, drawn]) => {
    const charts = [...document.querySelectorAll(chart)];
    return charts.filter(c => c.checkVisibility()).every(c => c.querySelector(drawn));
}"""
# Only the open tab's content runs: a freshly picked tab is empty until its rerun draws it.
TAB_FILLED_JS = """() => {
    const panel = [...document.querySelectorAll('[role="tabpanel"]')]
        .find(p => p.checkVisibility());
    return !!panel && panel.querySelectorAll('[data-testid="stElementContainer"]').length > 0;
}"""


# The layout of every visible element matching a selector: its box and how large its content
# is. LAYOUT_STABLE_JS is true once that is the same, and not empty, over ``frames``
# animation frames in a row (charts re-laid out, columns and fonts settled); each wait keeps
# its own count under ``token``.
LAYOUT_STABLE_JS = """([sel, frames, token]) => {
    const now = JSON.stringify([...document.querySelectorAll(sel)]
        .filter(e => e.checkVisibility())
        .map(e => { const r = e.getBoundingClientRect();
                    return [r.left, r.top, r.width, r.height, e.scrollWidth, e.scrollHeight]; }));
    const seen = (window.__rvLayout ||= {});
    const last = seen[token];
    if (!last || last.value !== now || now === '[]') {
        seen[token] = {value: now, same: 0};
        return false;
    }
    last.same += 1;
    return last.same >= frames;
}"""
STABLE_FRAMES = 6
# The charts in view and the main column (its content's height): the page's layout.
PAGE_LAYOUT = f'{CHART}, [data-testid="stMain"]'
# Installed before a page loads (``page.add_init_script``): records every element the page
# gets that could run text as code (a script that calls alert, an ``on…`` handler attribute)
# the moment it is inserted, so markup that would run later is caught even before it runs.
INJECTION_TRAP_JS = """(() => {
    window.__rvInjected = [];
    const note = e => window.__rvInjected.push(e.outerHTML.slice(0, 200));
    const check = node => {
        if (!(node instanceof Element)) return;
        for (const e of [node, ...node.querySelectorAll('*')]) {
            if ([...e.attributes].some(a => a.name.startsWith('on'))) note(e);
            else if (e.tagName === 'SCRIPT' && e.textContent.includes('alert(')) note(e);
        }
    };
    new MutationObserver(records => records.forEach(r => {
        r.addedNodes.forEach(check);
        if (r.type === 'attributes' && r.attributeName.startsWith('on')) note(r.target);
    })).observe(document, {childList: true, subtree: true, attributes: true});
})();"""
# The page has loaded, its fonts are in and every image has loaded or failed (so any
# onerror handler has had its chance).
PAGE_LOADED_JS = """() => document.readyState === 'complete'
    && document.fonts.status === 'loaded'
    && [...document.images].every(i => i.complete)"""
_layout_waits = itertools.count()


def wait_layout(page: Page, selector: str, frames: int = STABLE_FRAMES,
                timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until the web fonts are loaded and every visible element matching ``selector``
    (at least one) keeps the same box over ``frames`` animation frames: its layout is done."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.wait_for_function(LAYOUT_STABLE_JS, arg=[selector, frames, next(_layout_waits)],
                           polling="raf", timeout=timeout_ms)


def _skip_reason() -> str | None:
    if not CHROMIUM.exists():
        return f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests need the Python package playwright (pip install -e '.[dev]')"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip every test in this directory, with a clear reason, when there is no browser."""
    reason = _skip_reason()
    if reason is None:
        return
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.skip(reason=reason))


# --- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_streamlit(
    log_dir: Path, app: Path = APP, timeout_s: float = SERVER_START_TIMEOUT_S
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``streamlit run app`` from the repo root; return the process and its URL when healthy.

    Fails (``RuntimeError``) with the server's stderr if it exits, or if it is not healthy
    within ``timeout_s``.
    """
    if not app.exists():
        raise RuntimeError(f"{app} does not exist: there is no app to test yet")
    port = free_port()
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    log_dir.mkdir(parents=True, exist_ok=True)
    out_path, err_path = log_dir / "streamlit.out", log_dir / "streamlit.err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout_s
    while True:
        if proc.poll() is not None:
            raise RuntimeError(
                f"streamlit exited with code {proc.returncode} before it was healthy:\n"
                + err_path.read_text(errors="replace")[-4000:]
            )
        with (
            contextlib.suppress(urllib.error.URLError, OSError),
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp,
        ):
            if resp.read().decode().strip() == "ok":
                return proc, url
        if time.monotonic() > deadline:
            stop_streamlit(proc)
            raise RuntimeError(
                f"streamlit was not healthy after {timeout_s:.0f} s:\n"
                + err_path.read_text(errors="replace")[-4000:]
            )
        time.sleep(0.25)


def stop_streamlit(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the server we started (and only it); kill it if it does not stop in 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a `streamlit run streamlit_app.py` started for this test session."""
    try:
        proc, url = start_streamlit(tmp_path_factory.mktemp("streamlit"))
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield url
    finally:
        stop_streamlit(proc)


# --- the browser --------------------------------------------------------------------------------


def launch_chromium(playwright: Any) -> Browser:
    """Debian's Chromium, headless, with no background network traffic."""
    browser: Browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    return browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        try:
            yield chromium
        finally:
            chromium.close()


class AppPage:
    """One browser tab on the app, recording page errors and dialogs as they happen."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def open(self, tab: str | None = "chunks") -> None:
        """Load the app, wait for its first complete render, then pick ``tab`` (by id; None
        leaves the tab a visitor first sees, the questions)."""
        from ragviz.i18n import t

        self.page.goto(self.url)
        self.wait_rendered(doc_tab=False)
        if tab is not None:
            self.open_tab(t(f"tab.{tab}", "en"))
            if tab == "chunks":
                self.page.wait_for_selector(DOC, state="visible")

    def wait_idle(self, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
        """Wait until the script has run to the end and nothing on the page is stale."""
        self.page.wait_for_selector(APP_IDLE, timeout=timeout_ms)
        self.page.wait_for_function(IDLE_JS, timeout=timeout_ms)

    def wait_rendered(self, timeout_ms: int = RENDER_TIMEOUT_MS, doc_tab: bool = True) -> None:
        """Wait for a complete render: app idle, the highlighted document there (and visible
        when ``doc_tab``, i.e. its tab is open), the charts in the DOM and every chart in the
        open tab drawn (charts in a hidden tab are drawn when it opens, see :meth:`open_tab`)."""
        self.wait_idle(timeout_ms)
        self.assert_no_exception()
        if doc_tab:  # the document is drawn only while its tab is open
            self.page.wait_for_selector(DOC, state="visible", timeout=timeout_ms)
        # Idle may have been seen before the first run started: wait again now that the
        # script is known to have drawn something.
        self.wait_idle(timeout_ms)
        self.page.wait_for_function(CHARTS_DRAWN_JS, arg=[CHART, CHART_DRAWN], timeout=timeout_ms)

    def wait_charts(self, count: int, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
        """Wait until at least ``count`` charts are visible and every one is drawn."""
        self.page.wait_for_function(
            """([chart, drawn, count]) => {
                const shown = [...document.querySelectorAll(chart)]
                    .filter(c => c.checkVisibility());
                return shown.length >= count && shown.every(c => c.querySelector(drawn));
            }""",
            arg=[CHART, CHART_DRAWN, count],
            timeout=timeout_ms,
        )

    def more_controls(self) -> None:
        """Turn the page's second level on ("More controls": the tabs, gear menus, overlaps,
        typed boxes, models, the LLM and the share panel), unless it is on already."""
        switch = self.page.locator(".st-key-more_controls input")
        self.wait_idle()
        if switch.count() and not switch.is_checked():
            self.page.locator(".st-key-more_controls label").click()
            self.page.wait_for_function(
                "() => new URL(location.href).searchParams.get('more') === '1'")
            self.wait_idle()

    def reveal(self, selector: str) -> None:
        """Turn the second level on when ``selector`` is on the page but hidden there."""
        found = self.page.locator(selector).first
        if found.count() and not found.is_visible():
            self.more_controls()

    def open_tab(self, label: str, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
        """Click the tab called ``label`` and wait until the charts it shows are drawn."""
        self.reveal('[role="tab"]')
        self.page.get_by_role("tab", name=label, exact=True).click()
        self.page.wait_for_function(TAB_FILLED_JS, timeout=timeout_ms)
        self.wait_idle(timeout_ms)
        self.page.wait_for_function(CHARTS_DRAWN_JS, arg=[CHART, CHART_DRAWN], timeout=timeout_ms)

    def visible_charts(self) -> Locator:
        return self.page.locator(CHART).locator("visible=true")

    def assert_charts_drawn(self, min_height: float, at_most: int | None = None) -> int:
        """Each visible chart (the first ``at_most``), scrolled into view, is drawn at least
        100 px wide and ``min_height`` px high; returns how many charts are visible."""
        charts = self.visible_charts()
        count = charts.count()
        for i in range(count if at_most is None else min(count, at_most)):
            chart = charts.nth(i)
            chart.scroll_into_view_if_needed()
            drawn = chart.locator(CHART_DRAWN).first
            assert drawn.is_visible(), f"chart {i} is not drawn"
            box = drawn.bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > min_height, box
        return count

    def slider(self, key: str) -> Locator:
        """The range input of the slider whose widget key is ``key`` (``st-key-<key>``)."""
        return self.page.locator(f'.st-key-{key} input[type="range"]')

    def nudge_slider(self, key: str, steps: int) -> None:
        """Move a slider by ``steps`` keyboard steps (negative: to the left), and wait until
        it shows a new value. A rerun that redraws the slider between the focus and the keys
        swallows them (seen once in a full run: the slider never moved and the test waited
        180 s for a run it had not started), so keys that moved nothing are pressed again."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.reveal(f".st-key-{key}")
        slider = self.slider(key)
        for _ in range(3):
            start = slider.input_value()
            slider.focus()
            for _ in range(abs(steps)):
                slider.press("ArrowRight" if steps > 0 else "ArrowLeft")
            with contextlib.suppress(PlaywrightTimeout):
                self.page.wait_for_function(
                    "([sel, start]) => document.querySelector(sel)?.value !== start",
                    arg=[f'.st-key-{key} input[type="range"]', start], timeout=5_000)
                return
        raise AssertionError(f"the slider {key} did not move after three tries")

    def screenshot_full(self, path: Path) -> None:
        """The whole page, not only the viewport: Streamlit scrolls inside its main container,
        so the viewport is stretched to the content height for the shot."""
        height = self.page.evaluate(
            """() => Math.max(...['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]',
                'section.main', 'body'].map(s => document.querySelector(s)?.scrollHeight || 0))"""
        )
        size = self.page.viewport_size or VIEWPORT
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.set_viewport_size({"width": size["width"], "height": max(size["height"], height)})
        try:
            # the charts (if any) re-laid out to the new height
            wait_layout(self.page, PAGE_LAYOUT)
            self.page.screenshot(path=str(path), full_page=True)
        finally:
            self.page.set_viewport_size(size)

    def trap_injections(self) -> None:
        """From the next page load on, record every element inserted that could run text
        as code (see :data:`INJECTION_TRAP_JS`); read them with :meth:`injected`."""
        self.page.add_init_script(INJECTION_TRAP_JS)

    def injected(self) -> list[str]:
        """The elements the trap recorded (their first 200 characters), once the page has
        loaded and every image on it has loaded or failed."""
        self.page.wait_for_function(PAGE_LOADED_JS)
        found: list[str] = self.page.evaluate("() => window.__rvInjected")
        return found

    def doc_text(self) -> str:
        return self.page.locator(DOC).first.inner_text()

    def chunk_badges(self) -> list[str]:
        """The title of every chunk badge on the page (chunk index and size), in order."""
        titles: list[str] = self.page.eval_on_selector_all(
            BADGE, "els => els.map(e => e.getAttribute('title') || e.textContent)"
        )
        return titles

    def wait_badges_change(self, before: list[str], timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
        """Wait until the chunk badges differ from ``before``, then for the rerun to finish."""
        self.page.wait_for_function(
            """([sel, before]) => {
                const now = [...document.querySelectorAll(sel)]
                    .map(e => e.getAttribute('title') || e.textContent);
                return JSON.stringify(now) !== JSON.stringify(before);
            }""",
            arg=[BADGE, before],
            timeout=timeout_ms,
        )
        self.wait_rendered(timeout_ms)

    def assert_no_exception(self) -> None:
        exceptions = self.page.locator(EXCEPTION)
        if exceptions.count():
            pytest.fail("the app shows an exception:\n" + exceptions.first.inner_text())

    def assert_healthy(self) -> None:
        """No exception box on the page, no uncaught JavaScript error, no dialog."""
        self.assert_no_exception()
        assert self.errors == [], f"uncaught page errors: {self.errors}"
        assert self.dialogs == [], f"dialogs opened: {self.dialogs}"


@pytest.fixture(scope="session")
def warm_app_url(browser: Browser, app_url: str) -> str:
    """``app_url`` once its first visit has rendered: the server loads the model and analyses
    the sample on the first session, which may take longer than a render under load (the
    browser tests run beside the core suite), so it gets the server start's time, not a
    render's; every test then opens a server that is up and warm."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")  # type: ignore[arg-type]
    try:
        page = AppPage(context.new_page(), app_url)
        page.page.goto(app_url)
        page.wait_rendered(timeout_ms=int(SERVER_START_TIMEOUT_S * 1000), doc_tab=False)
    finally:
        context.close()
    return app_url


@pytest.fixture
def app(browser: Browser, warm_app_url: str) -> Iterator[AppPage]:
    """A fresh browser context (no shared state) with one tab on the app, not yet loaded."""
    app_url = warm_app_url
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")  # type: ignore[arg-type]
    context.set_default_timeout(RENDER_TIMEOUT_MS)
    try:
        yield AppPage(context.new_page(), app_url)
    finally:
        context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test leaves a screenshot of its page (``failed-<test>.png`` in the
    screenshot folder): what the page showed when a wait ran out is the first question."""
    report = yield
    page = getattr(item, "funcargs", {}).get("app")
    if report.when == "call" and report.failed and isinstance(page, AppPage):
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in item.name)[:120]
        path = SCREENSHOT_DIR / f"failed-{name}.png"
        with contextlib.suppress(Exception):  # a closed page: the failure report still stands
            SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
            page.page.screenshot(path=str(path), full_page=True)
            report.sections.append(("browser", f"the page when it failed: {path}"))
    return report


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR


# --- helpers for the analysis and sharing tests (added; nothing above changed) ------------------


def select_option(app: AppPage, key: str, option: str) -> None:
    """Pick ``option`` (its shown text) in the selectbox whose widget key is ``key``, then wait
    until the rerun it starts has finished."""
    app.wait_idle()
    app.reveal(f'.st-key-{key} input[role="combobox"]')
    app.page.locator(f'.st-key-{key} input[role="combobox"]').click()
    app.page.get_by_role("option", name=option, exact=True).click()
    app.page.wait_for_function(
        """([key, option]) => {
            const box = document.querySelector(`.st-key-${key} input[role="combobox"]`);
            return box && box.value === option;
        }""",
        arg=[key, option],
    )
    app.wait_idle()


def paste_text(app: AppPage, text: str) -> None:
    """Switch the document source to "Paste" and type ``text`` (applied, not waited for)."""
    from ragviz.i18n import t

    app.page.locator(".st-key-doc_source").get_by_text(
        t("app.source_paste", "en"), exact=True
    ).click()
    area = app.page.locator(".st-key-doc_paste textarea")
    area.wait_for()
    app.wait_idle()
    area.fill(text)
    area.press("Control+Enter")  # st.text_area applies its value on Ctrl+Enter (or blur)


def paste_document(app: AppPage, text: str, shown: str | None = None) -> None:
    """Paste ``text`` and wait until the highlighted document shows ``shown`` (default: the
    first 30 characters of ``text``)."""
    paste_text(app, text)
    app.page.locator(DOC).first.get_by_text(shown or text[:30]).wait_for()
    app.wait_rendered()


def download(app: AppPage, key: str, target: Path) -> Path:
    """Click the download button whose widget key is ``key`` and save the file to ``target``."""
    app.reveal(f".st-key-{key} button")
    with app.page.expect_download() as info:
        app.page.locator(f".st-key-{key} button").click()
    target.parent.mkdir(parents=True, exist_ok=True)
    info.value.save_as(str(target))
    return target


def upload(app: AppPage, key: str, files: Any) -> None:
    """Give the file uploader whose widget key is ``key`` a file (a path, or a Playwright
    ``{"name", "mimeType", "buffer"}`` payload)."""
    app.wait_idle()
    app.page.locator(f'.st-key-{key} input[type="file"]').set_input_files(files)


def url_query(app: AppPage) -> dict[str, str]:
    """The query parameters of the page URL now."""
    from urllib.parse import parse_qsl, urlsplit

    return dict(parse_qsl(urlsplit(app.page.url).query))


def new_app_page(browser: Browser, url: str, locale: str = "en-US") -> tuple[AppPage, Any]:
    """Another tab in its own fresh browser context (a new Streamlit session, no shared
    storage), as the ``app`` fixture makes it; the caller closes the returned context."""
    context = browser.new_context(viewport=VIEWPORT, locale=locale)  # type: ignore[arg-type]
    context.set_default_timeout(RENDER_TIMEOUT_MS)
    return AppPage(context.new_page(), url), context


def visible_texts(app: AppPage, selector: str) -> list[str]:
    """The inner text of every element matching ``selector`` that the user can see."""
    texts: list[str] = app.page.eval_on_selector_all(
        selector, "els => els.filter(e => e.checkVisibility()).map(e => e.innerText.trim())"
    )
    return texts


def default_analyses(floor: float) -> dict[str, Any]:
    """What the core computes for the page a first visit shows: the default sample with the
    app's default configurations A and B and top_k, scored at ``floor``; keys ``"a"``,
    ``"b"``. The model is loaded once per test process. Sentences come from
    ``ragviz.present.presentation`` in the language a test reads."""
    return _default_analyses(round(float(floor), 2))


@functools.lru_cache(maxsize=8)
def _default_analyses(floor: float) -> dict[str, Any]:
    from ragviz.evaluation.pipeline import analyse
    from ragviz.evaluation.results import RetrievalSettings
    from ragviz_app import app_state

    text, questions = app_state.load_sample(app_state.DEFAULT_SAMPLE)
    model = _default_model()
    return {
        side: analyse(text, config, model, questions,
                      RetrievalSettings(app_state.DEFAULT_TOP_K, floor))
        for side, config in (("a", app_state.DEFAULT_A), ("b", app_state.DEFAULT_B))
    }


@functools.lru_cache(maxsize=1)
def _default_model() -> Any:
    from ragviz.embedding.models import DEFAULT_MODEL, load_embedder

    return load_embedder(DEFAULT_MODEL)
