"""Running the rules scenarios (tests/scenarios/data, the cases the v1 contract came with) against any
driver: the domain directly, or the HTTP API. The path and matching grammar is the one in
tests/scenarios/data/README.md."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml

DATA = Path(__file__).parent / "data"
_MISSING = object()


def load_scenarios() -> list[dict[str, Any]]:
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(DATA.glob("*.yaml"))]


class Driver(Protocol):
    def create(self, body: dict[str, Any]) -> int: ...
    def action(self, body: dict[str, Any]) -> tuple[int, str | None]: ...
    def undo(self, body: dict[str, Any]) -> tuple[int, str | None]: ...
    def state(self) -> dict[str, Any]: ...
    def version(self) -> int: ...
    def events_after(self, version: int) -> list[dict[str, Any]]: ...


# -- paths ------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\[\?([^=\]]+)=([^\]]*)\]|\[\*\]|\[(\d+)\]|\.?([^.\[]+)")
SUFFIXES = ("_count", "_exists", "_unordered", "_ends_with", "_starts_with", "_contains")


def _literal(text: str) -> Any:
    parsed = yaml.safe_load(text)
    return parsed


def _walk(value: Any, path: str) -> Any:
    """Follow a path; a ``[*]`` or ``[?k=v]`` turns the value into a list, mapped over after."""
    multi = False
    current: Any = value
    for m in _TOKEN.finditer(path):
        if m.group(1) is not None:
            key, wanted = m.group(1), _literal(m.group(2))
            items = list(current.values()) if isinstance(current, dict) else list(current)
            if multi:
                raise AssertionError("nested filters are not supported")
            current = [i for i in items if isinstance(i, dict) and i.get(key) == wanted]
            multi = False  # a filter gives a plain list
        elif m.group(0) == "[*]":
            items = list(current.values()) if isinstance(current, dict) else list(current)
            current = items
            multi = True
        elif m.group(3) is not None:
            idx = int(m.group(3))
            if multi:
                current = [c[idx] for c in current]
            else:
                if not isinstance(current, list) or idx >= len(current):
                    return _MISSING
                current = current[idx]
        else:
            key = m.group(4)
            if multi:
                current = [c[key] for c in current]
            else:
                if not isinstance(current, dict) or key not in current:
                    return _MISSING
                current = current[key]
    return current


def resolve_path(state: dict[str, Any], path: str) -> tuple[str | None, Any]:
    for suffix in SUFFIXES:
        if path.endswith(suffix):
            return suffix, _walk(state, path[: -len(suffix)])
    return None, _walk(state, path)


def matches(actual: Any, expected: Any) -> bool:
    """Exact JSON equality, or a test (``$in``, ``$contains``, ``$ne``, ``$gte``, ``$lte``)."""
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        op, arg = next(iter(expected.items()))
        if op == "$in":
            return actual in arg
        if op == "$contains":
            return actual is not None and arg in actual
        if op == "$ne":
            return actual != arg
        if op == "$gte":
            return actual is not _MISSING and actual >= arg
        if op == "$lte":
            return actual is not _MISSING and actual <= arg
        raise AssertionError(f"unknown test {op}")
    if isinstance(expected, float) or isinstance(actual, float):
        return bool(actual == expected)
    return bool(actual == expected and type(actual) is type(expected)) or (
        isinstance(actual, int | float)
        and isinstance(expected, int | float)
        and actual == expected
        and not isinstance(actual, bool)
        and not isinstance(expected, bool)
    )


def check_state(state: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    for path, want in expected.items():
        suffix, got = resolve_path(state, path)
        if suffix == "_count":
            ok = got is not _MISSING and len(got) == want
            shown = len(got) if got is not _MISSING else "missing"
        elif suffix == "_exists":
            ok = (got is not _MISSING) == want
            shown = got is not _MISSING
        elif suffix == "_unordered":
            ok = got is not _MISSING and sorted(map(repr, got)) == sorted(map(repr, want))
            shown = got
        elif suffix == "_ends_with":
            ok = got is not _MISSING and list(got[len(got) - len(want) :]) == want
            shown = got
        elif suffix == "_starts_with":
            ok = got is not _MISSING and list(got[: len(want)]) == want
            shown = got
        elif suffix == "_contains":
            if isinstance(want, dict):
                ok = isinstance(got, dict) and all(k in got and matches(got[k], v) for k, v in want.items())
            else:
                ok = got is not _MISSING and all(item in got for item in want)
            shown = got
        else:
            ok = got is not _MISSING and matches(got, want)
            shown = got if got is not _MISSING else "missing"
        assert ok, f"{where}: {path} expected {want!r}, got {shown!r}"


def _data_matches(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        return matches(actual, expected)
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _data_matches(actual[k], v) for k, v in expected.items()
        )
    if isinstance(expected, str) and isinstance(actual, dict) and "name" in actual:
        return bool(actual["name"] == expected)
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_data_matches(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return matches(actual, expected)


def event_matches(event: dict[str, Any], expected: dict[str, Any]) -> bool:
    if event["type"] != expected["type"]:
        return False
    return _data_matches(event.get("data", {}), expected.get("data", {}))


def check_events(events: list[dict[str, Any]], expect: dict[str, Any], sid: str) -> None:
    live = [e for e in events if not e.get("reverted")]
    position = 0
    for want in expect.get("events_in_order", []):
        for i in range(position, len(live)):
            if event_matches(live[i], want):
                position = i + 1
                break
        else:
            raise AssertionError(f"{sid}: event {want} not found in order after position {position}: {_brief(live)}")
    for want in expect.get("events_present", []):
        assert any(event_matches(e, want) for e in live), f"{sid}: event {want} missing: {_brief(live)}"
    for want in expect.get("events_absent", []):
        found = [e for e in live if event_matches(e, want)]
        assert not found, f"{sid}: event {want} must be absent, found {found}"


def _brief(events: list[dict[str, Any]]) -> list[str]:
    return [f"{e['type']} {e.get('data')}" for e in events]


@dataclass
class Outcome:
    final_state: dict[str, Any]


def _order_body(step: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    texts = step["resolve_first_matching"]
    triggers = list(state["pending_order"]["triggers"])
    chosen: list[str] = []
    for text in texts:
        options = [t.lower() for t in text.split("|")]
        for trig in triggers:
            if trig["id"] not in chosen and any(o in trig["description"].lower() for o in options):
                chosen.append(trig["id"])
                break
        else:
            raise AssertionError(f"no pending trigger matches {text!r}: {triggers}")
    return {"type": "order_triggers", "resolve_first": chosen}


def run_scenario(driver: Driver, scenario: dict[str, Any]) -> Outcome:
    sid = scenario["id"]
    created_version = driver.create(scenario["create"])
    for n, step in enumerate(scenario.get("steps", []), start=1):
        where = f"{sid} step {n}"
        before = driver.version()
        if "undo" in step:
            status, code = driver.undo(step["undo"])
        else:
            body = dict(step["action"])
            if body.get("type") == "order_triggers" and "resolve_first_matching" in body:
                body = _order_body(body, driver.state())
            status, code = driver.action(body)
        allowed = step.get("expect_status", 201)
        allowed = allowed if isinstance(allowed, list) else [allowed]
        assert status in allowed, f"{where}: status {status} ({code}), expected {allowed}"
        if "expect_code" in step:
            assert code == step["expect_code"], f"{where}: code {code!r}, expected {step['expect_code']!r}"
        if status >= 400:
            assert driver.version() == before, f"{where}: a refused step changed the version"
        if "expect_state" in step:
            check_state(driver.state(), step["expect_state"], where)
    expect = scenario.get("expect", {})
    final = driver.state()
    check_state(final, expect.get("state", {}), f"{sid} final")
    check_events(driver.events_after(created_version), expect, sid)
    return Outcome(final)
