"""Moving cards between zones: mill (CR 701.17), draw (CR 121), leaving and entering the
battlefield (CR 400.7, 122.2, 111.7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import behaviour_of
from domain.cards.model import Card
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.replacements import counters_to_place, tokens_to_create
from domain.state import Permanent, Player


def _revealed(player: Player, n: int, revealed: Sequence[Card] | None, what: str) -> tuple[list[Card], int]:
    """The cards leaving the top of a library: known ones, plus revealed ones for the unknown rest.

    Returns the cards named and how many unknown cards stay unnamed (a draw's, or a mill's whose
    nonland count is given).
    """
    known = list(player.library[:n])
    if revealed is None:
        return known, n - len(known)
    if len(revealed) != n:
        raise IllegalAction(
            f"{what} takes {n} card(s) from {player.id!r}'s library of {player.library_size}: "
            f"'cards' must name exactly {n}, got {len(revealed)}",
            Code.WRONG_CARD_COUNT,
        )
    for i, card in enumerate(known):
        if revealed[i].name != card.name:
            raise IllegalAction(
                f"{what}: card {i + 1} from the top of {player.id!r}'s library is not {revealed[i].name!r}",
                Code.ILLEGAL_CHOICE,
                hidden=f"it is {card.name!r}",
            )
    return known + list(revealed[len(known) :]), 0


def mill(
    b: Builder,
    player_id: str,
    count: int,
    cause: str,
    revealed: Sequence[Card] | None = None,
    rule: str = "CR 701.17a",
    *,
    nonland_count: int | None = None,
) -> ev.CardsMilled:
    """Mill: the top ``count`` cards go to the graveyard, as many as possible (701.17a/b).

    Cards from the unknown part of the library are named in ``revealed`` (their count is checked)
    or, when the table doesn't name them, counted: ``nonland_count`` says how many of all the
    milled cards were nonland, and the graveyard counts the unnamed ones. Returns the event."""
    player = lookup.player(b.state, player_id)
    n = min(count, player.library_size)
    cards, unnamed = _revealed(player, n, revealed, f"mill {count}")
    named_nonland = sum(1 for c in cards if not c.is_land)
    if unnamed and nonland_count is None:
        raise IllegalAction(
            f"mill {count} from {player_id!r}: {n} card(s) leave a library the server doesn't fully know; "
            f"name them in 'cards' (the {n} milled cards, top first) or give 'nonland_count' (how many of "
            f"the {n} were nonland)",
            Code.CARDS_REQUIRED,
            hidden=f"{unnamed} of them unknown",
        )
    nonland = named_nonland
    if nonland_count is not None:
        if not named_nonland <= nonland_count <= named_nonland + unnamed:
            # The known top cards may be hidden (a library is, CR 400.2), and so is how many there
            # are: the bounds are for judges.
            raise IllegalAction(
                f"mill {count} from {player_id!r}: 'nonland_count' {nonland_count} can't be right for the {n} "
                "milled card(s)",
                Code.ILLEGAL_CHOICE,
                hidden=f"between {named_nonland} and {named_nonland + unnamed} of them are nonland",
            )
        nonland = nonland_count
    milled = ev.CardsMilled(
        player=player_id,
        cards=[c.to_json() for c in cards],
        requested=count,
        nonland_count=nonland,
        cause=cause,
        unnamed_count=unnamed,
    )
    b.emit(milled, rule)
    return milled


def draw(
    b: Builder,
    player_id: str,
    count: int,
    cause: str,
    revealed: Sequence[Card] | None = None,
    rule: str = "CR 121.1",
) -> None:
    """Draw cards one by one; a draw from an empty library marks the player for 704.5b."""
    player = lookup.player(b.state, player_id)
    n = min(count, player.library_size)
    cards, unnamed = _revealed(player, n, revealed, f"draw {count}")
    b.emit(
        ev.CardsDrawn(
            player=player_id,
            cards=[c.to_json() for c in cards],
            unknown_count=unnamed,
            requested=count,
            from_empty=count > n,
            cause=cause,
        ),
        rule,
    )


def leave_battlefield(b: Builder, permanent_id: str, to: str, reason: str, rule: str | None = None) -> None:
    """A permanent leaves; its counters cease to exist, nothing is "removed" (122.2, 400.7)."""
    perm = lookup.permanent(b.state, permanent_id)
    b.emit(
        ev.PermanentLeft(permanent=perm.id, name=perm.card.name, to=to, reason=reason, last_known=perm.to_json()),
        rule,
    )


def enter_battlefield(
    b: Builder,
    perm: Permanent,
    *,
    origin: str | None = None,
    land_play: bool = False,
    seq: int | None = None,
    rule: str | None = None,
) -> None:
    """Put a permanent onto the battlefield with the counters it enters with (614.1c, 714.3a)."""
    entered = ev.PermanentEntered(permanent=perm.to_json(), from_zone=origin or None, land_play=land_play, seq=seq)
    b.emit(entered, rule)


def enters_with_counters(b: Builder, card: Card, controller: str, given: Mapping[str, int], x: int) -> dict[str, int]:
    """Counters a permanent enters with: the given ones, "enters with X" (107.3m), a Saga's first
    lore counter (714.3a), a planeswalker's printed loyalty (306.5b); counter-placement
    replacements apply to each kind (614.1c, 616). The Saga's lore counter is put by a rule, not
    an effect, so "if an effect would put counters" (Doubling Season) doesn't apply to it."""
    counts = dict(given)
    behaviour = behaviour_of(card.name)
    if behaviour is not None and behaviour.enters_with_x_counters and x > 0:
        kind = behaviour.enters_with_x_counters
        counts[kind] = counts.get(kind, 0) + x
    by_rule: set[str] = set()
    if card.is_saga and "lore" not in counts:
        counts["lore"] = 1
        by_rule.add("lore")
    loyalty = card.int_stat(card.loyalty)
    if "Planeswalker" in card.types and loyalty and "loyalty" not in counts:
        counts["loyalty"] = loyalty
    # The permanent isn't on the battlefield yet; replacement effects look at it as it would exist.
    probe = Permanent(id="\0entering", card=card, owner=controller, controller=controller)
    state = b.state
    battlefield = dict(state.battlefield)
    battlefield[probe.id] = probe
    from dataclasses import replace

    shadow = replace(state, battlefield=battlefield)
    order = b.replacement_order
    placed = {
        kind: counters_to_place(shadow, {"permanent": probe.id}, kind, n, order=order, by_effect=kind not in by_rule)
        for kind, n in counts.items()
    }
    return {kind: n for kind, n in placed.items() if n > 0}


def slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-") or "permanent"


def create_tokens(
    b: Builder, controller: str, card: Card, count: int, cause: str, *, tapped: bool = False
) -> list[str]:
    """Create ``count`` tokens (CR 111.1); token-creation replacements of automated cards apply."""
    ids = []
    for _ in range(tokens_to_create(b.state, controller, count)):
        seq = b.next_seq()
        perm = Permanent(
            id=f"{slug(card.name)}-token-{seq}",
            card=card,
            owner=controller,
            controller=controller,
            tapped=tapped,
            counters=enters_with_counters(b, card, controller, {}, 0),
            controlled_since_turn_began=False,
            token=True,
        )
        enter_battlefield(b, perm, origin=None, seq=seq, rule="CR 111.1")
        ids.append(perm.id)
    return ids
