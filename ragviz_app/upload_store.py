"""Where uploaded indexes are written: one folder per content under the system's temporary
folder, and only the most recently used ones kept, within a count and a size on disk.
Without a bound, a server left running for a workshop kept every index anyone ever uploaded
(the test suite alone left 191 MB), and five zips of 274 KB, each expanding to 200 MB,
filled 953 MB in 4 s."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

ROOT_NAME = "ragviz-index"
KEPT = 24  # upload folders kept on disk, the most recently used
IN_USE_SECONDS = 3600.0  # a folder used within the last hour is kept past the count...
MAX_BYTES_ENV = "RAGVIZ_UPLOAD_STORE_MB"
DEFAULT_MAX_MB = 1_000  # ...but not past the size: the least recently used go first


def max_bytes() -> int:
    """The store's size bound in bytes (``RAGVIZ_UPLOAD_STORE_MB``, default 1,000 MB)."""
    text = os.environ.get(MAX_BYTES_ENV, "").strip()
    return (int(text) if text.isdigit() else DEFAULT_MAX_MB) * 1_000_000


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
        shrink(root, max_bytes())
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


def folder_bytes(folder: Path) -> int:
    """Bytes of the regular files under ``folder`` (links not followed)."""
    total = 0
    for path in folder.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:  # removed meanwhile by another session
            continue
    return total


def shrink(root: Path, limit: int) -> list[Path]:
    """Remove the least recently used folders until the store holds at most ``limit`` bytes,
    whenever they were used (a session that needs one again writes it again from its
    upload); returns the removed folders. Links and files are left alone."""
    if not root.is_dir():
        return []
    folders = [p for p in root.iterdir() if p.is_dir() and not p.is_symlink()]
    folders.sort(key=lambda p: p.stat().st_mtime)
    sizes = {folder: folder_bytes(folder) for folder in folders}
    total = sum(sizes.values())
    removed = []
    for folder in folders:
        if total <= limit:
            break
        shutil.rmtree(folder, ignore_errors=True)
        total -= sizes[folder]
        removed.append(folder)
    return removed
