"""The Commander variant (CR 903): commanders in the command zone, the commander tax, commanders
going back to the command zone, and commander damage.

- A commander is its owner's card designated as such; the designation stays with the card
  through zone changes (903.3), so the server knows a commander by its owner and its name
  (``GameState.commander_key``: ``OWNER:Name``). A token copy is not a commander.
- Casting a commander from the command zone costs {2} more for each previous cast from there
  (903.8); ``SpellCast.commander_tax`` records the tax that applied.
- A commander in a graveyard or in exile may be put into the command zone by its owner (903.9a,
  the state-based action of 704.6d, which is the owner's choice); a commander that would go to
  its owner's hand or library may go to the command zone instead (903.9b). Both are reported
  with ``move ... "to": "command"``.
- Combat damage a commander deals to a player is added up per commander (903.10a); 21 or more
  from one commander loses the game (704.6c, in ``domain.rules.sba.player_losses``).
"""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.cards.model import Card
from domain.commands import Move
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.zones import leave_battlefield
from domain.state import GameState, Permanent, Player

#: Combat damage from one commander that loses the game (CR 704.6c, 903.10a).
COMMANDER_DAMAGE_LOSS = 21


def check_in_command_zone(player: Player, card: Card) -> int:
    """A commander cast from the command zone must be there, and be the caster's own (903.8);
    returns the commander tax that applies."""
    if card.name not in {c.name for c in player.command}:
        raise IllegalAction(
            f"{card.name!r} is not in {player.id!r}'s command zone ({[c.name for c in player.command]}); "
            "a player may cast a commander they own from the command zone (CR 903.8)",
            Code.CARD_NOT_IN_ZONE,
        )
    return player.commander_tax(card.name)


def _not_a_commander(what: str, owner: str) -> IllegalAction:
    return IllegalAction(
        f"{what} is not a commander of {owner!r}: only a commander goes to the command zone (CR 903.9)",
        Code.NOT_A_COMMANDER,
    )


def move_to_command(b: Builder, cmd: Move) -> None:
    """A commander goes to its owner's command zone: a permanent instead of its owner's hand or
    library (903.9b), or a card from the graveyard or exile (903.9a, 704.6d)."""
    if cmd.permanent is not None:
        perm = lookup.permanent(b.state, cmd.permanent)
        if b.state.commander_key(perm) is None:
            raise _not_a_commander(f"{perm.id!r} ({perm.card.name})", perm.owner)
        leave_battlefield(b, perm.id, "command", "commander to the command zone", "CR 903.9b")
        return
    assert cmd.player is not None and cmd.card is not None and cmd.from_zone is not None  # the body checks it
    player = lookup.player_in_game(b.state, cmd.player)
    if cmd.card not in player.commanders:
        raise _not_a_commander(repr(cmd.card), player.id)
    cards = player.graveyard if cmd.from_zone == "graveyard" else player.exile
    card = next((c for c in cards if c.name == cmd.card), None)
    if card is None:
        raise IllegalAction(
            f"{cmd.card!r} is not in {player.id!r}'s {cmd.from_zone} ({[c.name for c in cards]})", Code.CARD_NOT_IN_ZONE
        )
    moved = ev.CardsMoved(
        player=player.id, cards=[card.to_json()], from_zone=cmd.from_zone, to="command", cause="commander"
    )
    b.emit(moved, "CR 903.9a")


def commander_damage_key(
    state: GameState, source: Permanent | None, target: dict[str, str], combat: bool
) -> str | None:
    """The ``commander_damage`` key combat damage to a player from ``source`` adds to (903.10a),
    or ``None`` when it isn't a commander's combat damage to a player."""
    if not combat or source is None or "player" not in target:
        return None
    return state.commander_key(source)


def leave_command_zone(b: Builder, player_id: str) -> None:
    """The command zone cards of a player who leaves the game leave it with them (800.4a)."""
    player = b.state.players[player_id]
    if player.command:
        gone = ev.CardsMoved(
            player=player_id,
            cards=[c.to_json() for c in player.command],
            from_zone="command",
            to="none",
            cause="owner left the game",
        )
        b.emit(gone, "CR 800.4a")
