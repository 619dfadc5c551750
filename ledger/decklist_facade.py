"""The decklists' reads on the one facade (issue 42): ``LedgerService`` inherits them, so the
API calls them as the facade's own (``tests/api/test_one_facade.py``); the writes are use cases
(``ledger.decklist_use_cases``) carried out by ``LedgerService.handle``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.permissions import Grant
from domain.tournament.decklists_legality import CardFacts
from ledger.decklist_service import DecklistService


class DecklistFacade:
    decklist_service: DecklistService

    def decklists(self, tournament_id: str, grant: Grant) -> dict[str, Any]:
        """The settings and the lists ``grant`` may see."""
        return self.decklist_service.overview(tournament_id, grant)

    def decklist(self, tournament_id: str, player: str, grant: Grant) -> dict[str, Any]:
        return self.decklist_service.one(tournament_id, player, grant)

    def public_decklists(self, tournament_id: str) -> dict[str, Any]:
        return self.decklist_service.public(tournament_id)

    def decklists_csv(self, tournament_id: str) -> str:
        return self.decklist_service.export_csv(tournament_id)

    def deck_checks(self, tournament_id: str) -> dict[str, Any]:
        return self.decklist_service.deck_checks(tournament_id)

    def decklist_mismatches(self, tournament_id: str) -> dict[str, Any]:
        return self.decklist_service.mismatches(tournament_id)

    def use_card_facts(self, facts: Mapping[str, CardFacts]) -> None:
        """The card facts decklists are checked against (``ledger.decklist_catalog``)."""
        self.decklist_service.card_facts = facts
