"""``LedgerService``: the one facade of the ledger. The HTTP API, the CLI, tools and tests call it.

``LedgerService(urls, settings, catalog=..., clock=...)`` opens one ``Partition`` per database URL
(``ledger.partitions``: games spread by a stable hash of their id) with the knobs of
``LedgerSettings`` (``ledger.settings``), and the matches and webhooks read models of the home
partition. Its methods are every operation a caller needs, each sent to the partition that holds
it:

- writes: ``create_game``, ``act``, ``undo``, ``import_game`` (``ledger.game_service``, through
  the one write path ``ledger.write_path``); the caller is an ``Actor`` the ledger trusts or a
  token's ``Grant``, which ``domain.permissions`` checks inside each decision;
- reads: ``state_at``, ``events``, ``timeline``, ``boundaries``, ``action``, ``creator``
  (``ledger.game_reads``); ``verify``, ``export`` (``ledger.game_record``); ``list_games``;
- tokens (``ledger.tokens``), Idempotency-Key records (``ledger.idempotency``), matches
  (``ledger.match_service``) and webhooks (``ledger.webhooks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, NamedTuple, Self

from domain.cards.catalog import Catalog, bundled_catalog
from domain.commands import Command, parse_command
from domain.commands.bodies.create import GameCreateBody
from domain.permissions import Grant
from domain.state import GameState
from domain.undo import Undo
from ledger.clock import Clock, recorder, utc_now
from ledger.decklist_calls import CrossCheckCalls
from ledger.decklist_facade import DecklistFacade
from ledger.game_reads import MAX_EVENTS_PAGE, TimelinePage
from ledger.idempotency import KeyRecords
from ledger.match_service import Matches, Source
from ledger.partition import Partition
from ledger.partitions import MergedGameList, Partitions
from ledger.settings import LedgerSettings, WebhookDelivery
from ledger.tokens import TokenRegistry
from ledger.tournament_facade import TournamentFacade
from ledger.webhooks import Webhooks
from ledger.write_path import Submission
from projections.game_summaries import ProjectionFailure
from projections.open_calls import MAX_LIMIT, Log, OpenCallList, OpenCalls
from store.database_url import StoreKind, store_kind
from store.group_commit import GroupCommitter
from store.ledger_store import ReadModelApp
from store.results import ActionResult, Actor, GameSummary, RecordedEvent, TokenInfo, VerifyReport

__all__ = [
    "ActionResult",
    "Actor",
    "GameSummary",
    "Grant",
    "LedgerService",
    "LedgerSettings",
    "RecordedEvent",
    "TokenInfo",
    "VerifyReport",
    "WebhookDelivery",
]

Caller = Actor | Grant
"""Who a write is from: an ``Actor`` the ledger trusts, or a token's ``Grant`` (checked)."""


class ReadModelStatus(NamedTuple):
    """How the game list read model keeps up (``GET /v1/health``)."""

    runner: str
    """``running``, ``elsewhere`` (another process keeps it) or ``stopped: <error>``."""
    failures: list[ProjectionFailure]
    """The games it could not project, at their first failing record."""


class LedgerService(TournamentFacade, DecklistFacade):
    """Games, their audit trail, tokens, idempotency records, matches and webhooks."""

    def __init__(
        self,
        database_url: str | Sequence[str],
        settings: LedgerSettings | None = None,
        *,
        catalog: Catalog | None = None,
        clock: Clock = utc_now,
    ) -> None:
        """``database_url``: one URL, or several (games partitioned across them; the first is the
        home partition). ``clock``: the time source of ``recorded_at`` (tests pass a fixed one)."""
        settings = settings if settings is not None else LedgerSettings()
        urls = [database_url] if isinstance(database_url, str) else list(database_url)
        if not urls:
            raise ValueError("a ledger needs at least one database URL")
        self.settings: LedgerSettings = settings
        """The knobs it was opened with."""
        self.store: StoreKind = store_kind(urls[0])
        """``sqlite`` or ``postgresql`` (of the home partition when there are several)."""
        self.catalog: Catalog = catalog if catalog is not None else bundled_catalog()
        """Resolves card names in requests."""
        now = recorder(clock)
        self.partitions: Partitions = Partitions.open(urls, self.catalog, now, settings)
        """One per database URL; the first is the home partition."""
        home = self.partitions.home
        self.app: ReadModelApp = home.app
        """The home partition's ``eventsourcing`` application (with one URL: the only one)."""
        self.library_env: dict[str, str] = home.library_env
        """The library's environment of the home store (what ``runner_election`` elects on)."""
        self.committer: GroupCommitter | None = home.committer
        """The home partition's group committer (``None``: group commit off)."""
        self.game_list: MergedGameList = self.partitions.game_list
        """The game-list read model (its runner and election, for health and tests)."""
        self.tokens: TokenRegistry = home.tokens
        """The token registry (in the home partition), for tests that look inside; callers use
        the token methods below."""
        # Matches and the webhook outbox follow every partition's log (a round's tables may be
        # stored in several; docs/operations.md, Partitions).
        try:
            others = [
                Source(p.app, p.store, p.library_env, p.read_models, p.streams) for p in list(self.partitions)[1:]
            ]
            self.matches = Matches(
                home.app, home.store, home.library_env, now, group=home.read_models, streams=home.streams, others=others
            )
            """Matches by event, round and table (a read model) and match reports."""
            hooks = settings.webhooks
            self.webhooks = Webhooks(
                home.app,
                home.store,
                home.library_env,
                now,
                group=home.read_models,
                streams=home.streams,
                settings=hooks,
                others=others,
            )
            """Webhook subscriptions, the outbox and its deliverer."""
            self.open_calls = OpenCalls([Log(p.app, p.store, p.library_env, p.read_models) for p in self.partitions])
            """The open judge calls of every game (a read model of every partition's log)."""
            self.partitions.start_read_models()
        except BaseException:
            self.partitions.close_read_models()
            for name in ("open_calls", "webhooks", "matches"):
                if hasattr(self, name):
                    getattr(self, name).close()
            self.partitions.close()
            raise
        # Tournaments: streams of the home partition, written by its one writer; the games a
        # pairing asks for are created by the partitions (``Partitions.create_games``).
        self.open_tournaments(
            home.streams,
            home.idempotency,
            clock,
            now,
            self.partitions.create_games,
            self.round,
            self.state_at,
            self.events,
        )
        self.crosscheck_calls = CrossCheckCalls(
            self.decklist_service, lambda gid, command, sub: self._of(gid).games.act(gid, command, sub)
        )
        """Opens a judge call for a card a tournament game shows that its player's list lacks."""
        self._closed = False

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the projection runners and close every connection pool."""
        if self._closed:
            return
        self._closed = True
        errors = self.partitions.close_read_models()  # the runners before their views
        for follower in (self.open_calls, self.webhooks, self.matches):
            try:
                follower.close()
            except BaseException as err:  # close the partitions anyway
                errors.append(err)
        errors += self.partitions.close()
        if errors:
            raise errors[0]

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _of(self, game_id: str) -> Partition:
        return self.partitions.of(game_id)

    # -- writes ------------------------------------------------------------------------------
    def create_game(
        self,
        body: dict[str, Any] | GameCreateBody,
        actor: Caller,
        game_id: str | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Create a game from docs/api.md's create body (``g-<12 hex>`` when no id is given);
        ``Conflict(game_exists)`` if the id is taken."""
        submission = Submission(actor, None, idempotency_key, request_fingerprint)
        return self.partitions.create_game(body, game_id, submission)

    def act(
        self,
        game_id: str,
        command: Command | Mapping[str, Any],
        actor: Caller,
        expected_version: int | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Decide ``command`` (a request body is parsed with this ledger's catalog first) on the
        game's head and append its events. ``expected_version`` (If-Match) must equal the head or
        ``Conflict(version_conflict)``; ``idempotency_key`` is claimed in the same atomic save."""
        if isinstance(command, Mapping):
            command = parse_command(dict(command), self.catalog.resolve)
        submission = Submission(actor, expected_version, idempotency_key, request_fingerprint)
        result = self._of(game_id).games.act(game_id, command, submission)
        self.crosscheck_calls.after_write(game_id, result.state)  # issue 42 (ledger.decklist_calls)
        return result

    def undo(
        self,
        game_id: str,
        *,
        reason: str,
        actor: Caller,
        to_version: int | None = None,
        actions: int | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Back the game up (``domain.undo.Undo``): to ``to_version``, or to just before its last
        ``actions`` live actions (default 1), appending one ``ActionsReverted``."""
        command = Undo(reason, to_version, actions)
        submission = Submission(actor, expected_version, idempotency_key, request_fingerprint)
        return self._of(game_id).games.undo(game_id, command, submission)

    def import_game(self, lines: Iterable[str], actor: Actor) -> ActionResult:
        """Verify an export and store its game, keeping versions, hashes and times."""
        return self.partitions.import_game(lines, actor)

    # -- reads -------------------------------------------------------------------------------
    def head_version(self, game_id: str) -> int:
        return self._of(game_id).reads.head_version(game_id)

    def state_at(self, game_id: str, version: int | None = None) -> tuple[int, GameState]:
        """``(version, state)`` at ``version`` (the head when ``None``)."""
        return self._of(game_id).reads.state_at(game_id, version)

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> list[RecordedEvent]:
        """Events after version ``after`` (at most ``limit``, up to 1000), with reverted flags."""
        return self._of(game_id).reads.events(game_id, after, limit)

    def timeline(self, game_id: str, after: int = 0, limit: int = MAX_EVENTS_PAGE) -> TimelinePage:
        """One page of readable lines by turn and step, and where the next page starts."""
        return self._of(game_id).reads.timeline(game_id, after, limit)

    def boundaries(self, game_id: str) -> list[dict[str, Any]]:
        """The game's actions, oldest first (where a backup may go back to)."""
        return self._of(game_id).reads.boundaries(game_id)

    def action(self, game_id: str, action_id: str, version: int) -> ActionResult:
        """A stored action as ``act`` returned it (``ledger.game_reads.GameReads.action``)."""
        return self._of(game_id).reads.action(game_id, action_id, version)

    def creator(self, game_id: str) -> Actor:
        """Who created the game (its first event's actor)."""
        return self._of(game_id).reads.creator(game_id)

    def verify(self, game_id: str, *, full: bool = True) -> VerifyReport:
        """Check the game's hash chain (``full=False``: only past the last whole check here)."""
        return self._of(game_id).record.verify(game_id, full=full)

    def export(self, game_id: str) -> Iterator[str]:
        """The game's NDJSON export, line by line."""
        return self._of(game_id).record.export(game_id)

    def verify_export(self, lines: Iterable[str]) -> VerifyReport:
        """Check an export file: its chain, and its replay through the rules (no store involved)."""
        return self.partitions.home.record.verify_export(lines)

    def list_games(
        self, event: Any = None, round: Any = None, table: Any = None, status: Any = None
    ) -> list[GameSummary]:
        """Game summaries (a read model: it may trail a write by a moment), newest first."""
        return self.game_list.select(event, round, table, status)

    def read_model_status(self) -> ReadModelStatus:
        """Whether the game list keeps up, and the games it failed on."""
        return ReadModelStatus(self.game_list.runner_state(), self.game_list.failures())

    def keeps_read_models(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this process to be elected to keep the read models
        of every partition (``mtg-ledger project``); whether it keeps them all."""
        return self.partitions.keep_read_models(timeout)

    def wait_for_read_model(self, timeout: float = 10.0) -> None:
        """Wait until every read model has caught up with the log (raises if one failed)."""
        self.game_list.wait(timeout)
        self.matches.wait(timeout)
        self.webhooks.wait(timeout)
        self.open_calls.wait(timeout)

    def open_judge_calls(self, event: str | None = None, limit: int = MAX_LIMIT) -> OpenCallList:
        """The judge calls not answered yet, of every game or of ``event``'s, newest first (a read
        model: it may trail a write by a moment; docs/judges.md, the judges' page)."""
        return self.open_calls.select(event, limit)

    # -- Idempotency-Key records -------------------------------------------------------------
    def read_idempotency_key(self, key: str) -> KeyRecords:
        """Everything stored under an Idempotency-Key: one read of its stream."""
        return self.partitions.read_key(key)

    def remember_response(
        self, seen: KeyRecords, fingerprint: str, status: int, response_json: str, *, claimed_since: bool = False
    ) -> None:
        """Store the response to replay for the key ``seen`` was read for (``ledger.idempotency``)."""
        self.partitions.remember(seen, fingerprint, status, response_json, claimed_since=claimed_since)

    # -- tokens ------------------------------------------------------------------------------
    def create_token(
        self,
        name: str,
        role: str,
        game_id: str | None = None,
        player_id: str | None = None,
        *,
        secret: str | None = None,
        expires_at: str | None = None,
    ) -> str:
        """Store a token and return its secret (shown once; only its hash is stored)."""
        return self.tokens.create(name, role, game_id, player_id, secret=secret, expires_at=expires_at)

    def token_grant(self, secret: str) -> TokenInfo | None:
        """A secret's stored grant, revoked or expired too (``token_usable`` says); ``None``: unknown."""
        return self.tokens.grant(secret)

    def token_usable(self, info: TokenInfo) -> bool:
        """Neither revoked nor expired."""
        return self.tokens.usable(info)

    def known_token(self, secret: str) -> TokenInfo | None:
        """The usable grant of a token this process read a moment ago (no I/O), else ``None``."""
        return self.tokens.known(secret)

    def lookup_token(self, secret: str) -> TokenInfo | None:
        """What the token grants, or ``None`` for an unknown, expired or revoked secret."""
        return self.tokens.lookup(secret)

    def list_tokens(self) -> list[TokenInfo]:
        """Every stored token (revoked and expired ones too), oldest first, with its last use."""
        return self.tokens.list()

    def revoke_token(self, token_id: str, actor: dict[str, str]) -> TokenInfo:
        """Revoke the token with this public id (``NotFound(unknown_token)`` if there is none)."""
        return self.tokens.revoke(token_id, actor)

    def has_admin(self) -> bool:
        """Whether an admin token is stored."""
        return self.tokens.has_admin()

    # -- matches -----------------------------------------------------------------------------
    def round(self, event: str, round: str) -> dict[str, Any]:
        """A round: its tables' matches, the open judge calls and time extensions."""
        return self.matches.round(event, round)

    def match(self, event: str, round: str, table: str) -> dict[str, Any]:
        """One match and its result, as the API shows it."""
        return self.matches.match(event, round, table)

    def match_record(self, event: str, round: str, table: str) -> dict[str, Any]:
        """One match as the read model keeps it (its games, players, reports)."""
        return self.matches.get(event, round, table)

    def round_results(self, event: str, round: str) -> list[dict[str, Any]]:
        """The results export rows of a round, by table."""
        return self.matches.results(event, round)

    def report_match(
        self,
        event: str,
        round: str,
        table: str,
        kind: str,
        actor: Actor,
        *,
        player: str | None = None,
        score: dict[str, Any] | None = None,
    ) -> None:
        """Record a match report (a confirmation, an intentional draw, a result)."""
        self.matches.report(event, round, table, kind, actor, player=player, score=score)

    # -- webhooks ----------------------------------------------------------------------------
    def subscribe_webhook(self, url: str, events: list[str]) -> dict[str, Any]:
        """A new webhook subscription; its secret is returned once."""
        return self.webhooks.subscribe(url, events)

    def webhook_deliveries(self, subscription: str) -> list[dict[str, Any]]:
        """Delivery status of one subscription, oldest first."""
        return self.webhooks.deliveries(subscription)

    def list_webhooks(self) -> list[dict[str, Any]]:
        """The subscriptions not deleted (without their secrets)."""
        return self.webhooks.subscriptions()

    def delete_webhook(self, subscription: str) -> None:
        """Delete a subscription: nothing more is sent to it."""
        self.webhooks.delete(subscription)

    def rotate_webhook_secret(self, subscription: str) -> dict[str, Any]:
        """A new signing secret for a subscription, returned once."""
        return self.webhooks.rotate_secret(subscription)
