"""Decklist legality (issue 42): deck construction by the Comprehensive Rules (100.2a, 100.2b,
100.4a, 903.3, 903.5a-c) and banned/restricted cards by the catalog's own ``legalities`` (the
Scryfall data ``mtg-ledger cards import`` keeps), never by a list written in the code."""

from __future__ import annotations

import dataclasses

import pytest

from domain.errors import Code, InvalidCommand
from domain.tournament.decklists_legality import CardFacts, DecklistRefused, check_decklist
from domain.tournament.decklists_text import Entry, parse_decklist
from ledger.decklist_catalog import card_facts
from tests.tournament.decklist_cards import ENTRIES

CATALOG = card_facts(ENTRIES)
BURN = "4 Lightning Bolt\n4 Goblin Guide\n4 Monastery Swiftspear\n4 Lava Spike\n4 Skewer the Critics\n20 Mountain\n"
SIDE = "Sideboard\n4 Smash to Smithereens\n"


def refused(
    text: str, fmt: str = "Modern", kind: str = "two_player", catalog: dict[str, CardFacts] = CATALOG
) -> list[str]:
    with pytest.raises(DecklistRefused) as caught:
        check_decklist(parse_decklist(text), fmt, kind, catalog)
    return list(caught.value.reasons)


def legal(text: str, fmt: str = "Modern", kind: str = "two_player") -> None:
    check_decklist(parse_decklist(text), fmt, kind, CATALOG)


def test_cr_100_2a_a_constructed_deck_has_at_least_60_cards() -> None:
    legal(BURN + "20 Mountain\n" + SIDE)  # 60
    reasons = refused(BURN + "19 Mountain\n")
    assert reasons == ["the main deck has 59 cards: at least 60 (CR 100.2a)"]


def test_cr_100_2a_four_copies_except_basic_lands_counting_the_sideboard_100_4a() -> None:
    legal(BURN + "20 Mountain\n")  # 40 Mountains: basic lands are not limited
    assert refused(BURN + "20 Mountain\nSideboard\n1 Lightning Bolt\n") == [
        "5 copies of Lightning Bolt: at most 4 (CR 100.2a)"
    ]


def test_cards_that_say_otherwise_break_the_four_copy_limit() -> None:
    legal("30 Relentless Rats\n30 Swamp\n")  # "A deck can have any number of cards named ..."
    legal("7 Seven Dwarves\n53 Mountain\n")  # "... up to seven cards named ..."
    assert refused("8 Seven Dwarves\n52 Mountain\n") == ["8 copies of Seven Dwarves: at most 7 (CR 100.2a)"]


def test_cr_100_4a_a_constructed_sideboard_has_at_most_15_cards() -> None:
    legal(BURN + "20 Mountain\nSideboard\n4 Smash to Smithereens\n4 Duress\n7 Mountain\n")
    reasons = refused(BURN + "20 Mountain\nSideboard\n4 Smash to Smithereens\n4 Duress\n8 Mountain\n")
    assert reasons == ["the sideboard has 16 cards: at most 15 (CR 100.4a)"]


def test_banned_comes_from_the_catalogs_legalities() -> None:
    text = BURN + "16 Mountain\n4 Splinter Twin\n"
    assert refused(text) == ["Splinter Twin is banned in Modern (the catalog's legalities)"]
    assert refused(text, "Pioneer") == ["Splinter Twin is not legal in Pioneer (the catalog's legalities)"]
    legal(text, "Legacy")  # the catalog says legal there
    # The verdict is the data's: the same card with Modern legal in the catalog is accepted.
    twin = CATALOG["splinter twin"]
    unbanned = {**CATALOG, "splinter twin": dataclasses.replace(twin, legalities={"modern": "legal"})}
    check_decklist(parse_decklist(text), "Modern", "two_player", unbanned)


def test_restricted_means_one_copy_banned_means_none() -> None:
    legal(BURN + "19 Mountain\n1 Black Lotus\n", "Vintage")
    assert refused(BURN + "18 Mountain\n2 Black Lotus\n", "Vintage") == [
        "Black Lotus is restricted in Vintage: at most 1 copy, not 2 (the catalog's legalities)"
    ]
    assert refused(BURN + "19 Mountain\n1 Black Lotus\n", "Legacy") == [
        "Black Lotus is banned in Legacy (the catalog's legalities)"
    ]


def test_a_card_without_legality_data_is_a_warning_not_a_refusal() -> None:
    bare = {**CATALOG, "duress": dataclasses.replace(CATALOG["duress"], legalities=None)}
    checked = check_decklist(parse_decklist(BURN + "20 Mountain\nSideboard\n2 Duress\n"), "Modern", "two_player", bare)
    assert checked.warnings == ("the catalog has no Modern legality for Duress",)


def test_cr_100_2b_a_limited_deck_has_at_least_40_cards_and_any_number_of_copies() -> None:
    legal("9 Lightning Bolt\n14 Goblin Guide\n17 Mountain\n", "Sealed")
    assert refused("9 Lightning Bolt\n13 Goblin Guide\n17 Mountain\n", "Booster Draft") == [
        "the main deck has 39 cards: at least 40 (CR 100.2b)"
    ]


def test_cr_903_5_commander_100_cards_singleton_colour_identity() -> None:
    commander = "Commander\n1 Krenko, Mob Boss\nDeck\n1 Lightning Bolt\n1 Goblin Guide\n"
    legal(commander + "97 Mountain\n", "Commander", "commander")
    assert refused(commander + "96 Mountain\n", "Commander", "commander") == [
        "the deck has 99 cards with its commander: exactly 100 (CR 903.5a)"
    ]
    assert refused(commander + "2 Lava Spike\n95 Mountain\n", "Commander", "commander") == [
        "2 copies of Lava Spike: at most 1 (CR 903.5b: singleton)"
    ]
    assert refused(commander + "1 Counterspell\n96 Mountain\n", "Commander", "commander") == [
        "Counterspell's colour identity has U, outside the commander's R (CR 903.5c)"
    ]
    assert refused(commander + "1 Sol Ring\n1 Black Lotus\n95 Mountain\n", "Commander", "commander") == [
        "Black Lotus is banned in Commander (the catalog's legalities)"
    ]


def test_cr_903_3_the_commander_is_a_legendary_creature_vehicle_or_spacecraft() -> None:
    text = "Commander\n1 Goblin Guide\nDeck\n99 Mountain\n"
    assert refused(text, "Commander", "commander") == [
        "Goblin Guide is not a legendary creature, Vehicle or Spacecraft: it can't be a commander (CR 903.3)"
    ]


def test_unknown_names_are_reported_not_accepted() -> None:
    with pytest.raises(DecklistRefused) as caught:
        check_decklist(
            parse_decklist(BURN + "18 Mountain\n2 Lightning Blot\n2 Fake Card\n"), "Modern", "two_player", CATALOG
        )
    assert caught.value.code == Code.DECKLIST_UNKNOWN_CARD
    assert caught.value.reasons == ("not in the card catalog: Lightning Blot", "not in the card catalog: Fake Card")


def test_the_text_format_mtgo_arena_and_sb_lines() -> None:
    mtgo = parse_decklist("4 Lightning Bolt\n56 Mountain\n\n2 Duress\n")
    assert mtgo.sideboard == (Entry(2, "Duress"),)
    arena = parse_decklist(
        "Deck\n4x Lightning Bolt (M10) 146\n// burn\n56 Mountain\n\nSideboard:\nSB: 1 Duress\n1 Duress\n"
    )
    assert arena.main == (Entry(4, "Lightning Bolt"), Entry(56, "Mountain"))
    assert arena.sideboard == (Entry(2, "Duress"),)


def test_unreadable_and_over_long_lists_are_refused_with_their_codes() -> None:
    with pytest.raises(InvalidCommand) as caught:
        parse_decklist("4 Lightning Bolt\nLightning Bolt x4\n")
    assert caught.value.code == Code.DECKLIST_UNREADABLE and "line 2" in caught.value.message
    with pytest.raises(InvalidCommand) as caught:
        parse_decklist("".join(f"1 Card {i}\n" for i in range(251)))
    assert caught.value.code == Code.DECKLIST_TOO_LONG
    with pytest.raises(InvalidCommand) as caught:
        parse_decklist("1 " + "x" * 8_000)
    assert caught.value.code == Code.DECKLIST_TOO_LONG
