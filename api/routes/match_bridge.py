"""The v1 match writes (``api.routes.matches``) for an event that is a tournament (issue 38, one
result per match): they write the tournament's one result instead of a second one in the older
matches model, through the one tournament writer with an ``Idempotency-Key``.

- ``…/result`` (scorekeeper): the tournament's ``ResultReported``; a match that has a result is
  ``422 match_already_reported`` (a correction, with its reason, is the tournament's
  ``…/correction``);
- ``…/confirm`` (a player): the score confirmed, from the first player's side (``2-1-0``), is the
  player's report; when the opponent's report waits with that very score it confirms it
  (``409 result_changed`` for another score);
- ``…/intentional-draw`` (both players): the second player's agreement records the tournament's
  intentional draw (MTR 2.4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from api.auth import Principal
from api.deps import service_of
from api.idempotency import Answer, idempotent
from api.routes.tournaments import _actor, _caller
from api.threads import in_thread
from domain.errors import Code, Conflict, InvalidCommand, NotFound
from domain.tournament.report_access import reporting_player
from ledger import tournament_use_cases as uc
from ledger.tournament_use_cases import UseCase

SCORE = re.compile(r"(\d)-(\d)-(\d)")


def _numbers(round: str, table: str) -> tuple[int, int]:
    if not (round.isdigit() and table.isdigit()):
        raise NotFound(f"the tournament has no round {round!r} table {table!r}", Code.UNKNOWN_TABLE)
    return int(round), int(table)


async def _once(request: Request, principal: Principal, raw: bytes, use_case: UseCase, answer: Any) -> Response:
    service = service_of(request)

    def perform(key: str | None, fingerprint: str | None) -> Answer:
        service.handle(use_case, _actor(principal), idempotency_key=key, request_fingerprint=fingerprint)
        return Answer(201, answer, key_claimed=key is not None)

    return await idempotent(request, service, raw, perform, None, _caller(principal))


async def enter_result(
    request: Request,
    principal: Principal,
    raw: bytes,
    event: str,
    round: str,
    table: str,
    wins: Mapping[str, int],
    draws: int,
) -> Response:
    n, t = _numbers(round, table)
    use_case = uc.ReportResult(event, n, t, dict(wins), draws)
    answer = {"event": event, "round": round, "table": table, "wins": dict(wins), "draws": draws}
    return await _once(request, principal, raw, use_case, answer)


async def confirm(
    request: Request, principal: Principal, raw: bytes, event: str, round: str, table: str, score: str
) -> Response:
    n, t = _numbers(round, table)
    player = reporting_player(principal, event, n, t)
    form = await in_thread(service_of(request).match_report, event, n, t, player)
    found = SCORE.fullmatch(score)
    if found is None:
        raise InvalidCommand(
            f"a score is wins-losses-draws from the first player's side, got {score!r}", Code.INVALID_FIELD
        )
    first, second = (p["player_id"] for p in form["players"])
    wins = {first: int(found[1]), second: int(found[2])}
    draws = int(found[3])
    report = form["report"]
    use_case: UseCase
    if form["state"] == "pending" and report is not None and report["player"] != player:
        if (report["wins"], report["draws"]) != (wins, draws):
            shown = f"{report['wins'][first]}-{report['wins'][second]}-{report['draws']}"
            raise Conflict(f"{report['player']!r} reported {shown}, not {score}", Code.RESULT_CHANGED)
        use_case = uc.ConfirmMatchReport(event, player, n, t, principal.token_id)
    else:
        use_case = uc.ReportOwnMatch(event, player, n, t, wins, draws, principal.token_id)
    answer = {"event": event, "round": round, "table": table, "confirmed_by": player, "score": score}
    return await _once(request, principal, raw, use_case, answer)


async def intentional_draw(
    request: Request, principal: Principal, event: str, round: str, table: str, player: str, match: Mapping[str, Any]
) -> dict[str, Any]:
    n, t = _numbers(round, table)
    service = service_of(request)
    agreed = {*match["intentional_draw"], player}
    if agreed >= set(match["players"]):
        await in_thread(service.handle, uc.IntentionalDraw(event, n, t), _actor(principal))
    await in_thread(
        lambda: service.report_match(event, round, table, "intentional_draw", _actor(principal), player=player)
    )
    return {"event": event, "round": round, "table": table, "agreed_by": player}
