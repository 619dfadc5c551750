"""``LedgerSettings``: the knobs of one ledger, checked when they are made."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidCommand
from ledger.service import LedgerService, LedgerSettings
from tests.store.conftest import Store


@pytest.mark.parametrize("knob", [{"snapshot_interval": -1}, {"cache_size": -5}, {"snapshot_interval": True}])
def test_a_knob_out_of_range_is_refused(knob: dict[str, Any]) -> None:
    with pytest.raises(InvalidCommand) as refused:
        LedgerSettings(**knob)
    assert refused.value.code == "invalid_field"
    assert f"{next(iter(knob))} must be an integer >= 0" in refused.value.message


def test_settings_reach_the_ledger(store: Store) -> None:
    """The settings object is the one way to configure a ledger (no keyword arguments beside it)."""
    settings = LedgerSettings(cache_size=7, snapshot_interval=3, read_models=False)
    with LedgerService(store.url, settings) as service:
        assert service.settings == settings
        assert service.game_list.election is None  # it never asked to run the read models
