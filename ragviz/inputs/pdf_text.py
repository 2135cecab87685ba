"""Extract a PDF's text with pypdf in a worker process that can be stopped.

pypdf's own limits are per stream, and pages may share one content stream: 40 pages of one
12.7 KB stream of 600,000 operators took 526 s. No limit inside the library bounds that, so
the work runs in a child process with a wall-clock budget (and a memory cap); a page that
is still running when the budget is spent is not waited for. The child writes one JSON line
per page as it finishes, so the pages read in time are kept.

Run as a script (``python pdf_text.py < file.pdf``), it imports only pypdf: it does not
depend on how ragviz itself is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

TIME_BUDGET_S = 8.0
MEMORY_CAP_BYTES = 1_500_000_000  # the worker's address space (pypdf, one PDF, its pages)


@dataclass(frozen=True)
class PdfText:
    """The pages read, how many the PDF has, and why reading stopped (None: it finished)."""

    pages: list[str]
    total_pages: int
    stopped: str | None  # "time", "chars", "encrypted", "corrupt", "bomb", "memory"


def extract(data: bytes, max_chars: int, budget_s: float = TIME_BUDGET_S) -> PdfText:
    """The text of each page, read by the worker within ``budget_s`` seconds."""
    command = [sys.executable, "-P", str(Path(__file__).resolve()), str(max_chars)]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    stopped: str | None = None
    try:
        out, _ = proc.communicate(data, timeout=budget_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        stopped = "time"
    pages: list[str] = []
    total = 0
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "page" in record:
            pages.append(str(record["page"]))
        elif "pages" in record:
            total = int(record["pages"])
        elif "stopped" in record and stopped is None:
            stopped = str(record["stopped"])
    if stopped is None and proc.returncode != 0:
        stopped = "memory" if proc.returncode in (-9, 1) else "corrupt"
    return PdfText(pages, total, stopped)


def _say(record: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def _work(data: bytes, max_chars: int) -> None:
    """The worker: a line per page, then nothing (done) or a ``stopped`` line."""
    import io
    import logging

    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError

    logging.getLogger("pypdf").setLevel(logging.CRITICAL)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _decrypt_without_password(reader):
            _say({"stopped": "encrypted"})
            return
        _say({"pages": len(reader.pages)})
        chars = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            chars += len(text)
            if chars > max_chars:
                _say({"stopped": "chars"})
                return
            _say({"page": text})
    except LimitReachedError:
        _say({"stopped": "bomb"})
    except MemoryError:
        _say({"stopped": "memory"})
    except Exception:  # pypdf raises many kinds on damaged files; RecursionError included
        _say({"stopped": "corrupt"})


def _decrypt_without_password(reader: object) -> bool:
    """PDFs locked only against editing open with an empty password; others stay shut."""
    try:
        return bool(reader.decrypt(""))  # type: ignore[attr-defined]
    except Exception:  # pypdf raises DependencyError or others for ciphers it cannot open
        return False


def _main() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, MEMORY_CAP_BYTES))
    _work(sys.stdin.buffer.read(), int(sys.argv[1]))


if __name__ == "__main__":
    _main()
