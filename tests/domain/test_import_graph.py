"""The domain's import graph has no cycle (issue: break the domain loop). A loop would be held
off only by function-local imports; so every ``domain`` import counts here, wherever it is written,
except those under ``if TYPE_CHECKING:`` (annotations only)."""

from __future__ import annotations

import ast
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"


def _module_name(path: Path) -> str:
    parts = path.relative_to(DOMAIN.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, modules: set[str], package: str) -> set[str]:
    found: set[str] = set()
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("domain"):
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.add(candidate if candidate in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("domain"))
    found.discard(package)
    return {m for m in found if m in modules}


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in DOMAIN.rglob("*.py")}
    modules = set(paths)
    graph = {}
    for name, path in paths.items():
        graph[name] = _imports(ast.parse(path.read_text()), modules, name)
    # A package's own __init__ imports its modules; a module importing its package's face
    # (``from domain import events``) depends on it, which is how Python runs it too.
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_domain_import_graph_has_no_cycle() -> None:
    graph = _graph()
    assert "domain.builder" in graph and "domain.cards.library" in graph["domain.decide"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_domain_module_is_over_400_lines() -> None:
    """Small modules with names that explain themselves: none over about 400 lines."""
    long = {
        str(p.relative_to(DOMAIN.parent)): n
        for p in DOMAIN.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 400
    }
    assert long == {}
