"""Mill (CR 701.17): known and unknown libraries, and libraries smaller than the mill."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import CardsMilled, PlayerLost
from tests.domain.helpers import BEARS, BOLT, FOREST, SHOCK, multiplayer, of_type, one, two_player

DRYAD_ARBOR = {"name": "Dryad Arbor", "type_line": "Land Creature — Forest Dryad", "power": "1", "toughness": "1"}


def names(cards: object) -> list[str]:
    return [c.name for c in cards]  # type: ignore[attr-defined]


def test_cr_701_17a_mill_puts_the_top_cards_into_the_graveyard_in_order() -> None:
    game = two_player(p1={"library": [BEARS, FOREST, BOLT]})
    events = game.act("mill", player="P1", count=2)
    data = one(events, CardsMilled.TYPE).data
    assert [c["name"] for c in data["cards"]] == ["Grizzly Bears", "Forest"]
    assert (data["requested"], data["nonland_count"], data["cause"]) == (2, 1, "manual")
    assert names(game.state.players["P1"].graveyard) == ["Grizzly Bears", "Forest"]
    assert names(game.state.players["P1"].library) == ["Lightning Bolt"]


def test_cr_701_17b_a_library_smaller_than_the_mill_mills_as_many_as_possible() -> None:
    game = two_player(p1={"library": [BEARS, BOLT]})
    events = game.act("mill", player="P1", count=5)
    data = one(events, CardsMilled.TYPE).data
    assert (len(data["cards"]), data["requested"]) == (2, 5)
    assert game.view["players"]["P1"]["library_size"] == 0


def test_cr_704_5b_milling_from_an_empty_library_does_not_lose() -> None:
    game = two_player(p1={"library": []})
    events = game.act("mill", player="P1", count=3)
    assert one(events, CardsMilled.TYPE).data["cards"] == []
    assert of_type(events, PlayerLost.TYPE) == []
    assert game.state.status == "in_progress"


def test_unknown_library_mill_must_reveal_the_cards() -> None:
    """CR 701.17a with an unknown library: docs/api.md says every mill from it names the revealed cards."""
    game = two_player(p1={"library_size": 10})
    with pytest.raises(IllegalAction) as err:
        game.act("mill", player="P1", count=2)
    assert err.value.code == "cards_required"
    assert game.view["players"]["P1"]["library_size"] == 10


def test_unknown_library_mill_checks_the_count_of_revealed_cards() -> None:
    """CR 701.17a: mill N moves exactly N cards (or all there are); the revealed cards must match."""
    game = two_player(p1={"library_size": 10})
    for revealed in ([BEARS], [BEARS, BOLT, SHOCK]):
        with pytest.raises(IllegalAction) as err:
            game.act("mill", player="P1", count=2, cards=revealed)
        assert err.value.code == "wrong_card_count"


def test_unknown_library_mill_with_revealed_cards_moves_them() -> None:
    """CR 701.17a with an unknown library: the revealed cards go to the graveyard."""
    game = two_player(p1={"library_size": 10})
    game.act("mill", player="P1", count=2, cards=[BEARS, FOREST])
    assert names(game.state.players["P1"].graveyard) == ["Grizzly Bears", "Forest"]
    assert game.view["players"]["P1"]["library_size"] == 8
    assert game.view["players"]["P1"]["library"] is None


def test_cr_701_17b_unknown_library_smaller_than_the_mill_reveals_only_what_is_there() -> None:
    game = two_player(p1={"library_size": 1})
    with pytest.raises(IllegalAction) as err:
        game.act("mill", player="P1", count=3, cards=[BEARS, BOLT, SHOCK])
    assert err.value.code == "wrong_card_count"
    events = game.act("mill", player="P1", count=3, cards=[BEARS])
    assert one(events, CardsMilled.TYPE).data["requested"] == 3
    assert game.view["players"]["P1"]["library_size"] == 0


def test_known_top_and_unknown_rest_revealed_cards_must_start_with_the_known_ones() -> None:
    """CR 701.17a: the top N cards, so the known top cards come first."""
    game = two_player(p1={"library": [BEARS], "library_size": 5})
    with pytest.raises(IllegalAction) as err:
        game.act("mill", player="P1", count=2, cards=[BOLT, SHOCK])
    assert err.value.code == "illegal_choice"
    game.act("mill", player="P1", count=2, cards=[BEARS, SHOCK])
    assert names(game.state.players["P1"].graveyard) == ["Grizzly Bears", "Shock"]
    assert game.view["players"]["P1"]["library_size"] == 3


def test_known_library_revealed_cards_that_differ_are_refused() -> None:
    """CR 701.17a: the milled cards are the top ones; naming others is refused."""
    game = two_player(p1={"library": [BEARS, BOLT]})
    with pytest.raises(IllegalAction) as err:
        game.act("mill", player="P1", count=1, cards=[SHOCK])
    assert err.value.code == "illegal_choice"


def test_cr_701_17a_a_land_creature_counts_as_a_land_for_nonland_count() -> None:
    game = two_player(p1={"library": [DRYAD_ARBOR, BOLT]})
    events = game.act("mill", player="P1", count=2)
    assert one(events, CardsMilled.TYPE).data["nonland_count"] == 1


def test_cr_800_4a_a_player_who_left_cant_mill() -> None:
    game = multiplayer(3, players={"P3": {"library": [BEARS]}})
    game.act("concede", player="P3")
    with pytest.raises(IllegalAction) as err:
        game.act("mill", player="P3", count=1)
    assert err.value.code == "player_left"
