"""The support journey of issue 45, timed in a real headless Chromium against `streamlit run`
at 1280x800: paste a knowledge base (the page then asks, at its top, to keep or clear the
sample's questions), open "Check an answer", type the customer's
question and the bot's answer, Explain, then click the passage that holds the right answer. Each
step is timed from the action to the page idle with what it shows (the chunk sent, the
diagnosis); the journey's total is their sum plus the page's first load. Not a test: nothing
is asserted about time.

    .venv/bin/python bench/check_answer_journey.py [--runs 3]
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_common import IDLE_NOW_JS, paste_document, served_page_context
from machine import bench_parser, on_machine

from ragviz.i18n import t

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 120_000
SIZE = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/ragviz-screenshots")
FAQ = ("Shipping. Orders leave our warehouse on weekdays. Standard delivery takes five "
       "business days within the country. Express delivery arrives the next day for an extra "
       "fee. Returns. You can return an unused item within thirty days of delivery. Refunds "
       "reach your card within ten business days after we receive the item. Support. Our "
       "team answers e-mails from Monday to Friday, nine to five. ")


def knowledge_base() -> str:
    """The FAQ after the sample help centre, residents' guide and travel handbook: about
    22,000 characters of varied support text."""
    samples = Path(__file__).resolve().parent.parent / "sample_docs"
    names = ("billing_help_center.txt", "residents_guide.txt", "travel_expenses_handbook.md")
    return "\n\n".join([*(f"{(samples / n).read_text(encoding='utf-8')}" for n in names),
                        FAQ])


def timed(page: Any, act: Callable[[], None], shown: str) -> float:
    """Seconds from ``act`` to ``shown`` visible and the app idle."""
    began = time.perf_counter()
    act()
    page.locator(shown).first.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function(IDLE_NOW_JS, polling=100, timeout=TIMEOUT_MS)
    return time.perf_counter() - began


def journey(page: Any, url: str, text: str) -> dict[str, float]:
    page.set_viewport_size(SIZE)
    out = {"first load": timed(page, lambda: page.goto(url), '[data-testid="stApp"]')}
    # the page asks, at its top, to keep or clear the sample's questions once it is analysed
    out["paste"] = timed(page, lambda: paste_document(page, text, TIMEOUT_MS, None),
                         ".st-key-keep_questions")

    def ask() -> None:
        page.locator(".st-key-check_expander summary").click()
        page.locator(".st-key-check_question input").fill("How long does a refund take?")
        page.locator(".st-key-check_bot_answer textarea").fill(
            "You can return an unused item within thirty days.")
        page.get_by_role("button", name=t("check.run", "en")).click()

    out["ticket explained"] = timed(page, ask, ".rv-sent")

    def pick() -> None:  # the best candidate: what the agent checks first
        page.locator(".st-key-check_pick_0 button").click()

    out["labelled diagnosis"] = timed(page, pick, "text=Diagnosis [")
    return out


def shown_if_failed(page: Any, url: str, text: str) -> dict[str, float]:
    """The journey; when a step fails, a screenshot of the page where it stopped."""
    try:
        return journey(page, url, text)
    except Exception:
        failed = SHOTS / "check-answer-bench-failed.png"
        failed.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(failed), full_page=True)
        print(f"screenshot of the failed page: {failed}")
        raise


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = 1 if args.smoke else args.runs
    text = FAQ if args.smoke else knowledge_base()
    with on_machine(args.smoke), served_page_context(CHROMIUM) as (_proc, url, context):
        rows: list[dict[str, float]] = []
        for _ in range(runs):
            page = context.new_page()
            rows.append(shown_if_failed(page, url, text))
            page.close()
        print(f"support journey, {len(text):,} characters pasted, {runs} runs (median s):")
        for step in rows[0]:
            print(f"  {step:<20} {statistics.median(r[step] for r in rows):6.1f}")
        totals = [sum(r.values()) for r in rows]
        print(f"  {'total':<20} {statistics.median(totals):6.1f}")
        page = context.new_page()
        shown_if_failed(page, url, FAQ)
        shot = SHOTS / "check-answer-bench-1280x800.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot))
        print(f"screenshot: {shot}")


if __name__ == "__main__":
    main()
