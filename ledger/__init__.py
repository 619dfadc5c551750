"""The application layer: the one facade the HTTP API and the CLI call (``LedgerService``).

- ``service``: ``LedgerService``, one ledger over one or more databases, wired from its parts;
- ``settings``: ``LedgerSettings``, the few knobs a ledger takes;
- ``game_service``, ``write_path`` and ``game_reads``: create, act, undo (one decide, seal and
  save path for every write); state, events, timeline;
- ``game_record``, ``game_files``, ``export_checks`` and ``import_rules``: verify, export, import;
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
