"""The whole ``GameState`` as JSON-native data and back (snapshots, ``ActionsReverted``).

Unlike ``view.state_view`` (what the API shows), this keeps every field the rules need, so
``state_from_json(state_to_json(s)) == s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.state import GameState, Judging, PendingGroup, Permanent, Player, Result, StackObject, Team, Turn


def _player_json(p: Player) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "team": p.team,
        "life": p.life,
        "counters": dict(p.counters),
        "library": [c.to_json() for c in p.library],
        "library_unknown": p.library_unknown,
        "hand": [c.to_json() for c in p.hand],
        "hand_unknown": p.hand_unknown,
        "graveyard": [c.to_json() for c in p.graveyard],
        "exile": [c.to_json() for c in p.exile],
        "mana_pool": dict(p.mana_pool),
        "lost": p.lost,
        "loss_reason": p.loss_reason,
        "drew_from_empty": p.drew_from_empty,
        "lands_played": p.lands_played,
        **_variant_fields(p),
    }


def _variant_fields(p: Player) -> dict[str, Any]:
    """Commander, dungeon, designation and opening (CR 103.5) fields and unnamed graveyard cards,
    only when set: the serialised state is stored in ``ActionsReverted.restored_state`` and
    compared on import, so the shape of states that have none of them must stay what older
    records hold."""
    out: dict[str, Any] = {}
    if p.commanders:
        out["commanders"] = list(p.commanders)
        out["command"] = [c.to_json() for c in p.command]
    for key, counts in (("commander_casts", p.commander_casts), ("commander_damage", p.commander_damage)):
        if counts:
            out[key] = dict(counts)
    for key, value in (("dungeon", p.dungeon), ("room", p.room)):
        if value is not None:
            out[key] = value
    if p.city_blessing:
        out["city_blessing"] = True
    if p.spells_cast:
        out["spells_cast"] = p.spells_cast
    for key, count in (("graveyard_unnamed", p.graveyard_unnamed), ("mulligans", p.mulligans)):
        if count:
            out[key] = count
    if p.hand_kept:
        out["hand_kept"] = True
    return out


def _permanent_json(perm: Permanent) -> dict[str, Any]:
    return {**perm.to_json(), "damage": perm.damage}


def state_to_json(state: GameState) -> dict[str, Any]:
    return {
        "game_id": state.game_id,
        "variant": state.variant,
        "rules_edition": state.rules_edition,
        "tournament": dict(state.tournament) if state.tournament else None,
        "players": [_player_json(p) for p in state.players.values()],
        "teams": {
            t.id: {"players": list(t.players), "life": t.life, "counters": dict(t.counters), "lost": t.lost}
            for t in state.teams.values()
        },
        "battlefield": [_permanent_json(p) for p in state.battlefield.values()],
        "turn": {
            "number": state.turn.number,
            "active_player": state.turn.active_player,
            "active_team": state.turn.active_team,
            "step": state.turn.step,
        },
        "stack": [o.to_json() for o in state.stack],
        "pending": [{"controller": g.controller, "triggers": [t.to_json() for t in g.triggers]} for g in state.pending],
        "status": state.status,
        "result": {"winners": list(state.result.winners), "draw": state.result.draw} if state.result else None,
        "next_seq": state.next_seq,
        "turn_memory": sorted(state.turn_memory),
        **{
            k: v
            for k, v in (("monarch", state.monarch), ("initiative", state.initiative), ("day_night", state.day_night))
            if v
        },
        **({"spells_last_turn": dict(state.spells_last_turn)} if state.spells_last_turn else {}),
        **({"first_player": dict(state.first_player)} if state.first_player else {}),
        # Present only when set, so that the restored state of a game without them is unchanged.
        **({"judging": _judging_json(state.judging)} if not state.judging.empty else {}),
        **({"reports": [dict(r) for r in state.reports]} if state.reports else {}),
    }


def _judging_json(j: Judging) -> dict[str, Any]:
    return {
        "calls": [dict(c) for c in j.calls],
        "penalties": [dict(p) for p in j.penalties],
        "time_extensions": [dict(t) for t in j.time_extensions],
        "deck_checks": [dict(d) for d in j.deck_checks],
    }


def _judging(raw: Mapping[str, Any] | None) -> Judging:
    if not raw:
        return Judging()
    return Judging(
        calls=tuple(raw.get("calls") or ()),
        penalties=tuple(raw.get("penalties") or ()),
        time_extensions=tuple(raw.get("time_extensions") or ()),
        deck_checks=tuple(raw.get("deck_checks") or ()),
    )


def _player(raw: Mapping[str, Any]) -> Player:
    from dataclasses import replace

    return replace(
        Player.from_json(raw),
        mana_pool=dict(raw["mana_pool"]),
        lost=raw["lost"],
        loss_reason=raw["loss_reason"],
        drew_from_empty=raw["drew_from_empty"],
        lands_played=raw["lands_played"],
    )


def state_from_json(raw: Mapping[str, Any]) -> GameState:
    from dataclasses import replace

    turn = raw["turn"]
    result = raw.get("result")
    return GameState(
        game_id=raw["game_id"],
        variant=raw["variant"],
        rules_edition=raw["rules_edition"],
        tournament=raw.get("tournament"),
        players={p["id"]: _player(p) for p in raw["players"]},
        teams={
            tid: Team(id=tid, players=tuple(t["players"]), life=t["life"], counters=dict(t["counters"]), lost=t["lost"])
            for tid, t in raw["teams"].items()
        },
        battlefield={p["id"]: replace(Permanent.from_json(p), damage=p.get("damage", 0)) for p in raw["battlefield"]},
        turn=Turn(turn["number"], turn["active_player"], turn.get("active_team"), turn["step"]),
        stack=tuple(StackObject.from_json(o) for o in raw["stack"]),
        pending=tuple(
            PendingGroup(g["controller"], tuple(StackObject.from_json(t) for t in g["triggers"]))
            for g in raw["pending"]
        ),
        status=raw["status"],
        result=Result(tuple(result["winners"]), result["draw"]) if result else None,
        next_seq=raw["next_seq"],
        turn_memory=frozenset(raw.get("turn_memory") or ()),
        monarch=raw.get("monarch"),
        initiative=raw.get("initiative"),
        day_night=raw.get("day_night"),
        spells_last_turn=dict(raw.get("spells_last_turn") or {}),
        first_player=dict(raw["first_player"]) if raw.get("first_player") else None,
        judging=_judging(raw.get("judging")),
        reports=tuple(raw.get("reports") or ()),
    )
