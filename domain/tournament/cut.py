"""Who makes the top cut, in seed order: shared by pairing the cut and by a Swiss correction made
after it, which may not change the bracket already paired from it."""

from __future__ import annotations

from domain.tournament.standings import standings
from domain.tournament.state import TournamentState


def cut_seeds(state: TournamentState, size: int) -> list[str]:
    """The first ``size`` players of the Swiss standings, leaving out players who dropped before
    the cut was paired (MTR 2.10: no one replaces them); one who dropped inside the bracket is
    still the seed they were."""
    cut_round = next((r.number for r in state.top_cut_rounds), len(state.rounds) + 1)

    def dropped_before_cut(player: str) -> bool:
        after = state.players[player].dropped_after
        return after is not None and after < cut_round

    return [line.player for line in standings(state) if not dropped_before_cut(line.player)][:size]
