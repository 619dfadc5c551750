"""The tournament's record: the same audit metadata as a game's events, its own hash chain
sealed by ``store.hash_chain.seal``, and a verify that names the first record that doesn't
match (docs/audit.md; docs/events.md, Tournament events)."""

from __future__ import annotations

import itertools

from fastapi.testclient import TestClient

from domain.tournament import RegisterPlayer, TournamentCommand, TournamentState
from ledger.write_path import Submission
from store.hash_chain import GENESIS_HASH
from store.records import TournamentRecord, tournament_stream_id
from store.results import Actor
from tests.api.tournament_client import Scorekeeper


def test_every_record_carries_the_audit_metadata_and_links_to_the_one_before(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk = Scorekeeper(client, admin_headers, "AUDIT")
    sk.create(rounds=1)
    sk.register("A", "B", "C")
    record = sk.get("/record")
    assert [e["type"] for e in record] == ["EventCreated"] + ["PlayerRegistered"] * 3
    assert record[0]["prev_hash"] == GENESIS_HASH
    for before, entry in itertools.pairwise(record):
        assert entry["prev_hash"] == before["hash"]
        assert entry["action_id"] != before["action_id"]
    assert all(e["actor"] == {"name": "admin", "role": "admin"} and e["recorded_at"].endswith("Z") for e in record)
    assert sk.get("/verify") == {"ok": True, "events": 4, "head": record[-1]["hash"], "first_bad_version": None}


def test_a_record_appended_outside_the_chain_is_found_by_verify(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk = Scorekeeper(client, admin_headers, "FORGED")
    sk.create(rounds=1)
    sk.register("A")
    last = sk.get("/record")[-1]
    forged = TournamentRecord(
        originator_id=tournament_stream_id("FORGED"),
        originator_version=3,
        type="PlayerRegistered",
        data={"player": "p2", "name": "Mallory"},
        action_id="forged",
        actor={"name": "nobody", "role": "admin"},
        recorded_at=last["recorded_at"],
        prev_hash=last["hash"],
        hash="f" * 64,
    )
    client.app.state.service.app.save(forged)  # type: ignore[attr-defined]
    report = sk.get("/verify")
    assert (report["ok"], report["first_bad_version"]) == (False, 3)


def test_a_write_that_loses_the_race_is_decided_again_on_the_fresh_record(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """The record's next version is the optimistic-concurrency token (docs/architecture.md, the
    path of one action): a write whose version another writer took first reads the record again
    and decides once more, so both registrations are stored, with distinct player ids."""
    sk = Scorekeeper(client, admin_headers, "RACE")
    sk.create(rounds=1)
    log = client.app.state.service.tournament_service._log  # type: ignore[attr-defined]
    actor = Submission(Actor("sk", "scorekeeper"))
    calls = 0

    def decision(state: TournamentState) -> list[TournamentCommand]:
        nonlocal calls
        calls += 1
        if calls == 1:  # another writer registers someone between this read and its save
            log.write("RACE", lambda s: [RegisterPlayer(player="p1", name="First")], actor)
        return [RegisterPlayer(player=f"p{len(state.players) + 1}", name="Second")]

    written = log.write("RACE", decision, actor)
    assert calls == 2
    assert [(p["player_id"], p["name"]) for p in sk.get()["players"]] == [("p1", "First"), ("p2", "Second")]
    assert written.version == 3 == sk.version()
