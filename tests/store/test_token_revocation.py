"""Issue 11, finding 7: a revoked token is refused at once by the service that revoked it and
within ``GRANT_TTL`` by every other service (worker) on the same store; expiry is checked."""

from __future__ import annotations

import time

from ledger.tokens import GRANT_TTL
from tests.store.conftest import Store


def test_revocation_reaches_a_second_service_on_the_same_store_within_the_bound(store: Store) -> None:
    first = store.service(read_models=False)
    second = store.service(read_models=False)
    secret = first.create_token("Table 12 tablet", "spectator")
    assert second.lookup_token(secret) is not None  # cached in the second worker now
    assert second.known_token(secret) is not None
    [listed] = first.tokens.list()

    first.tokens.revoke(listed.id, {"name": "admin", "role": "admin"})
    revoked_at = time.monotonic()

    assert first.lookup_token(secret) is None  # at once where it was revoked
    while second.lookup_token(secret) is not None:
        assert time.monotonic() - revoked_at <= GRANT_TTL + 0.5, "the other worker kept a revoked grant too long"
        time.sleep(0.05)
    assert second.known_token(secret) is None
    [again] = second.tokens.list()
    assert again.revoked_at is not None and again.name == "Table 12 tablet"


def test_an_expired_token_is_refused_and_an_old_record_never_expires(store: Store) -> None:
    service = store.service(read_models=False)
    lasting = service.create_token("no expiry", "judge")
    soon = service.create_token("soon", "judge", expires_at="2999-01-01T00:00:00.000000Z")
    assert service.lookup_token(soon) is not None
    service.tokens._now = lambda: "2999-01-01T00:00:00.000001Z"  # type: ignore[method-assign]
    assert service.lookup_token(soon) is None
    assert service.known_token(soon) is None
    assert service.lookup_token(lasting) is not None
