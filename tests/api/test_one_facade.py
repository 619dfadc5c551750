"""The HTTP layer calls one facade (``LedgerService``'s own methods, never its parts), and every
403 is decided in ``domain/permissions.py``: the routes turn a token into a grant and ask."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _modules(*packages: str) -> Iterator[tuple[str, ast.Module]]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))


def _is_service(node: ast.expr) -> bool:
    """``service`` or ``….service`` (``request.app.state.service``)."""
    return (isinstance(node, ast.Name) and node.id == "service") or (
        isinstance(node, ast.Attribute) and node.attr == "service"
    )


def test_the_api_reaches_no_part_of_the_ledger() -> None:
    reached = [
        f"{name}:{node.lineno}: service.{node.value.attr}.{node.attr}"
        for name, tree in _modules("api")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and _is_service(node.value.value)
        and node.value.attr != "catalog"  # a value (it resolves card names), not a part
    ]
    assert reached == []


def test_every_403_is_decided_in_domain_permissions() -> None:
    decided = []
    for name, tree in _modules("api", "ledger", "domain"):
        # The players' match reports decide theirs beside the kernel (issue 38).
        if name in ("domain/permissions.py", "domain/tournament/report_access.py"):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            status = node.args[0] if node.args else None
            if called == "Forbidden" or (
                called == "ApiError" and isinstance(status, ast.Constant) and status.value == 403
            ):
                decided.append(f"{name}:{node.lineno}")
    assert decided == []
