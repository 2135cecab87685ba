"""The ``ragviz`` package's imports go one way: a graph built from the source has no cycle,
and every edge follows the data flow: a stage (a subpackage) imports only the stages before
it, its own modules and the shared modules (``SHARED``), never the app.

What counts as an edge ``a -> b``: every ``import ragviz.x`` / ``from ragviz.x import y``
that runs, at module level or deferred inside a function (a deferred import is still a
dependency, it only hides it). Imports under ``if TYPE_CHECKING:`` are left out: they
never run, they only name types. ``from p import y`` points at ``p.y`` when that is a
module, else at ``p``; importing ``p.q.r`` also runs ``p.q``'s ``__init__``, so the
importer depends on every package on the way that is not one of its own parents.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "ragviz"
# The stages in data-flow order: files -> text -> chunks (ours, or a production index's
# stored ones) -> vectors -> scores -> outcomes -> the map's points (projection) -> the
# settings a link or workspace carries (share) -> sentences (present, which says every
# stage's messages) -> the command line -> the Python API (``ragviz.api``: the calls the CLI
# makes, from a notebook; the package's ``__init__`` names it and imports nothing else). The
# index stage only reads stores: analysing an index is evaluation's, its command the CLI's.
STAGES = ("inputs", "chunking", "index", "embedding", "retrieval", "evaluation", "answering",
          "projection", "share", "present", "cli", "api")
# Used by every stage: the sentences, the errors a user meets, the results kept.
SHARED = ("i18n", "errors", "cache")
MAX_TOP_LEVEL_PARTS = 15  # the stages, i18n, errors and cache: a new part is a new stage

Graph = dict[str, set[str]]


def module_names(root: Path) -> dict[str, Path]:
    """Every module of the package under ``root`` by its dotted name."""
    out: dict[str, Path] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST, types: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Import statements anywhere in the tree except in ``if TYPE_CHECKING:`` bodies (kept
    with ``types``)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if not types and isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _targets(node: ast.Import | ast.ImportFrom, importer: str, is_package: bool,
             modules: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        anchor = importer.split(".") if is_package else importer.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, *([base] if base else [])])
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}


def import_graph(root: Path, types: bool = False) -> Graph:
    """Edges between the package's own modules, as described in the module docstring;
    with ``types`` the imports that only name types (``if TYPE_CHECKING:``) count too."""
    modules = module_names(root)
    graph: Graph = {name: set() for name in modules}
    for importer, path in modules.items():
        own_parents = {".".join(importer.split(".")[:i]) for i in range(1, importer.count(".") + 1)}
        is_package = path.name == "__init__.py"
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")), types):
            for target in _targets(node, importer, is_package, modules):
                parts = target.split(".")
                for i in range(1, len(parts) + 1):
                    step = ".".join(parts[:i])
                    if step in modules and step != importer and step not in own_parents:
                        graph[importer].add(step)
    return graph


def find_cycles(graph: Graph) -> list[list[str]]:
    """One cycle per strongly connected component that has one (Tarjan), each written as
    a path that starts and ends at the same module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(graph, set(component)) for component in components]


def _cycle_in(graph: Graph, component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself (breadth first)."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & component):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start}")  # a component always has one


def _said(cycles: list[list[str]]) -> str:
    return "; ".join(" -> ".join(cycle) for cycle in cycles)


def test_no_import_cycle_at_all() -> None:
    cycles = find_cycles(import_graph(ROOT))
    assert not cycles, f"import cycle(s): {_said(cycles)}"


def test_no_import_cycle_even_among_type_names() -> None:
    """A module that names another's types while that one imports it is one unit split in
    two files (``measures`` read ``results.QuestionOutcome`` while ``results`` imports
    ``measures``): the shared shape belongs to the lower one."""
    cycles = find_cycles(import_graph(ROOT, types=True))
    assert not cycles, f"import cycle(s) through type-only imports: {_said(cycles)}"


def stage_of(module: str) -> str:
    """``ragviz.evaluation.pipeline`` -> ``evaluation``; the package itself, whose only
    imports are the Python API's names (loaded when first asked for), and ``ragviz.__main__``
    (``python -m ragviz``: the command's entry), the last stage -> ``api``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else "api"


def edges_against_the_flow(graph: Graph) -> list[str]:
    """Every edge that points at a later stage, or that leaves a shared module."""
    order = {stage: rank for rank, stage in enumerate(STAGES)}
    bad = []
    for importer, targets in sorted(graph.items()):
        for target in sorted(targets):
            source, goal = stage_of(importer), stage_of(target)
            if goal in SHARED or goal == source:
                continue
            if source not in order or goal not in order or order[goal] > order[source]:
                bad.append(f"{importer} -> {target}")
    return bad


def test_every_import_edge_follows_the_data_flow() -> None:
    bad = edges_against_the_flow(import_graph(ROOT))
    assert not bad, "imports against the stage order " + " < ".join(STAGES) + ": " + "; ".join(bad)


def test_every_top_level_part_is_a_stage_or_shared() -> None:
    parts = {p.stem for p in (ROOT / PACKAGE).iterdir()
             if (p.suffix == ".py" or (p / "__init__.py").is_file())
             and p.stem not in ("__init__", "__main__")}
    assert parts <= {*STAGES, *SHARED}, f"place in a stage: {sorted(parts - {*STAGES, *SHARED})}"
    assert len(parts) <= MAX_TOP_LEVEL_PARTS


def test_the_core_never_imports_the_app_or_streamlit() -> None:
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in {"ragviz_app", "streamlit"}, f"{path}: {name}"


def test_the_stage_check_sees_an_edge_against_the_flow(tmp_path: Path) -> None:
    for stage in ("inputs", "evaluation"):
        (tmp_path / PACKAGE / stage).mkdir(parents=True)
        (tmp_path / PACKAGE / stage / "__init__.py").write_text("")
    (tmp_path / PACKAGE / "__init__.py").write_text("")
    (tmp_path / PACKAGE / "i18n.py").write_text("")
    (tmp_path / PACKAGE / "evaluation" / "m.py").write_text("from ragviz.inputs import q\n")
    (tmp_path / PACKAGE / "inputs" / "q.py").write_text(
        "from ragviz.i18n import t\ndef f():\n    from ragviz.evaluation import m\n"
    )
    bad = edges_against_the_flow(import_graph(tmp_path))
    assert bad == ["ragviz.inputs.q -> ragviz.evaluation", "ragviz.inputs.q -> ragviz.evaluation.m"]


def test_the_pipeline_layers_import_one_way() -> None:
    graph = import_graph(ROOT)
    assert "ragviz.evaluation.pipeline" not in graph["ragviz.evaluation.results"]
    assert "ragviz.evaluation.experiments" not in graph["ragviz.evaluation.pipeline"]
    assert "ragviz.present.presentation" not in (
        graph["ragviz.evaluation.pipeline"] | graph["ragviz.evaluation.experiments"]
    )


def test_cycle_finder_sees_a_deferred_import_and_skips_type_checking(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from ragviz.b import x\n")
    (package / "b.py").write_text("def f():\n    from ragviz import a\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ragviz import a\n"
    )
    (package / "d.py").write_text("from ragviz import c\n")
    graph = import_graph(tmp_path)
    assert graph["ragviz.c"] == set()
    assert find_cycles(graph) == [["ragviz.a", "ragviz.b", "ragviz.a"]]
    (package / "e.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ragviz import f\n"
    )
    (package / "f.py").write_text("from ragviz import e\n")
    assert find_cycles(import_graph(tmp_path)) == [["ragviz.a", "ragviz.b", "ragviz.a"]]
    with_types = import_graph(tmp_path, types=True)
    assert with_types["ragviz.c"] == {"ragviz.a"}
    assert find_cycles(with_types) == [["ragviz.a", "ragviz.b", "ragviz.a"],
                                       ["ragviz.e", "ragviz.f", "ragviz.e"]]


# Issue 32, item 1: a stage returns messages; putting one into words (``t``, ``render``,
# ``count``, numbers as a language writes them…) is for the stages that speak to the reader
# (``present``, ``cli``, ``api``) and the app. What the others may take from ``ragviz.i18n``: the
# message type and its parts, the language list, and content a catalog holds that is not a
# sentence to the reader (the prompt template sent to the language model).
SPEAKING = ("i18n", "present", "cli", "api")  # api: a notebook reads its sentences
MESSAGE_PARTS = frozenset({"Message", "message", "KeyedError", "Listed", "Grouped", "LogLine",
                           "LANGUAGES", "LANGUAGE_NAMES", "SOURCE_LANGUAGE", "STRINGS",
                           "catalog_text"})
SAYING_METHODS = frozenset({"localized", "for_cli"})


def words_put_in(root: Path) -> list[str]:
    """Every place outside the speaking stages that says a message: an import from
    ``ragviz.i18n`` other than ``MESSAGE_PARTS`` (or of the module whole), a call of an
    error's ``localized``/``for_cli``."""
    found = []
    for module, path in module_names(root).items():
        if stage_of(module) in SPEAKING:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == f"{PACKAGE}.i18n":
                found += [f"{module}: {a.name}" for a in node.names if a.name not in MESSAGE_PARTS]
            elif isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
                found += [f"{module}: i18n" for a in node.names if a.name == "i18n"]
            elif isinstance(node, ast.Import):
                found += [f"{module}: {a.name}" for a in node.names
                          if a.name == f"{PACKAGE}.i18n"]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in SAYING_METHODS):
                found.append(f"{module}:{node.lineno}: .{node.func.attr}()")
    return found


def test_only_the_speaking_stages_put_a_message_into_words() -> None:
    said = words_put_in(ROOT)
    assert said == [], "say these where they are shown (present, cli, the app): " + "; ".join(said)


def test_the_words_check_sees_a_stage_that_says_its_message(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    (package / "index").mkdir(parents=True)
    (package / "present").mkdir()
    for init in (package, package / "index", package / "present"):
        (init / "__init__.py").write_text("")
    (package / "index" / "a.py").write_text(
        "from ragviz.i18n import Message, t\nimport ragviz.i18n\n"
        "def f(error, lang):\n    return error.localized(lang)\n")
    (package / "index" / "b.py").write_text("from ragviz.i18n import Message, message\n")
    (package / "present" / "c.py").write_text("from ragviz.i18n import render, t\n")
    assert words_put_in(tmp_path) == ["ragviz.index.a: t", "ragviz.index.a: ragviz.i18n",
                                      "ragviz.index.a:4: .localized()"]
