"""Issue 11, finding 6: an export larger than the 4 MiB body cap imports over HTTP (the body is
read line by line), and a bad line is still named."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from ledger.service import Actor, LedgerService, LedgerSettings
from tests.api.helpers import TWO_PLAYER, assert_problem, create_game


def _big_export(directory: Path) -> str:
    """A 520-note game made on a store of its own (so any server can import it): about 4.8 MB."""
    service = LedgerService(f"sqlite:///{directory / 'source.sqlite3'}", LedgerSettings(read_models=False))
    try:
        service.create_game(TWO_PLAYER, Actor("Sam", "scorekeeper"), "big-game")
        for i in range(520):
            service.act("big-game", {"type": "note", "text": f"{i} " + "n" * 9_000}, Actor("Jane", "judge"))
        export = "\n".join(service.export("big-game")) + "\n"
    finally:
        service.close()
    assert len(export.encode()) > 4 * 1024 * 1024
    return export


def test_an_export_over_the_body_cap_imports_over_http(
    client: TestClient, admin_headers: dict[str, str], tmp_path: Path
) -> None:
    export = _big_export(tmp_path)
    headers = {**admin_headers, "Content-Type": "application/x-ndjson"}

    response = client.post("/v1/games/import", content=export.encode(), headers=headers)

    assert response.status_code == 201, response.text[:300]
    assert response.json()["version"] == 521
    assert client.get("/v1/games/big-game/verify", headers=admin_headers).json()["ok"] is True
    assert_problem(client.post("/v1/games/import", content=export.encode(), headers=headers), 409, "game_exists")


def test_a_bad_line_of_a_streamed_import_is_named(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    export = client.get(f"/v1/games/{game_id}/export", headers=admin_headers).text.splitlines()
    body = "\n".join([export[0], "{not json"]) + "\n"
    response = client.post(
        "/v1/games/import", content=body.encode(), headers={**admin_headers, "Content-Type": "application/x-ndjson"}
    )
    body_json = assert_problem(response, 409, "game_exists")  # the header names an existing game first
    assert game_id in body_json["detail"]
    assert_problem(client.post("/v1/games/import", content=b"\n\n", headers=admin_headers), 400, "malformed_ndjson")
    assert_problem(client.post("/v1/games/import", content=b"\xff\n", headers=admin_headers), 400, "malformed_ndjson")
