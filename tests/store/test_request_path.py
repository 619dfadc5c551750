"""The service's request path: decisions on the cached head, re-decided on a fresh load when the
save (or a refusal) shows the head was stale; one ``seal`` for the whole hash chain."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

import store.hash_chain as hash_chain
from domain.commands import Command, parse_command
from domain.errors import IllegalAction
from domain.permissions import Grant
from domain.state import GameState
from ledger.service import LedgerService
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad
from tests.store.forging import rehash

# The module, not the function ``domain`` exports under the same name.
decide = importlib.import_module("domain.decide")

TAP = {"type": "tap", "permanent": "hydra"}
UNTAP = {"type": "untap", "permanent": "hydra"}


def count_repository_reads(service: LedgerService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    real_get = service.app.repository.get

    def get(aggregate_id: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(str(aggregate_id))
        return real_get(aggregate_id, *args, **kwargs)

    monkeypatch.setattr(service.app.repository, "get", get)
    return reads


def test_an_action_on_a_cached_head_reads_nothing_before_its_save(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    reads = count_repository_reads(service, monkeypatch)
    result = service.act("g1", add_rad(), JUDGE)
    assert reads == []
    fresh = store.service(create_tables=False, read_models=False)
    assert fresh.state_at("g1") == (result.version, result.state), "the decided state is the stored one"


def test_a_stale_head_is_decided_again_on_a_fresh_load(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process moved the game on: the save finds the version taken, and the action is
    decided again on the new head (its permission check too)."""
    a = store.service()
    b = store.service(create_tables=False, read_models=False)
    a.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    b.act("g1", add_rad(amount=4), JUDGE)  # v2, which ``a`` has not seen
    seen: list[GameState] = []
    real_check = decide.check_command

    def check(grant: Grant, game_id: str, command: Command, state: GameState | None = None) -> None:
        assert state is not None, "checked inside the decision, on its state"
        seen.append(state)
        real_check(grant, game_id, command, state)

    monkeypatch.setattr(decide, "check_command", check)
    result = a.act("g1", add_rad(), Grant(JUDGE.name, "judge"))
    assert result.version == 3
    assert [s.players["P2"].counters.get("rad", 0) for s in seen] == [0, 4], "checked on each state decided on"
    assert result.state.players["P2"].counters == {"rad": 5}


def test_a_refusal_on_a_stale_head_is_checked_on_a_fresh_load(store: Store) -> None:
    """A refusal stores nothing, so no save can show the head was stale: it is only believed
    of a fresh head. ``a`` still has hydra untapped; ``b`` tapped it, so untapping is legal."""
    a = store.service()
    b = store.service(create_tables=False, read_models=False)
    a.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    b.act("g1", TAP, JUDGE)
    assert a.act("g1", UNTAP, JUDGE).events[0].type == "PermanentUntapped"
    with pytest.raises(IllegalAction) as refused:
        a.act("g1", UNTAP, JUDGE)  # now refused on a fresh head too
    assert refused.value.code == "already_untapped"


def test_the_command_arrives_parsed(store: Store) -> None:
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    command = parse_command(add_rad(), service.catalog.resolve)
    assert service.act("g1", command, JUDGE).events[0].type == "CountersAdded"


def test_seal_is_the_one_chain_function(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Appending, verify, the import check and the forging helper all link through ``seal``: an
    untouched export re-sealed by the helper comes back byte for byte, and every link each of
    them computes is counted in ``seal``."""
    links: list[str] = []
    real_link = hash_chain._link

    def link(prev_hash: str, record: Any) -> str:
        links.append(record["type"])
        return real_link(prev_hash, record)

    monkeypatch.setattr(hash_chain, "_link", link)
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    appended = service.act("g1", {"type": "advance", "to": "precombat_main"}, JUDGE).events
    assert len(links) == 1 + len(appended)
    lines = list(service.export("g1"))
    events = len(lines) - 1
    for name, use in (
        ("verify", lambda: service.verify("g1")),
        ("verify_export", lambda: service.verify_export(lines)),
        ("forging", lambda: rehash(lines)),
    ):
        links.clear()
        use()
        assert len(links) == events, name
    resealed = [json.loads(line) for line in rehash(lines)]
    assert resealed[1:] == [json.loads(line) for line in lines[1:]], "the helper seals as the service did"


def test_a_bug_in_a_decision_is_not_taken_for_a_stale_head(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a refusal (a ``GameError``) decided on a cached head is tried again on a fresh load;
    any other exception is a bug, raised at once rather than decided twice."""
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    decided: list[GameState] = []

    def broken(state: GameState, command: Command) -> Any:
        decided.append(state)
        raise RuntimeError("a bug in the rules")

    monkeypatch.setattr(decide, "run", broken)
    with pytest.raises(RuntimeError):
        service.act("g1", add_rad(), JUDGE)
    assert len(decided) == 1
