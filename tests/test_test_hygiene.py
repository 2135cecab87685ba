"""The browser tests wait for the state they check, never for a fixed time: a fixed wait is
too short on a loaded machine (a flaky failure) and too long everywhere else, and a wait
"to show nothing moved" lets a late wrong step pass."""

from __future__ import annotations

import re
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
FIXED_WAIT = re.compile(r"\bwait_for_timeout\b")


def fixed_waits(folder: Path) -> list[str]:
    """Every ``wait_for_timeout`` in the Python files under ``folder``, as ``file:line``."""
    return [
        f"{path.relative_to(folder).as_posix()}:{number}"
        for path in sorted(folder.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FIXED_WAIT.search(line)
    ]


def test_the_scan_finds_a_fixed_wait(tmp_path: Path) -> None:
    (tmp_path / "test_waits.py").write_text(
        "def test_x(page):\n    page.click('b')\n    page.wait_for_timeout(500)\n",
        encoding="utf-8")
    (tmp_path / "test_fine.py").write_text(
        "def test_y(page):\n    page.wait_for_function('() => true')\n", encoding="utf-8")
    assert fixed_waits(tmp_path) == ["test_waits.py:3"]


def test_no_browser_test_waits_a_fixed_time() -> None:
    assert BROWSER_TESTS.is_dir()
    assert fixed_waits(BROWSER_TESTS) == [], (
        "wait for the state the test checks (wait_for_function, wait_layout, a locator's "
        "wait_for) instead of a fixed time"
    )
