"""A game as the library's repository rebuilds it: an immutable aggregate and its fast projector.

``Game`` satisfies the library's ``ImmutableAggregateProtocol`` (``id``, ``version``) and wraps
the domain's immutable ``GameState`` with what appending needs: the head hash (the next event's
``prev_hash``) and the list of reverts (so ``reverted`` flags never need the whole log).

``project_game`` is passed to ``Repository.get(projector_func=...)``. Why not the library's
default ``project_aggregate``: it runs ``assert isinstance(event, CanMutateProtocol)`` per event,
a runtime-Protocol check that took about 60% of replay time (docs/architecture.md, The storage library); plain
``isinstance`` checks against two concrete classes cost next to nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing.domain import DomainEventProtocol

from domain import events as ev
from domain.evolve import evolve
from domain.serialize import state_from_json, state_to_json
from domain.state import GameState
from domain.undo import Entry
from store.records import GameEvent, GameSnapshot


@dataclass(frozen=True, slots=True)
class Game:
    """A game's state at ``version`` plus the chain head and the reverts so far."""

    id: str
    version: int
    state: GameState
    last_hash: str
    """Hash of the event at ``version``."""
    reverts: tuple[Entry, ...] = ()
    """Every ``ActionsReverted`` up to ``version`` (``domain.undo.reverted_versions`` input)."""

    def apply(self, event: GameEvent) -> Game:
        """This game after one more stored event (which must be the next version)."""
        if event.originator_version != self.version + 1 or event.originator_id != self.id:
            raise ValueError(
                f"event {event.originator_id!r} v{event.originator_version} does not follow "
                f"game {self.id!r} v{self.version}"
            )
        domain_event = event.event
        reverts = self.reverts
        if isinstance(domain_event.payload, ev.ActionsReverted):
            reverts = (*reverts, revert_entry(event, domain_event.payload))
        return Game(
            id=self.id,
            version=event.originator_version,
            state=evolve(self.state, domain_event),
            last_hash=event.hash,
            reverts=reverts,
        )

    def after(self, action: Sequence[GameEvent], state: GameState) -> Game:
        """This game after one action's stored events, given the ``state`` they lead to (the one
        the decision already folded, so the action's events are not folded a second time)."""
        for offset, event in enumerate(action, start=1):
            if event.originator_version != self.version + offset or event.originator_id != self.id:
                raise ValueError(
                    f"event {event.originator_id!r} v{event.originator_version} does not follow "
                    f"game {self.id!r} v{self.version + offset - 1}"
                )
        if not action:
            return self
        reverts = self.reverts
        for record in action:
            # Only an undo is parsed: the class alone tells the others apart.
            reverted = record.payload if record.event_class is ev.ActionsReverted else None
            if isinstance(reverted, ev.ActionsReverted):
                reverts = (*reverts, revert_entry(record, reverted))
        return Game(self.id, action[-1].originator_version, state, action[-1].hash, reverts)

    def snapshot(self) -> GameSnapshot:
        return GameSnapshot(
            originator_id=self.id,
            originator_version=self.version,
            state=state_to_json(self.state),
            last_hash=self.last_hash,
            reverts=[
                {"version": e.version, "action_id": e.action_id, "reverted_versions": list(e.reverted_versions)}
                for e in self.reverts
            ],
        )


def revert_entry(record: GameEvent, reverted: ev.ActionsReverted) -> Entry:
    """What undo needs to know of a stored ``ActionsReverted`` (``reverted``: its payload)."""
    return Entry(
        version=record.originator_version,
        kind=ev.ActionsReverted,
        action_id=record.action_id,
        reverted_versions=tuple(reverted.reverted_versions),
    )


def start_game(event: GameEvent) -> Game:
    """The game its ``GameStarted`` event (version 1) creates."""
    if event.event_class is not ev.GameStarted or event.originator_version != 1:
        raise ValueError(f"game {event.originator_id!r} must start with GameStarted at version 1, got {event.type}")
    state = evolve(None, event.event)  # type: ignore[arg-type]
    return Game(id=event.originator_id, version=1, state=state, last_hash=event.hash)


def game_from_snapshot(snapshot: GameSnapshot) -> Game:
    return Game(
        id=snapshot.originator_id,
        version=snapshot.originator_version,
        state=state_from_json(snapshot.state),
        last_hash=snapshot.last_hash,
        reverts=tuple(
            Entry(r["version"], ev.ActionsReverted, r["action_id"], tuple(r["reverted_versions"]))
            for r in snapshot.reverts
        ),
    )


def project_game(game: Game | None, records: Iterable[DomainEventProtocol[Any]]) -> Game | None:
    """Fold stored records into a game: a snapshot replaces it, an event advances it.

    Equal to applying ``Game.apply`` record by record, but a run of events is folded straight
    into the state (no ``Game`` per event): replay pays the rules' ``evolve`` and little else."""
    state: GameState | None = None  # the state folded since ``game`` (None: still game.state)
    version, last_hash = 0, ""
    reverts: tuple[Entry, ...] = ()
    if game is not None:
        version, last_hash, reverts = game.version, game.last_hash, game.reverts
    for record in records:
        if isinstance(record, GameEvent):
            if game is None:
                game = start_game(record)
                version, last_hash, reverts = game.version, game.last_hash, game.reverts
                continue
            if record.originator_version != version + 1 or record.originator_id != game.id:
                raise ValueError(
                    f"event {record.originator_id!r} v{record.originator_version} does not follow "
                    f"game {game.id!r} v{version}"
                )
            # Parsed here and let go, not kept on the record (``GameEvent.event``): keeping every
            # event of a replay alive made the fold about 10% slower (more for the collector).
            event = ev.Event.parse(record.type, record.data, record.rule)
            state = evolve(game.state if state is None else state, event)
            version, last_hash = record.originator_version, record.hash
            if type(event.payload) is ev.ActionsReverted:
                reverts = (*reverts, revert_entry(record, event.payload))
        elif isinstance(record, GameSnapshot):
            game, state = game_from_snapshot(record), None
            version, last_hash, reverts = game.version, game.last_hash, game.reverts
        else:
            raise TypeError(f"not a game record: {type(record).__qualname__}")
    if game is None or state is None:
        return game
    return Game(id=game.id, version=version, state=state, last_hash=last_hash, reverts=reverts)


def fold_game(records: Sequence[GameEvent]) -> Game:
    """A game from its events, from the first; raises ``ValueError`` for none."""
    game = project_game(None, records)
    if game is None:
        raise ValueError("no events to fold")
    return game
