"""Matches: the games of one table in one round of one event, and their result (MTR 2.1, 2.4).

A read model (``store.documents``) with its own tracking position. A game belongs to the
match of its ``tournament`` (``event``, ``round``, ``table``); ``tournament.best_of`` (1, 3 or
5; default 3) sets the wins needed (MTR 2.1: drawn games don't count toward them). Match
reports (``MatchReported``, stored in the log like everything else) add what the games can't
say: both players' confirmation, an intentional draw agreed by both (MTR 2.4), a result a
scorekeeper enters. A Match Loss or Disqualification (``PenaltyGiven``) ends the match.

``match_result(doc)`` derives the result from the document (a pure function):
- a scorekeeper's entry stands as entered;
- a Match Loss: the other player wins the match (the needed wins; the penalised player keeps
  the games they won);
- an intentional draw agreed by both players: a draw, reported 0-0-3 when no game was
  finished, else the games as played (MTR 2.4: games played are recorded accurately);
- otherwise the games: a player with the needed wins wins the match; equal wins with every
  player's confirmation is a drawn match (time was called).
The result is ``confirmed`` when every player confirmed that very score, or a scorekeeper
entered it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import events as ev
from domain.commands.judging import GAME_ENDING_PENALTIES
from store.documents import Doc, DocumentProjection, Get, view_classes
from store.records import GameEvent, MatchReported

VIEWS = view_classes("match_docs")


def _part(value: Any) -> str:
    """One part of a document key, with ``/`` (and the ``%`` that escapes it) escaped: an event
    named ``GP/3`` must not read as event ``GP``, round ``3`` (a round is found by key prefix).
    Names without either character keep the keys they always had."""
    return str(value).replace("%", "%25").replace("/", "%2F")


def match_key(event: Any, round: Any, table: Any) -> str:
    return f"match/{_part(event)}/{_part(round)}/{_part(table)}"


def round_prefix(event: Any, round: Any) -> str:
    return f"match/{_part(event)}/{_part(round)}/"


def _new_match(t: Mapping[str, Any], players: list[str]) -> Doc:
    best_of = t.get("best_of")
    return {
        "event": str(t["event"]),
        "round": str(t["round"]),
        "table": str(t["table"]),
        "table_number": t["table"],
        "best_of": best_of if best_of in (1, 3, 5) else 3,
        "players": players,
        "games": {},
        "game_order": [],
        "match_loss": None,
        "intentional_draw": [],
        "confirmations": {},
        "entered": None,
        "open_calls": [],
        "time_extensions": [],
    }


def _match_started(e: GameEvent, started: ev.GameStarted, get: Get) -> dict[str, Doc]:
    """A game of a tournament joins its match (which it creates if it is the first)."""
    gid = e.originator_id
    t = started.tournament or {}
    if not isinstance(t, Mapping) or any(t.get(k) is None for k in ("event", "round", "table")):
        return {}
    key = match_key(t["event"], t["round"], t["table"])
    doc = get(key) or _new_match(t, [p["id"] for p in started.players or ()])
    doc["games"][gid] = {"status": "in_progress", "winners": [], "draw": False, "started_at": e.recorded_at}
    if gid not in doc["game_order"]:
        doc["game_order"].append(gid)
    return {key: doc, f"game/{gid}": {"match": key}}


def _game_change(e: GameEvent, get: Get) -> dict[str, Doc]:
    if e.event_class not in WATCHED:
        return {}  # told by its class alone: the other events are not parsed here
    payload = e.payload
    if isinstance(payload, ev.GameStarted):
        return _match_started(e, payload, get)
    gid = e.originator_id
    index = get(f"game/{gid}")
    if index is None:
        return {}
    key = str(index["match"])
    found = get(key)
    if found is None:
        return {}
    doc = found
    game = doc["games"].get(gid)
    if game is None:
        return {}
    if isinstance(payload, ev.GameEnded):
        game.update(status="finished", winners=list(payload.winners or ()), draw=bool(payload.draw))
    elif isinstance(payload, ev.ActionsReverted):
        restored = payload.restored_state or {}
        result = restored.get("result") or {}
        game.update(
            status=restored.get("status", "in_progress"),
            winners=list(result.get("winners") or ()),
            draw=bool(result.get("draw")),
        )
    elif isinstance(payload, ev.PenaltyGiven) and payload.penalty in GAME_ENDING_PENALTIES - {"Game Loss"}:
        doc["match_loss"] = {"player": payload.player, "penalty": payload.penalty, "game": gid}
    elif isinstance(payload, ev.JudgeCallOpened):
        doc["open_calls"].append(
            {"game": gid, "call": payload.call, "called_by": payload.called_by, "question": payload.question}
        )
    elif isinstance(payload, ev.JudgeCallAnswered):
        doc["open_calls"] = [c for c in doc["open_calls"] if (c["game"], c["call"]) != (gid, payload.call)]
    elif isinstance(payload, ev.TimeExtended):
        doc["time_extensions"].append({"game": gid, "minutes": payload.minutes, "reason": payload.reason})
    return {key: doc}


WATCHED: frozenset[type[ev.DomainEvent]] = frozenset(
    {
        ev.GameStarted,
        ev.GameEnded,
        ev.ActionsReverted,
        ev.PenaltyGiven,
        ev.JudgeCallOpened,
        ev.JudgeCallAnswered,
        ev.TimeExtended,
    }
)
"""The events that change a match."""


def _report_change(r: MatchReported, get: Get) -> dict[str, Doc]:
    key = match_key(r.event, r.round, r.table)
    doc = get(key)
    if doc is None:
        # With several partitions a match's games may all be stored in other databases than the
        # reports (the home partition's): the reports are kept, for ``merge_docs`` to join.
        doc = {**_new_match({"event": r.event, "round": r.round, "table": r.table}, []), "reports_only": True}
    if r.kind == "confirm" and r.player is not None:
        doc["confirmations"][r.player] = (r.score or {}).get("score")
    elif r.kind == "intentional_draw" and r.player is not None and r.player not in doc["intentional_draw"]:
        doc["intentional_draw"].append(r.player)
    elif r.kind == "result":
        doc["entered"] = {**(r.score or {}), "by": r.actor}
    return {key: doc}


def merge_docs(docs: list[Doc]) -> Doc | None:
    """One match from its documents in several partitions (home first): the games of each, the
    reports of the home partition's (``None`` when no partition knows a game of it)."""
    real = [d for d in docs if not d.get("reports_only") and d.get("games")]
    if not real:
        return None
    if len(docs) == 1:
        return docs[0]
    merged: Doc = {**real[0], "games": {}, "intentional_draw": [], "confirmations": {}}
    merged["open_calls"], merged["time_extensions"] = [], []
    for doc in docs:
        merged["games"].update(doc["games"])
        merged["open_calls"] += doc["open_calls"]
        merged["time_extensions"] += doc["time_extensions"]
        merged["intentional_draw"] += [p for p in doc["intentional_draw"] if p not in merged["intentional_draw"]]
        merged["confirmations"].update(doc["confirmations"])
        merged["match_loss"] = merged.get("match_loss") or doc.get("match_loss")
        merged["entered"] = merged.get("entered") or doc.get("entered")
    merged["game_order"] = sorted(merged["games"], key=lambda g: (str(merged["games"][g].get("started_at")), g))
    return merged


class MatchProjection(DocumentProjection):
    name = "Matches"

    @staticmethod
    def changes(record: Any, get: Get, position: int) -> dict[str, Doc]:
        if isinstance(record, GameEvent):
            return _game_change(record, get)
        if isinstance(record, MatchReported):
            return _report_change(record, get)
        return {}


def _score(wins: Mapping[str, int], draws: int, players: list[str]) -> str:
    """``wins-losses-draws`` from the first player's side (``2-1-0``)."""
    if len(players) < 2:
        return f"{wins.get(players[0], 0) if players else 0}-0-{draws}"
    return f"{wins.get(players[0], 0)}-{wins.get(players[1], 0)}-{draws}"


def match_result(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The match's result as the module docstring derives it."""
    players: list[str] = list(doc["players"])
    need = doc["best_of"] // 2 + 1
    finished = [doc["games"][g] for g in doc["game_order"] if doc["games"][g]["status"] == "finished"]
    wins = {p: 0 for p in players}
    draws = 0
    for game in finished:
        if game["draw"] or len(game["winners"]) != 1:
            draws += 1
        elif game["winners"][0] in wins:
            wins[game["winners"][0]] += 1
    winner: str | None = None
    draw = False
    complete = False
    source = "games"
    entered = doc.get("entered")
    if entered is not None:
        wins = {p: int(entered.get("wins", {}).get(p, 0)) for p in players}
        draws = int(entered.get("draws", 0))
        source, complete = "scorekeeper", True
        best = max(wins.values(), default=0)
        leaders = [p for p, n in wins.items() if n == best]
        winner, draw = (leaders[0], False) if len(leaders) == 1 else (None, True)
    elif doc.get("match_loss"):
        loser = doc["match_loss"]["player"]
        others = [p for p in players if p != loser]
        winner = others[0] if others else None
        if winner is not None:
            wins[winner] = max(wins[winner], need)
        source, complete = "penalty", True
    elif players and set(doc.get("intentional_draw") or ()) >= set(players):
        source, complete, draw = "intentional_draw", True, True
        if not finished:
            wins, draws = {p: 0 for p in players}, 3  # MTR 2.4: no game played is 0-0-3
    else:
        leaders = [p for p, n in wins.items() if n >= need]
        if leaders:
            winner, complete = leaders[0], True
    score = _score(wins, draws, players)
    confirmations = doc.get("confirmations") or {}
    confirmed = source == "scorekeeper" or (bool(players) and all(confirmations.get(p) == score for p in players))
    if not complete and confirmed and len(set(wins.values())) == 1:
        complete, draw = True, True  # equal wins, both confirm: a drawn match (time was called)
    return {
        "wins": wins,
        "draws": draws,
        "score": score,
        "winner": winner,
        "draw": draw,
        "complete": complete,
        "confirmed": confirmed and complete,
        "source": source,
    }


def match_out(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A match as the API serves it."""
    return {
        "event": doc["event"],
        "round": doc["round"],
        "table": doc["table_number"],
        "best_of": doc["best_of"],
        "players": doc["players"],
        "games": [{"game_id": g, **doc["games"][g]} for g in doc["game_order"]],
        "intentional_draw": doc["intentional_draw"],
        "confirmations": doc["confirmations"],
        "match_loss": doc["match_loss"],
        "open_calls": doc["open_calls"],
        "time_extensions": doc["time_extensions"],
        "extra_minutes": sum(int(t.get("minutes") or 0) for t in doc["time_extensions"]),
        "result": match_result(doc),
    }


RESULT_COLUMNS = (
    "event",
    "round",
    "table",
    "player_a",
    "player_b",
    "a_wins",
    "b_wins",
    "draws",
    "result",
    "complete",
    "confirmed",
)


def result_row(doc: Mapping[str, Any]) -> dict[str, Any]:
    """One row of the results export (docs/judges.md, Results export)."""
    result = match_result(doc)
    players = [*doc["players"], None, None]
    a, b = players[0], players[1]
    outcome = "draw" if result["draw"] else ("a" if result["winner"] == a else "b" if result["winner"] == b else "")
    return {
        "event": doc["event"],
        "round": doc["round"],
        "table": doc["table_number"],
        "player_a": a,
        "player_b": b,
        "a_wins": result["wins"].get(a, 0) if a else 0,
        "b_wins": result["wins"].get(b, 0) if b else 0,
        "draws": result["draws"],
        "result": outcome if result["complete"] else "",
        "complete": result["complete"],
        "confirmed": result["confirmed"],
    }


__all__ = [
    "VIEWS",
    "MatchProjection",
    "match_key",
    "match_out",
    "match_result",
    "merge_docs",
    "result_row",
    "round_prefix",
]
