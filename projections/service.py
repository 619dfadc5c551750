"""``LedgerService``: the application service the HTTP layer and the CLI call.

It loads a game, lets the pure domain decide (``domain.decide.run``), and appends everything one
command caused in ONE ``save()`` on the ``eventsourcing`` application: the events of an action
are stored atomically, each with its action id, actor, time and hash-chain link (docs/audit.md).
The game's version is the optimistic-concurrency token: two writers deciding at one version both
try to insert the same next version, the database lets one through, and the other's
``IntegrityError`` becomes ``Conflict(code="version_conflict")``. The library never retries, so
neither does this service: the caller decides again against the new state.

Reads: the head comes from the repository (snapshot + events since, cached and fast-forwarded);
``state_at(V)`` replays from the newest snapshot at or below V, so its cost is bounded by the
snapshot interval. Undo appends one ``ActionsReverted`` (``domain.undo``); nothing is deleted.
The game list is a read model kept by the library's projection runner (``game_summaries``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self
from uuid import uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import (
    InfrastructureFactory,
    IntegrityError,
    MapperDeserialisationError,
    TrackingRecorder,
)
from eventsourcing.projection import ProjectionRunner
from eventsourcing.utils import Environment, TopicError

from domain import events as ev
from domain.cards.catalog import Catalog, bundled_catalog
from domain.commands import Command, parse_command
from domain.commands.bodies.create import GameCreateBody
from domain.decide import run
from domain.errors import Conflict, IllegalAction, InvalidCommand, NotFound
from domain.setup import game_started
from domain.state import GameState
from domain.undo import Entry, revert_event, reverted_versions, target_before_last_actions
from projections.database_url import StoreKind, library_environment, sqlite_path, store_kind
from projections.game_aggregate import Game, project_game
from projections.game_files import InvalidExport, check_export, export_lines
from projections.game_summaries import (
    BatchingProjectionRunner,
    GameSummaryProjection,
    GameSummaryView,
    view_class_for,
)
from projections.hash_chain import GENESIS_HASH, chain_hash, hashed_record, json_native
from projections.idempotency import IdempotencyRecords, Recalled
from projections.ledger_application import LedgerApplication
from projections.results import ActionResult, Actor, GameSummary, RecordedEvent, TokenInfo, VerifyReport
from projections.stored_events import GameEvent, GameImported, IdempotencyKeyClaimed, import_stream_id
from projections.timeline import timeline as timeline_groups
from projections.tokens import TokenRegistry

__all__ = [
    "ActionResult",
    "Actor",
    "GameSummary",
    "LedgerService",
    "RecordedEvent",
    "TokenInfo",
    "VerifyReport",
]

log = logging.getLogger("mtg_ledger.store")

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}")
"""Client-chosen game ids (``fullmatch``); never starting with ``_``, the other streams' prefix."""
MAX_EVENTS_PAGE = 1000
MAX_VERSION = 2**63 - 1
"""Versions are 64-bit integers in both stores; a larger number never reaches a query."""
UNDO_HISTORY_PAGE = 256
DAMAGED = (MapperDeserialisationError, TopicError, KeyError, TypeError, ValueError, AttributeError)
"""What reading a hand-edited or truncated record can raise."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


def rfc3339(moment: datetime) -> str:
    """``2026-04-17T12:34:56.789012Z``: RFC 3339, UTC, microseconds."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def is_game_id(game_id: object) -> bool:
    return isinstance(game_id, str) and GAME_ID.fullmatch(game_id) is not None


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


def _int_arg(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidCommand(f"{name} must be an integer >= {minimum}, got {value!r}", "invalid_field")
    return value


class LedgerService:
    """Games, their audit trail, tokens and idempotency records, over one database URL.

    ``create_tables``: create the tables at start-up (do it once, then start workers with it
    off: creating tables from several processes at once raced, DESIGN.md).
    ``snapshot_interval``: events between snapshots (0 turns snapshots off).
    ``project_read_models``: run the game-list projection in this process.
    ``cache_size``: games whose head each process keeps (fast-forwarded on every read; 0: none).
    ``clock``: the time source for ``recorded_at`` (tests pass a fixed one).
    """

    def __init__(
        self,
        database_url: str,
        *,
        catalog: Catalog | None = None,
        snapshot_interval: int = 50,
        create_tables: bool = True,
        project_read_models: bool = True,
        cache_size: int = 1024,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        self.store: StoreKind = store_kind(database_url)
        """``sqlite`` or ``postgresql``."""
        self.catalog: Catalog = catalog if catalog is not None else bundled_catalog()
        """Resolves card names in requests."""
        self.snapshot_interval = _int_arg("snapshot_interval", snapshot_interval, 0)
        self._clock = clock
        env = library_environment(database_url, create_tables=create_tables)
        if self.store == "sqlite" and create_tables:
            sqlite_path(database_url).parent.mkdir(parents=True, exist_ok=True)
        if _int_arg("cache_size", cache_size, 0) > 0:  # the library reads 0 as "unbounded"
            env.update(
                AGGREGATE_CACHE_MAXSIZE=str(cache_size),
                # Games are immutable values: no defensive deep copy of cached ones.
                DEEPCOPY_FROM_AGGREGATE_CACHE="n",
            )
        self.app = LedgerApplication(env)
        """The ``eventsourcing`` application (one table set for every stream)."""
        self._tokens = TokenRegistry(self.app, self._now)
        self._idempotency = IdempotencyRecords(self.app, self._now)
        # The runner's own application copy never creates tables (this one just did) and keeps
        # one connection open (LISTEN; pulls open another on demand). The view's environment is
        # named after the projection, so its prefixed settings win for it alone: it creates its
        # tables, and keeps one connection.
        view_prefix = GameSummaryProjection.name.upper()
        view_env = {
            **env,
            "CREATE_TABLE": "n",
            "POSTGRES_POOL_SIZE": "1",
            f"{view_prefix}_CREATE_TABLE": env["CREATE_TABLE"],
            f"{view_prefix}_POSTGRES_POOL_SIZE": "1",
        }
        view_class = view_class_for(self.store)
        self._runner: ProjectionRunner[LedgerApplication, GameSummaryView] | None = None
        self._own_view: GameSummaryView | None = None
        try:
            if project_read_models:
                self._runner = BatchingProjectionRunner(
                    application_class=LedgerApplication,
                    projection_class=GameSummaryProjection,
                    view_class=view_class,
                    env=view_env,
                )
                self._runner.__enter__()
            else:
                factory = InfrastructureFactory[TrackingRecorder].construct(
                    Environment(GameSummaryProjection.name, view_env)
                )
                view = factory.tracking_recorder(view_class)
                assert isinstance(view, GameSummaryView)
                self._own_view = view
        except BaseException:
            if self._own_view is not None:
                self._own_view.close()
            self.app.close()
            raise
        self._closed = False

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the projection runner and close every connection pool."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._runner is not None:
                self._runner.__exit__(None, None, None)
        except Exception:
            # The runner re-raises what stopped its thread (e.g. a record it could not read);
            # ``wait_for_read_model`` reports that while running; shutting down must not fail.
            log.exception("the game-summary projection had stopped with an error")
        finally:
            try:
                self._view.close()  # the runner closes its application, never its view
            finally:
                self.app.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def _view(self) -> GameSummaryView:
        if self._runner is not None:
            view: GameSummaryView = self._runner.view
            return view
        assert self._own_view is not None
        return self._own_view

    def _now(self) -> str:
        return rfc3339(self._clock())

    # -- loading -----------------------------------------------------------------------------
    def _load(self, game_id: str) -> Game:
        """The game at its head; ``NotFound`` if there is none."""
        if not is_game_id(game_id):
            raise NotFound(f"unknown game {game_id!r}", "unknown_game")
        try:
            game: Game = self.app.repository.get(game_id, projector_func=project_game)
        except AggregateNotFoundError:
            raise NotFound(f"unknown game {game_id!r}", "unknown_game") from None
        except DAMAGED as err:
            raise self._damaged(game_id, err) from None
        self._remember_head(game)
        return game

    def _remember_head(self, game: Game) -> None:
        """Keep the newest head in the repository's cache: the library fast-forwards a cached
        aggregate on each ``get`` but only re-caches mutable ones, and ``Game`` is immutable."""
        cache = self.app.repository.cache
        if cache is not None:
            cache.put(game.id, game)

    def _cached(self, game_id: str) -> Game | None:
        """The game's head as this process last saw it (it may have moved on since), if cached."""
        cache = self.app.repository.cache
        try:
            cached = cache.get(game_id) if cache is not None else None
        except KeyError:
            return None
        return cached if isinstance(cached, Game) else None

    @staticmethod
    def _damaged(game_id: str, err: BaseException) -> IllegalAction:
        return IllegalAction(
            f"game {game_id!r}: a stored event can't be read back ({type(err).__name__}: {err}); run verify",
            "damaged_record",
        )

    def _game_at(self, game: Game, version: int) -> Game:
        if version == game.version:
            return game
        try:
            past: Game = self.app.repository.get(game.id, version=version, projector_func=project_game)
        except DAMAGED as err:
            raise self._damaged(game.id, err) from None
        return past

    def _stored(
        self, game_id: str, *, gt: int | None = None, lte: int | None = None, limit: int | None = None
    ) -> list[GameEvent]:
        try:
            return [e for e in self.app.events.get(game_id, gt=gt, lte=lte, limit=limit) if isinstance(e, GameEvent)]
        except DAMAGED as err:
            raise self._damaged(game_id, err) from None

    @staticmethod
    def _check_expected(game: Game, expected_version: int | None) -> None:
        if expected_version is not None and expected_version != game.version:
            raise Conflict(
                f"game {game.id!r} is at version {game.version}, not {expected_version} (If-Match)", "version_conflict"
            )

    # -- appending ---------------------------------------------------------------------------
    def _chain(
        self, game_id: str, after: int, prev_hash: str, events: Sequence[ev.Event], actor: Actor
    ) -> list[GameEvent]:
        """Stored events for one action: versions after ``after``, one action id, one time."""
        action_id = str(uuid4())
        at = self._now()
        who = actor.to_json()
        out: list[GameEvent] = []
        for version, event in enumerate(events, start=after + 1):
            data = json_native(event.data)
            record = hashed_record(
                game_id=game_id,
                version=version,
                type=event.type,
                data=data,
                rule=event.rule,
                action_id=action_id,
                actor=who,
                recorded_at=at,
            )
            digest = chain_hash(prev_hash, record)
            out.append(
                GameEvent(
                    originator_id=game_id,
                    originator_version=version,
                    type=event.type,
                    data=data,
                    rule=event.rule,
                    action_id=action_id,
                    actor=who,
                    recorded_at=at,
                    prev_hash=prev_hash,
                    hash=digest,
                )
            )
            prev_hash = digest
        return out

    def _claim(
        self, key: str | None, fingerprint: str | None, stored: Sequence[GameEvent]
    ) -> IdempotencyKeyClaimed | None:
        if key is None:
            return None
        last = stored[-1]
        return self._idempotency.claim(
            key, fingerprint or "", last.originator_id, last.action_id, last.originator_version
        )

    def _save(self, stored: Sequence[GameEvent], claim: IdempotencyKeyClaimed | None, on_clash: Conflict) -> None:
        """One atomic save: every event of the action (and the key's claim) or nothing."""
        try:
            self.app.save(*stored, *([claim] if claim is not None else []))
        except IntegrityError:
            if claim is not None:
                clash = self._idempotency.clash(claim)
                if clash is not None:
                    raise clash from None
            raise on_clash from None

    def _snapshot_if_due(self, before: int, game: Game) -> None:
        """A snapshot whenever the head crosses a multiple of the interval (taken from the state in
        hand, so it costs no replay). Losing one only costs replay time, so failures are logged."""
        interval = self.snapshot_interval
        if interval <= 0 or game.version // interval == before // interval:
            return
        assert self.app.snapshots is not None
        try:
            self.app.snapshots.put([game.snapshot()])
        except IntegrityError:
            pass  # another writer's snapshot of the same version
        except Exception:  # pragma: no cover - a snapshot is an optimisation, never a failure
            log.exception("snapshot of %s at %d failed", game.id, game.version)

    def _append(
        self,
        game: Game,
        events: Sequence[ev.Event],
        actor: Actor,
        idempotency_key: str | None,
        request_fingerprint: str | None,
    ) -> ActionResult:
        if not events:
            return ActionResult(game.id, str(uuid4()), game.version, [], game.state)
        stored = self._chain(game.id, game.version, game.last_hash, events, actor)
        claim = self._claim(idempotency_key, request_fingerprint, stored)
        clash = Conflict(
            f"game {game.id!r} moved on from version {game.version} while this action was decided; "
            "reload the game and try again",
            "version_conflict",
        )
        self._save(stored, claim, clash)
        new = project_game(game, stored)
        assert new is not None
        self._remember_head(new)
        self._snapshot_if_due(game.version, new)
        return ActionResult(game.id, stored[0].action_id, new.version, [recorded(e) for e in stored], new.state)

    # -- commands ----------------------------------------------------------------------------
    def create_game(
        self,
        body: dict[str, Any] | GameCreateBody,
        actor: Actor,
        game_id: str | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Create a game from the create body (docs/api.md, Games); the server picks ``g-<12 hex>`` if no id is
        given. ``Conflict(game_exists)`` if the id is taken."""
        chosen = game_id is not None
        for _ in range(3):
            gid = game_id if game_id is not None else f"g-{uuid4().hex[:12]}"
            if not is_game_id(gid):
                raise InvalidCommand(
                    f"game id {gid!r} must be 1-100 letters, digits or _.:- and start with a letter or digit",
                    "invalid_game_id",
                )
            start = game_started(body, gid, self.catalog.resolve)
            stored = self._chain(gid, 0, GENESIS_HASH, [start], actor)
            claim = self._claim(idempotency_key, request_fingerprint, stored)
            try:
                self._save(stored, claim, Conflict(f"a game {gid!r} already exists", "game_exists"))
            except Conflict as err:
                if err.code == "game_exists" and not chosen:
                    continue  # a server-chosen id collided: pick another
                raise
            game = project_game(None, stored)
            assert game is not None
            self._remember_head(game)
            return ActionResult(gid, stored[0].action_id, 1, [recorded(stored[0])], game.state)
        raise Conflict("could not find a free game id", "game_exists")  # pragma: no cover

    def act(
        self,
        game_id: str,
        body: dict[str, Any] | Command,
        actor: Actor,
        expected_version: int | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Parse ``body`` into a command (unless given one), decide it against the head, append its events.

        ``expected_version`` (If-Match) must equal the head or ``Conflict(version_conflict)``.
        ``idempotency_key`` is claimed in the same atomic save (see ``projections.idempotency``).
        """
        game = self._load(game_id)
        self._check_expected(game, expected_version)
        command = parse_command(body, self.catalog.resolve) if isinstance(body, dict) else body
        events, _ = run(game.state, command)
        return self._append(game, events, actor, idempotency_key, request_fingerprint)

    def undo(
        self,
        game_id: str,
        *,
        to_version: int | None = None,
        actions: int | None = None,
        reason: str,
        actor: Actor,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Append one ``ActionsReverted`` taking the game back to ``to_version``, or to just before
        the last ``actions`` live actions (default 1). Redo is an undo of the undo."""
        if to_version is not None and actions is not None:
            raise InvalidCommand("undo: give either 'to_version' or 'actions', not both", "invalid_field")
        if not isinstance(reason, str):
            raise InvalidCommand(f"undo: 'reason' must be a string, got {reason!r}", "invalid_field")
        game = self._load(game_id)
        self._check_expected(game, expected_version)
        if to_version is None:
            count = _int_arg("actions", 1 if actions is None else actions, 1)
            target = target_before_last_actions(self._undo_history(game, count), count)
        else:
            target = _int_arg("to_version", to_version, 0)
        restored = self._game_at(game, target).state if 1 <= target < game.version else game.state
        event = revert_event(game.version, target, reason, restored)
        return self._append(game, [event], actor, idempotency_key, request_fingerprint)

    def _undo_history(self, game: Game, actions: int) -> list[Entry]:
        """Enough of the log's tail for ``target_before_last_actions``: read backwards until it
        holds more live actions than asked for (or the whole log), plus every revert (known from
        the head), so the reverted flags it computes are exact."""
        entries = {e.version: e for e in game.reverts}
        flagged = reverted_versions(game.reverts)
        live_actions: set[str] = set()
        below = game.version
        while below >= 1 and len(live_actions) <= actions:
            page = [
                e
                for e in self.app.events.get(game.id, lte=below, desc=True, limit=UNDO_HISTORY_PAGE)
                if isinstance(e, GameEvent)
            ]
            if not page:
                break
            for e in page:
                entries[e.originator_version] = Entry(
                    e.originator_version, e.type, e.action_id, tuple(e.data.get("reverted_versions") or ())
                )
                if e.originator_version not in flagged and e.type != ev.GAME_STARTED:
                    live_actions.add(e.action_id)
            below = page[-1].originator_version - 1
        return sorted(entries.values(), key=lambda e: e.version)

    # -- queries -----------------------------------------------------------------------------
    def head_version(self, game_id: str) -> int:
        return self._load(game_id).version

    def state_at(self, game_id: str, version: int | None = None) -> tuple[int, GameState]:
        """``(version, state)`` at ``version`` (the head when ``None``); replays at most one
        snapshot interval. ``NotFound(unknown_version)`` outside 1..head."""
        if (
            version is None
            or isinstance(version, bool)
            or not isinstance(version, int)
            or not 1 <= version <= MAX_VERSION
        ):
            game = self._load(game_id)
            if version is None:
                return game.version, game.state
            raise NotFound(f"game {game_id!r} has versions 1..{game.version}, not {version!r}", "unknown_version")
        # One read, not two: a cached head at or past V proves V exists (versions only grow);
        # otherwise the replay to V shows whether the game reaches V.
        if not is_game_id(game_id):
            raise NotFound(f"unknown game {game_id!r}", "unknown_game")
        cached = self._cached(game_id)
        if cached is not None and cached.version >= version:
            return version, self._game_at(cached, version).state
        try:
            past: Game = self.app.repository.get(game_id, version=version, projector_func=project_game)
        except AggregateNotFoundError:
            raise NotFound(f"unknown game {game_id!r}", "unknown_game") from None
        except DAMAGED as err:
            raise self._damaged(game_id, err) from None
        if past.version != version:
            raise NotFound(f"game {game_id!r} has versions 1..{past.version}, not {version!r}", "unknown_version")
        return version, past.state

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> list[RecordedEvent]:
        """Events after version ``after`` (at most ``limit``, up to 1000), with reverted flags."""
        after = _int_arg("after", after, 0)
        limit = _int_arg("limit", limit, 1)
        game = self._load(game_id)
        if after >= game.version:
            return []  # also keeps an integer past the database's range out of the query
        flagged = reverted_versions(game.reverts)
        stored = self._stored(game_id, gt=after, lte=game.version, limit=min(limit, MAX_EVENTS_PAGE))
        return [recorded(e, e.originator_version in flagged) for e in stored]

    def _all_events(self, game: Game) -> list[RecordedEvent]:
        flagged = reverted_versions(game.reverts)
        return [recorded(e, e.originator_version in flagged) for e in self._stored(game.id, lte=game.version)]

    def timeline(self, game_id: str) -> list[dict[str, Any]]:
        """Readable lines grouped by turn and step (``projections.timeline``)."""
        return timeline_groups(self._all_events(self._load(game_id)))

    # -- audit -------------------------------------------------------------------------------
    def verify(self, game_id: str) -> VerifyReport:
        """Recompute the hash chain from the stored records. Never raises on damaged data: the
        first version that can't be read, is out of sequence or whose hash doesn't match is
        ``first_bad_version``."""
        if not is_game_id(game_id):
            raise NotFound(f"unknown game {game_id!r}", "unknown_game")
        rows = self.app.recorder.select_events(game_id)
        if not rows:
            raise NotFound(f"unknown game {game_id!r}", "unknown_game")
        prev_hash = GENESIS_HASH
        head: str | None = None
        first_bad: int | None = None
        for expected_version, row in enumerate(rows, start=1):
            head = None
            try:
                event = self.app.mapper.to_domain_event(row)
                if not isinstance(event, GameEvent):
                    raise TypeError("not a game event")
                head = event.hash
                digest = chain_hash(
                    event.prev_hash,
                    hashed_record(
                        game_id=game_id,
                        version=event.originator_version,
                        type=event.type,
                        data=event.data,
                        rule=event.rule,
                        action_id=event.action_id,
                        actor=event.actor,
                        recorded_at=event.recorded_at,
                    ),
                )
                ok = event.originator_version == expected_version and event.prev_hash == prev_hash and digest == head
            except Exception:
                ok = False
            if not ok and first_bad is None:
                first_bad = min(expected_version, row.originator_version)
            prev_hash = head or ""
        return VerifyReport(ok=first_bad is None, events=len(rows), head=head, first_bad_version=first_bad)

    def export(self, game_id: str) -> Iterator[str]:
        """NDJSON lines (without line ends): a header, then every event (docs/audit.md)."""
        game = self._load(game_id)
        return export_lines(game_id, self._all_events(game), self._now())

    def verify_export(self, lines: Iterable[str]) -> VerifyReport:
        """Check an export file (chain and rules replay) without storing it. A bad event line
        gives ``ok=False`` and its version; a bad header raises ``InvalidExport``."""
        body = list(lines)
        try:
            checked = check_export(body, snapshot_interval=0, valid_game_id=is_game_id)
        except InvalidExport as err:
            if err.version is None:
                raise
            events = sum(1 for text in body if text.strip()) - 1
            return VerifyReport(ok=False, events=events, head=None, first_bad_version=err.version)
        return VerifyReport(ok=True, events=len(checked.records), head=checked.final.last_hash, first_bad_version=None)

    def import_game(self, lines: Iterable[str], actor: Actor) -> ActionResult:
        """Verify and replay an export file, then store the game with the same events, versions,
        hashes and metadata (one atomic save, with a receipt naming ``actor``)."""

        def refuse_existing(game_id: str) -> None:
            if self.app.recorder.select_events(game_id, limit=1):
                raise Conflict(f"a game {game_id!r} already exists", "game_exists")

        checked = check_export(
            lines, snapshot_interval=self.snapshot_interval, on_header=refuse_existing, valid_game_id=is_game_id
        )
        final = checked.final
        action_id = str(uuid4())
        receipt = GameImported(
            originator_id=import_stream_id(checked.game_id),
            originator_version=1,
            game_id=checked.game_id,
            action_id=action_id,
            actor=actor.to_json(),
            recorded_at=self._now(),
            events=final.version,
            head=final.last_hash,
        )
        try:
            self.app.save(*checked.records, receipt)
        except IntegrityError:
            raise Conflict(f"a game {checked.game_id!r} already exists", "game_exists") from None
        if checked.checkpoints:
            assert self.app.snapshots is not None
            self.app.snapshots.put([g.snapshot() for g in checked.checkpoints])
        self._remember_head(final)
        flagged = reverted_versions(final.reverts)
        events = [recorded(e, e.originator_version in flagged) for e in checked.records]
        return ActionResult(checked.game_id, action_id, final.version, events, final.state)

    # -- read model --------------------------------------------------------------------------
    def list_games(
        self, event: Any = None, round: Any = None, table: Any = None, status: Any = None
    ) -> list[GameSummary]:
        """Game summaries from the read model (may lag the log by a moment; see
        ``wait_for_read_model``), most recently updated first."""
        return self._view.select_games(event=event, round=round, table=table, status=status)

    def wait_for_read_model(self, timeout: float = 10.0) -> None:
        """Block until the read model has processed everything stored so far (for tests and
        tools); ``TimeoutError`` after ``timeout`` seconds, or the runner's error if it died."""
        target = self.app.recorder.max_notification_id()
        if target is None:
            return
        deadline = time.monotonic() + timeout
        while not self._view.has_tracking_id(self.app.name, target):
            if self._runner is not None and self._runner.is_interrupted.is_set():
                self._runner.run_forever(timeout=0)  # re-raises the projection's error
                raise RuntimeError("the read model's projection runner has stopped")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the read model did not reach notification {target} in {timeout}s")
            time.sleep(0.005)

    # -- tokens and idempotency --------------------------------------------------------------
    def create_token(
        self,
        name: str,
        role: str,
        game_id: str | None = None,
        player_id: str | None = None,
        *,
        secret: str | None = None,
    ) -> str:
        """Store a token (only the SHA-256 of its secret) and return the secret."""
        return self._tokens.create(name, role, game_id, player_id, secret=secret)

    def lookup_token(self, secret: str) -> TokenInfo | None:
        return self._tokens.lookup(secret)

    def known_token(self, secret: str) -> TokenInfo | None:
        """``lookup_token`` for a token this process has already seen, without I/O; else None."""
        return self._tokens.known(secret)

    def has_admin(self) -> bool:
        return self._tokens.has_admin()

    def remember(self, key: str, fingerprint: str, status: int, response_json: str) -> None:
        """Store the response given for an ``Idempotency-Key``."""
        self._idempotency.remember(key, fingerprint, status, response_json)

    def claimed_action(self, key: str) -> tuple[str, str, str, int] | None:
        """``(fingerprint, game_id, action_id, version)`` of the action stored under ``key``, so a
        retry can be answered even if the first response was never remembered."""
        claim = self._idempotency.claimed(key)
        if claim is None:
            return None
        return claim.fingerprint, claim.game_id, claim.action_id, claim.version

    def recall(self, key: str) -> Recalled | None:
        """``(fingerprint, status, response_json)`` remembered for the key, or ``None``."""
        return self._idempotency.recall(key)
