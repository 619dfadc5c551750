"""``Matches``: the matches read model and the match reports written to the log
(``projections.matches``; docs/judges.md).

With several partitions (``ledger.partitions``) a match's games may be stored in several
databases: the read model follows every partition's log (``others``), each into its own
database's table, and a match is the merge of its documents (``merge_docs``); its reports are
written to the home partition."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from domain.errors import Code, NotFound
from ledger.clock import Now
from projections.matches import (
    VIEWS,
    MatchProjection,
    match_key,
    match_out,
    merge_docs,
    result_row,
    round_prefix,
)
from store.database_url import StoreKind
from store.documents import follower
from store.errors import VersionClash
from store.ledger_store import ReadModelApp
from store.read_model_group import ReadModelGroup
from store.records import MatchReported, match_stream_id
from store.results import Actor
from store.runner_election import ElectedRunner
from store.streams import Streams


class Source(NamedTuple):
    """Another partition whose games the matches read model (and the webhook outbox) follows."""

    app: ReadModelApp
    """Handed on, unopened, to the read model's runner."""
    store: StoreKind
    env: Mapping[str, str]
    group: ReadModelGroup
    streams: Streams
    """That partition's streams (an import's receipt lives with its game)."""


class Matches:
    """Matches by event, round and table; match reports (confirm, intentional draw, result)."""

    def __init__(
        self,
        app: ReadModelApp,
        store: StoreKind,
        env: Mapping[str, str],
        now: Now,
        *,
        group: ReadModelGroup,
        streams: Streams,
        others: Sequence[Source] = (),
    ) -> None:
        self._streams = streams
        self._now = now
        self._follower = follower(app, store, env, MatchProjection, VIEWS, group=group)
        self._followers = [self._follower] + [
            follower(o.app, o.store, o.env, MatchProjection, VIEWS, group=o.group) for o in others
        ]

    @property
    def election(self) -> ElectedRunner | None:
        """Whether this process keeps the matches read model (``None``: it never asks to)."""
        return self._follower.election

    def _docs(self, prefix: str) -> list[dict[str, Any]]:
        """The matches whose keys start with ``prefix``, each merged over the partitions."""
        found: dict[str, list[dict[str, Any]]] = {}
        for f in self._followers:
            for key, doc in f.view.docs(prefix).items():
                found.setdefault(key, []).append(doc)
        merged = (merge_docs(docs) for docs in found.values())
        return sorted((d for d in merged if d is not None), key=lambda d: str(d["table_number"]))

    def get(self, event: str, round: str, table: str) -> dict[str, Any]:
        """The match (``NotFound(unknown_match)`` when no game of it was created)."""
        key = match_key(event, round, table)
        doc = merge_docs([d for d in (f.view.get_doc(key) for f in self._followers) if d is not None])
        if doc is None:
            raise NotFound(f"no game of event {event!r}, round {round!r}, table {table!r} is known", Code.UNKNOWN_MATCH)
        return doc

    def match(self, event: str, round: str, table: str) -> dict[str, Any]:
        return match_out(self.get(event, round, table))

    def round(self, event: str, round: str) -> dict[str, Any]:
        """The round: its tables' matches, the open judge calls and time extensions."""
        matches = [match_out(d) for d in self._docs(round_prefix(event, round))]
        return {
            "event": event,
            "round": round,
            "tables": matches,
            "open_calls": [{"table": m["table"], **c} for m in matches for c in m["open_calls"]],
            "time_extensions": [{"table": m["table"], **t} for m in matches for t in m["time_extensions"]],
        }

    def results(self, event: str, round: str) -> list[dict[str, Any]]:
        """The results export rows of a round, by table."""
        return [result_row(d) for d in self._docs(round_prefix(event, round))]

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
            last = self._streams.read(stream, desc=True, limit=1)
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
                self._streams.append_alone(record)
                return
            except VersionClash:
                continue
        raise RuntimeError(f"could not append to {stream}")  # pragma: no cover

    def wait(self, timeout: float = 10.0) -> None:
        for f in self._followers:
            f.wait(timeout)

    def close(self) -> None:
        for f in self._followers:
            f.close()
