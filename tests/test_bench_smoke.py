"""Every benchmark runs to its end (issue 25): each bench script in ``--smoke`` mode, in its own
process as ``make bench`` starts it, so a missing import or a renamed widget fails CI instead of
the next person who runs the benches. Nothing about time is asserted; the smoke figures mean
nothing. The slowest smoke runs (a Postgres, a Chroma server, browser journeys and a
30-session workshop, CLI processes that each load a model, the label benchmark's eval of three
Bible books, the peer chunkers' imports: ~340 s of the core suite together on 12-07, issue 48
item 9) are marked ``bench_smoke_slow``: ``make test`` leaves them out and ``make
bench-smoke`` runs every one (run at each stop; docs/benchmarks.md says when it last passed).
And every package a bench imports is declared in pyproject.toml, so ``make bench`` on
a fresh clone installs it (httpx was once only there by accident, through another package).
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
# Every bench script with the arguments `make bench` gives it (plus --smoke); the browser ones
# start `streamlit run` and a headless Chromium.
# `make bench-smoke` only:
SLOW = {"embedding_cache", "embedding_path", "index_pgvector", "index_server", "journey_99k",
        "label_benchmark", "browser_timing", "step_profile", "workshop_browser", "sweep_cancel",
        "chunker_peers", "ui_latency", "check_answer_journey"}
RUNS: dict[str, tuple[list[str], bool]] = {
    "embedding_cache": (["embedding_cache.py"], False),
    "embedding_path": (["embedding_path.py"], False),
    "embedding_cost": (["embedding_cost.py"], False),
    "memory_shapes": (["memory_shapes.py"], False),
    "chunking_scaling": (["chunking_scaling.py"], False),
    "hostile_files": (["hostile_files.py"], False),
    "index_load": (["index_load.py"], False),
    "index_pgvector": (["index_pgvector.py"], False),
    "index_server": (["index_server.py"], False),
    "chunker_peers": (["chunker_peers.py"], False),
    "retrieval_scorers": (["retrieval_scorers.py"], False),
    "slider_precompute": (["slider_precompute.py"], False),
    "eval_scale": (["eval_scale.py"], False),
    "sweep_cancel": (["sweep_cancel.py"], False),
    "app_index": (["app_index.py"], False),
    "map_scale": (["map_scale.py"], False),
    "label_benchmark": (["label_benchmark.py"], False),
    "browser_timing": (["browser_timing.py"], True),
    "ui_latency": (["ui_latency.py"], True),
    "step_profile": (["step_profile.py"], True),
    "journey_99k": (["journey_99k.py"], True),
    "check_answer_journey": (["check_answer_journey.py"], True),
    "workshop_browser": (["workshop_load.py", "--sessions", "30"], True),
    "workshop_protocol": (["workshop_load.py", "--sessions", "30", "--clients", "protocol"],
                          True),
}
LIBRARY_MODULES = {"browser_common", "protocol_session", "machine"}  # imported, not run
Runs = dict[str, Future[subprocess.CompletedProcess[str]]]


def run_smoke(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(BENCH / args[0]), *args[1:], "--smoke"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          check=False)


@pytest.fixture(scope="module")
def smoke_runs(request: pytest.FixtureRequest) -> Runs:
    """The selected smoke runs, started at once two at a time (a browser bench mostly waits
    for its page, so two overlap well on two cores)."""
    selected = [item.callspec.params["name"] for item in request.session.items
                if getattr(item, "originalname", "") == "test_the_bench_runs_to_its_end"]
    pool = ThreadPoolExecutor(max_workers=2)
    runs = {name: pool.submit(run_smoke, RUNS[name][0]) for name in selected}
    pool.shutdown(wait=False)
    return runs


def test_every_bench_script_has_a_smoke_run() -> None:
    scripts = {p.stem for p in BENCH.glob("*.py")} - LIBRARY_MODULES
    assert scripts == {args[0].removesuffix(".py") for args, _ in RUNS.values()}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[*([pytest.mark.browser] if b else []),
                                     *([pytest.mark.bench_smoke_slow] if n in SLOW else [])])
             for n, (_, b) in RUNS.items()])
def test_the_bench_runs_to_its_end(name: str, smoke_runs: Runs) -> None:
    done = smoke_runs[name].result()
    assert done.returncode == 0, done.stderr[-3000:]
    # the shared machine lines (cores, load before and after) frame the figures
    assert re.search(r"^machine: \d+ cores, .* load average before ", done.stdout, re.M)
    assert re.search(r"^machine: load average after ", done.stdout, re.M), done.stdout[-2000:]


def imported_modules(path: Path) -> set[str]:
    """Top-level names of the absolute imports anywhere in ``path`` (also inside functions)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def declared_distributions() -> set[str]:
    """Normalised names of the project's dependencies and of its dev and bench extras, with
    the extras an extra names (``ragviz[peers]``) followed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    requirements = [*project["dependencies"], *extras["dev"], *extras["bench"]]
    own = normalised(project["name"])
    for requirement in requirements:  # the list grows while it is read: nested extras too
        name, _, rest = requirement.partition("[")
        if normalised(name) == own:
            requirements.extend(r for extra in rest.split("]")[0].split(",")
                                for r in extras[extra.strip()])
    return {normalised(re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0]) for r in requirements}


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_package_a_bench_imports_is_declared() -> None:
    tests = {p.stem for p in (ROOT / "tests").glob("*.py")}  # bench/hostile_files.py's bombs
    local = {p.stem for p in BENCH.glob("*.py")} | tests | {"ragviz", "ragviz_app", "tests"}
    modules: set[str] = set()
    for path in [*BENCH.glob("*.py"), *(BENCH / "peer_pages").glob("*.py")]:
        modules |= imported_modules(path)
    third_party = modules - local - set(sys.stdlib_module_names) - {"__future__"}
    owners = importlib.metadata.packages_distributions()
    missing = {m: owners.get(m, ["?"]) for m in third_party
               if not {normalised(d) for d in owners.get(m, [])} & declared_distributions()}
    assert "httpx" in third_party  # the scan sees imports inside functions too
    assert missing == {}, f"imported by bench/ but not declared in pyproject.toml: {missing}"
