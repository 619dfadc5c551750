"""Reading games back: the head (cached or loaded), the game at a version, stored events.

The head comes from the library's repository (snapshot + events since), and each process keeps
the newest head it has seen of up to ``cache_size`` games. ``cached`` answers from that cache
without any I/O; the head it gives may have moved on in another process, which is why a
decision made on it is only kept when the save proves the version was still free
(``projections.game_service``). ``load`` reads whatever the store has past the cached head.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent
from eventsourcing.utils import TopicError

from domain.errors import IllegalAction, NotFound
from domain.undo import reverted_versions
from projections.game_aggregate import Game, project_game
from projections.ledger_application import LedgerApplication
from projections.results import Actor, RecordedEvent
from projections.stored_events import GameEvent

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}")
"""Client-chosen game ids (``fullmatch``); never starting with ``_``, the other streams' prefix."""
MAX_VERSION = 2**63 - 1
"""Versions are 64-bit integers in both stores; a larger number never reaches a query."""
BEHIND_MAX = 4096
"""Games marked behind at most before the marks of games no longer cached are cleared."""
PENDING_MAX = 16
"""Events held for one cached head at most (``catch_up``): a few actions of the other workers.
Past that the game's actions have stopped coming here (its client kept to another worker): it
is marked behind and no longer held for, so a worker never keeps much of other workers' games."""
DAMAGED = (MapperDeserialisationError, TopicError, KeyError, TypeError, ValueError, AttributeError)
"""What reading a hand-edited or truncated record can raise."""


def is_game_id(game_id: object) -> bool:
    return isinstance(game_id, str) and GAME_ID.fullmatch(game_id) is not None


def unknown_game(game_id: str) -> NotFound:
    return NotFound(f"unknown game {game_id!r}", "unknown_game")


def damaged(game_id: str, err: BaseException) -> IllegalAction:
    return IllegalAction(
        f"game {game_id!r}: a stored event can't be read back ({type(err).__name__}: {err}); run verify",
        "damaged_record",
    )


def recorded(event: GameEvent, reverted: bool = False) -> RecordedEvent:
    """The service's view of a stored game event."""
    return RecordedEvent(
        version=event.originator_version,
        type=event.type,
        data=event.data,
        rule=event.rule,
        action_id=event.action_id,
        actor=Actor(event.actor["name"], event.actor["role"]),
        recorded_at=event.recorded_at,
        prev_hash=event.prev_hash,
        hash=event.hash,
        reverted=reverted,
    )


class GameRepository:
    """Games and their stored events, read through one ``eventsourcing`` application."""

    def __init__(self, app: LedgerApplication) -> None:
        self._app = app
        self._behind: dict[str, int] = {}
        """Cached games another process has moved on: the newest version it stored of each."""
        self._shared: set[str] = set()
        """Cached games whose actions are spread over processes: this process has loaded one
        while it was marked behind. The head watch hands these the events that come."""
        self._pending: dict[str, list[StoredEvent]] = {}
        """Events other processes stored past the cached head of a shared game, in version order
        and not yet decoded: the game's next action here folds them (``head``)."""
        self._heads = threading.Lock()
        """Makes each change of a cached head and its pending events one step: the head watch's
        thread and request threads both make them."""

    def load(self, game_id: str) -> Game:
        """The game at its head in the store; ``NotFound`` if there is none."""
        if not is_game_id(game_id):
            raise unknown_game(game_id)
        try:
            game: Game = self._app.repository.get(game_id, projector_func=project_game)
        except AggregateNotFoundError:
            raise unknown_game(game_id) from None
        except DAMAGED as err:
            raise damaged(game_id, err) from None
        if game_id in self._behind:
            self._shared.add(game_id)  # needed here after another process moved it on
            if len(self._shared) >= BEHIND_MAX or len(self._pending) >= BEHIND_MAX:
                self._forget_uncached()
        self.remember(game)
        return game

    def cached(self, game_id: str) -> Game | None:
        """The game's head as this process last saw it (it may have moved on since), if cached."""
        cache = self._app.repository.cache
        try:
            cached = cache.get(game_id) if cache is not None else None
        except KeyError:
            return None
        return cached if isinstance(cached, Game) else None

    def catch_up(self, game_id: str, stored: Sequence[StoredEvent]) -> str | None:
        """Hand the cached head of ``game_id`` the events past it in ``stored``, this game's
        events in version order as the log holds them (``projections.head_watch``).

        A game whose actions are spread over processes (``_shared``) holds them, undecoded, until
        its next action here folds them all in one go (``head``): that action reads nothing
        first, and only games acted on here pay to decode: ``"held"``. Any other game is only
        marked behind (``mark_behind``), and its next action here, if one ever comes, reads what
        it lacks: ``"marked"``. A client that keeps a game on one connection keeps it on one
        worker, and holding its events in every other worker that once cached it (an import, a
        read) would be memory for nothing. Events that do not follow the head and what it holds
        (the watch began after some of them), or past ``PENDING_MAX``, also mark it. ``None``:
        nothing to do (not cached, or the head is that new already: this process's own actions)."""
        with self._heads:
            cached = self.cached(game_id)
            if cached is None:
                return None
            pending = self._pending.get(game_id, [])
            base = pending[-1].originator_version if pending else cached.version
            newer = [s for s in stored if s.originator_version > base]
            if not newer:
                return None
            follows = newer[0].originator_version == base + 1
            if game_id in self._shared and follows and len(pending) + len(newer) <= PENDING_MAX:
                self._pending[game_id] = [*pending, *newer]
                return "held"
            if self._pending.pop(game_id, None) is not None:
                self._shared.discard(game_id)  # held for and never acted on: no longer shared
        return "marked" if self.mark_behind(game_id, newer[-1].originator_version) else None

    def head(self, game_id: str) -> Game | None:
        """The cached head with the events the head watch holds for it folded on (``catch_up``):
        decoded now, in one fold. ``None`` when the game is not cached. Events that cannot be
        read back or folded mark the head behind instead: the load that follows reports them
        (``damaged_record``)."""
        with self._heads:
            cached = self.cached(game_id)
            pending = self._pending.pop(game_id, None)
            if cached is None or not pending:
                return cached
            try:
                # ``project_game`` refuses events that do not follow the head (ValueError).
                game = project_game(cached, [self._app.mapper.to_domain_event(s) for s in pending])
            except Exception:
                game = None
            if game is not None:
                self._keep(game, cached)
        if game is None:
            self.mark_behind(game_id, pending[-1].originator_version)
            return cached
        self._unmark(game)
        return game

    def mark_behind(self, game_id: str, version: int) -> bool:
        """Note that another process stored ``version`` of ``game_id`` past the cached head
        (``projections.head_watch``): the next action brings the head up to date first
        (``behind``), reading only the events after it, rather than deciding on a stale head or
        loading the game afresh. Whether it was marked (``False`` when not cached, or the cached
        head is that new already)."""
        cached = self.cached(game_id)
        if cached is None or cached.version >= version:
            return False
        if len(self._behind) >= BEHIND_MAX:
            self._forget_uncached()
        self._behind[game_id] = max(version, self._behind.get(game_id, 0))
        return True

    def _forget_uncached(self) -> None:
        """Drop the marks, ``_shared`` notes and held events of games the cache has let go of: they are
        loaded afresh anyway. Copies of the keys (request threads change both meanwhile), and
        membership only, so the cache's recency order is left as the requests made it."""
        cache = self._app.repository.cache
        if cache is None:
            return
        for gone in [g for g in list(self._behind) if g not in cache.cache]:
            self._behind.pop(gone, None)
        self._shared.difference_update([g for g in list(self._shared) if g not in cache.cache])
        with self._heads:
            for gone in [g for g in self._pending if g not in cache.cache]:
                del self._pending[gone]

    def shared(self, game_id: str) -> bool:
        """Whether this game's actions are known to be spread over processes (``catch_up``)."""
        return game_id in self._shared

    def behind(self, game_id: str) -> bool:
        """Another process stored a version of this game past its cached head (``mark_behind``)."""
        return game_id in self._behind

    def remember(self, game: Game) -> None:
        """Keep the newest head in the repository's cache: the library fast-forwards a cached
        aggregate on each ``get`` but only re-caches mutable ones, and ``Game`` is immutable.
        A head older than the cached one is not kept: a game's versions only grow, and the head
        watch may have handed the head events past an action this process was still answering.
        Held events the kept head already holds are let go."""
        if self._app.repository.cache is not None:
            with self._heads:
                self._keep(game, self.cached(game.id))
        self._unmark(game)

    def _keep(self, game: Game, cached: Game | None) -> None:
        """``remember`` with ``_heads`` held, and the cached head already looked up."""
        cache = self._app.repository.cache
        assert cache is not None
        head = cached
        if cached is None or cached.version <= game.version:
            cache.put(game.id, game)
            head = game
        pending = self._pending.get(game.id)
        if pending is not None and head is not None:
            rest = [s for s in pending if s.originator_version > head.version]
            if rest and rest[0].originator_version == head.version + 1:
                self._pending[game.id] = rest
            else:
                del self._pending[game.id]

    def _unmark(self, game: Game) -> None:
        marked = self._behind.get(game.id)
        if marked is not None and game.version >= marked:
            self._behind.pop(game.id, None)

    def at(self, game: Game, version: int) -> Game:
        """``game`` at an earlier ``version`` (replayed from the newest snapshot at or below it)."""
        if version == game.version:
            return game
        try:
            past: Game = self._app.repository.get(game.id, version=version, projector_func=project_game)
        except DAMAGED as err:
            raise damaged(game.id, err) from None
        return past

    def version(self, game_id: str, version: int) -> Game:
        """The game at ``version``, in one read: a cached head at or past it proves it exists
        (versions only grow); otherwise the replay to it shows whether the game reaches it."""
        if not is_game_id(game_id):
            raise unknown_game(game_id)
        cached = self.cached(game_id)
        if cached is not None and cached.version >= version:
            return self.at(cached, version)
        try:
            past: Game = self._app.repository.get(game_id, version=version, projector_func=project_game)
        except AggregateNotFoundError:
            raise unknown_game(game_id) from None
        except DAMAGED as err:
            raise damaged(game_id, err) from None
        if past.version != version:
            raise NotFound(f"game {game_id!r} has versions 1..{past.version}, not {version!r}", "unknown_version")
        return past

    def stored(
        self, game_id: str, *, gt: int | None = None, lte: int | None = None, limit: int | None = None
    ) -> list[GameEvent]:
        try:
            return [
                e for e in self._app.events.get(game_id, gt=gt, lte=lte, limit=limit) if isinstance(e, GameEvent)
            ]
        except DAMAGED as err:
            raise damaged(game_id, err) from None

    def all_events(self, game: Game) -> list[RecordedEvent]:
        """Every event up to ``game``'s version, with reverted flags."""
        flagged = reverted_versions(game.reverts)
        return [recorded(e, e.originator_version in flagged) for e in self.stored(game.id, lte=game.version)]
