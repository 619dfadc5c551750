"""``domain.values.replace``: the fold's copy of a frozen value must be exactly
``dataclasses.replace``'s (the fold equals the live state only if no field is lost)."""

from __future__ import annotations

import dataclasses

import pytest

from domain.game_objects import Permanent, Player
from domain.state import GameState
from domain.values import replace
from tests.domain.helpers import two_player


def two_player_game() -> GameState:
    return two_player(battlefield=[{"id": "bear", "card": "Grizzly Bears", "controller": "P1"}]).state


def _every_field(value: object) -> dict[str, object]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}  # type: ignore[arg-type]


def test_replace_keeps_every_other_field_and_sets_the_changed_ones() -> None:
    state: GameState = two_player_game()
    changed = replace(state, next_seq=state.next_seq + 7, monarch="P2")
    expected = dataclasses.replace(state, next_seq=state.next_seq + 7, monarch="P2")
    assert type(changed) is GameState
    assert _every_field(changed) == _every_field(expected)
    assert changed.next_seq == state.next_seq + 7 and changed.monarch == "P2"
    assert state.monarch is None  # the original is untouched


def test_replace_works_for_each_kernel_class_and_stays_frozen() -> None:
    player: Player = next(iter(two_player_game().players.values()))
    copy = replace(player, life=3)
    assert _every_field(copy) == _every_field(dataclasses.replace(player, life=3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.life = 4  # type: ignore[misc]


def test_replace_refuses_a_field_the_class_does_not_have() -> None:
    with pytest.raises(TypeError, match="no field 'lief'"):
        replace(next(iter(two_player_game().players.values())), lief=3)


def test_replace_of_a_permanent_copies_its_counters_mapping_by_reference_only_when_unchanged() -> None:
    bear: Permanent = two_player_game().battlefield["bear"]
    tapped = replace(bear, tapped=True)
    assert _every_field(tapped) == _every_field(dataclasses.replace(bear, tapped=True))
    assert tapped.counters is bear.counters  # unchanged fields are shared, as dataclasses.replace does
