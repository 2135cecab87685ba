"""Issue 45 item 2 in a real browser at 1280x800: a support agent pastes the knowledge
base, types the customer's question and the bot's answer into "Check an answer", and one
click on the passage that holds the right answer labels the question and shows the
diagnosis; then a real mouse selection in the document view labels it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.i18n import t

from .conftest import DOC, AppPage, paste_text

pytestmark = pytest.mark.browser

FAQ = ("Shipping. Orders leave our warehouse on weekdays. Standard delivery takes five "
       "business days within the country. Express delivery arrives the next day for an extra "
       "fee. Returns. You can return an unused item within thirty days of delivery. Refunds "
       "reach your card within ten business days after we receive the item. Support. Our "
       "team answers e-mails from Monday to Friday, nine to five.")
QUESTION = "How long does a refund take?"
BOT = "You can return an unused item within thirty days."
SIZE = {"width": 1280, "height": 800}


def ticket(app: AppPage, question: str, bot: str) -> None:
    """Open "Check an answer", type the ticket and explain it (Enter in the last field)."""
    page = app.page
    page.locator(".st-key-check_expander summary").click()
    page.locator(".st-key-check_question input").fill(question)
    page.locator(".st-key-check_bot_answer textarea").fill(bot)
    page.get_by_role("button", name=t("check.run", "en")).click()
    page.locator(".rv-sent").first.wait_for()
    app.wait_idle()


def pick_passage(app: AppPage, words: str) -> None:
    """Click "This is the right answer" beside the candidate that holds ``words``."""
    rows = app.page.locator('[data-testid="stHorizontalBlock"]').filter(
        has=app.page.locator('[class*="st-key-check_pick_"]')).filter(has_text=words)
    rows.first.get_by_role("button").click()
    app.page.get_by_text("Diagnosis [").wait_for()
    app.wait_idle()


def select_in_document(app: AppPage, words: str) -> None:
    """A real mouse drag over ``words`` in the first highlighted document."""
    box = app.page.evaluate(
        """(words) => {
            const doc = document.querySelector('.rv-doc');
            const walker = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const at = n.data.indexOf(words);
                if (at < 0) continue;
                const range = document.createRange();
                range.setStart(n, at); range.setEnd(n, at + 1);
                const first = range.getBoundingClientRect();
                range.setStart(n, at + words.length - 1); range.setEnd(n, at + words.length);
                const last = range.getBoundingClientRect();
                return [first.left + 1, first.top + first.height / 2,
                        last.right - 1, last.top + last.height / 2];
            }
            return null;
        }""", words)
    assert box is not None, f"{words!r} is not in one piece of the document"
    mouse = app.page.mouse
    mouse.move(box[0], box[1])
    mouse.down()
    mouse.move(box[2], box[3], steps=5)
    mouse.up()


def paste_new_document(app: AppPage, text: str) -> None:
    """Paste ``text`` over the first visit's sample: the page asks, at its top, whether to
    keep or clear the sample's questions, and scores nothing until then."""
    paste_text(app, text)
    app.page.locator(".st-key-keep_questions").wait_for()
    app.wait_idle()


def test_from_a_ticket_to_the_labelled_diagnosis_in_four_actions(
        app: AppPage, screenshot_dir: Path) -> None:
    app.page.set_viewport_size(SIZE)
    app.open()  # the document tab: the view a selection labels from
    paste_new_document(app, FAQ)  # 1: the knowledge base
    ticket(app, QUESTION, BOT)  # 2: open the entry, 3: the question and the answer, Explain
    sent = app.page.locator(".rv-sent").first.inner_text()
    assert sent.strip() and app.page.locator(".rv-sent mark").count() >= 1
    pick_passage(app, "ten business days")  # 4: the passage that holds the right answer
    labelled = app.page.get_by_text("Labelled with").first.inner_text()
    assert "Refunds reach your card within ten business days" in labelled
    app.page.locator(".st-key-check_answer_place").scroll_into_view_if_needed()
    app.page.screenshot(path=str(screenshot_dir / "check-answer-1280x800.png"))
    assert not app.errors

    app.page.locator(".st-key-keep_questions button").click()  # the page scores again
    app.page.get_by_text("Select the right answer in the document").wait_for()
    app.wait_rendered()
    # One atomic scroll in the page: a locator's scroll can meet the document while a
    # late rerun replaces it ("not attached to the DOM" on CI).
    app.page.evaluate(f"() => document.querySelector('{DOC}').scrollIntoView()")
    app.page.locator(DOC).first.get_by_text("Orders leave our warehouse").wait_for()
    select_in_document(app, "within thirty days of delivery")
    app.page.get_by_text("“within thirty days of delivery”").wait_for()
    app.wait_idle()
    assert not app.errors


HOSTILE = ("Returns. <img src=x onerror=\"window.__pwned=1\"> You can return an unused "
           "<b>item</b> within thirty days. Refunds reach your card within ten business days.")


def test_markup_in_the_chunk_sent_and_the_candidates_is_text(app: AppPage) -> None:
    """Every piece of the ticket's HTML (the chunk sent with its marks, the candidates, the
    badges) is escaped: pasted markup shows as text and never runs."""
    app.page.set_viewport_size(SIZE)
    app.open()
    paste_new_document(app, HOSTILE)
    ticket(app, QUESTION, "<b>thirty</b> days <script>window.__pwned=2</script>")
    sent = app.page.locator(".rv-sent").first
    assert "<img src=x" in sent.inner_text()
    assert sent.locator("img, b, script").count() == 0
    assert app.page.locator(".st-key-check_answer_place img").count() == 0
    assert app.page.evaluate("() => window.__pwned === undefined")
