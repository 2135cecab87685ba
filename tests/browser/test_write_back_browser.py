"""Issue 36 item 6 in a real browser: the last value a user sets wins. A top_k moved while a
long full run is going on (A re-cut and re-embedded) must stay where the user put it: a
fragment's move does not interrupt a full run, and that run, when it drew the top_k slider,
sent back the value it started with; the slider showed it while the address bar, written by
the fragment's run after it, said the user's value, and the next message carried the old
one back to the server."""

from __future__ import annotations

import pytest

from ragviz.i18n import t

from .conftest import AppPage, url_query

pytestmark = pytest.mark.browser

LONG_MS = 180_000  # a 150,000-character paste is embedded on a shared two-core machine
# Every sentence differs, so no chunk of a new cut is in the embedding cache.
DOCUMENT = "\n".join(
    f"Rule {n}: order {n} is refunded within {n % 40 + 3} business days after parcel "
    f"{n * 7919 % 100_003} reaches warehouse {n % 17}."
    for n in range(1_500)
)
EMBEDDING = "Embedding chunks of fixed"  # the spinner of A's embedding (app.embedding)
AGREE_JS = """(want) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
    const shown = document.querySelector('.st-key-top_k input[type=range]')?.value;
    const linked = new URLSearchParams(location.search).get('k');
    return Number(shown) === want && Number(linked) === want;
}"""


def paste(app: AppPage, text: str) -> None:
    app.page.locator(".st-key-doc_source").get_by_text(
        t("app.source_paste", "en"), exact=True).click()
    area = app.page.locator(".st-key-doc_paste textarea")
    area.wait_for()
    app.wait_idle()
    area.fill(text)
    area.press("Control+Enter")  # st.text_area applies its value on Ctrl+Enter (or blur)
    # the sample's questions: keep-or-clear is asked first, and a document this long embeds
    # nothing until it is answered (issue 45 item 5)
    clear = app.page.locator(".st-key-clear_questions_for_document button")
    clear.wait_for(timeout=LONG_MS)
    clear.click()
    clear.wait_for(state="detached", timeout=LONG_MS)  # the answered run has begun
    app.page.get_by_text("does not carry your document").first.wait_for(timeout=LONG_MS)
    app.wait_idle(LONG_MS)


def test_top_k_moved_during_a_long_full_run_stays_where_the_user_put_it(app: AppPage) -> None:
    app.open(tab=None)
    paste(app, DOCUMENT)
    before = int(app.slider("top_k").input_value())
    app.nudge_slider("a_size", -3)  # every fixed window moves: ~1,300 new chunks to embed
    app.page.get_by_text(EMBEDDING).first.wait_for(timeout=LONG_MS)
    app.nudge_slider("top_k", 2)  # during that run, before it draws top_k
    want = before + 2
    app.page.wait_for_function(AGREE_JS, arg=want, timeout=LONG_MS)
    app.wait_idle(LONG_MS)
    assert int(app.slider("top_k").input_value()) == want
    assert url_query(app)["k"] == str(want)
    app.assert_healthy()
