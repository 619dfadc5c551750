"""The tournament kernel (issue 31): events, roster, Swiss pairings, standings with the MTR's
tiebreakers, the top cut and the round clock, pure like the rest of ``domain``.

A service layer calls ``decide(state, command)`` for the events a command causes (or a
``GameError`` with a stable code, and nothing stored), appends them, and folds them with
``evolve``/``tournament_state``; ``standings(state)`` reads the standings, and
``parse_event``/``event_to_json`` convert events to and from their stored shape.

- ``events``: the event types and their registry (separate from the game vocabulary's);
- ``commands``: the commands;
- ``state``: the immutable state and the fold;
- ``standings``: match points, OMW%, GW%, OGW% (MTR 3.1, Appendix C);
- ``pairing``: Swiss (networkx matching), Commander pods, the top-cut bracket, Appendix E;
- ``decide`` (with ``decide_results``, ``decide_tables``, ``decide_clock``, ``lookups``): the rules that accept or
  refuse each command;
- ``errors``: ``refuse`` and ``CODES``, the refusals' stable codes (members of ``domain.errors.Code``).
"""

from domain.tournament import report_folds  # noqa: F401  (registers the reports' folds)
from domain.tournament.commands import (
    ConfirmReport,
    CorrectResult,
    CreateEvent,
    DisputeReport,
    DropPlayer,
    EndRound,
    FeatureTable,
    MarkNoShow,
    PairRound,
    PairTopCut,
    PauseRound,
    PlayerReport,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    ResumeRound,
    StartRound,
    TournamentCommand,
)
from domain.tournament.decide import CODES, decide, entrants
from domain.tournament.events import (
    EventCreated,
    IntentionalDraw,
    MatchReportConfirmed,
    MatchReportDisputed,
    MatchReportFiled,
    PlayerDropped,
    PlayerMarkedNoShow,
    PlayerRegistered,
    ResultCorrected,
    ResultReported,
    RoundEnded,
    RoundPaired,
    RoundPaused,
    RoundResumed,
    RoundStarted,
    TableFeatured,
    TopCutPaired,
    TournamentEvent,
    event_to_json,
    parse_event,
    tournament_event_classes,
)
from domain.tournament.pairing import pod_sizes, recommended_rounds, swiss_pairings
from domain.tournament.standings import FLOOR, Standing, standings
from domain.tournament.state import EMPTY, TournamentState, evolve, missing_folds, tournament_state

__all__ = [
    "CODES",
    "EMPTY",
    "FLOOR",
    "ConfirmReport",
    "CorrectResult",
    "CreateEvent",
    "DisputeReport",
    "DropPlayer",
    "EndRound",
    "EventCreated",
    "FeatureTable",
    "IntentionalDraw",
    "MarkNoShow",
    "MatchReportConfirmed",
    "MatchReportDisputed",
    "MatchReportFiled",
    "PairRound",
    "PairTopCut",
    "PauseRound",
    "PlayerDropped",
    "PlayerMarkedNoShow",
    "PlayerRegistered",
    "PlayerReport",
    "RegisterPlayer",
    "ReportIntentionalDraw",
    "ReportResult",
    "ResultCorrected",
    "ResultReported",
    "ResumeRound",
    "RoundEnded",
    "RoundPaired",
    "RoundPaused",
    "RoundResumed",
    "RoundStarted",
    "Standing",
    "StartRound",
    "TableFeatured",
    "TopCutPaired",
    "TournamentCommand",
    "TournamentEvent",
    "TournamentState",
    "decide",
    "entrants",
    "event_to_json",
    "evolve",
    "missing_folds",
    "parse_event",
    "pod_sizes",
    "recommended_rounds",
    "standings",
    "swiss_pairings",
    "tournament_event_classes",
    "tournament_state",
]
