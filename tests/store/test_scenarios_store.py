"""Every rules scenario (tests/scenarios/data) played through the event store, not just the
domain: each step is stored, reloaded and checked, then the whole log is audited."""

from __future__ import annotations

from typing import Any

import pytest

from api.errors import status_of
from domain import evolve
from domain.errors import GameError
from domain.events import Event
from domain.state import GameState
from domain.view import state_view
from ledger.service import LedgerService
from store.results import Actor
from tests.scenarios.support import load_scenarios, run_scenario
from tests.store.conftest import Store

SCENARIOS = load_scenarios()
TABLE = Actor("scenario runner", "judge")


class StoreDriver:
    """The scenario ``Driver`` over a ``LedgerService``: a game in a real database."""

    def __init__(self, service: LedgerService, game_id: str = "g1") -> None:
        self.service = service
        self.game_id = game_id

    def create(self, body: dict[str, Any]) -> int:
        return self.service.create_game(body, TABLE, self.game_id).version

    def action(self, body: dict[str, Any]) -> tuple[int, str | None]:
        try:
            self.service.act(self.game_id, body, TABLE)
        except GameError as err:
            return status_of(err.code), err.code
        return 201, None

    def undo(self, body: dict[str, Any]) -> tuple[int, str | None]:
        try:
            self.service.undo(
                self.game_id,
                to_version=body.get("to_version"),
                actions=body.get("actions"),
                reason=body.get("reason", "scenario"),
                actor=TABLE,
            )
        except GameError as err:
            return status_of(err.code), err.code
        return 201, None

    def state(self) -> dict[str, Any]:
        return state_view(self.service.state_at(self.game_id)[1])

    def version(self) -> int:
        return self.service.head_version(self.game_id)

    def events_after(self, version: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while batch := self.service.events(self.game_id, after=version, limit=100):
            out.extend(e.to_json() for e in batch)
            version = batch[-1].version
        return out


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario_through_the_store(scenario: dict[str, Any], store: Store) -> None:
    if scenario.get("skip"):
        pytest.skip(scenario["skip"])
    service = store.service(snapshot_interval=4)
    outcome = run_scenario(StoreDriver(service), scenario)
    # The audit holds, and a cold reload (another service, snapshots + events) agrees with a
    # fold of the stored events at every version.
    assert service.verify("g1").ok
    cold = store.service(snapshot_interval=4, read_models=False)
    head = cold.head_version("g1")
    state: GameState | None = None
    for event in cold.events("g1", limit=1000):
        state = evolve(state, Event.parse(event.type, event.data, event.rule))  # type: ignore[arg-type]
        assert cold.state_at("g1", event.version)[1] == state, f"version {event.version}"
    assert state is not None and head == len(cold.events("g1", limit=1000))
    assert state_view(state) == outcome.final_state
