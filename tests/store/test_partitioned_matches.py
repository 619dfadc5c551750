"""Issue 33, finding 11: with several partitions the matches read model follows every
partition's log. Before the fix it followed the home partition's only: a round's tables stored
in another database were missing from the round and its results export (2 of 8 tables). Here 8
tables of one round, their games spread over two databases, and a match whose two games are in
different databases, confirmed by both players (reports are in the home partition). PostgreSQL
(the partition tests' two databases)."""

from __future__ import annotations

import copy

import pytest

from domain.permissions import Grant
from ledger.partitions import partition_of
from ledger.service import LedgerService, LedgerSettings
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER
from tests.store.test_partitions import two_databases  # noqa: F401  (the fixture)

EVENT, ROUND = "GP-Parts", 2


def _game(service: LedgerService, gid: str, table: int) -> None:
    body = copy.deepcopy(TWO_PLAYER)
    body["tournament"] = {"event": EVENT, "round": ROUND, "table": table}
    service.create_game(body, SCOREKEEPER, gid)


@pytest.mark.postgres
def test_a_round_covers_every_partition(two_databases: list[str]) -> None:  # noqa: F811
    service = LedgerService(two_databases, LedgerSettings(snapshot_interval=5))
    try:
        ids = [f"t{i}" for i in range(8)]
        assert {partition_of(g, 2) for g in ids} == {0, 1}  # both databases hold some tables
        for table, gid in enumerate(ids, start=1):
            _game(service, gid, table)
        # Table 9: game one in each partition, P1 wins both, both players confirm.
        pair = [next(f"m{i}" for i in range(100) if partition_of(f"m{i}", 2) == n) for n in (0, 1)]
        for gid in pair:
            _game(service, gid, 9)
            service.act(gid, {"type": "concede", "player": "P2"}, JUDGE)
        service.wait_for_read_model()
        match = service.match(EVENT, str(ROUND), "9")
        assert [g["game_id"] for g in match["games"]] == pair and match["result"]["score"] == "2-0-0"
        for player in ("P1", "P2"):
            grant = Grant(f"{player}'s link", "player", pair[1], player)
            service.report_match(
                EVENT, str(ROUND), "9", "confirm", JUDGE, player=grant.player_id, score={"score": "2-0-0"}
            )
        service.wait_for_read_model()
        tables = service.round(EVENT, str(ROUND))["tables"]
        assert [t["table"] for t in tables] == list(range(1, 10))
        rows = service.round_results(EVENT, str(ROUND))
        assert [r["table"] for r in rows] == list(range(1, 10))
        assert rows[-1]["a_wins"] == 2 and rows[-1]["confirmed"] is True
    finally:
        service.close()
