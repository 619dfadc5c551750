"""The start of a game (CR 103): who takes the first turn (103.1) and mulligans (103.5, the London
mulligan; 103.5c, the free first mulligan of a multiplayer game).

The opening lasts until the game's first turn-based action: while the game is still in the untap
step of turn 1 it was created in (``GameState.in_opening``). The server never knows the cards of
a paper hand: a mulligan draws an unknown hand, and keeping puts unknown cards (or the cards the
table names) on the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import events as ev
from domain.builder import Builder
from domain.cards.model import Card
from domain.commands import ChooseFirstPlayer
from domain.errors import Code, IllegalAction, InvalidCommand
from domain.rules import lookup
from domain.state import GameState, Player

#: The starting hand size (CR 103.5: "normally seven").
STARTING_HAND = 7


def _decided(state: GameState) -> list[str]:
    """Players who took a mulligan or kept a hand: the mulligan process has begun."""
    return [p.id for p in state.players.values() if p.mulligans or p.hand_kept]


def choose_first_player(b: Builder, cmd: ChooseFirstPlayer) -> None:
    """The player who takes the first turn (CR 103.1): named, or the ledger's random pick. Chosen
    once, before anyone mulligans (103.5 starts with the starting player) and before the first
    turn-based action. The archenemy always goes first (CR 904.6)."""
    state = b.state
    if state.variant == "archenemy":
        raise IllegalAction("in archenemy the archenemy takes the first turn (CR 904.6)", Code.ILLEGAL_ACTION)
    if not state.in_opening:
        raise IllegalAction(
            f"too late to choose who plays first: the game is in turn {state.turn.number}, {state.turn.step} "
            "(CR 103.1: it is chosen before the first turn)",
            Code.TOO_LATE_TO_CHOOSE,
        )
    if state.first_player is not None:
        chosen = state.first_player
        raise IllegalAction(
            f"the first player was already chosen: {chosen['player']!r} ({chosen['method']}); a judge's backup "
            "undoes a wrong choice",
            Code.TOO_LATE_TO_CHOOSE,
        )
    decided = _decided(state)
    if decided:
        raise IllegalAction(
            f"too late to choose who plays first: {decided} already took a mulligan or kept (CR 103.1, 103.5)",
            Code.TOO_LATE_TO_CHOOSE,
        )
    if cmd.player is not None:
        player, method = cmd.player, "chosen"
    elif cmd.drawn is not None:
        player, method = cmd.drawn, "random"
    else:  # only a caller other than the ledger (which always draws) can get here
        raise InvalidCommand("a random first player is picked by the server: none was given", Code.INVALID_COMMAND)
    lookup.player_in_game(state, player)
    b.emit(ev.FirstPlayerChosen(player=player, method=method), "CR 103.1")


def _in_opening(state: GameState, player: Player, what: str) -> None:
    if not state.in_opening:
        raise IllegalAction(
            f"too late to {what}: the game is in turn {state.turn.number}, {state.turn.step}; mulligans are taken "
            "before the game's first turn-based action (CR 103.5)",
            Code.TOO_LATE_TO_MULLIGAN,
        )
    if player.hand_kept:
        raise IllegalAction(f"{player.id!r} kept their hand: no further mulligans (CR 103.5)", Code.HAND_ALREADY_KEPT)


def free_mulligans(state: GameState) -> int:
    """Mulligans that don't count: the first one in a multiplayer game (CR 103.5c)."""
    return 1 if state.began_multiplayer else 0


def counted(state: GameState, mulligans: int) -> int:
    """Mulligans that count toward the cards put on the bottom (CR 103.5, 103.5c)."""
    return max(0, mulligans - free_mulligans(state))


def mulligan(b: Builder, player_id: str) -> None:
    """The player shuffles their hand into their library and draws a new hand of seven (CR 103.5);
    they may do so until their opening hand would be zero cards."""
    state = b.state
    player = lookup.player_in_game(state, player_id)
    _in_opening(state, player, "take a mulligan")
    if counted(state, player.mulligans) >= STARTING_HAND:
        raise IllegalAction(
            f"{player_id!r} took {player.mulligans} mulligans: their opening hand would be zero cards, the last "
            "mulligan they may take (CR 103.5)",
            Code.ILLEGAL_ACTION,
        )
    hand = min(STARTING_HAND, player.library_size + player.hand_size)
    b.emit(ev.MulliganTaken(player=player_id, mulligans=player.mulligans + 1, hand_size=hand), "CR 103.5")


def keep_hand(b: Builder, player_id: str, bottom: Sequence[Card] | None) -> None:
    """The player keeps their hand and puts one card on the bottom of their library for each
    mulligan that counts (CR 103.5, 103.5c), as many as the hand holds. Cards the table names go
    from the hand; the others go unknown."""
    state = b.state
    player = lookup.player_in_game(state, player_id)
    _in_opening(state, player, "keep a hand")
    count = min(counted(state, player.mulligans), player.hand_size)
    named = list(bottom or ())
    if len(named) > count:
        raise IllegalAction(
            f"{player_id!r} puts {count} card(s) on the bottom after {player.mulligans} mulligan(s) (CR 103.5"
            f"{', 103.5c: the first is free in a multiplayer game' if free_mulligans(state) else ''}); "
            f"'bottom' names {len(named)}",
            Code.WRONG_CARD_COUNT,
        )
    known = list(player.hand)
    unknown = player.hand_unknown
    for card in named:
        names = [c.name for c in known]
        if card.name in names:
            del known[names.index(card.name)]
        elif unknown > 0:
            unknown -= 1  # one of the hand's unknown cards, named as it goes to the bottom
        else:
            raise IllegalAction(f"{card.name!r} is not in {player_id!r}'s hand", Code.CARD_NOT_IN_HAND)
    kept = ev.HandKept(
        player=player_id,
        mulligans=player.mulligans,
        bottom_count=count,
        bottom=[c.to_json() for c in named] or None,
    )
    b.emit(kept, "CR 103.5")


def check_mulligans_done(state: GameState) -> None:
    """Leaving the opening: every player who took a mulligan must have kept a hand (CR 103.5: the
    process repeats until no player takes a mulligan); players who never took one keep theirs."""
    if not state.in_opening:
        return
    waiting = [p.id for p in state.in_game() if p.mulligans and not p.hand_kept]
    if waiting:
        raise IllegalAction(
            f"{waiting} took a mulligan and have not kept a hand: keep_hand first (CR 103.5)", Code.MULLIGAN_PENDING
        )
