"""Files Streamlit's uploader would refuse on its own (too big, unlisted type) show only a
tooltip; the uploader lets them through so ragviz's sentence appears in the panel."""

from __future__ import annotations

import pytest

from ragviz.i18n import t

from .conftest import AppPage, upload

pytestmark = pytest.mark.browser

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


def _choose_upload(app: AppPage) -> None:
    app.page.locator(".st-key-doc_source").get_by_text(
        t("app.source_upload", "en"), exact=True
    ).click()
    app.page.locator('.st-key-doc_upload input[type="file"]').wait_for(state="attached")
    app.wait_idle()


@pytest.mark.parametrize(
    ("name", "mime", "body", "sentence"),
    [
        (
            "big.txt", "text/plain", b"a" * 4_500_000,
            "The file big.txt has 4,500,000 bytes (4.5 MB); the limit is 4,000,000 bytes (4 MB).",
        ),
        (
            "photo.png", "image/png", PNG,
            "The file photo.png looks binary, not text: upload a .txt or .md file.",
        ),
    ],
)  # fmt: skip
def test_refused_uploads_say_why_in_the_panel(
    app: AppPage, name: str, mime: str, body: bytes, sentence: str
) -> None:
    app.open()
    _choose_upload(app)
    upload(app, "doc_upload", {"name": name, "mimeType": mime, "buffer": body})
    alert = app.page.locator('[data-testid="stAlert"]').filter(has_text=sentence)
    alert.wait_for()
    assert alert.is_visible()
    app.wait_idle()
    app.assert_no_exception()
