"""The app's Index source says what the user gave, never an internal name (issue 37,
items 20 and 21): a zip holding a Chroma directory without a collection was named
``x.zip:<24-character digest>``; the host refusal listed every allowed server to every
visitor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragviz_app.index_source import HOSTS_ENV
from tests.test_app import rerun, shown
from tests.test_app_index import index_app, zipped


def test_a_zip_without_a_collection_is_named_as_uploaded(tmp_path: Path) -> None:
    import chromadb

    chromadb.PersistentClient(path=str(tmp_path / "db"))  # a Chroma directory, no collection
    at = index_app(("nothing.zip", zipped(tmp_path / "db")), sources=False)
    (error,) = [shown(e.value) for e in at.error]
    assert error == "nothing.zip holds no collection"
    assert not re.search(r"[0-9a-f]{24}", error)


def test_the_host_refusal_does_not_list_the_allowed_servers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOSTS_ENV, "chroma.internal:8000,vectors.corp:9000")
    at = index_app(None, sources=False)
    at.radio(key="index_from").set_value("server")
    rerun(at)
    at.text_input(key="index_server").set_value("10.0.0.5:8000")
    rerun(at)
    (error,) = [shown(e.value) for e in at.error]
    assert HOSTS_ENV in error and "10.0.0.5:8000 is not one of them" in error
    assert "chroma.internal" not in error and "vectors.corp" not in error
