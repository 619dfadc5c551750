"""The decklists' write use cases (issue 42), one handler each, carried out through
``ledger.decklist_service`` by ``LedgerService.handle`` like every tournament use case
(``ledger.tournament_use_cases.HANDLERS`` holds these too)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ledger.write_path import Submission

if TYPE_CHECKING:
    from ledger.tournament_facade import TournamentFacade


@dataclass(frozen=True, slots=True)
class SubmitDecklist:
    """Register or replace a player's list (the player's event link or a scorekeeper)."""

    tournament_id: str
    player: str
    text: str


@dataclass(frozen=True, slots=True)
class SetDecklistDeadline:
    tournament_id: str
    deadline: str | None


@dataclass(frozen=True, slots=True)
class LockDecklists:
    tournament_id: str
    locked: bool


@dataclass(frozen=True, slots=True)
class PickDeckChecks:
    """Tables of a round to deck-check: named, or ``random`` of them drawn by the server."""

    tournament_id: str
    round: int
    tables: list[int] = field(default_factory=list)
    random: int = 0


@dataclass(frozen=True, slots=True)
class PublishDecklists:
    tournament_id: str
    scope: str


DecklistUseCase = SubmitDecklist | SetDecklistDeadline | LockDecklists | PickDeckChecks | PublishDecklists


def _submit(f: TournamentFacade, c: SubmitDecklist, by: Submission) -> dict[str, Any]:
    return f.decklist_service.submit(c.tournament_id, c.player, c.text, by)


def _deadline(f: TournamentFacade, c: SetDecklistDeadline, by: Submission) -> dict[str, Any]:
    return f.decklist_service.set_deadline(c.tournament_id, c.deadline, by)


def _lock(f: TournamentFacade, c: LockDecklists, by: Submission) -> dict[str, Any]:
    return f.decklist_service.lock(c.tournament_id, c.locked, by)


def _pick(f: TournamentFacade, c: PickDeckChecks, by: Submission) -> dict[str, Any]:
    return f.decklist_service.pick(c.tournament_id, c.round, c.tables, c.random, by)


def _publish(f: TournamentFacade, c: PublishDecklists, by: Submission) -> dict[str, Any]:
    return f.decklist_service.publish(c.tournament_id, c.scope, by)


DECKLIST_HANDLERS: dict[type[Any], Callable[[TournamentFacade, Any, Submission], dict[str, Any]]] = {
    SubmitDecklist: _submit,
    SetDecklistDeadline: _deadline,
    LockDecklists: _lock,
    PickDeckChecks: _pick,
    PublishDecklists: _publish,
}
