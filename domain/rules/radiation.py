"""Rad counters: the inherent triggered ability of CR 728.1."""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import TriggerSpec
from domain.commands import Choices
from domain.rules.counters import remove_counters
from domain.rules.life import gain_life, lose_life
from domain.rules.replacements import radiation_life_gain_instead
from domain.rules.zones import mill
from domain.state import GameState, StackObject

RULE = "CR 728.1"


def radiation_triggers(state: GameState) -> list[TriggerSpec]:
    """At the beginning of a player's precombat main phase, if they have rad counters (728.1).

    It has no source. In shared team turns it triggers once for each player of the active team
    who has rad counters; each instance is controlled by the player whose counters it counts,
    which in a one-player turn is the active player (805.4d, PIP rulings 2024-03-08).
    The "if" is an intervening-if (603.4): checked here and again on resolution.
    """
    return [
        TriggerSpec(
            controller=pid,
            source=None,
            description=f"Rad counters (CR 728.1): {pid} mills cards equal to their rad counters",
            effect="radiation",
            params={"player": pid},
        )
        for pid in state.active_players()
        if state.players[pid].counters.get("rad", 0) > 0
    ]


def radiation_mills(state: GameState, player_id: str) -> int:
    """How many cards resolving now mills: the rad count, as many as the library holds (701.17b)."""
    player = state.players[player_id]
    return min(player.counters.get("rad", 0), player.library_size)


def radiation_needs_cards(state: GameState, player_id: str) -> bool:
    """Whether resolving now mills cards the server doesn't know (an unknown library): they are
    named in ``choices.cards``, or counted in ``choices.nonland_count``."""
    return radiation_mills(state, player_id) > len(state.players[player_id].library)


def resolve_radiation(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    """Mill N, N read on resolution; for each nonland card milled, lose 1 life and remove one rad
    counter: recorded as one mill, one life change of N and one counter removal of N (728.1).
    Returns a note when the intervening-if fails and it does nothing (603.4)."""
    pid = obj.params["player"]
    rad = b.state.players[pid].counters.get("rad", 0)
    if rad <= 0:
        return "does nothing: the player has no rad counters on resolution (CR 603.4)"
    # From an unknown library the table names the milled cards, or says how many were nonland:
    # that count is all 728.1 reads.
    milled = mill(b, pid, rad, "radiation", choices.cards, RULE, nonland_count=choices.nonland_count)
    nonland = milled.nonland_count
    if nonland:
        if radiation_life_gain_instead(b.state, pid):
            gain_life(b, pid, nonland, "radiation", "CR 728.1a")
        else:
            lose_life(b, pid, nonland, "radiation", RULE)
        remove_counters(b, {"player": pid}, "rad", nonland, "radiation", up_to=True, rule=RULE)
    return None
