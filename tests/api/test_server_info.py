"""``GET /v1/server`` (docs/api.md, The server: public URL and version): the public base URL the
page builds its QR links on (``MTG_LEDGER_PUBLIC_URL``, docs/operations.md, At a venue), with no
token needed."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app, package_version
from api.settings import Settings


def test_the_server_says_its_public_url_and_version_without_a_token(tmp_path: Path) -> None:
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{tmp_path / 'ledger.sqlite3'}",
        catalog_path=tmp_path / "cards.json",
        public_url="http://192.168.1.20:8000/",
    )
    with TestClient(create_app(settings)) as client:
        response = client.get("/v1/server")  # no Authorization header, public reads off
    assert response.status_code == 200, response.text
    assert response.json() == {"public_url": "http://192.168.1.20:8000", "version": package_version()}


def test_unset_the_public_url_is_null(client: TestClient) -> None:
    """Then the page builds its links on the address it was opened at."""
    assert client.get("/v1/server").json()["public_url"] is None


def test_an_unknown_parameter_is_refused(client: TestClient) -> None:
    response = client.get("/v1/server", params={"verbose": "1"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "unknown_parameter"


def test_the_endpoint_is_in_the_openapi_document(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schema = spec["paths"]["/v1/server"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/ServerInfo"}
