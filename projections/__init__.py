"""Folds of the event log into state and read models, and the event store they live in.

``LedgerService`` (``projections.service``) wires one ledger over one database URL; the HTTP layer
and the CLI call its parts:

- ``game_service``: create, act, undo; state, events, timeline (one request path per action);
- ``game_record``: verify, export, import;
- ``game_list``: the game-list read model as this process runs it;
- ``read_model_group``: the read models of one log on one runner and one subscription, in the
  one process elected to keep them (``runner_election``);
- ``game_repository``: reading games back (the cached head, a fresh load, a past version);
- ``stored_events``: the records the ``eventsourcing`` library stores, under pinned topics;
- ``ledger_application``: the library application holding every stream;
- ``database_url``: one database URL to the library's settings (SQLite or PostgreSQL);
- ``sqlite_polling``: the polling subscription SQLite needs for projections;
- ``game_aggregate``: a game as an immutable aggregate, and its fast projector;
- ``hash_chain``: the audit hash chain, ``seal`` (docs/audit.md);
- ``game_files``: export files, and checking one before import;
- ``game_summaries``: the game-list read model and its projection;
- ``timeline``: events as readable lines;
- ``tokens``, ``idempotency``: durable records the HTTP layer uses directly;
- ``clock``: ``recorded_at`` times;
- ``results``: the values the service returns.
"""

from projections.results import ActionResult, Actor, GameSummary, RecordedEvent, TokenInfo, VerifyReport
from projections.service import LedgerService

__all__ = ["ActionResult", "Actor", "GameSummary", "LedgerService", "RecordedEvent", "TokenInfo", "VerifyReport"]
