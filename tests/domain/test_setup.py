"""Creating a game: defaults by variant and validation of the create body (docs/api.md, Games)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.cards.catalog import bundled_catalog
from domain.errors import InvalidCommand
from domain.evolve import fold
from domain.setup import game_started
from domain.state import GameState

CATALOG = bundled_catalog()


def _create(body: dict[str, Any]) -> GameState:
    return fold([game_started(body, "g", CATALOG.resolve)])


def _refused(body: dict[str, Any], code: str) -> InvalidCommand:
    with pytest.raises(InvalidCommand) as err:
        game_started(body, "g", CATALOG.resolve)
    assert err.value.code == code, err.value.message
    return err.value


def test_cr_904_5_and_904_6_the_archenemy_is_the_team_of_one_starts_at_40_and_goes_first() -> None:
    state = _create(
        {
            "variant": "archenemy",
            "players": [{"id": "B1", "team": "B"}, {"id": "B2", "team": "B"}, {"id": "A1", "team": "A"}],
        }
    )
    assert state.players["A1"].life == 40
    assert state.players["B1"].life == state.players["B2"].life == 20
    assert (state.turn.active_player, state.turn.active_team) == ("A1", "A")


def test_cr_904_archenemy_needs_a_team_of_one() -> None:
    _refused(
        {
            "variant": "archenemy",
            "players": [
                {"id": "A", "team": "X"},
                {"id": "B", "team": "X"},
                {"id": "C", "team": "Y"},
                {"id": "D", "team": "Y"},
            ],
        },
        "invalid_players",
    )


def test_cr_810_9_two_headed_giant_life_is_set_on_the_team_not_the_player() -> None:
    body = {
        "variant": "two_headed_giant",
        "players": [
            {"id": "A1", "team": "A", "life": 12},
            {"id": "A2", "team": "A"},
            {"id": "B1", "team": "B"},
            {"id": "B2", "team": "B"},
        ],
    }
    assert "teams.A.life" in _refused(body, "invalid_field").message


@pytest.mark.parametrize(
    "tournament", [{"round": [1, 2]}, {"table": "x"}, {"round": -1}, {"table": 1.5}, {"event": {"a": 1}}]
)
def test_tournament_fields_are_typed(tournament: dict[str, Any]) -> None:
    _refused(
        {"variant": "two_player", "players": [{"id": "A"}, {"id": "B"}], "tournament": tournament}, "invalid_field"
    )


def test_tournament_is_kept() -> None:
    state = _create(
        {
            "variant": "two_player",
            "players": [{"id": "A"}, {"id": "B"}],
            "tournament": {"event": "GP", "round": 3, "table": 12},
        }
    )
    assert state.tournament == {"event": "GP", "round": 3, "table": 12}


@pytest.mark.parametrize("battlefield", [5, -1, 1.5, True, "x"])
def test_battlefield_must_be_a_list(battlefield: Any) -> None:
    _refused(
        {"variant": "two_player", "players": [{"id": "A"}, {"id": "B"}], "battlefield": battlefield}, "invalid_field"
    )


@pytest.mark.parametrize("edition", ["1990-01-01", "2999-01-01"])
def test_rules_edition_must_exist(edition: str) -> None:
    _refused(
        {"variant": "two_player", "players": [{"id": "A"}, {"id": "B"}], "rules_edition": edition}, "invalid_field"
    )


def test_ids_and_counter_kinds_are_bounded() -> None:
    _refused({"variant": "two_player", "players": [{"id": "A" * 101}, {"id": "B"}]}, "invalid_field")
    _refused(
        {"variant": "two_player", "players": [{"id": "A", "counters": {"x" * 65: 1}}, {"id": "B"}]}, "invalid_field"
    )


def test_a_card_object_not_in_the_catalog_needs_its_type_line() -> None:
    body = {"variant": "two_player", "players": [{"id": "A", "library": [{"name": "Homebrew"}]}, {"id": "B"}]}
    _refused(body, "invalid_card")


def test_a_catalog_name_with_another_type_line_is_taken_as_given() -> None:
    """An object that states another type line is that card, not the catalog's Forest."""
    state = _create(
        {
            "variant": "two_player",
            "players": [{"id": "A", "library": [{"name": "Forest", "type_line": "Creature — Treefolk"}]}, {"id": "B"}],
        }
    )
    card = state.players["A"].library[0]
    assert card.is_creature and not card.is_land and card.oracle_text == ""
