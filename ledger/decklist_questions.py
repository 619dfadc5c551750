"""The questions of the decklist cross-check's judge calls (``ledger.decklist_calls``), and
how the floor view finds a mismatch's call in its game (``DecklistService.mismatches``)."""

from __future__ import annotations

from domain.state import GameState
from domain.tournament.decklists_crosscheck import Mismatch, game_number

CALLER = "decklist cross-check"
"""Who the calls name as caller and as the actor of their events (the event's scorekeeping
software acting for the scorekeeper: a ``scorekeeper`` role, which an import accepts for a
judge call)."""
MAX_QUESTION = 2000


def call_question(m: Mismatch, name: str) -> str:
    """The call's question: who, which card, how the record showed it, at which game version."""
    # The game's state is read by its players too, and a list is private until published: the
    # question asks a judge to compare, and never says what the list holds (the floor view,
    # for judges, says it).
    allowed = "main deck" if game_number(m.game_id) == 1 else "main deck and sideboard"
    question = (
        f"Decklist cross-check: a judge compares {name}'s ({m.player}) {m.card} ({m.what}) at game version "
        f"{m.version} with their registered list ({allowed}). Not a penalty by itself: a judge decides (IPG 3.5)."
    )
    return question[:MAX_QUESTION]  # a call's question is at most 2,000 characters (domain.judging)


def opened_call(state: GameState, question: str) -> str | None:
    """The id of the cross-check's call with this question in the game, if it was opened."""
    for c in state.judging.calls:
        if c.get("called_by") == CALLER and c.get("question") == question:
            return str(c.get("call"))
    return None
