"""Proliferate (CR 701.34), current and pre-War of the Spark (before 2019-05-03) forms."""

from __future__ import annotations

from collections.abc import Sequence

from domain import events as ev
from domain.builder import Builder
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.counters import add_counters

RULE = "CR 701.34a"


def _object_counters(b: Builder, choice: dict[str, str]) -> dict[str, int]:
    state = b.state
    if "permanent" in choice:
        return dict(lookup.permanent(state, choice["permanent"]).counters)
    if "team" in choice:
        team = state.teams.get(choice["team"])
        if team is None:
            raise IllegalAction(f"proliferate: unknown team {choice['team']!r}", Code.ILLEGAL_CHOICE)
        return dict(team.counters)
    player = lookup.player(state, choice["player"])
    if player.lost:
        raise IllegalAction(f"proliferate: player {player.id!r} has left the game", Code.ILLEGAL_CHOICE)
    return state.counters_of_player(player.id)


def proliferate(b: Builder, player_id: str, choose: Sequence[dict[str, str]], cause: str = "proliferate") -> None:
    """Choose any number (zero included) of permanents and/or players that have a counter; each
    gets one more counter of each kind it has (701.34a). Only battlefield permanents and players
    can be chosen; it chooses, it doesn't target. In Two-Headed Giant a team gets at most one
    poison counter however many of its players are chosen (701.34b). A game pinned to an edition
    before 2019-05-03 names one kind per chosen object instead."""
    lookup.player_in_game(b.state, player_id)
    old_rules = b.state.edition_before_war
    seen: set[tuple[str, str]] = set()
    plan: list[tuple[dict[str, str], list[str]]] = []
    for choice in choose:
        key = next((k, v) for k, v in choice.items() if k != "kind")
        if key in seen:
            raise IllegalAction(f"proliferate: {dict([key])!r} is chosen twice", Code.ILLEGAL_CHOICE)
        seen.add(key)
        if "team" in choice and not (old_rules and b.state.shares_life):
            raise IllegalAction(
                f"proliferate: teams are chosen only under the pre-2019 Two-Headed Giant rule, got {choice!r}",
                Code.ILLEGAL_CHOICE,
            )
        counters = _object_counters(b, choice)
        if not counters:
            raise IllegalAction(
                f"proliferate: {dict([key])!r} has no counters to proliferate", Code.NO_COUNTER_TO_PROLIFERATE
            )
        kind = choice.get("kind")
        if old_rules:
            if kind is None or kind not in counters:
                raise IllegalAction(
                    f"proliferate (rules edition {b.state.rules_edition}): {dict([key])!r} must name one "
                    f"kind it has, one of {sorted(counters)}; got {kind!r}",
                    Code.ILLEGAL_CHOICE,
                )
            plan.append(({key[0]: key[1]}, [kind]))
        else:
            if kind is not None:
                raise IllegalAction(
                    f"proliferate: choice {choice!r} names a kind, but since 2019-05-03 each chosen "
                    "object gets one counter of each kind it has (CR 701.34a)",
                    Code.ILLEGAL_CHOICE,
                )
            plan.append(({key[0]: key[1]}, sorted(counters)))
    chosen = [dict(c) for c in choose]
    b.emit(ev.Proliferated(player=player_id, chosen=chosen, cause=cause), RULE)
    poisoned_teams: set[str] = set()
    for target, kinds in plan:
        for kind in kinds:
            if "team" in target:
                first = b.state.teams[target["team"]].players[0]
                target = {"player": first}
            if "player" in target and kind == "poison" and b.state.shares_life:
                team = b.state.players[target["player"]].team
                if team is not None:
                    if team in poisoned_teams:
                        continue  # 701.34b: one poison counter per team
                    poisoned_teams.add(team)
            add_counters(b, target, kind, 1, "proliferate", RULE)
