"""How Chromium is started headless here, shared by the browser tests and the browser bench
(``bench/browser_timing.py``) so both measure the same browser."""

from __future__ import annotations

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
