"""The prompt sent to the language model is folded under each question and drawn only when
unfolded (a rerun): a click on the fold shows it, with its excerpts, and nothing else moves."""

from __future__ import annotations

import pytest

from ragviz.i18n import t

from .conftest import AppPage

pytestmark = pytest.mark.browser

CODE = '[data-testid="stCode"]'


def test_unfolding_a_prompt_shows_it(app: AppPage) -> None:
    app.open(tab=None)
    app.wait_rendered(doc_tab=False)
    app.more_controls()  # the prompts are on the page's second level
    assert app.page.locator(CODE).count() == 0, "folded prompts are not drawn"
    fold = app.page.get_by_text(t("app.prompt", "en")).first
    fold.click()
    code = app.page.locator(CODE).first
    code.wait_for()
    app.wait_idle()
    assert "Excerpts:" in code.inner_text()
    assert app.page.locator(CODE).count() == 1, "only the unfolded prompt is drawn"
    app.assert_healthy()
