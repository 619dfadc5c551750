"""Every rules scenario over HTTP: the same files, through the app (docs/api.md)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.scenarios.support import load_scenarios, run_scenario

SCENARIOS = load_scenarios()


class HttpDriver:
    def __init__(self, client: TestClient, headers: dict[str, str]) -> None:
        self.client = client
        self.headers = headers
        self.game_id = ""
        self._version = 0

    def create(self, body: dict[str, Any]) -> int:
        response = self.client.post("/v1/games", json=body, headers=self.headers)
        assert response.status_code == 201, response.text
        self.game_id = response.json()["game_id"]
        self._version = response.json()["version"]
        return int(self._version)

    def _post(self, path: str, body: dict[str, Any]) -> tuple[int, str | None]:
        response = self.client.post(f"/v1/games/{self.game_id}/{path}", json=body, headers=self.headers)
        if response.status_code >= 400:
            assert response.headers["content-type"].startswith("application/problem+json"), response.text
            return response.status_code, response.json()["code"]
        self._version = response.json()["version"]
        return response.status_code, None

    def action(self, body: dict[str, Any]) -> tuple[int, str | None]:
        return self._post("actions", body)

    def undo(self, body: dict[str, Any]) -> tuple[int, str | None]:
        return self._post("undo", body)

    def state(self) -> dict[str, Any]:
        response = self.client.get(f"/v1/games/{self.game_id}", headers=self.headers)
        assert response.status_code == 200, response.text
        state: dict[str, Any] = response.json()["state"]
        return state

    def version(self) -> int:
        response = self.client.get(f"/v1/games/{self.game_id}", headers=self.headers)
        return int(response.json()["version"])

    def events_after(self, version: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        after: int | None = version
        while after is not None:
            page = self.client.get(
                f"/v1/games/{self.game_id}/events", params={"after": after, "limit": 1000}, headers=self.headers
            ).json()
            out.extend(page["events"])
            after = page["next_after"]
        return out


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario_over_http(scenario: dict[str, Any], client: TestClient, admin_headers: dict[str, str]) -> None:
    if scenario.get("skip"):
        pytest.skip(scenario["skip"])
    run_scenario(HttpDriver(client, admin_headers), scenario)
