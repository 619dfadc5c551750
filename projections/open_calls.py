"""The open judge calls of every game: the read model of the judges' page (``GET /v1/judge-calls``,
docs/judges.md, "The judges' page").

A ``DocumentProjection`` (``store.documents``) with its own tracking position, kept by the log's
one elected runner with the other read models. Three events change it:

- ``GameStarted``: the game's document (its players' names, its tournament place), which a
  call of the game reads to name its caller and its table;
- ``JudgeCallOpened``: the call's row (``projections.open_call_tables``);
- ``JudgeCallAnswered``: the call's row is deleted.

A backup (``ActionsReverted``) changes nothing here: judge records are never reverted, the state
a revert restores keeps the head's calls, open and answered (``domain.judging.with_judging``),
so a call stays open, or answered, across any backup, as it does in the game's state. A game
that ends keeps its open calls too: a judge still answers them.

With several partitions each database's log keeps its own table (a game and its calls live in
one database); ``OpenCalls`` merges them, newest first.
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

from domain import events as ev
from projections.open_call_tables import CALL_PREFIX, VIEWS, OpenCall, OpenCallView
from store.application import LedgerApplication
from store.database_url import StoreKind
from store.documents import Doc, DocumentProjection, Get, follower
from store.elected_projection import ElectedProjection
from store.read_model_group import ReadModelGroup
from store.records import GameEvent

__all__ = ["MAX_LIMIT", "Log", "OpenCall", "OpenCallList", "OpenCallProjection", "OpenCalls", "changes"]

log = logging.getLogger("mtg_ledger.store")
MAX_LIMIT = 500
"""Most calls one read returns (``limit``); ``total`` counts them all."""
WATCHED: frozenset[type[ev.DomainEvent]] = frozenset({ev.GameStarted, ev.JudgeCallOpened, ev.JudgeCallAnswered})
"""The events that change the open calls (told by class, so the others are never parsed)."""


def game_key(game_id: str) -> str:
    return f"game/{game_id}"


def call_key(game_id: str, call: str) -> str:
    return f"{CALL_PREFIX}{game_id}/{call}"


def _game_doc(started: ev.GameStarted) -> Doc:
    players = [p for p in started.players or () if isinstance(p, Mapping)]
    names = {str(p.get("id")): str(p.get("name") or p.get("id")) for p in players}
    t = started.tournament if isinstance(started.tournament, Mapping) else None
    place = None if t is None else {k: t.get(k) for k in ("event", "round", "table")}
    return {"names": names, "order": list(names), "place": place}


def _opened(e: GameEvent, opened: ev.JudgeCallOpened, get: Get, position: int) -> Doc:
    game = get(game_key(e.originator_id)) or {}
    names: Mapping[str, str] = game.get("names") or {}
    place: Mapping[str, Any] | None = game.get("place")
    event = None if not place or place.get("event") is None else str(place["event"])
    table = opened.table if opened.table is not None else (place or {}).get("table")
    return {
        "open": True,
        "game_id": e.originator_id,
        "call": opened.call,
        "event": event,
        "place": None if place is None else dict(place),
        "table": table if isinstance(table, int) and not isinstance(table, bool) else None,
        "called_by": opened.called_by,
        # A player calls by their id; a judge or a scorekeeper by their token's name.
        "caller": names.get(opened.called_by, opened.called_by),
        "question": opened.question,
        "report": opened.report,
        "players": [names[p] for p in game.get("order") or () if p in names],
        "opened_at": e.recorded_at,
        "position": position,
    }


def changes(record: Any, get: Get, position: int) -> dict[str, Doc]:
    """The documents (and calls' rows) ``record``, at notification id ``position``, changes."""
    if not isinstance(record, GameEvent) or record.event_class not in WATCHED:
        return {}
    try:
        payload = record.payload
    except Exception as err:  # a damaged record: verify names it; the judges' page goes on
        log.error(
            "open judge calls: game %r version %d could not be read (%s); passed over",
            record.originator_id[:200],
            record.originator_version,
            f"{type(err).__name__}: {err}"[:300],
        )
        return {}
    gid = record.originator_id
    if isinstance(payload, ev.GameStarted):
        return {game_key(gid): _game_doc(payload)}
    if isinstance(payload, ev.JudgeCallOpened):
        return {call_key(gid, payload.call): _opened(record, payload, get, position)}
    if isinstance(payload, ev.JudgeCallAnswered):
        return {call_key(gid, payload.call): {"open": False, "game_id": gid, "call": payload.call}}
    return {}


class OpenCallProjection(DocumentProjection):
    name = "OpenJudgeCalls"

    @staticmethod
    def changes(record: Any, get: Get, position: int) -> dict[str, Doc]:
        return changes(record, get, position)


class Log(NamedTuple):
    """One database's log that the open calls follow (a partition's)."""

    app: LedgerApplication
    store: StoreKind
    env: Mapping[str, str]
    group: ReadModelGroup


class OpenCallList(NamedTuple):
    """One read of the open calls."""

    calls: list[OpenCall]
    """Newest first, at most the ``limit`` asked for."""
    total: int
    """How many open calls match, in all."""
    runner: str
    """The read model's runner: ``running``, ``elsewhere`` or ``stopped: <error>`` (of the first
    log whose runner is not running, a stopped one first)."""


class OpenCalls:
    """The open judge calls of every game of every log, newest first (a read model: it may trail
    a write by a moment)."""

    def __init__(self, logs: Sequence[Log]) -> None:
        self._followers: list[ElectedProjection[Any]] = []
        try:
            for one in logs:
                model = follower(one.app, one.store, one.env, OpenCallProjection, VIEWS, group=one.group)
                self._followers.append(model)
        except BaseException:
            self.close()
            raise

    def select(self, event: str | None = None, limit: int = MAX_LIMIT) -> OpenCallList:
        """The open calls of ``event``'s games (every game's without it), newest first."""
        found = [cast(OpenCallView, f.view).open_calls(event, limit) for f in self._followers]
        total = sum(n for _, n in found)
        if len(found) == 1:
            calls = found[0][0]
        else:
            # Each list is newest first; merged by time, then by place within one log.
            calls = list(heapq.merge(*(c for c, _ in found), key=lambda c: (_Desc(c.opened_at), -c.position)))
        return OpenCallList(calls[:limit], total, self._runner_state())

    def _runner_state(self) -> str:
        states = [f.runner_state() for f in self._followers]
        return next((s for s in states if s.startswith("stopped")), states[0] if states else "elsewhere")

    def wait(self, timeout: float = 10.0) -> None:
        """Block until every log's open calls have caught up with what is stored so far."""
        for f in self._followers:
            f.wait(timeout)

    def close(self) -> None:
        for f in self._followers:
            f.close()


class _Desc:
    """Orders text descending (for ``heapq.merge`` of lists sorted newest first)."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return self.value > other.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)
