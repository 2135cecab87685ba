""""Copy link" in a real browser (issue 36, low): the clipboard gets the page's link, which
carries the open tab, and that link reopens the tab."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ragviz.i18n import t
from ragviz_app.views.copy_link import BUTTON_CLASS

from .conftest import AppPage, new_app_page, url_query

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


def test_copy_link_puts_the_link_with_the_open_tab_on_the_clipboard(
        app: AppPage, browser: Browser) -> None:
    app.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app.url)
    app.open(tab="calibration")
    app.page.wait_for_function("() => new URLSearchParams(location.search).get('tab')"
                               " === 'calibration'")
    button = app.page.locator(f"button.{BUTTON_CLASS}")
    button.click()
    app.page.wait_for_function(
        "([cls, done]) => document.querySelector(`button.${cls}`).textContent === done",
        arg=[BUTTON_CLASS, t("app.link_copied", "en")])
    copied = app.page.evaluate("() => navigator.clipboard.readText()")
    assert copied == app.page.url and url_query(app)["tab"] == "calibration", copied
    other, context = new_app_page(browser, app.url)
    try:
        other.page.goto(copied)
        other.wait_idle()
        tab = other.page.get_by_role("tab", name=t("tab.calibration", "en"), exact=True)
        assert tab.get_attribute("aria-selected") == "true"
        other.assert_healthy()
    finally:
        context.close()
    app.assert_healthy()
