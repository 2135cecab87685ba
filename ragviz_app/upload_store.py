"""Where uploaded indexes are written: one folder per content under the system's temporary
folder, and only the most recently used ones kept. Without a bound, a server left running
for a workshop kept every index anyone ever uploaded (the test suite alone left 191 MB)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

ROOT_NAME = "ragviz-index"
KEPT = 24  # upload folders kept on disk, the most recently used
IN_USE_SECONDS = 3600.0  # a folder used within the last hour is never removed


def uploads_root() -> Path:
    return Path(tempfile.gettempdir()) / ROOT_NAME


def upload_folder(digest: str) -> Path:
    """The folder for an upload's content, marked as just used; before a new one is made,
    the least recently used folders past ``KEPT`` are removed."""
    root = uploads_root()
    folder = root / digest
    if folder.is_dir():
        os.utime(folder)
    else:
        prune(root, KEPT - 1)
    return folder


def prune(root: Path, keep: int = KEPT, in_use_seconds: float = IN_USE_SECONDS,
          now: float | None = None) -> list[Path]:
    """Remove the least recently used folders of ``root`` past the ``keep`` newest, except
    those used within ``in_use_seconds`` (another session may have one open); returns the
    removed folders. Links and files are left alone."""
    if not root.is_dir():
        return []
    now = time.time() if now is None else now
    folders = [p for p in root.iterdir() if p.is_dir() and not p.is_symlink()]
    folders.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    removed = []
    for folder in folders[max(keep, 0):]:
        if now - folder.stat().st_mtime < in_use_seconds:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
