"""``Matches``: the matches read model and the match reports written to the log
(``projections.matches``; docs/judges.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import Code, NotFound
from ledger.clock import Now
from projections.matches import VIEWS, MatchProjection, match_key, match_out, result_row, round_prefix
from store.application import LedgerApplication
from store.database_url import StoreKind
from store.documents import follower
from store.errors import VersionClash
from store.read_model_group import ReadModelGroup
from store.records import MatchReported, match_stream_id
from store.results import Actor
from store.runner_election import ElectedRunner


class Matches:
    """Matches by event, round and table; match reports (confirm, intentional draw, result)."""

    def __init__(
        self,
        app: LedgerApplication,
        store: StoreKind,
        env: Mapping[str, str],
        now: Now,
        *,
        group: ReadModelGroup,
    ) -> None:
        self._app = app
        self._now = now
        self._follower = follower(app, store, env, MatchProjection, VIEWS, group=group)

    @property
    def election(self) -> ElectedRunner | None:
        """Whether this process keeps the matches read model (``None``: it never asks to)."""
        return self._follower.election

    def get(self, event: str, round: str, table: str) -> dict[str, Any]:
        """The match (``NotFound(unknown_match)`` when no game of it was created)."""
        doc = self._follower.view.get_doc(match_key(event, round, table))
        if doc is None:
            raise NotFound(f"no game of event {event!r}, round {round!r}, table {table!r} is known", Code.UNKNOWN_MATCH)
        return doc

    def match(self, event: str, round: str, table: str) -> dict[str, Any]:
        return match_out(self.get(event, round, table))

    def round(self, event: str, round: str) -> dict[str, Any]:
        """The round: its tables' matches, the open judge calls and time extensions."""
        docs = sorted(
            self._follower.view.docs(round_prefix(event, round)).values(), key=lambda d: str(d["table_number"])
        )
        matches = [match_out(d) for d in docs]
        return {
            "event": event,
            "round": round,
            "tables": matches,
            "open_calls": [{"table": m["table"], **c} for m in matches for c in m["open_calls"]],
            "time_extensions": [{"table": m["table"], **t} for m in matches for t in m["time_extensions"]],
        }

    def results(self, event: str, round: str) -> list[dict[str, Any]]:
        """The results export rows of a round, by table."""
        docs = self._follower.view.docs(round_prefix(event, round)).values()
        return [result_row(d) for d in sorted(docs, key=lambda d: str(d["table_number"]))]

    def report(
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
        """Append a ``MatchReported`` to the match's stream (the next version; retried on a clash)."""
        stream = match_stream_id(event, round, table)
        for _ in range(5):
            last = list(self._app.events.get(stream, desc=True, limit=1))
            version = last[0].originator_version + 1 if last else 1
            record = MatchReported(
                originator_id=stream,
                originator_version=version,
                event=event,
                round=round,
                table=table,
                kind=kind,
                actor=actor.to_json(),
                player=player,
                score=score,
                recorded_at=self._now(),
            )
            try:
                self._app.save(record)
                return
            except VersionClash:
                continue
        raise RuntimeError(f"could not append to {stream}")  # pragma: no cover

    def wait(self, timeout: float = 10.0) -> None:
        self._follower.wait(timeout)

    def close(self) -> None:
        self._follower.close()
