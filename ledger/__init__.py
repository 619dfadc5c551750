"""The application layer: the one facade the HTTP API and the CLI call (``LedgerService``).

- ``service``: ``LedgerService``, one ledger over one or more databases, wired from its parts;
- ``game_service``: create, act, undo; state, events, timeline (one request path per action);
- ``game_record`` and ``game_files``: verify, export, import;
- ``match_service``: match reports and the matches read model;
- ``webhooks``: subscriptions and their delivery;
- ``tokens``, ``idempotency``: durable records of the API's tokens and keys;
- ``partition`` and ``partitions``: one database's parts, and games spread over several;
- ``clock``: ``recorded_at`` times.

docs/architecture.md draws the layers.
"""

from ledger.service import LedgerService
from store.results import ActionResult, Actor, GameSummary, RecordedEvent, TokenInfo, VerifyReport

__all__ = ["ActionResult", "Actor", "GameSummary", "LedgerService", "RecordedEvent", "TokenInfo", "VerifyReport"]
