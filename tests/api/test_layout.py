"""The layout of ``api/`` (README, "Layout"): no import cycle, the domain packages never import the HTTP or
CLI layers, no ``__import__``, no private name imported from another module, and only ``api.cli.main``
knows every command module."""

from __future__ import annotations

import ast
from pathlib import Path

API = Path(__file__).resolve().parents[2] / "api"
DOMAIN = ("catalogue", "purchase", "cases", "batch", "audit")
LAYERS = ("http", "cli")


def _modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(API.rglob("*.py")):
        if "migrations" in path.relative_to(API).parts:
            continue
        name = ".".join(path.relative_to(API.parent).with_suffix("").parts).removesuffix(".__init__")
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


MODULES = _modules()


def _owner(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(tree: ast.Module) -> list[tuple[str, ast.stmt, list[str]]]:
    """(imported module, statement, imported names) of every import outside ``if TYPE_CHECKING:``."""
    skipped = {
        id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.append((full if full in MODULES else node.module, node, [alias.name]))
    return found


def _graph(*, module_level_only: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, tree in MODULES.items():
        top = {id(n) for n in tree.body}
        for target, node, _ in _imports(tree):
            owner = _owner(target) if target.startswith("api") else None
            if owner and owner != name and (id(node) in top or not module_level_only):
                graph[name].add(owner)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            if component:
                found.append(sorted([v, *component]))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_at_module_level() -> None:
    assert _cycles(_graph(module_level_only=True)) == []


def test_no_import_cycle_even_through_imports_inside_functions() -> None:
    assert _cycles(_graph(module_level_only=False)) == []


def test_the_domain_packages_never_import_the_http_or_cli_layers() -> None:
    wrong = [
        (name, target)
        for name, deps in _graph(module_level_only=False).items()
        if name.split(".")[1:2] and name.split(".")[1] in DOMAIN
        for target in deps
        if target.split(".")[1:2] and target.split(".")[1] in LAYERS
    ]
    assert wrong == []


def test_no_command_module_imports_the_cli_main_module() -> None:
    assert [n for n, deps in _graph(module_level_only=False).items() if "api.cli.main" in deps] == []


def test_no_dunder_import_and_no_private_name_imported_across_modules() -> None:
    wrong = []
    for name, tree in MODULES.items():
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        wrong += [(name, "__import__") for n in calls if ast.unparse(n.func) == "__import__"]
        for target, _, names in _imports(tree):
            if target.startswith(("api", "legislation")):
                wrong += [(name, f"{target}.{n}") for n in names if n.startswith("_") and not n.startswith("__")]
    assert wrong == []
