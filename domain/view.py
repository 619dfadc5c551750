"""The state as the API shows it (``State`` in docs/api.md): a pure function of ``GameState``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from domain.cards.model import Card
from domain.judge_call_pages import calls_in_state, closed_call_count
from domain.rules.activate import is_summoning_sick
from domain.rules.stack import alternatives_of, card_count, needs_of
from domain.state import EMPTY_POOL, GameState, Permanent, StackObject


@lru_cache(maxsize=4096)
def _damage_keywords(card: Card) -> tuple[bool, bool]:
    """Infect and lifelink of a card (its Oracle text read once, not at every state shown)."""
    return card.has_keyword("infect"), card.has_keyword("lifelink")


def damage_effects(state: GameState, perm: Permanent) -> dict[str, Any]:
    """What damage ``perm`` deals to a player does, as the server applies it: poison counters
    instead (infect, CR 702.90b), its controller gains that much (lifelink, 702.15b), and the
    ``commander_damage`` key a commander's combat damage adds to (903.10a). The web page's pending
    totals read this instead of keeping their own copy of the rules."""
    infect, lifelink = _damage_keywords(perm.card)
    return {"infect": infect, "lifelink": lifelink, "commander_key": state.commander_key(perm)}


def _stack_object(state: GameState, o: StackObject) -> dict[str, Any]:
    """A stack object with what its resolve needs: ``needs``, and where the server knows them the
    number of cards ``cards`` names (``card_count``) and the choices that may stand in for a need
    (``alternatives``: the rad trigger takes ``nonland_count`` instead of the cards, CR 728.1)."""
    out: dict[str, Any] = {
        "id": o.id,
        "kind": o.kind,
        "controller": o.controller,
        "source": o.source,
        "description": o.description,
        "needs": needs_of(state, o),
    }
    n = card_count(state, o)
    if n is not None:
        out["card_count"] = n
        out["alternatives"] = alternatives_of(state, o)
    return out


def state_view(state: GameState, *, show_libraries: bool = True) -> dict[str, Any]:
    """``show_libraries``: known library contents are for judges and admins only."""
    players: dict[str, Any] = {}
    for p in state.players.values():
        known_library = [c.to_json() for c in p.library]
        library: list[dict[str, Any]] | None = known_library
        if p.library_unknown and not known_library:
            library = None
        players[p.id] = {
            "name": p.name,
            "team": p.team,
            "life": state.life_of(p.id),
            "counters": dict(p.counters),
            "lost": p.lost,
            "loss_reason": p.loss_reason,
            "library_size": p.library_size,
            "library": library if show_libraries else None,
            "hand_size": p.hand_size,
            "graveyard": [c.to_json() for c in p.graveyard],
            "graveyard_unnamed": p.graveyard_unnamed,
            "exile": [c.to_json() for c in p.exile],
            "mana_pool": {**EMPTY_POOL, **p.mana_pool},
            "command": [c.to_json() for c in p.command],
            "commanders": list(p.commanders),
            "commander_tax": {name: p.commander_tax(name) for name in p.commanders},
            "commander_damage": {k: n for k, n in p.commander_damage.items() if n > 0},
            "dungeon": {"name": p.dungeon, "room": p.room} if p.dungeon is not None else None,
            "city_blessing": p.city_blessing,
            "mulligans": p.mulligans,
            "hand_kept": p.hand_kept,
        }
    teams = {
        t.id: {"players": list(t.players), "life": t.life, "counters": dict(t.counters), "lost": t.lost}
        for t in state.teams.values()
    }
    battlefield = {
        perm.id: {
            "name": perm.card.name,
            "card": perm.card.to_json(),
            "owner": perm.owner,
            "controller": perm.controller,
            "tapped": perm.tapped,
            "counters": dict(perm.counters),
            "summoning_sick": is_summoning_sick(state, perm),
            "token": perm.token,
            "damage": perm.damage,
            "damage_effects": damage_effects(state, perm),
        }
        for perm in state.battlefield.values()
    }
    stack = [_stack_object(state, o) for o in state.stack]
    pending = None
    if state.pending:
        group = state.pending[0]
        pending = {
            "controller": group.controller,
            "triggers": [{"id": t.id, "description": t.description} for t in group.triggers],
        }
    return {
        "variant": state.variant,
        "rules_edition": state.rules_edition,
        "status": state.status,
        "result": {"winners": list(state.result.winners), "draw": state.result.draw} if state.result else None,
        "turn": {
            "number": state.turn.number,
            "active_player": state.turn.active_player,
            "active_team": state.turn.active_team,
            "step": state.turn.step,
        },
        "players": players,
        "teams": teams,
        "battlefield": battlefield,
        "exile": [{**c.to_json(), "owner": p.id} for p in state.players.values() for c in p.exile],
        "stack": stack,
        "pending_order": pending,
        "monarch": state.monarch,
        "initiative": state.initiative,
        "day_night": state.day_night,
        "first_player": dict(state.first_player) if state.first_player else None,
        "tournament": dict(state.tournament) if state.tournament else None,
        "unacknowledged": [dict(r) for r in state.reports],
        "judging": {
            "calls": calls_in_state(state.judging.calls),
            "closed_call_count": closed_call_count(state.judging.calls),
            "open_calls": [c["call"] for c in state.judging.calls if c.get("open", True)],
            "penalties": [dict(p) for p in state.judging.penalties],
            "time_extensions": [dict(t) for t in state.judging.time_extensions],
            "extra_minutes": sum(int(t.get("minutes", 0)) for t in state.judging.time_extensions),
            "deck_checks": [dict(d) for d in state.judging.deck_checks],
        },
    }
