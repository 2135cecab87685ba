"""Test support: real PDF and DOCX files made by the tools people make them with.

The PDF comes from headless Chromium's print-to-PDF (Debian's ``/usr/bin/chromium`` driven by
Playwright, never Playwright's own browser download); the DOCX from python-docx.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser.chromium import CHROMIUM_ARGS

CHROMIUM = Path(os.environ.get("RAGVIZ_CHROMIUM", "/usr/bin/chromium"))


def print_pdfs(pages: dict[str, str]) -> dict[str, bytes]:
    """Each HTML page of ``pages`` printed to PDF by one headless Chromium.

    Printed in a child process: a sync Playwright cannot start while the browser tests'
    session-wide one is running in this process."""
    if not CHROMIUM.exists():
        pytest.skip(f"making a PDF needs Chromium at {CHROMIUM} (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")
    with tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "pages.json"
        spec.write_text(json.dumps(pages), encoding="utf-8")
        subprocess.run([sys.executable, __file__, str(CHROMIUM), str(spec), folder],
                       check=True, timeout=180)
        return {name: (Path(folder) / f"{index}.pdf").read_bytes()
                for index, name in enumerate(pages)}


def _print_in_this_process(chromium: str, spec: Path, folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    pages: dict[str, str] = json.loads(spec.read_text(encoding="utf-8"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page()
            for index, html in enumerate(pages.values()):
                page.set_content(html)
                pdf = page.pdf(format="A4", print_background=True)
                (folder / f"{index}.pdf").write_bytes(pdf)
        finally:
            browser.close()


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


if __name__ == "__main__":
    _print_in_this_process(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]))
