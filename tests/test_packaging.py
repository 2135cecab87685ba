"""The installable package: a wheel carries the samples and the app, samples resolve through
``importlib.resources`` outside the repository, ``sample:NAME`` works on the command line,
and ``ragviz app`` starts the explorer."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from ragviz.cli.command import main
from ragviz.share.samples import CHECKOUT_DIR, SAMPLES_DIR, load_samples

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SEED = "politica_reembolso"
FIXED = ["--chunker", "fixed", "--size", "120", "--overlap", "0", "--json"]
SERVER_START_TIMEOUT_S = 90.0


def test_every_package_directory_is_in_the_wheel_list() -> None:
    """The package list is written by hand (sample_docs is mapped in): a new subpackage
    left out of it would be missing from every installed copy."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("ragviz", "ragviz_app")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"ragviz.sample_docs": "sample_docs"}


def test_a_checkout_reads_the_top_level_sample_folder() -> None:
    assert SAMPLES_DIR == CHECKOUT_DIR == ROOT / "sample_docs"


def test_sample_name_on_the_command_line_reads_the_bundled_sample(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["chunk", f"sample:{SEED}", *FIXED]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert main(["chunk", str(ROOT / "sample_docs" / f"{SEED}.txt"), *FIXED]) == 0
    assert by_name == json.loads(capsys.readouterr().out)


def test_an_unknown_sample_name_lists_the_samples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chunk", "sample:nope"]) == 2
    error = capsys.readouterr().err
    assert "no sample called 'nope'" in error
    assert all(sample.name in error for sample in load_samples())


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip` builds from a copy of the source, unpacked as site-packages would hold
    it (the copy keeps build leftovers out of the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for name in ("ragviz", "ragviz_app", "sample_docs"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
         "-w", str(base / "dist"), str(source)],
        check=True, capture_output=True,
    )
    (wheel,) = (base / "dist").glob("ragviz-*.whl")
    site = base / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def _run_installed(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Python with only the unpacked wheel on its path, outside the repository."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, *args], cwd=site.parent, env=env, text=True,
                          capture_output=True, check=False)


def test_the_wheel_ships_every_sample_file_and_the_app(installed_wheel: Path) -> None:
    shipped = {p.name for p in (installed_wheel / "ragviz" / "sample_docs").iterdir()}
    assert shipped == {p.name for p in CHECKOUT_DIR.iterdir()}
    assert (installed_wheel / "ragviz_app" / "entry.py").is_file()
    assert (installed_wheel / "ragviz_app" / "views" / "questions.py").is_file()


def test_the_wheel_ships_the_reports_template(installed_wheel: Path) -> None:
    assert (installed_wheel / "ragviz" / "present" / "report.html.j2").is_file()


def test_an_installed_ragviz_finds_its_samples_through_importlib_resources(
    installed_wheel: Path,
) -> None:
    script = (
        "import json, ragviz, ragviz.share.samples as s, ragviz.cli.app as a; "
        "print(json.dumps([ragviz.__file__, str(s.SAMPLES_DIR), str(s.packaged_dir()), "
        "[x.name for x in s.load_samples()], str(a.entry_path())]))"
    )
    result = _run_installed(installed_wheel, "-c", script)
    assert result.returncode == 0, result.stderr
    module, samples_dir, packaged, names, entry = json.loads(result.stdout)
    assert Path(module).is_relative_to(installed_wheel)
    assert Path(samples_dir) == Path(packaged) == installed_wheel / "ragviz" / "sample_docs"
    assert names == [sample.name for sample in load_samples()]
    assert Path(entry) == installed_wheel / "ragviz_app" / "entry.py"


def test_an_installed_ragviz_chunks_a_sample_without_the_repository(
    installed_wheel: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    result = _run_installed(installed_wheel, "-m", "ragviz.cli.command", "chunk", f"sample:{SEED}",
                            *FIXED)
    assert result.returncode == 0, result.stderr
    assert main(["chunk", f"sample:{SEED}", *FIXED]) == 0
    assert json.loads(result.stdout) == json.loads(capsys.readouterr().out)


def test_ragviz_app_help_names_the_pass_through(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["app", "--help"])
    assert exit_info.value.code == 0
    assert "--server.port" in capsys.readouterr().out


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def test_ragviz_app_starts_the_explorer_with_the_arguments_passed_through() -> None:
    """`ragviz app --server.port P` serves Streamlit on P: the port only reaches Streamlit
    through the pass-through (which file it runs: the entry_path tests above)."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "ragviz.cli.command", "app", "--server.port", str(port),
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _healthy(f"http://127.0.0.1:{port}/_stcore/health"):
            assert process.poll() is None, "ragviz app exited early"
            assert time.monotonic() < deadline, "ragviz app did not start"
            time.sleep(0.5)
    finally:
        process.terminate()  # the launcher became Streamlit: this stops the server itself
        try:
            output, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
    assert f"localhost:{port}" in output, output


def _top_level_imports(path: Path) -> set[str]:
    """Top-level names a module imports when it is imported (not inside functions)."""
    import ast

    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_dependencies_say_what_runs() -> None:
    """Issue 48 item 6: every library ragviz imports at module level is a declared dependency
    (lxml was imported but undeclared), and python-docx, which only the tests import, is a dev
    dependency, not the product's."""
    import importlib.metadata
    import re

    def name(requirement: str) -> str:
        return re.sub(r"[-_.]+", "-", re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]).lower()

    declared = {name(r) for r in PYPROJECT["project"]["dependencies"]}
    owners = importlib.metadata.packages_distributions()
    modules: set[str] = set()
    for folder in ("ragviz", "ragviz_app"):
        for path in (ROOT / folder).rglob("*.py"):
            modules |= _top_level_imports(path)
    third_party = modules - set(sys.stdlib_module_names) - {"__future__", "ragviz", "ragviz_app"}
    undeclared = {m for m in third_party if not {name(d) for d in owners.get(m, [m])} & declared}
    assert "lxml" in third_party and undeclared == set()
    assert "python-docx" not in declared and "docx" not in modules
    assert "python-docx" in {name(r) for r in PYPROJECT["project"]["optional-dependencies"]["dev"]}
