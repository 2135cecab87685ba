"""Test support: real PDF and DOCX files made by the tools people make them with.

The PDF comes from headless Chromium's print-to-PDF (Debian's ``/usr/bin/chromium`` driven by
Playwright, never Playwright's own browser download); the DOCX from python-docx.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("RAGVIZ_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def print_pdfs(pages: dict[str, str]) -> dict[str, bytes]:
    """Each HTML page of ``pages`` printed to PDF by one headless Chromium."""
    if not CHROMIUM.exists():
        pytest.skip(f"making a PDF needs Chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    printed: dict[str, bytes] = {}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page()
            for name, html in pages.items():
                page.set_content(html)
                printed[name] = page.pdf(format="A4", print_background=True)
        finally:
            browser.close()
    return printed


def make_docx(blocks: list[str | list[list[str]]]) -> bytes:
    """A Word document: a string is a paragraph, a list of rows is a table."""
    import docx

    document = docx.Document()
    for block in blocks:
        if isinstance(block, str):
            document.add_paragraph(block)
            continue
        table = document.add_table(rows=len(block), cols=len(block[0]))
        for row, values in zip(table.rows, block, strict=True):
            for cell, value in zip(row.cells, values, strict=True):
                cell.text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def encrypt_pdf(data: bytes, password: str, algorithm: str = "AES-256") -> bytes:
    """The same PDF encrypted; an empty ``password`` locks it against editing only."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=password, owner_password="owner-secret", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
