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


def test_the_old_keywords_are_the_settings_fields(store: Store) -> None:
    """``bench/replay.py`` still opens a ledger with the keywords of before ``LedgerSettings``."""
    settings = LedgerSettings(cache_size=7)
    with LedgerService(store.url, settings, snapshot_interval=3, project_read_models=False) as service:
        assert service.settings == LedgerSettings(cache_size=7, snapshot_interval=3, read_models=False)
        assert service.game_list.election is None  # it never asked to run the read models
