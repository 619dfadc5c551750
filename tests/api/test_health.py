"""GET /v1/health (API.md, Running): no auth, says which store and which version."""

from importlib.metadata import version

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings


def test_health_reports_ok_sqlite_and_package_version(client: TestClient) -> None:
    response = client.get("/v1/health")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "store": "sqlite",
        "version": version("mtg-ledger"),
    }


def test_health_reports_postgresql_store_from_url_scheme() -> None:
    settings = Settings(_env_file=None, database_url="postgresql://postgres@127.0.0.1:5432/test")

    with TestClient(create_app(settings)) as client:
        body = client.get("/v1/health").json()

    assert body["store"] == "postgresql"
    assert body["status"] == "ok"
