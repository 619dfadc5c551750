"""Folds of cards changing zones and of permanents (CR 110, 400.7, 701.17, 701.26)."""

from __future__ import annotations

from domain import events as ev
from domain.fold.shared import cards, seq_after, set_permanent, set_player, without
from domain.fold.table import FOLDS
from domain.state import GameState, Permanent, forget_object, replace


@FOLDS.on(ev.CardsMilled)
def _cards_milled(state: GameState, e: ev.CardsMilled) -> GameState:
    player = state.players[e.player]
    milled = cards(e.cards)
    from_known = min(len(milled), len(player.library))
    # Unnamed cards come from the unknown part too; the graveyard counts them (CR 701.17a).
    player = replace(
        player,
        library=player.library[from_known:],
        library_unknown=player.library_unknown - (len(milled) - from_known) - e.unnamed_count,
        graveyard=(*player.graveyard, *milled),
        graveyard_unnamed=player.graveyard_unnamed + e.unnamed_count,
    )
    return set_player(state, player)


@FOLDS.on(ev.CardsDrawn)
def _cards_drawn(state: GameState, e: ev.CardsDrawn) -> GameState:
    player = state.players[e.player]
    drawn = cards(e.cards)
    from_known = min(len(drawn), len(player.library))
    revealed_unknown = len(drawn) - from_known  # unknown library cards revealed as drawn
    player = replace(
        player,
        library=player.library[from_known:],
        library_unknown=player.library_unknown - revealed_unknown - e.unknown_count,
        hand=(*player.hand, *drawn),
        hand_unknown=player.hand_unknown + e.unknown_count,
        drew_from_empty=player.drew_from_empty or e.from_empty,
    )
    return set_player(state, player)


@FOLDS.on(ev.CardsMoved)
def _cards_moved(state: GameState, e: ev.CardsMoved) -> GameState:
    """Cards moving between a player's zones other than the battlefield: from the graveyard, hand,
    library (cards from among its top ones) or the stack, to the hand, graveyard or bottom of the
    library. Cards put on the bottom "in a random order" become unknown library cards: nobody
    knows their order (they join the unknown rest)."""
    player = state.players[e.player]
    moved = cards(e.cards)
    if e.from_zone == "graveyard":
        # A card not among the named ones was one of the unnamed cards there, named as it leaves.
        left = without(player.graveyard, moved)
        unnamed = len(moved) - (len(player.graveyard) - len(left))
        player = replace(player, graveyard=left, graveyard_unnamed=max(0, player.graveyard_unnamed - unnamed))
    elif e.from_zone == "library":
        # Cards from among the top ones: each leaves the known part (its first copy there), or
        # else the unknown rest, where it had just been revealed.
        known = list(player.library)
        unknown = player.library_unknown
        for card in moved:
            names = [c.name for c in known]
            if card.name in names:
                del known[names.index(card.name)]
            else:
                unknown -= 1
        player = replace(player, library=tuple(known), library_unknown=unknown)
    elif e.from_zone == "hand":
        player = replace(player, hand=without(player.hand, moved))
    elif e.from_zone == "exile":
        player = replace(player, exile=without(player.exile, moved))
    elif e.from_zone == "command":
        player = replace(player, command=without(player.command, moved))
    if e.to == "command":
        player = replace(player, command=(*player.command, *moved))  # 903.9a
    elif e.to == "hand":
        player = replace(player, hand=(*player.hand, *moved))
    elif e.to == "graveyard":
        player = replace(player, graveyard=(*player.graveyard, *moved))
    elif e.to == "library_bottom":
        if e.random_order or player.library_unknown:
            player = replace(player, library_unknown=player.library_unknown + len(moved))
        else:
            player = replace(player, library=(*player.library, *moved))
    return set_player(state, player)


@FOLDS.on(ev.PermanentEntered)
def _permanent_entered(state: GameState, e: ev.PermanentEntered) -> GameState:
    perm = Permanent.from_json(e.permanent)
    state = set_permanent(state, perm)
    if e.from_zone == "hand":
        player = state.players[perm.owner]
        hand = list(player.hand)
        names = [c.name for c in hand]
        if perm.card.name in names:
            del hand[names.index(perm.card.name)]
            player = replace(player, hand=tuple(hand))
        elif player.hand_unknown > 0:
            player = replace(player, hand_unknown=player.hand_unknown - 1)
        if e.land_play:
            player = replace(player, lands_played=player.lands_played + 1)
        state = set_player(state, player)
    return replace(state, next_seq=seq_after(state, e.seq))


@FOLDS.on(ev.PermanentLeft)
def _permanent_left(state: GameState, e: ev.PermanentLeft) -> GameState:
    perm = state.battlefield[e.permanent]
    battlefield = dict(state.battlefield)
    del battlefield[perm.id]
    # 400.7: what comes back is a new object; its "once each turn" memories don't carry over.
    state = replace(state, battlefield=battlefield, turn_memory=forget_object(state.turn_memory, perm.id))
    if perm.token or e.to == "none":
        return state  # 111.7: a token that leaves the battlefield ceases to exist
    owner = state.players[perm.owner]
    if e.to == "graveyard":
        owner = replace(owner, graveyard=(*owner.graveyard, perm.card))
    elif e.to == "exile":
        owner = replace(owner, exile=(*owner.exile, perm.card))
    elif e.to == "command":
        owner = replace(owner, command=(*owner.command, perm.card))  # 903.9b
    elif e.to == "hand":
        owner = replace(owner, hand=(*owner.hand, perm.card))
    elif e.to == "library_top":
        owner = replace(owner, library=(perm.card, *owner.library))
    elif e.to == "library_bottom":
        if owner.library_unknown:
            # Below an unknown rest the card's position can't be listed: it joins the unknown part.
            owner = replace(owner, library_unknown=owner.library_unknown + 1)
        else:
            owner = replace(owner, library=(*owner.library, perm.card))
    return set_player(state, owner)


@FOLDS.on(ev.PermanentTapped)
def _tapped(state: GameState, e: ev.PermanentTapped) -> GameState:
    return set_permanent(state, replace(state.battlefield[e.permanent], tapped=True))


@FOLDS.on(ev.PermanentUntapped)
def _untapped(state: GameState, e: ev.PermanentUntapped) -> GameState:
    return set_permanent(state, replace(state.battlefield[e.permanent], tapped=False))


@FOLDS.on(ev.ControlChanged)
def _control_changed(state: GameState, e: ev.ControlChanged) -> GameState:
    """A new controller; the permanent hasn't been under it since their turn began (302.6)."""
    perm = state.battlefield[e.permanent]
    before = None if e.ends_effects else (perm.controller_before_effects or perm.controller)
    changed = replace(
        perm,
        controller=e.controller,
        controlled_since_turn_began=False,
        controller_before_effects=None if before == e.controller else before,
    )
    return set_permanent(state, changed)


@FOLDS.on(ev.PowerToughnessModified)
def _power_toughness_modified(state: GameState, e: ev.PowerToughnessModified) -> GameState:
    perm = state.battlefield[e.permanent]
    changed = replace(
        perm,
        power_until_eot=perm.power_until_eot + e.power,
        toughness_until_eot=perm.toughness_until_eot + e.toughness,
    )
    return set_permanent(state, changed)
