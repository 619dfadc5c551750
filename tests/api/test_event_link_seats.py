"""The event link is the player's one credential for the event, and it acts only where its player
is seated (issue 38; docs/tournaments.md, The player's link): in the games of its own table, never
at another table, never in a game whose id merely starts with the event's, and not at all once its
player has dropped (the public page stays readable). "Own action" for a quick undo is the token,
never its name; an event's links are minted by the scorekeeper who created it, a judge or an admin.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, version_of
from tests.api.tournament_client import Scorekeeper


def _bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def _event(client: TestClient, admin: dict[str, str], tid: str, *names: str) -> tuple[Scorekeeper, Any]:
    sk = Scorekeeper(client, admin, tid)
    sk.create(rounds=2)
    sk.register(*names)
    return sk, sk.post("/rounds", {"seed": 5})


def _link(sk: Scorekeeper, player: str) -> dict[str, str]:
    return _bearer(sk.post(f"/players/{player}/link")["token"])


def _act(client: TestClient, game: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    return client.post(f"/v1/games/{game}/actions", json=body, headers=headers)


def test_an_event_link_is_refused_at_a_table_it_is_not_seated_at(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk, rnd = _event(client, admin_headers, "SEAT", "Ann", "Ben", "Cat", "Dov")
    mine, other = rnd["tables"]
    me = mine["players"][0]
    link = _link(sk, me)
    own, theirs = mine["games"][0], other["games"][0]
    victim = other["players"][0]
    # At its own table it acts as its player, as a game link does.
    assert _act(client, own, {"type": "lose_life", "player": me, "amount": 1}, link).status_code == 201
    before = version_of(client, theirs, admin_headers)
    poison = {"type": "add_counters", "target": {"player": victim}, "kind": "poison", "amount": 10}
    assert_problem(_act(client, theirs, poison, link), 403, "wrong_game")
    damage = {"type": "damage", "target": {"player": victim}, "amount": 5, "source": "Lightning Bolt"}
    assert_problem(_act(client, theirs, damage, link), 403, "wrong_game")
    assert_problem(_act(client, theirs, {"type": "choose_first_player", "player": victim}, link), 403, "wrong_game")
    call = {"question": "may I?"}
    assert_problem(client.post(f"/v1/games/{theirs}/judge-calls", json=call, headers=link), 403, "wrong_game")
    ack = {"report": "r-1"}
    assert_problem(client.post(f"/v1/games/{theirs}/acknowledge", json=ack, headers=link), 403, "wrong_game")
    dispute = {"report": "r-1", "reason": "no"}
    assert_problem(client.post(f"/v1/games/{theirs}/dispute", json=dispute, headers=link), 403, "wrong_game")
    assert_problem(client.post(f"/v1/games/{theirs}/undo", json={"actions": 1}, headers=link), 403, "wrong_game")
    assert version_of(client, theirs, admin_headers) == before  # nothing stored at the other table


def test_an_event_link_is_refused_in_a_game_made_outside_the_event(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk, rnd = _event(client, admin_headers, "OUT", "Ann", "Ben", "Cat", "Dov")
    me = rnd["tables"][0]["players"][0]
    link = _link(sk, me)
    body = {"variant": "two_player", "players": [{"id": me, "name": "Ann"}, {"id": "x", "name": "X"}]}
    for game in ("OUT.x", "OUT.r1.t1.g01", "OUT.r9.t1.g1"):
        made = client.post("/v1/games", json={**body, "game_id": game}, headers=admin_headers)
        assert made.status_code == 201, made.text
        life = {"type": "gain_life", "player": me, "amount": 5}
        assert_problem(_act(client, game, life, link), 403, "wrong_game")
        call = client.post(f"/v1/games/{game}/judge-calls", json={"question": "?"}, headers=link)
        assert_problem(call, 403, "wrong_game")


def test_an_event_link_stops_acting_once_its_player_drops(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd = _event(client, admin_headers, "DROP", "Ann", "Ben", "Cat", "Dov")
    table = rnd["tables"][0]
    me, game = table["players"][0], table["games"][0]
    link = _link(sk, me)
    life = {"type": "lose_life", "player": me, "amount": 1}
    assert _act(client, game, life, link).status_code == 201
    sk.post(f"/players/{me}/drop", {"reason": "went home"})
    before = version_of(client, game, admin_headers)
    assert_problem(_act(client, game, life, link), 403, "player_dropped")
    call = client.post(f"/v1/games/{game}/judge-calls", json={"question": "?"}, headers=link)
    assert_problem(call, 403, "player_dropped")
    assert version_of(client, game, admin_headers) == before
    public = client.get("/v1/tournaments/DROP/public", headers=link)  # reads of the public page stay
    assert public.status_code == 200, public.text


def test_two_players_of_one_name_cannot_undo_each_other(client: TestClient, admin_headers: dict[str, str]) -> None:
    """Issue 38: the quick undo's "own action" is the token, not the token's name (both links
    are named "<event> Alex")."""
    sk, rnd = _event(client, admin_headers, "ALEX", "Alex", "Alex")
    table = rnd["tables"][0]
    first, second = table["players"]
    game = table["games"][0]
    one, two = _link(sk, first), _link(sk, second)
    taken = _act(client, game, {"type": "mulligan", "player": second}, two)
    assert taken.status_code == 201, taken.text
    version = version_of(client, game, admin_headers)
    undo = {"actions": 1}
    refused = client.post(f"/v1/games/{game}/undo", json=undo, headers={**one, "If-Match": f'"{version}"'})
    assert_problem(refused, 403, "not_your_action")
    assert version_of(client, game, admin_headers) == version
    mine = client.post(f"/v1/games/{game}/undo", json=undo, headers={**two, "If-Match": f'"{version}"'})
    assert mine.status_code == 201, mine.text
    assert taken.json()["events"][0]["actor"]["token"]  # the token's public id is on the record


def _named_token(client: TestClient, admin: dict[str, str], name: str, role: str) -> dict[str, str]:
    made = client.post("/v1/tokens", json={"name": name, "role": role}, headers=admin)
    assert made.status_code == 201, made.text
    return _bearer(made.json()["token"])


def test_only_the_events_creator_a_judge_or_an_admin_mints_its_links(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    # Two scorekeepers of one name: the creator is the token, not the name.
    creator = _named_token(client, admin_headers, "Sam", "scorekeeper")
    other = _named_token(client, admin_headers, "Sam", "scorekeeper")
    judge = _named_token(client, admin_headers, "Jo", "judge")
    sk = Scorekeeper(client, creator, "MINT")
    sk.create(rounds=1)
    [player] = sk.register("Ann")
    path = f"/v1/tournaments/MINT/players/{player}/link"
    assert_problem(client.post(path, json={}, headers=other), 403, "not_game_creator")
    for headers in (creator, judge, admin_headers):
        minted = client.post(path, json={}, headers=headers)
        assert minted.status_code == 201, minted.text
        assert minted.json()["url"].startswith("/tournaments/MINT/me#token=")


def test_the_event_link_reads_its_match_now_from_game_to_game_and_round_to_round(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk, rnd = _event(client, admin_headers, "ME", "Ann", "Ben", "Cat", "Dov")
    table = rnd["tables"][0]
    me, them = table["players"]
    link = _link(sk, me)
    view = client.get("/v1/tournaments/ME/me", headers=link)
    assert view.status_code == 200, view.text
    now = view.json()
    assert now["player"]["player_id"] == me and now["round"] == 1 and now["bye"] is False
    match = now["match"]
    assert match["table"] == table["table"] and match["game_id"] == "ME.r1.t1.g1"
    assert match["opponents"] == [{"player_id": them, "name": table["names"][1]}]
    # Game 1 ends, game 2 starts: the view follows (MTR 2.1, best of three).
    _act(client, "ME.r1.t1.g1", {"type": "concede", "player": them}, admin_headers)
    sk.post("/rounds/1/tables/1/games")
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    assert client.get("/v1/tournaments/ME/me", headers=link).json()["match"]["game_id"] == "ME.r1.t1.g2"
    sk.result(1, 1, {me: 2, them: 0})
    c, d = rnd["tables"][1]["players"]
    sk.result(1, 2, {c: 2, d: 0})
    second = sk.post("/rounds", {"seed": 5})
    mine = next(t for t in second["tables"] if me in t["players"])
    after = client.get("/v1/tournaments/ME/me", headers=link).json()
    assert after["round"] == 2 and after["match"]["game_id"] == mine["games"][0]
    assert [m["round"] for m in after["matches"]] == [1, 2] and after["matches"][0]["result"]["wins"][me] == 2
    # The event's own links only; a dropped player's link still reads.
    assert_problem(client.get("/v1/tournaments/ME/me", headers=admin_headers), 403, "forbidden")
    other = Scorekeeper(client, admin_headers, "ME2")
    other.create(rounds=1)
    [stranger] = other.register("Eve")
    assert_problem(client.get("/v1/tournaments/ME/me", headers=_link(other, stranger)), 403, "wrong_game")
    sk.post(f"/players/{me}/drop", {"reason": "went home"})
    dropped = client.get("/v1/tournaments/ME/me", headers=link)
    assert dropped.status_code == 200 and dropped.json()["player"]["status"] == "dropped"


def test_game_links_whose_names_are_cut_alike_are_two_actors(client: TestClient, admin_headers: dict[str, str]) -> None:
    """Two players whose links' names are cut to the same 200 characters (a long name, ids alike
    for 60 characters) are two actors for a quick undo: the token decides, not the name."""
    long, stem = "Alexandra " * 20, "P" * 60
    body = {"variant": "two_player", "players": [{"id": stem + "a", "name": long}, {"id": stem + "b", "name": long}]}
    made = client.post("/v1/games", json=body, headers=admin_headers)
    assert made.status_code == 201, made.text
    game = made.json()["game_id"]
    links = client.post(f"/v1/games/{game}/player-links", json={}, headers=admin_headers).json()["links"]
    one, two = (_bearer(link["token"]) for link in links)
    taken = _act(client, game, {"type": "mulligan", "player": stem + "b"}, two)
    assert taken.status_code == 201, taken.text
    [names] = {e["actor"]["name"] for e in taken.json()["events"]}
    listed = client.get("/v1/tokens", headers=admin_headers).json()["tokens"]
    assert "…" in names and [t["name"] for t in listed].count(names) == 2  # cut alike: one name, two links
    version = version_of(client, game, admin_headers)
    refused = client.post(f"/v1/games/{game}/undo", json={"actions": 1}, headers={**one, "If-Match": f'"{version}"'})
    assert_problem(refused, 403, "not_your_action")
