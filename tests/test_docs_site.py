"""The docs a user reads (issue 48 item 8): a README of at most 250 lines with the two
commands, whose links all land, and the user guide built as a site with ``mkdocs build
--strict``, so a broken link, a missing anchor or a page left out of ``nav`` fails."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(root / "mkdocs.yml"), "-d", str(site)], cwd=root,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True,
                          text=True, timeout=300, check=False)


def test_the_readme_is_short_and_keeps_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    assert "make run " in readme and "make test " in readme
    for persona in ("workshop teacher", "support agent", "researcher"):
        assert f"**A {persona}.**" in readme


def test_every_link_of_the_readme_lands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in LINK.findall(readme) if not t.startswith(("http://", "https://"))]
    assert "docs/guide/app.md" in targets
    assert [t for t in targets if not (ROOT / t).exists()] == []


def test_the_guide_builds_as_a_site_and_a_broken_link_fails_it(tmp_path: Path) -> None:
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "guide" / "app" / "index.html").exists()
    broken = tmp_path / "broken"
    shutil.copytree(ROOT / "docs", broken / "docs")
    shutil.copy(ROOT / "mkdocs.yml", broken / "mkdocs.yml")
    page = broken / "docs" / "guide" / "limits.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n",
                    encoding="utf-8")
    failed = build(broken, tmp_path / "broken-site")
    assert failed.returncode != 0 and "no-such-page.md" in failed.stderr
