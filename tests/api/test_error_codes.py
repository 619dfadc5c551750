"""Every error code is in one place (``domain.errors.Code``), belongs to one class, and is
documented: docs/api.md's table and the OpenAPI schema are generated from it (issue 28)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from api.app import create_app
from api.error_table import API_MD, error_table, with_table
from api.errors import status_of
from api.settings import Settings
from domain import errors
from domain.errors import Code, GameError, code_named

ROOT = Path(__file__).resolve().parents[2]
TREES = ("domain", "store", "ledger", "projections", "api")
CLASSES = {name: cls for name, cls in vars(errors).items() if isinstance(cls, type) and issubclass(cls, GameError)}


def _code_value(node: ast.expr | None) -> str | None:
    """The code an argument names: ``Code.UNKNOWN_GAME`` or a literal ``"unknown_game"``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code":
        member = Code.__members__.get(node.attr)
        return member.value if member is not None else f"<no member Code.{node.attr}>"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _constructions() -> list[tuple[str, str, str]]:
    """(where, class name, code) of every ``SomeError("...", Code.X)`` in the source."""
    found = []
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in CLASSES or name == "InvalidExport":
                    continue
                arg = node.args[1] if len(node.args) > 1 else None
                value = _code_value(arg or next((k.value for k in node.keywords if k.arg == "code"), None))
                if value is not None:
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", name, value))
    return found


def test_every_code_raised_in_the_source_is_a_member_of_its_class() -> None:
    sites = _constructions()
    assert len(sites) > 100, "the scan found too few raises: is it still reading the source?"
    wrong = []
    for where, name, value in sites:
        member = Code._value2member_map_.get(value)
        if not isinstance(member, Code):
            wrong.append(f"{where}: {value!r} is not in domain.errors.Code")
        elif not issubclass(CLASSES[name], member.kind):
            wrong.append(f"{where}: {value!r} is a {member.kind.__name__}, raised as {name}")
    assert not wrong, "\n".join(wrong)


def test_a_code_raised_under_another_class_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="'game_over' is a IllegalAction, not a NotFound"):
        errors.NotFound("no such thing", "game_over")
    with pytest.raises(ValueError, match="not an error code"):
        code_named("no_such_code")
    assert errors.NotFound("x", "unknown_game").code is Code.UNKNOWN_GAME


def test_each_class_answers_with_one_status() -> None:
    assert status_of(Code.UNKNOWN_GAME) == 404
    assert status_of(Code.INVALID_IMPORT) == 422  # InvalidExport answers as its base, IllegalAction
    assert status_of(Code.NOT_ACCEPTABLE) == 406
    assert status_of(Code.STORE_UNAVAILABLE) == 503
    assert {status_of(code) for code in Code if code.kind is errors.InvalidCommand} == {400}
    assert {status_of(code) for code in Code if code.kind is errors.Forbidden} == {403}


def test_docs_api_md_error_table_is_the_generated_one() -> None:
    text = API_MD.read_text(encoding="utf-8")
    assert with_table(text) == text, "docs/api.md's error table is stale: run `make docs`"
    for code in Code:
        assert f"| `{code.value}` |" in error_table()


def test_the_openapi_problem_schema_lists_every_code(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'ledger.sqlite3'}"))
    schema = app.openapi()["components"]["schemas"]["Problem"]
    assert schema["properties"]["code"]["enum"] == [code.value for code in Code]
