"""Folds of the event log into state and read models, and the event store they live in.

``LedgerService`` (``projections.service``) is the application service the HTTP layer and the
CLI call; everything else here serves it:

- ``stored_events``: the records the ``eventsourcing`` library stores, under pinned topics;
- ``ledger_application``: the library application holding every stream;
- ``database_url``: one database URL to the library's settings (SQLite or PostgreSQL);
- ``sqlite_polling``: the polling subscription SQLite needs for projections;
- ``game_aggregate``: a game as an immutable aggregate, and its fast projector;
- ``hash_chain``: the audit hash chain (docs/audit.md);
- ``game_files``: export files, and checking one before import;
- ``game_summaries``: the game-list read model and its projection;
- ``timeline``: events as readable lines;
- ``tokens``, ``idempotency``: durable helpers for the HTTP layer;
- ``results``: the values the service returns.
"""

from projections.results import ActionResult, Actor, GameSummary, RecordedEvent, TokenInfo, VerifyReport
from projections.service import LedgerService

__all__ = ["ActionResult", "Actor", "GameSummary", "LedgerService", "RecordedEvent", "TokenInfo", "VerifyReport"]
