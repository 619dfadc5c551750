"""Issue 33, finding 9: whether an acknowledgement is a judge's is decided by the token's role
(``domain.permissions.acknowledges_as_judge``), never by its ``by`` string: a player whose id is
``judge`` answers only the reports naming them (docs/judges.md; IPG 1: a report stands until the
affected player, or a judge, accepts it). Both stores."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, token, version_of

THREE = {"variant": "multiplayer", "players": [{"id": "judge"}, {"id": "P2"}, {"id": "P3"}]}


def _report(client: TestClient, game: str, by: dict[str, str], target: str) -> str:
    body = {"type": "damage", "target": {"player": target}, "amount": 2, "source": "a bolt"}
    r = client.post(f"/v1/games/{game}/actions", json=body, headers=by)
    assert r.status_code == 201, r.text
    report: str = r.json()["state"]["unacknowledged"][-1]["report"]
    return report


def test_a_player_named_judge_answers_only_the_reports_naming_them(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game = create_game(client, admin_headers, THREE)
    named_judge = token(client, admin_headers, "player", game_id=game, player_id="judge")
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    others = _report(client, game, p2, "P3")  # P3's to acknowledge
    own = _report(client, game, named_judge, "P2")  # P2's to acknowledge, reported by "judge"
    head = version_of(client, game, admin_headers)
    for report in (others, own):
        answer = client.post(f"/v1/games/{game}/acknowledge", json={"report": report}, headers=named_judge)
        assert_problem(answer, 422, "not_your_report")
    assert version_of(client, game, admin_headers) == head  # nothing stored
    theirs = _report(client, game, p2, "judge")  # names the player "judge": theirs to acknowledge
    done = client.post(f"/v1/games/{game}/acknowledge", json={"report": theirs}, headers=named_judge)
    assert done.status_code == 201, done.text
    # A judge's token still acknowledges any report.
    judge = token(client, admin_headers, "judge")
    settled = client.post(f"/v1/games/{game}/acknowledge", json={"report": own}, headers=judge)
    assert settled.status_code == 201, settled.text
    assert [r["report"] for r in settled.json()["state"]["unacknowledged"]] == [others]
