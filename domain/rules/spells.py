"""Casting spells (CR 601) and playing lands (CR 305)."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import behaviour_of
from domain.cards.model import Card
from domain.commands import Cast, PlayLand
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.commander import check_in_command_zone
from domain.rules.stack import settle
from domain.rules.zones import enter_battlefield, slug
from domain.state import GameState, Permanent, Player, StackObject

MAIN_PHASES = ("precombat_main", "postcombat_main")


def _sorcery_timing(state: GameState, player_id: str, what: str) -> None:
    """Main phase of the player's own turn with an empty stack (CR 307.1, 305.1)."""
    if player_id not in state.active_players() or state.turn.step not in MAIN_PHASES or state.stack:
        raise IllegalAction(
            f"{player_id!r} can {what} only in a main phase of their own turn with an empty stack "
            f"(now: turn {state.turn.number} of {state.turn.active_player!r}, step {state.turn.step}, "
            f"{len(state.stack)} object(s) on the stack)",
            Code.WRONG_TIMING,
        )


def _check_in_hand(player: Player, card: Card) -> None:
    if card.name not in {c.name for c in player.hand} and player.hand_unknown == 0:
        raise IllegalAction(
            f"{card.name!r} is not in {player.id!r}'s hand",
            Code.CARD_NOT_IN_HAND,
            hidden=f"known hand: {[c.name for c in player.hand]}",
        )


def _check_in_zone(player: Player, card: Card, zone: str) -> None:
    """A card cast from a graveyard, exile or the top of a library must be there (CR 601.2a)."""
    if zone in ("graveyard", "exile"):
        cards = player.graveyard if zone == "graveyard" else player.exile
        if card.name not in {c.name for c in cards}:
            raise IllegalAction(
                f"{card.name!r} is not in {player.id!r}'s {zone} ({[c.name for c in cards]})", Code.CARD_NOT_IN_ZONE
            )
    elif zone == "library":
        top = player.library[0].name if player.library else None
        if (top is not None and top != card.name) or player.library_size == 0:
            raise IllegalAction(
                f"{card.name!r} is not the top card of {player.id!r}'s library",
                Code.CARD_NOT_IN_ZONE,
                hidden=f"top: {top!r}",
            )


def cast(b: Builder, cmd: Cast) -> None:
    state = b.state
    player = lookup.player_in_game(state, cmd.player)
    card = cmd.card
    if card.is_land:
        raise IllegalAction(f"{card.name!r} is a land: play it with play_land (CR 305.9)", Code.CANNOT_CAST_LAND)
    if not (card.is_instant or card.has_keyword("flash")):
        _sorcery_timing(state, cmd.player, f"cast {card.name!r}")
    tax = None
    if cmd.from_zone == "hand":
        _check_in_hand(player, card)
    elif cmd.from_zone == "command":
        tax = check_in_command_zone(player, card)  # 903.8
    else:
        _check_in_zone(player, card, cmd.from_zone)
    behaviour = behaviour_of(card.name)
    if behaviour is not None and behaviour.spell_targets is not None:
        behaviour.spell_targets(state, cmd.player, cmd.targets)  # 601.2c
    if behaviour is not None and behaviour.spell_effect:
        effect = behaviour.spell_effect
    elif card.is_permanent_card:
        effect = "permanent_spell"
    else:
        effect = "described"
    seq = b.next_seq()
    params: dict[str, Any] = {"seq": seq}
    if cmd.x:
        params["x"] = cmd.x
    if cmd.targets:
        params["targets"] = list(cmd.targets)
    if behaviour is not None and behaviour.spell_needs:
        params["needs"] = list(behaviour.spell_needs)
    x_text = f" with X = {cmd.x}" if cmd.x else ""
    obj = StackObject(
        id=f"s{seq}",
        kind="spell",
        controller=cmd.player,
        source=card.name,
        description=f"{cmd.player} casts {card.name}{x_text}",
        effect=effect,
        params=params,
        card=card,
    )
    cast_event = ev.SpellCast(
        player=cmd.player, object=obj.to_json(), from_zone=cmd.from_zone, seq=seq, commander_tax=tax
    )
    b.emit(cast_event, "CR 903.8" if tax is not None else "CR 601.2")
    settle(b)


def play_land(b: Builder, cmd: PlayLand) -> None:
    """One land per turn, in a main phase of one's own turn, with an empty stack (305.1, 305.2)."""
    state = b.state
    player = lookup.player_in_game(state, cmd.player)
    if not cmd.card.is_land:
        raise IllegalAction(f"{cmd.card.name!r} is not a land card", Code.NOT_A_LAND)
    _sorcery_timing(state, cmd.player, "play a land")
    if player.lands_played >= 1:
        raise IllegalAction(f"{cmd.player!r} has already played a land this turn (CR 305.2)", Code.LAND_ALREADY_PLAYED)
    _check_in_hand(player, cmd.card)
    seq = b.next_seq()
    perm = Permanent(
        id=f"{slug(cmd.card.name)}-{seq}",
        card=cmd.card,
        owner=cmd.player,
        controller=cmd.player,
        controlled_since_turn_began=False,
    )
    enter_battlefield(b, perm, origin="hand", land_play=True, seq=seq, rule="CR 305.1")
    settle(b)
