"""Names, not ids, in what the API says in words (issue 30, "names everywhere"): a report's
summary and the timeline's lines."""

from __future__ import annotations

import copy

from fastapi.testclient import TestClient

from tests.api.helpers import TWO_PLAYER, create_game, token


def test_a_report_and_the_timeline_name_players_and_cards(client: TestClient, admin_headers: dict[str, str]) -> None:
    body = copy.deepcopy(TWO_PLAYER)
    body["players"][0]["name"], body["players"][1]["name"] = "Alice", "Bob"
    body["battlefield"].append({"id": "bears-9", "card": "Grizzly Bears", "controller": "P2"})
    game = create_game(client, admin_headers, body)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    damage = {"type": "damage", "target": {"permanent": "bears-9"}, "amount": 1, "source": "thopter"}
    r = client.post(f"/v1/games/{game}/actions", json=damage, headers=p1)
    assert r.status_code == 201, r.text
    assert [u["summary"] for u in r.json()["state"]["unacknowledged"]] == ["Bob: permanents Grizzly Bears"]
    lines = [
        ln["text"] for g in client.get(f"/v1/games/{game}/timeline", headers=p1).json()["timeline"] for ln in g["lines"]
    ]
    assert any(t.startswith("Ornithopter deals 1 damage to Grizzly Bears") for t in lines), lines
    assert any(t.startswith("Alice's report report-") and "by Bob" in t for t in lines), lines
    # After the game's start (which says who is who), no line names a player or a card by id.
    assert not any(word in t.split() for t in lines[1:] for word in ("P1", "P2", "bears-9", "thopter")), lines


def test_the_action_answer_the_event_pages_and_later_timeline_pages_name_players_and_cards(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """Every place an event's sentence is served says names: the action's answer (named from the
    state after it), a page of `/events` and a timeline page after the first (named from the
    game at the page's start), not only the timeline's first page."""
    body = copy.deepcopy(TWO_PLAYER)
    body["players"][0]["name"], body["players"][1]["name"] = "Alice", "Bob"
    body["battlefield"].append({"id": "bears-9", "card": "Grizzly Bears", "controller": "P2"})
    game = create_game(client, admin_headers, body)
    damage = {"type": "damage", "target": {"permanent": "bears-9"}, "amount": 1, "source": "thopter"}
    r = client.post(f"/v1/games/{game}/actions", json=damage, headers=admin_headers)
    assert r.status_code == 201, r.text
    answered = [e["sentence"] for e in r.json()["events"]]
    assert any(s.startswith("Ornithopter deals 1 damage to Grizzly Bears") for s in answered), answered
    r = client.post(
        f"/v1/games/{game}/actions", json={"type": "gain_life", "player": "P2", "amount": 2}, headers=admin_headers
    )
    assert r.status_code == 201, r.text
    assert any(s.startswith("Bob gains 2 life") for s in (e["sentence"] for e in r.json()["events"])), r.json()
    # A page that starts after the game's start: nothing in it says who is who.
    page = client.get(f"/v1/games/{game}/events", params={"after": 1}, headers=admin_headers).json()["events"]
    sentences = [e["sentence"] for e in page]
    assert sentences and not any(w in s.split() for s in sentences for w in ("P1", "P2", "bears-9", "thopter")), (
        sentences
    )
    later = client.get(f"/v1/games/{game}/timeline", params={"after": 1}, headers=admin_headers).json()["timeline"]
    texts = [ln["text"] for g in later for ln in g["lines"]]
    assert texts and not any(w in t.split() for t in texts for w in ("P1", "P2", "bears-9", "thopter")), texts
