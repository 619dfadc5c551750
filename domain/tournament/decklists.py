"""Decklists on the tournament's record (issue 42): the decision of each decklist command and
the fold of each decklist event, pure like the rest of the kernel.

A submission is read (``decklists_text``), checked against the catalog's facts the command
carries (``decklists_legality``: CR 100.2a, 100.4a, 903.5, the catalog's legalities), then
against the lock and the deadline; a refusal stores nothing. Deck-check picks draw their tables
with the seed the service chose (recorded, so the draw can be repeated). Lists are published
once the event is over: every list, or the top cut's.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime
from types import MappingProxyType

from domain.errors import Code
from domain.tournament.decklists_commands import (
    DecklistCommand,
    LockDecklists,
    PickDeckChecks,
    PublishDecklists,
    SetDecklistDeadline,
    SubmitDecklist,
)
from domain.tournament.decklists_events import (
    DeckChecksPicked,
    DecklistDeadlineSet,
    DecklistsPublished,
    DecklistSubmissionLocked,
    DecklistSubmitted,
    EntryJson,
)
from domain.tournament.decklists_legality import check_decklist
from domain.tournament.decklists_state import DeckCheckPick, Decklist
from domain.tournament.decklists_text import Entry, parse_decklist
from domain.tournament.errors import refuse
from domain.tournament.events import TournamentEvent
from domain.tournament.lookups import is_int, player_of, round_of, settings_of
from domain.tournament.state import TournamentState, _on

__all__ = ["decide_decklists", "event_over"]


def decide_decklists(state: TournamentState, command: DecklistCommand) -> list[TournamentEvent]:
    """The events of one decklist command, or a ``GameError`` with its code (nothing stored)."""
    settings = settings_of(state)
    book = state.decklists
    match command:
        case SubmitDecklist():
            player_of(state, command.player)
            deck = parse_decklist(command.text)  # decklist_unreadable, decklist_too_long
            checked = check_decklist(deck, settings.format, settings.kind, command.catalog)
            if book.locked:
                raise refuse("the scorekeeper has locked decklist submission", Code.DECKLISTS_LOCKED)
            if book.deadline is not None and _moment(command.at) > _moment(book.deadline):
                raise refuse(f"the decklist deadline was {book.deadline}", Code.DECKLIST_DEADLINE_PASSED)
            known = book.lists.get(command.player)
            return [
                DecklistSubmitted(
                    player=command.player,
                    main=_json(checked.main),
                    sideboard=_json(checked.sideboard),
                    commander=_json(checked.commander) or None,
                    at=command.at,
                    by=command.by,
                    replaces=0 if known is None else known.submissions,
                )
            ]
        case SetDecklistDeadline():
            if command.deadline is not None:
                _moment(command.deadline)
            return [DecklistDeadlineSet(deadline=command.deadline, by=command.by)]
        case LockDecklists():
            if command.locked == book.locked:
                state_word = "locked" if book.locked else "unlocked"
                raise refuse(f"decklist submission is already {state_word}", Code.DECKLIST_LOCK_UNCHANGED)
            return [DecklistSubmissionLocked(locked=command.locked, by=command.by)]
        case PickDeckChecks():
            return [_pick(state, command)]
        case PublishDecklists():
            return [_publish(state, command)]
    raise refuse(f"unknown decklist command {type(command).__name__}", Code.INVALID_COMMAND)


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise refuse(f"a time is ISO 8601 with a UTC offset, got {text!r}", Code.INVALID_TIME)
    return moment


def _json(entries: tuple[Entry, ...]) -> list[EntryJson]:
    return [{"count": e.count, "name": e.name} for e in entries]


def _pick(state: TournamentState, c: PickDeckChecks) -> DeckChecksPicked:
    rnd = round_of(state, c.round)
    numbers = [t.number for t in rnd.tables]
    if c.tables:
        wrong = [t for t in c.tables if not is_int(t) or t not in numbers]
        if wrong or len(set(c.tables)) != len(c.tables) or c.random:
            raise refuse(f"tables must be distinct tables of round {rnd.number} {numbers}", Code.INVALID_DECK_CHECK)
        return DeckChecksPicked(round=rnd.number, tables=list(c.tables), how="chosen", by=c.by)
    if not (is_int(c.random) and 1 <= c.random <= len(numbers)):
        raise refuse(f"random must be 1-{len(numbers)} tables, got {c.random!r}", Code.INVALID_DECK_CHECK)
    drawn = sorted(random.Random(c.seed).sample(numbers, c.random))
    return DeckChecksPicked(round=rnd.number, tables=drawn, how="random", seed=c.seed, by=c.by)


def event_over(state: TournamentState) -> bool:
    """The last round has every result: the final of a top cut, else the last Swiss round."""
    settings = settings_of(state)
    if settings.top_cut is not None:
        return state.champion is not None
    swiss = state.swiss_rounds
    return bool(swiss) and len(swiss) == state.rounds_planned and swiss[-1].complete


def _publish(state: TournamentState, c: PublishDecklists) -> DecklistsPublished:
    if state.decklists.published is not None:
        raise refuse("the decklists are already published", Code.DECKLISTS_ALREADY_PUBLISHED)
    if c.scope not in ("all", "top_cut"):
        raise refuse(f"scope is `all` or `top_cut`, got {c.scope!r}", Code.INVALID_COMMAND)
    if not event_over(state):
        raise refuse("decklists are published once the event's last round has every result", Code.EVENT_NOT_OVER)
    if c.scope == "top_cut" and not state.cut_seeds:
        raise refuse("the event had no top cut", Code.NO_TOP_CUT)
    players = list(state.cut_seeds) if c.scope == "top_cut" else sorted(state.players, key=lambda p: int(p[1:]))
    return DecklistsPublished(scope=c.scope, players=[p for p in players if p in state.decklists.lists], by=c.by)


# --- folds --------------------------------------------------------------------------------------


def _entries(lines: list[EntryJson]) -> tuple[Entry, ...]:
    return tuple(Entry(e["count"], e["name"]) for e in lines)


@_on(DecklistSubmitted)
def _submitted(state: TournamentState, e: DecklistSubmitted) -> TournamentState:
    lists = dict(state.decklists.lists)
    lists[e.player] = Decklist(
        player=e.player,
        main=_entries(e.main),
        sideboard=_entries(e.sideboard),
        commander=_entries(e.commander or []),
        at=e.at,
        by=e.by,
        version=state.version + 1,
        submissions=e.replaces + 1,
    )
    book = dataclasses.replace(state.decklists, lists=MappingProxyType(lists))
    return dataclasses.replace(state, decklists=book)


@_on(DecklistDeadlineSet)
def _deadline(state: TournamentState, e: DecklistDeadlineSet) -> TournamentState:
    return dataclasses.replace(state, decklists=dataclasses.replace(state.decklists, deadline=e.deadline))


@_on(DecklistSubmissionLocked)
def _locked(state: TournamentState, e: DecklistSubmissionLocked) -> TournamentState:
    return dataclasses.replace(state, decklists=dataclasses.replace(state.decklists, locked=e.locked))


@_on(DeckChecksPicked)
def _picked(state: TournamentState, e: DeckChecksPicked) -> TournamentState:
    pick = DeckCheckPick(round=e.round, tables=tuple(e.tables), how=e.how, seed=e.seed, by=e.by)
    book = dataclasses.replace(state.decklists, picks=(*state.decklists.picks, pick))
    return dataclasses.replace(state, decklists=book)


@_on(DecklistsPublished)
def _published(state: TournamentState, e: DecklistsPublished) -> TournamentState:
    book = dataclasses.replace(state.decklists, published=tuple(e.players), published_scope=e.scope)
    return dataclasses.replace(state, decklists=book)
