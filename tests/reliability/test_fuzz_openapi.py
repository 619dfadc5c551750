"""Schema-driven fuzzing (schemathesis) of a real server, from its own ``/openapi.json``.

Every operation of the document gets generated requests (path and query parameters, headers,
bodies from the request schemas and examples), sent with the admin token to ``mtg-ledger
serve`` on a SQLite store. Half of the requests that name a game name one that exists, so the
action, undo and record endpoints are exercised past the 404. Checks, per response:

- never a 5xx;
- every error (4xx) is problem+json (RFC 9457) with ``type``, ``title``, ``status`` (equal to
  the HTTP status), ``detail`` and ``code``.

``make test`` sends a few hundred requests; ``make soak`` more than 5,000.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.harness import ADMIN_TOKEN, ScratchStore, Server, scratch_store
from tests.reliability.support import GAME, Api

# The import endpoint takes the NDJSON export file as text.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
GAMES = ("fuzz-a", "fuzz-b")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with scratch_store("sqlite", prefix="mtgl_fuzz") as store, Server.ledger(store, workers=1) as running:
        api = Api(running.port)
        for game_id in GAMES:
            api.ok("POST", "/v1/games", {**GAME, "game_id": game_id}, 201)
        api.close()
        yield running


def problem_failure(response: Any) -> str | None:
    """What is wrong with an error response, or None."""
    status = response.status_code
    if status >= 500:
        return f"server error {status}: {response.text[:300]}"
    if status < 400:
        return None
    found = {k.lower(): v for k, v in response.headers.items()}.get("content-type", "")
    media = (found[0] if isinstance(found, list) else found).split(";")[0].strip()
    if media != "application/problem+json":
        return f"{status} as {media!r}, not application/problem+json: {response.text[:200]}"
    try:
        body = response.json()
    except ValueError:
        return f"{status}: problem+json body is not JSON: {response.text[:200]}"
    missing = [k for k in ("type", "title", "status", "detail", "code") if not body.get(k)]
    if missing or body.get("status") != status:
        return f"{status}: incomplete problem {body!r} (missing {missing})"
    return None


def fuzz_operation(server: Server, operation: Any, examples: int, statuses: Counter[int], failures: list[str]) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=examples < 100,  # make test: the same requests every run; soak: new ones
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(), known=st.sampled_from([None, *GAMES]))
    def run(case: Any, known: str | None) -> None:
        if known is not None and "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = known
        if operation.path.endswith("/events/stream"):
            case.query = {**(case.query or {}), "follow": "false"}  # a finite stream
        response = case.call(base_url=server.base, headers=AUTH, timeout=30)
        statuses[response.status_code] += 1
        problem = problem_failure(response)
        if problem is not None and len(failures) < 30:
            failures.append(f"{operation.label} {case.path_parameters} {case.query} {case.body!r:.300}: {problem}")

    run()


def fuzz(server: Server, examples_per_operation: int) -> Counter[int]:
    schema = schemathesis.openapi.from_url(f"{server.base}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15, [op.label for op in operations]
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    for operation in operations:
        fuzz_operation(server, operation, examples_per_operation, statuses, failures)
    assert not failures, "\n".join(failures)
    return statuses


def test_openapi_fuzz_no_5xx_and_problem_json(server: Server) -> None:
    statuses = fuzz(server, examples_per_operation=25)
    assert sum(statuses.values()) >= 300, statuses
    assert statuses[201] > 0 and statuses[404] > 0, statuses  # it reached past the 404s


@pytest.mark.slow
def test_openapi_fuzz_soak(server: Server) -> None:
    statuses = fuzz(server, examples_per_operation=360)
    assert sum(statuses.values()) >= 5000, statuses


@pytest.mark.slow
@pytest.mark.postgres
def test_openapi_fuzz_soak_postgres() -> None:
    from tests.conftest import require_postgres

    with scratch_store("postgresql", require_postgres(), prefix="mtgl_fuzz") as store:
        assert isinstance(store, ScratchStore)
        with Server.ledger(store, workers=1) as running:
            api = Api(running.port)
            for game_id in GAMES:
                api.ok("POST", "/v1/games", {**GAME, "game_id": game_id}, 201)
            api.close()
            statuses = fuzz(running, examples_per_operation=100)
    assert sum(statuses.values()) >= 1500, statuses
