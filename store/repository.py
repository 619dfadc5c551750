"""Reading games back: the head (cached or loaded), the game at a version, stored events.

The head comes from the library's repository (snapshot + events since), and each process keeps
the newest head it has seen of up to ``cache_size`` games. ``cached`` answers from that cache
without any I/O; the head it gives may have moved on in another process, which is why a
decision made on it is only kept when the save proves the version was still free
(``ledger.game_service``). ``load`` reads whatever the store has past the cached head.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent
from eventsourcing.utils import TopicError

from domain.errors import Code, IllegalAction, NotFound
from domain.undo import reverted_versions
from store.aggregate import Game, project_game
from store.application import LedgerApplication
from store.records import GameEvent
from store.results import Actor, RecordedEvent

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}")
"""Client-chosen game ids (``fullmatch``); never starting with ``_``, the other streams' prefix."""
MAX_VERSION = 2**63 - 1
"""Versions are 64-bit integers in both stores; a larger number never reaches a query."""
BEHIND_MAX = 4096
"""Games marked behind at most before the marks of games no longer cached are cleared."""
DAMAGED = (MapperDeserialisationError, TopicError, KeyError, TypeError, ValueError, AttributeError)
"""What reading a hand-edited or truncated record can raise."""


def is_game_id(game_id: object) -> bool:
    return isinstance(game_id, str) and GAME_ID.fullmatch(game_id) is not None


def unknown_game(game_id: str) -> NotFound:
    return NotFound(f"unknown game {game_id!r}", Code.UNKNOWN_GAME)


def damaged(game_id: str, err: BaseException) -> IllegalAction:
    return IllegalAction(
        f"game {game_id!r}: a stored event can't be read back ({type(err).__name__}: {err}); run verify",
        Code.DAMAGED_RECORD,
    )


def recorded(event: GameEvent, reverted: bool = False) -> RecordedEvent:
    """The service's view of a stored game event."""
    return RecordedEvent(
        version=event.originator_version,
        type=event.type,
        data=event.data,
        rule=event.rule,
        action_id=event.action_id,
        actor=Actor(event.actor["name"], event.actor["role"], event.actor.get("token")),
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
        while it was marked behind, or to decide its first action here (``load``). The head
        watch brings these forward as their events come."""
        self._remembering = threading.Lock()
        """Makes ``remember``'s look at the cached head and its replacement one step: the head
        watch's thread and request threads both remember heads."""

    def load(self, game_id: str, *, first_action_here: bool = False) -> Game:
        """The game at its head in the store; ``NotFound`` if there is none.

        ``first_action_here``: loaded to decide an action on a game this process had not cached
        (created, imported or played by another process, or let go of by the cache): the game
        is noted as shared at once (``catch_up``). Were it left to the next mark, every process
        would read each game twice before the watch brings it forward: when an action first
        comes, and again once marked behind; with 4 workers that is 2 round trips per worker and
        game while the games spread after a start. A game that is not in fact spread costs
        nothing: only other processes' events of it are folded."""
        if not is_game_id(game_id):
            raise unknown_game(game_id)
        try:
            game: Game = self._app.repository.get(game_id, projector_func=project_game)
        except AggregateNotFoundError:
            raise unknown_game(game_id) from None
        except DAMAGED as err:
            raise damaged(game_id, err) from None
        if first_action_here or game_id in self._behind:
            self._shared.add(game_id)  # acted on here while played (or moved on) elsewhere
            if len(self._shared) >= BEHIND_MAX:
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
        """Bring the cached head of ``game_id`` up to date with ``stored``, this game's events in
        version order as the log holds them (``store.head_watch``).

        A game whose actions are spread over processes (``_shared``) is brought forward: the
        events past the cached head are decoded and folded onto it, so its next action here is
        decided at once, with no read: ``"advanced"``. Any other game is only marked behind
        (``mark_behind``), and its next action here, if one ever comes, reads what it lacks:
        ``"marked"``. A client that keeps a game on one connection keeps it on one worker, and
        folding its events in every other worker that once cached it (an import, a read) would be
        work for nothing. Events that do not follow the cached head (the watch began after some
        of them) or cannot be read back also mark it. ``None``: nothing to do (not cached, or
        the head is that new already: this process's own actions)."""
        cached = self.cached(game_id)
        newer = [s for s in stored if cached is not None and s.originator_version > cached.version]
        if cached is None or not newer:
            return None
        if game_id in self._shared:
            try:
                # ``project_game`` refuses events that do not follow the head (ValueError).
                game = project_game(cached, [self._app.mapper.to_domain_event(s) for s in newer])
            except Exception:  # one that cannot be read back or folded here: the request that
                game = None  # loads it reports it (``damaged_record``); the watch goes on
            if game is not None:
                self.remember(game)
                return "advanced"
        return "marked" if self.mark_behind(game_id, newer[-1].originator_version) else None

    def mark_behind(self, game_id: str, version: int) -> bool:
        """Note that another process stored ``version`` of ``game_id`` past the cached head
        (``store.head_watch``): the next action brings the head up to date first
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
        """Drop the marks and ``_shared`` notes of games the cache has let go of: they are
        loaded afresh anyway. Copies of the keys (request threads change both meanwhile), and
        membership only, so the cache's recency order is left as the requests made it."""
        cache = self._app.repository.cache
        if cache is None:
            return
        for gone in [g for g in list(self._behind) if g not in cache.cache]:
            self._behind.pop(gone, None)
        self._shared.difference_update([g for g in list(self._shared) if g not in cache.cache])

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
        watch may have brought the head past an action this process was still answering."""
        cache = self._app.repository.cache
        if cache is not None:
            with self._remembering:
                cached = self.cached(game.id)
                if cached is None or cached.version <= game.version:
                    cache.put(game.id, game)
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
            raise NotFound(f"game {game_id!r} has versions 1..{past.version}, not {version!r}", Code.UNKNOWN_VERSION)
        return past

    def stored(
        self, game_id: str, *, gt: int | None = None, lte: int | None = None, limit: int | None = None
    ) -> list[GameEvent]:
        try:
            return [e for e in self._app.events.get(game_id, gt=gt, lte=lte, limit=limit) if isinstance(e, GameEvent)]
        except DAMAGED as err:
            raise damaged(game_id, err) from None

    def all_events(self, game: Game) -> list[RecordedEvent]:
        """Every event up to ``game``'s version, with reverted flags."""
        flagged = reverted_versions(game.reverts)
        return [recorded(e, e.originator_version in flagged) for e in self.stored(game.id, lte=game.version)]
