"""A webhook subscription's lifecycle over HTTP (issue 33, finding 17): list (no secrets),
rotate the secret (shown once; later deliveries are signed with it), delete (its pending
deliveries cancelled, nothing more sent); each the admin's."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from ledger.service import LedgerService
from ledger.webhooks import verify_signature
from tests.api.helpers import TWO_PLAYER, assert_problem, token
from tests.judging.webhook_receivers import Receiver, receiving


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as created:
        yield created


@pytest.fixture
def api(settings: Settings) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """The server (delivering by hand), its loopback allowed, and the admin's headers."""
    assert settings.admin_token is not None
    allowing = settings.model_copy(update={"deliver_webhooks": False, "webhook_allow_private": "127.0.0.0/8"})
    with TestClient(create_app(allowing)) as client:
        yield client, {"Authorization": f"Bearer {settings.admin_token.get_secret_value()}"}


def _service(client: TestClient) -> LedgerService:
    service: LedgerService = client.app.state.service  # type: ignore[attr-defined]
    return service


def _penalty(client: TestClient, admin: dict[str, str], game: str) -> None:
    body = {"player": "P1", "section": "2.1", "penalty": "Warning"}
    r = client.post(f"/v1/games/{game}/penalties", json=body, headers=admin)
    assert r.status_code == 201, r.text
    _service(client).wait_for_read_model()


def test_subscriptions_are_listed_rotated_and_deleted(
    api: tuple[TestClient, dict[str, str]], receiver: Receiver
) -> None:
    client, admin = api
    body = {"url": receiver.url, "events": ["penalty_given"]}
    created = client.post("/v1/webhooks", json=body, headers=admin).json()
    game = client.post("/v1/games", json=copy.deepcopy(TWO_PLAYER), headers=admin).json()["game_id"]
    _service(client).wait_for_read_model()
    [listed] = client.get("/v1/webhooks", headers=admin).json()["webhooks"]
    assert listed["id"] == created["id"] and listed["url"] == receiver.url and "secret" not in listed

    rotated = client.post(f"/v1/webhooks/{created['id']}/secret", headers=admin)
    assert rotated.status_code == 200, rotated.text
    secret = rotated.json()["secret"]
    assert secret != created["secret"]
    _penalty(client, admin, game)
    assert _service(client).webhooks.deliver_due() == 1
    [(headers, sent)] = receiver.received
    assert verify_signature(secret, headers["X-Ledger-Timestamp"], sent, headers["X-Ledger-Signature"])
    assert not verify_signature(created["secret"], headers["X-Ledger-Timestamp"], sent, headers["X-Ledger-Signature"])

    _penalty(client, admin, game)  # pending when the subscription is deleted
    r = client.delete(f"/v1/webhooks/{created['id']}", headers=admin)
    assert r.status_code == 204, r.text
    _service(client).wait_for_read_model()
    statuses = [d["status"] for d in _service(client).webhook_deliveries(created["id"])]
    assert statuses == ["delivered", "cancelled"]  # at once, not when a deliverer comes by
    # The answer is the service's, field for field (its model, issue 39, drops and adds nothing).
    listing = client.get(f"/v1/webhooks/{created['id']}/deliveries", headers=admin)
    expected = {"subscription": created["id"], "deliveries": _service(client).webhook_deliveries(created["id"])}
    assert listing.status_code == 200 and listing.json() == expected
    _penalty(client, admin, game)  # after the deletion: no delivery at all
    assert _service(client).webhooks.deliver_due() == 0
    assert len(receiver.received) == 1
    assert client.get("/v1/webhooks", headers=admin).json() == {"webhooks": []}
    statuses = [d["status"] for d in _service(client).webhook_deliveries(created["id"])]
    assert statuses == ["delivered", "cancelled"]
    assert_problem(client.delete(f"/v1/webhooks/{created['id']}", headers=admin), 404, "unknown_webhook")
    assert_problem(client.post(f"/v1/webhooks/{created['id']}/secret", headers=admin), 404, "unknown_webhook")


# A control character in the id ("wh-%00") is 400 invalid_character before any lookup
# (tests/api/test_tournament_and_webhook_path_refusals.py).
@pytest.mark.parametrize("sid", ["wh-000000000000", "nope", "_webhook"])
def test_an_unknown_subscription_is_a_404(api: tuple[TestClient, dict[str, str]], sid: str) -> None:
    client, admin = api
    assert_problem(client.delete(f"/v1/webhooks/{sid}", headers=admin), 404, "unknown_webhook")
    assert_problem(client.post(f"/v1/webhooks/{sid}/secret", headers=admin), 404, "unknown_webhook")
    assert_problem(client.get(f"/v1/webhooks/{sid}/deliveries", headers=admin), 404, "unknown_webhook")


def test_the_lifecycle_is_the_admins(api: tuple[TestClient, dict[str, str]], receiver: Receiver) -> None:
    client, admin = api
    created = client.post("/v1/webhooks", json={"url": receiver.url, "events": ["game_ended"]}, headers=admin).json()
    judge = token(client, admin, "judge")
    assert client.get("/v1/webhooks", headers=judge).status_code == 403
    assert client.delete(f"/v1/webhooks/{created['id']}", headers=judge).status_code == 403
    assert client.post(f"/v1/webhooks/{created['id']}/secret", headers=judge).status_code == 403
    assert client.get("/v1/webhooks").status_code == 401
