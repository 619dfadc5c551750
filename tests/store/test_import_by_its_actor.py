"""Issue 33, finding 15: import refuses records the live server never writes for their actor's
role, on the state before them (``ledger.import_rules.check_by_its_actor``, ``check_reported``):

- an acknowledgement ``by: "judge"`` from a player's token (only a judge's token acknowledges as
  judge, ``domain.permissions.acknowledges_as_judge``);
- a player token's damage to an opponent without the report awaiting that opponent's
  acknowledgement (``domain.judging.acknowledgement``, docs/judges.md);
- a backup by a plain judge at Competitive REL (it is the head judge's, docs/judges.md).

Each forgery recomputes the whole hash chain: only these checks can catch it. Both stores."""

from __future__ import annotations

import json
from typing import Any

from domain.permissions import Grant
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store
from tests.store.forging import rehash
from tests.store.test_import_rules import append, edit, refused

P1 = Grant("Alice's link", "player", "g1", "P1")
POISON_P2 = {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 2}


def _game(store: Store, body: dict[str, Any] | None = None) -> list[str]:
    service = store.service()
    service.create_game(body or TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", {"type": "advance", "to": "precombat_main"}, JUDGE)
    service.act("g1", {"type": "resolve"}, JUDGE)
    return list(service.export("g1"))


def _renumbered(lines: list[str], reports: list[str]) -> list[str]:
    """Versions 1, 2, ... again, and the reports given the ids ``reports`` in order."""
    events = [json.loads(line) for line in lines[1:]]
    ids = iter(reports)
    for version, event in enumerate(events, start=1):
        event["version"] = version
        if event["type"] == "ReportAwaitingAcknowledgement":
            event["data"]["report"] = next(ids)
    return rehash([lines[0], *(json.dumps(e) for e in events)])


def _with_actor(line: str, name: str, role: str) -> str:
    event = json.loads(line)
    event["actor"] = {"name": name, "role": role}
    return json.dumps(event)


def test_a_players_acknowledgement_as_judge_is_refused(store: Store) -> None:
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    p2 = Grant("Bob's link", "player", "g1", "P2")
    done = service.act("g1", {"type": "damage", "target": {"player": "P1"}, "amount": 1, "source": "a ping"}, p2)
    [report] = done.state.reports
    lines = list(service.export("g1"))
    assert store.sibling().service().import_game(lines, JUDGE).version == len(lines) - 1
    by_judge = append(lines, ("ReportAcknowledged", {"report": report["report"], "by": "judge"}, None))
    assert store.sibling().service().import_game(by_judge, JUDGE).version == len(lines)  # a judge's: fine
    forged = edit(by_judge, len(lines), lambda e: e.update(actor={"name": p2.name, "role": "player"}))
    err = refused(store, forged)
    assert err.version == len(lines) and "as 'judge'" in err.message, err.message


def test_a_players_damage_to_an_opponent_without_its_report_is_refused(store: Store) -> None:
    """P1's token poisons P2 twice, each with its report; a forger drops either report. The
    other report tells which player the token acts as, so the bare change to P2 is not its own."""
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", POISON_P2, P1)
    service.act("g1", POISON_P2, P1)
    lines = list(service.export("g1"))
    types = ["CountersAdded", "ReportAwaitingAcknowledgement"]
    assert [json.loads(line)["type"] for line in lines[2:]] == types * 2
    assert store.sibling().service().import_game(lines, JUDGE).version == 5
    # The same change by P2's own token (a name of its own) needs no report.
    own = [_with_actor(line, "Bob's link", "player") if i == 2 else line for i, line in enumerate(lines[:3])]
    assert store.sibling().service().import_game(rehash(own), JUDGE).version == 2
    err = refused(store, rehash(lines[:5]))  # the second report dropped
    assert err.version == 4 and "without the report awaiting" in err.message, err.message
    first = json.loads(lines[3])["data"]["report"]
    err = refused(store, _renumbered([*lines[:3], *lines[4:]], [first]))  # the first one dropped
    assert err.version == 2 and "acts as 'P1'" in err.message, err.message


def test_a_plain_judges_backup_at_competitive_rel_is_refused(store: Store) -> None:
    body = {**TWO_PLAYER, "tournament": {**TWO_PLAYER["tournament"], "rel": "competitive"}}
    service = store.service()
    service.create_game(body, SCOREKEEPER, "g1")
    service.act("g1", {"type": "tap", "permanent": "hydra"}, JUDGE)
    head_judge = Grant("Hana Head Judge", "head_judge")
    service.undo("g1", reason="tapped the wrong creature", actor=head_judge)
    lines = list(service.export("g1"))
    assert json.loads(lines[-1])["type"] == "ActionsReverted"
    assert store.sibling().service().import_game(lines, JUDGE).version == 3
    forged = edit(lines, 3, lambda e: e.update(actor={"name": JUDGE.name, "role": "judge"}))
    err = refused(store, forged)
    assert err.version == 3 and "competitive REL" in err.message, err.message
