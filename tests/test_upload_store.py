"""Uploaded indexes on disk are bounded: the least recently used folders past the limit go,
never one used within the hour, never a link or a file (real folders, real mtimes)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from ragviz_app import index_source, upload_store
from tests.index_fixtures import write_jsonl

HOUR = 3600.0


def folders(root: Path, count: int, now: float) -> list[Path]:
    """``count`` folders with a file each, the i-th last used i+2 hours ago."""
    made = []
    for i in range(count):
        folder = root / f"digest{i}"
        folder.mkdir(parents=True)
        (folder / "index.jsonl").write_text("{}\n")
        os.utime(folder, (now - (i + 2) * HOUR, now - (i + 2) * HOUR))
        made.append(folder)
    return made


def test_the_least_recently_used_folders_past_the_limit_are_removed(tmp_path: Path) -> None:
    now = time.time()
    made = folders(tmp_path, 6, now)
    removed = upload_store.prune(tmp_path, keep=2, now=now)
    assert sorted(removed) == sorted(made[2:])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["digest0", "digest1"]


def test_a_folder_used_within_the_hour_stays_past_the_limit(tmp_path: Path) -> None:
    now = time.time()
    made = folders(tmp_path, 4, now)
    os.utime(made[3], (now - 60, now - 60))  # used a minute ago: the newest, kept
    os.utime(made[2], (now - 120, now - 120))  # two minutes ago: past the limit, in use
    removed = upload_store.prune(tmp_path, keep=1, now=now)
    assert made[2].is_dir() and made[3].is_dir()
    assert sorted(removed) == sorted(made[:2])


def test_links_and_files_in_the_folder_are_left_alone(tmp_path: Path) -> None:
    now = time.time()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("not an upload")
    root = tmp_path / "root"
    folders(root, 2, now)
    (root / "link").symlink_to(outside, target_is_directory=True)
    (root / "stray.txt").write_text("a file")
    upload_store.prune(root, keep=0, now=now)
    assert (outside / "keep.txt").is_file() and (root / "link").is_symlink()
    assert (root / "stray.txt").is_file()
    assert not (root / "digest0").exists() and not (root / "digest1").exists()


def test_uploads_past_the_limit_do_not_pile_up(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: every distinct upload stayed in the temporary folder for good."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(upload_store, "KEPT", 3)
    root = tmp_path / upload_store.ROOT_NAME
    first = None
    for n in range(6):
        source = tmp_path / f"export{n}.jsonl"
        write_jsonl(source, [{"text": f"Rule {n}: pay by card.",
                              "metadata": {"file_name": "a.txt"}}])
        index_source.upload_reader(source.name, source.read_bytes())
        made = max(root.iterdir(), key=lambda p: p.stat().st_mtime_ns)
        first = first or made
        for folder in root.iterdir():  # every folder written so far: used two hours ago
            old = time.time() - 2 * HOUR
            os.utime(folder, (old, old))
    assert len(list(root.iterdir())) == 3
    assert not first.exists()


def test_the_store_is_bounded_in_bytes_whenever_folders_were_used(tmp_path: Path) -> None:
    """Issue 37 item 11: five recent uploads of 200 MB each filled 953 MB in 4 s."""
    now = time.time()
    made = folders(tmp_path, 5, now)
    for age, folder in enumerate(made):  # all used within the last minute, each 3 MB
        (folder / "data.bin").write_bytes(b"x" * 3_000_000)
        os.utime(folder, (now - age, now - age))
    assert upload_store.prune(tmp_path, keep=24, now=now) == []  # count and age keep all
    removed = upload_store.shrink(tmp_path, 10_000_000)
    assert sorted(removed) == sorted(made[3:])  # the two least recently used
    assert sum(upload_store.folder_bytes(f) for f in tmp_path.iterdir()) <= 10_000_000


def test_a_new_upload_shrinks_the_store_to_its_size(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv(upload_store.MAX_BYTES_ENV, "2")  # 2 MB
    root = tmp_path / upload_store.ROOT_NAME
    for n in range(4):
        folder = root / f"old{n}"
        folder.mkdir(parents=True)
        (folder / "data.bin").write_bytes(b"x" * 1_000_000)
    source = tmp_path / "export.jsonl"
    write_jsonl(source, [{"text": "Rule: pay by card.", "metadata": {"file_name": "a.txt"}}])
    data = source.read_bytes()
    index_source.upload_reader(source.name, data)
    # the old folders were cut to the bound before the new upload was written beside them
    assert sum(upload_store.folder_bytes(f) for f in root.iterdir()) <= 2_000_000 + len(data)
    assert len([f for f in root.iterdir() if f.name.startswith("old")]) == 2

