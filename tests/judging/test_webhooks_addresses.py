"""Where a webhook may go (issue 33, findings 2 and 3): URLs of their form, to public
addresses only unless the operator allows a range, checked at registration and again at
connect time (the connection made to the address checked), no redirects followed (a 3xx is a
failure), and a ``last_error`` that doesn't tell an open port from a closed one."""

from __future__ import annotations

import contextlib
import ipaddress
import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.commands.judging import GivePenalty
from domain.errors import InvalidCommand
from ledger.service import LedgerService
from ledger.settings import WebhookDelivery
from ledger.webhook_urls import AddressPolicy, check_url, parse_networks
from tests.api.helpers import assert_problem
from tests.judging.webhook_receivers import LOOPBACK, RawListener, receiving
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store


@pytest.fixture
def api(settings: Settings) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """The server with no allowlist (the default) and the admin's headers."""
    assert settings.admin_token is not None
    with TestClient(create_app(settings.model_copy(update={"deliver_webhooks": False}))) as client:
        yield client, {"Authorization": f"Bearer {settings.admin_token.get_secret_value()}"}


BAD_FORMS = [
    "ftp://hooks.example.com/hook",  # not http(s)
    "file:///etc/passwd",
    "http://user:secret@93.184.216.34/hook",  # userinfo
    "http://@93.184.216.34/hook",
    "http://93.184.216.34:0/hook",  # port out of 1-65535
    "http://93.184.216.34:65536/hook",
    "http://93.184.216.34:http/hook",
    "http:///hook",  # no host
    "https://hooks.example.com/a b",  # a space
    "https://hooks.example.com/\x00",  # control characters
    "https://hooks.example.com/\r\nX-Injected: 1",
    "https://hooks.example.com/\x7f",
]


@pytest.mark.parametrize("url", BAD_FORMS)
def test_a_webhook_url_out_of_its_form_is_a_400_and_stores_nothing(
    api: tuple[TestClient, dict[str, str]], url: str
) -> None:
    client, admin = api
    r = client.post("/v1/webhooks", json={"url": url, "events": ["game_ended"]}, headers=admin)
    # Text fields refuse most control characters before the URL is looked at (``invalid_character``).
    assert_problem(r, 400, "invalid_character" if "\x00" in url or "\x7f" in url else "invalid_webhook_url")
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    assert client.get("/v1/webhooks", headers=admin).json() == {"webhooks": []}


INTERNAL = [
    # loopback, in every spelling a resolver accepts
    "127.0.0.1",
    "127.1",
    "0x7f.1",
    "0177.0.0.1",
    "2130706433",
    "127.255.255.254",
    "localhost",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:0:0:1]",
    # link-local and cloud metadata
    "169.254.169.254",
    "[fe80::1]",
    "[::ffff:169.254.169.254]",
    # private, shared, unique local, unspecified, multicast
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",
    "[fc00::1]",
    "[fd12:3456::1]",
    "0.0.0.0",
    "0",
    "[::]",
    "224.0.0.1",
    "[2002:7f00:1::1]",  # 6to4 of 127.0.0.1
]


@pytest.mark.parametrize("host", INTERNAL)
def test_an_internal_address_is_refused_at_registration(api: tuple[TestClient, dict[str, str]], host: str) -> None:
    client, admin = api
    r = client.post("/v1/webhooks", json={"url": f"http://{host}:8080/hook", "events": ["game_ended"]}, headers=admin)
    assert_problem(r, 400, "webhook_address_refused")
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    assert client.get("/v1/webhooks", headers=admin).json() == {"webhooks": []}


def test_the_address_policy_lets_public_addresses_and_the_allowlist_in() -> None:
    policy = AddressPolicy()
    assert policy.allows(ipaddress.ip_address("93.184.216.34"))
    assert policy.allows(ipaddress.ip_address("2606:2800:220:1:248:1893:25c8:1946"))
    assert not policy.allows(ipaddress.ip_address("127.0.0.1"))
    allowed = AddressPolicy(parse_networks(["127.0.0.0/8", "fd00::/8"]))
    assert allowed.allows(ipaddress.ip_address("127.0.0.1"))
    assert allowed.allows(ipaddress.ip_address("::ffff:127.0.0.1"))
    assert allowed.allows(ipaddress.ip_address("fd00::5"))
    assert not allowed.allows(ipaddress.ip_address("10.0.0.1"))  # only what is listed
    assert check_url("https://hooks.example.com/in?x=1").path == "/in?x=1"
    with pytest.raises(InvalidCommand):
        AddressPolicy().resolve("hooks.invalid", 443)  # a name that doesn't resolve: refused too


def test_the_allowlist_setting_lets_an_internal_receiver_be_registered(settings: Settings) -> None:
    assert settings.admin_token is not None
    admin = {"Authorization": f"Bearer {settings.admin_token.get_secret_value()}"}
    allowing = settings.model_copy(update={"deliver_webhooks": False, "webhook_allow_private": "127.0.0.0/8, ::1"})
    with TestClient(create_app(allowing)) as client:
        body = {"url": "http://127.0.0.1:9/hook", "events": ["game_ended"]}
        assert client.post("/v1/webhooks", json=body, headers=admin).status_code == 201
        r = client.post("/v1/webhooks", json={**body, "url": "http://10.0.0.1/hook"}, headers=admin)
        assert_problem(r, 400, "webhook_address_refused")
    with pytest.raises(ValueError):
        Settings(_env_file=None, webhook_allow_private="not-a-range")


def _game_with_penalty(service: LedgerService) -> None:
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", GivePenalty("P1", "2.1", "Warning"), JUDGE)
    service.wait_for_read_model()


def _resolving(monkeypatch: pytest.MonkeyPatch, answers: dict[str, list[str]]) -> None:
    """``socket.getaddrinfo`` answering ``answers[host]`` (the test's own DNS)."""
    real = socket.getaddrinfo

    def fake(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return [
                (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in answers[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)


def test_a_name_rebound_to_loopback_after_registration_is_not_connected_to(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as receiver:
        answers = {"hooks.example.com": ["93.184.216.34"]}
        _resolving(monkeypatch, answers)
        service = store.service(webhooks=WebhookDelivery(deliver=False))
        sub = service.subscribe_webhook(f"http://hooks.example.com:{receiver.port}/hook", ["penalty_given"])
        answers["hooks.example.com"] = ["127.0.0.1"]  # DNS rebinding: now it points inside
        _game_with_penalty(service)
        assert service.webhooks.deliver_due() == 0
        [failed] = service.webhook_deliveries(sub["id"])
        assert failed["status"] == "pending" and failed["last_error"] == "address refused"
        assert receiver.received == []


def test_the_connection_goes_to_the_address_checked_with_the_url_s_host(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as receiver:
        # The name resolves to loopback (allowed here) in the test's DNS only: the request can
        # reach the receiver only if it connects to the address the ledger resolved and checked.
        _resolving(monkeypatch, {"hooks.example.com": ["127.0.0.1"]})
        service = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
        service.subscribe_webhook(f"http://hooks.example.com:{receiver.port}/hook?k=1", ["penalty_given"])
        _game_with_penalty(service)
        assert service.webhooks.deliver_due() == 1
        [(headers, _)] = receiver.received
        assert headers["Host"] == f"hooks.example.com:{receiver.port}"


def test_a_redirect_is_not_followed_and_a_3xx_is_a_failure(store: Store) -> None:
    with receiving() as redirecting, receiving() as elsewhere:
        service = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
        sub = service.subscribe_webhook(redirecting.url, ["penalty_given"])
        _game_with_penalty(service)
        for status in (301, 302, 303, 307, 308):
            redirecting.status, redirecting.location = status, elsewhere.url
            assert service.webhooks.deliver_due() == 0
            [failed] = service.webhook_deliveries(sub["id"])
            assert failed["status"] == "pending" and failed["last_error"].startswith(f"HTTP {status}")
            _due_now(store)
        assert len(redirecting.received) == 5 and elsewhere.received == []


def _due_now(store: Store) -> None:
    """Make every pending delivery due now (skip the backoff)."""
    store.execute(f"UPDATE {store.table('webhook_deliveries')} SET due = 0 WHERE status = 'pending'")


def test_last_error_does_not_tell_an_open_port_from_a_closed_one(store: Store) -> None:
    closed = socket.create_server(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    hanging_up = RawListener("hang_up")
    try:
        service = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
        open_sub = service.subscribe_webhook(hanging_up.url, ["penalty_given"])
        closed_sub = service.subscribe_webhook(f"http://127.0.0.1:{closed_port}/hook", ["penalty_given"])
        _game_with_penalty(service)
        assert service.webhooks.deliver_due() == 0
        [at_open] = service.webhook_deliveries(open_sub["id"])
        [at_closed] = service.webhook_deliveries(closed_sub["id"])
        assert hanging_up.connections >= 1
        assert at_open["last_error"] == at_closed["last_error"] == "no answer"
    finally:
        hanging_up.close()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_https_connects_to_the_address_checked_and_names_the_url_s_host_in_tls(
    store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    make = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=hooks.example.com"]
    subprocess.run(
        [*make, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    names: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)  # type: ignore[assignment,func-returns-value]
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        conn, _ = listener.accept()
        with contextlib.suppress(OSError), context.wrap_socket(conn, server_side=True):
            pass  # the client refuses the certificate (not trusted): the name it sent is what counts

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        _resolving(monkeypatch, {"hooks.example.com": ["127.0.0.1"]})
        service = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
        sub = service.subscribe_webhook(f"https://hooks.example.com:{port}/hook", ["penalty_given"])
        _game_with_penalty(service)
        assert service.webhooks.deliver_due() == 0
        server.join(timeout=5)
        assert names == ["hooks.example.com"]  # the URL's host, on a connection to 127.0.0.1
        [failed] = service.webhook_deliveries(sub["id"])
        assert failed["last_error"] == "no answer"  # a certificate no one vouches for is no answer
    finally:
        listener.close()
