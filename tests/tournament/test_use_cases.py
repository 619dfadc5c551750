"""Issue 39: the tournament's writes have one entry (``LedgerService.handle``) and one handler per
use case (``ledger.tournament_use_cases.HANDLERS``), not a facade method forwarding to each."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from domain.tournament import CreateEvent
from ledger import tournament_use_cases as uc
from ledger.service import LedgerService
from store.results import Actor


def test_every_use_case_has_its_one_handler() -> None:
    assert set(typing.get_args(uc.UseCase)) == set(uc.HANDLERS)


def test_a_use_case_goes_to_its_handler_and_anything_else_is_refused(tmp_path: Path) -> None:
    with LedgerService(f"sqlite:///{tmp_path / 'l.sqlite3'}") as service:
        sk = Actor("sk", "scorekeeper")
        created = service.handle(uc.CreateTournament("UC", CreateEvent(name="Use Cases", format="Modern")), sk)
        assert created["id"] == "UC"
        player = service.handle(uc.RegisterPlayer("UC", "Ann"), sk)
        assert (player["player_id"], player["name"], player["version"]) == ("p1", "Ann", 2)
        with pytest.raises(TypeError):
            service.handle(CreateEvent(name="x", format="Modern"), sk)  # type: ignore[arg-type]


def test_the_facade_has_no_method_per_tournament_write() -> None:
    """The writes that were one forwarding method each are gone from the facade."""
    retired = {
        "create_tournament",
        "register_player",
        "register_players_csv",
        "drop_player",
        "mark_no_show",
        "pair_round",
        "pair_top_cut",
        "report_tournament_result",
        "correct_tournament_result",
        "tournament_intentional_draw",
        "next_tournament_game",
        "feature_table",
        "round_clock",
    }
    assert retired.isdisjoint(dir(LedgerService))
