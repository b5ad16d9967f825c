"""The floor plan of ``memory/``: one folder per layer, one door each, imports pointing down.

Walks the source with :mod:`ast` (nothing is imported), so a cycle or an upward edge fails
here with the modules that make it, not as an ``ImportError`` somewhere else. Imports under
``if TYPE_CHECKING:`` count for the layer order (they are dependencies all the same) but not
for module cycles (they never run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = {"memory": "penchant.memory", "tools": "penchant.tools", "agent": "penchant.agent",
            "tui": "penchant.tui"}  # fmt: skip
LAYERS = ("model", "core", "recall", "embeddings", "client", "backends", "services", "devtools")
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "core": {"model"},
    "embeddings": {"model", "core"},
    "recall": {"model", "core", "embeddings"},
    "backends": {"model", "core"},
    "client": {"model", "core", "embeddings", "recall", "backends"},
    "services": {"model", "core", "embeddings", "recall", "client", "backends"},
    "devtools": {"model", "backends"},
}
"""Which layers each layer may import: model ← core ← embeddings, recall ← client → backends;
services over the client; devtools over the backends."""
MAX_LINES = 530
OVER_LIMIT_OWNED_ELSEWHERE = {"penchant.memory.recall.engine"}
"""Recall's split by concept is its own piece of work; until then its one module is exempt."""


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    names: tuple[str, ...]
    type_checking: bool
    line: int


def module_name(path: Path) -> str:
    folder, *rest = path.relative_to(REPO).with_suffix("").parts
    parts = [PACKAGES[folder], *rest]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.py"))


def edges(path: Path) -> Iterator[Edge]:
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            names = tuple(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield Edge(module, alias.name, (), id(node) in guarded, node.lineno)
            continue
        else:
            continue
        yield Edge(module, target, names, id(node) in guarded, node.lineno)


def all_edges(*folders: str) -> list[Edge]:
    return [edge for folder in folders for path in sources(folder) for edge in edges(path)]


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["penchant", "memory"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in LAYERS else None


def known_modules() -> set[str]:
    return {module_name(path) for folder in PACKAGES for path in sources(folder)}


def resolve(edge: Edge, modules: set[str]) -> list[str]:
    """The modules an import runs: the target, and any of its names that are submodules."""
    if edge.target not in modules:
        return []
    submodules = [f"{edge.target}.{name}" for name in edge.names
                  if f"{edge.target}.{name}" in modules]  # fmt: skip
    if submodules and len(submodules) == len(edge.names):
        return submodules  # ``from . import wire``: the package is already importing
    return [edge.target, *submodules]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def import_graph(*folders: str) -> dict[str, set[str]]:
    """Module → the modules it imports at run time, a package's door counted as its own node.

    A module that imports its own package's door would be a cycle by construction (the door
    imports it); such an edge is an error of its own, caught below, not counted twice.
    """
    modules = known_modules()
    graph: dict[str, set[str]] = {}
    for edge in all_edges(*folders):
        if edge.type_checking:
            continue
        for target in resolve(edge, modules):
            if target != edge.source:
                graph.setdefault(edge.source, set()).add(target)
    return graph


def test_cycles_are_found_by_the_walk() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("folders", [("memory",), ("memory", "tools", "agent", "tui")])
def test_no_import_cycle(folders: tuple[str, ...]) -> None:
    assert cycles(import_graph(*folders)) == []


def test_imports_point_down_the_layers() -> None:
    upward = []
    for edge in all_edges("memory"):
        source, target = layer_of(edge.source), layer_of(edge.target)
        if source and target and source != target and target not in ALLOWED[source]:
            upward.append(f"{edge.source}:{edge.line} imports {edge.target}")
    assert upward == []


def test_a_layer_is_entered_only_through_its_door() -> None:
    past_the_door = []
    for edge in all_edges("memory"):
        source, target = layer_of(edge.source), layer_of(edge.target)
        door = f"penchant.memory.{target}"
        if target and source != target and edge.target != door:
            past_the_door.append(f"{edge.source}:{edge.line} imports {edge.target}")
        if target and source != target and any(name.startswith("_") for name in edge.names):
            past_the_door.append(f"{edge.source}:{edge.line} imports private {edge.names}")
    assert past_the_door == []


def test_a_module_never_imports_its_own_door() -> None:
    modules = known_modules()
    own_door = [f"{edge.source}:{edge.line}" for edge in all_edges("memory")
                if layer_of(edge.source) and edge.source.count(".") > 2
                and edge.target == f"penchant.memory.{layer_of(edge.source)}"
                and edge.target in resolve(edge, modules)]  # fmt: skip
    assert own_door == []


def test_redis_py_is_imported_only_by_the_backends() -> None:
    outside = [f"{edge.source}:{edge.line}" for edge in all_edges("memory")
               if edge.target.split(".")[0] == "redis"
               and layer_of(edge.source) != "backends"]  # fmt: skip
    assert outside == []


def test_memory_keeps_at_most_two_top_level_modules() -> None:
    assert sorted(path.name for path in (REPO / "memory").glob("*.py")) == [
        "__init__.py", "local_cluster.py"]


def test_no_memory_module_is_over_the_size_limit() -> None:
    too_long = {}
    for path in sources("memory"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and module_name(path) not in OVER_LIMIT_OWNED_ELSEWHERE:
            too_long[module_name(path)] = lines
    assert too_long == {}


def test_tools_agent_tui_and_examples_use_only_public_names() -> None:
    import penchant.memory

    public = set(penchant.memory.__all__)
    private = []
    for folder in ("tools", "agent", "tui", "examples"):
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                        "penchant.memory"):
                    where = f"{path.relative_to(REPO)}:{node.lineno}"
                    if node.module != "penchant.memory":
                        private.append(f"{where} imports {node.module}")
                    private += [f"{where} imports {alias.name}" for alias in node.names
                                if alias.name not in public]  # fmt: skip
                elif isinstance(node, ast.Import):
                    private += [f"{path.relative_to(REPO)}:{node.lineno} imports {alias.name}"
                                for alias in node.names
                                if alias.name.startswith("penchant.memory.")]  # fmt: skip
    assert private == []
