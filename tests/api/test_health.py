"""GET /v1/health (docs/api.md, Running): no auth, says which store and which version."""

from importlib.metadata import version

from fastapi.testclient import TestClient

from api.settings import Settings


def test_health_reports_ok_store_and_package_version(client: TestClient, settings: Settings) -> None:
    response = client.get("/v1/health")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "store": settings.store,
        "version": version("mtg-ledger"),
        "read_model": {"runner": "running", "failed_games": []},
    }


def test_store_kind_follows_the_url_scheme() -> None:
    assert Settings(_env_file=None, database_url="postgresql://postgres@127.0.0.1:5432/test").store == "postgresql"
    assert Settings(_env_file=None, database_url="sqlite:///./var/x.sqlite3").store == "sqlite"
