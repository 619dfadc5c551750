"""Every rules scenario, played straight through the domain kernel (decide + evolve)."""

from __future__ import annotations

from typing import Any

import pytest

from api.errors import status_of
from domain import decide, evolve
from domain.cards.catalog import bundled_catalog
from domain.commands import parse_command
from domain.errors import GameError
from domain.events import Event
from domain.setup import game_started
from domain.state import GameState
from domain.view import state_view
from tests.scenarios.support import load_scenarios, run_scenario

SCENARIOS = load_scenarios()


class DomainDriver:
    """A game held in memory: the events and the state their fold gives."""

    def __init__(self) -> None:
        self.catalog = bundled_catalog()
        self.events: list[Event] = []
        self._state: GameState | None = None

    def create(self, body: dict[str, Any]) -> int:
        event = game_started(body, "g1", self.catalog.resolve)
        self._state = evolve(None, event)  # type: ignore[arg-type]
        self.events = [event]
        return 1

    def action(self, body: dict[str, Any]) -> tuple[int, str | None]:
        assert self._state is not None
        try:
            events = decide(self._state, parse_command(body, self.catalog.resolve))
        except GameError as err:
            return status_of(err.code), err.code
        for event in events:
            self._state = evolve(self._state, event)
        self.events.extend(events)
        return 201, None

    def undo(self, body: dict[str, Any]) -> tuple[int, str | None]:
        raise NotImplementedError("undo is covered by the projection tests")

    def state(self) -> dict[str, Any]:
        assert self._state is not None
        return state_view(self._state)

    def version(self) -> int:
        return len(self.events)

    def events_after(self, version: int) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events[version:]]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario_through_domain(scenario: dict[str, Any]) -> None:
    if scenario.get("skip"):
        pytest.skip(scenario["skip"])
    run_scenario(DomainDriver(), scenario)
