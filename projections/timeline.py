"""A game's events as readable lines, grouped by turn and step (``GET /v1/games/{id}/timeline``).

One sentence per event type, written from the event's own data (events record resolved outcomes,
so no state is needed), followed by the cause and rule in parentheses, e.g.
``P1 mills Lightning Bolt, Forest, Grizzly Bears (radiation, CR 728.1)``. Lines are shown to any
reader, so hidden information stays out: drawn cards are counted, never named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from domain import events as ev
from projections.results import RecordedEvent

Data = Mapping[str, Any]


def _target(target: Any) -> str:
    if isinstance(target, Mapping):
        for key in ("player", "permanent", "team"):
            if key in target:
                return f"team {target[key]}" if key == "team" else str(target[key])
    return str(target)


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _names(cards: Any) -> str:
    names = [c.get("name", "?") if isinstance(c, Mapping) else str(c) for c in cards or ()]
    return ", ".join(names) if names else "nothing"


def _step(step: Any) -> str:
    return str(step).replace("_", " ")


def _object(data: Data) -> Mapping[str, Any]:
    obj = data.get("object")
    return obj if isinstance(obj, Mapping) else {}


def _game_started(d: Data) -> str:
    players = ", ".join(
        f"{p['id']} ({p['name']})" if p.get("name") and p["name"] != p["id"] else str(p["id"]) for p in d["players"]
    )
    turn = d["turn"]
    return (
        f"Game started ({_step(d['variant'])}): {players}; turn {turn['number']}, "
        f"{turn['active_player']} active, {_step(turn['step'])}"
    )


def _counters(d: Data, added: bool) -> str:
    kind, amount = d.get("kind"), d.get("amount")
    counters = _plural(amount, f"{kind} counter")
    return (
        f"{_target(d.get('target'))} gets {counters}"
        if added
        else f"{counters} removed from {_target(d.get('target'))}"
    )


def _life_lost(d: Data) -> str:
    verb = "pays" if d.get("paid") else "loses"
    return f"{d['player']} {verb} {d['amount']} life ({d.get('life_after')} left)"


def _damage(d: Data) -> str:
    extra = [w for w, on in (("infect", d.get("infect")), (f"toxic {d.get('toxic')}", d.get("toxic"))) if on]
    how = f" ({', '.join(extra)})" if extra else ""
    return f"{d.get('source')} deals {d['amount']} damage to {_target(d.get('target'))}{how}"


def _drawn(d: Data) -> str:
    n = len(d.get("cards") or ()) + int(d.get("unknown_count") or 0)
    empty = " and finds the library empty" if d.get("from_empty") else ""
    return f"{d['player']} draws {_plural(n, 'card')}{empty}"


def _proliferated(d: Data) -> str:
    chosen = ", ".join(_target(c) for c in d.get("chosen") or ()) or "nothing"
    return f"{d['player']} proliferates: {chosen}"


def _entered(d: Data) -> str:
    perm = d["permanent"]
    counters = perm.get("counters") or {}
    with_counters = " with " + ", ".join(_plural(n, f"{k} counter") for k, n in counters.items()) if counters else ""
    tapped = " tapped" if perm.get("tapped") else ""
    name = f"{perm['card']['name']} ({perm['id']})"
    return f"{name} enters the battlefield{tapped} under {perm['controller']}'s control{with_counters}"


def _left(d: Data) -> str:
    to = "ceases to exist" if d.get("to") == "none" else f"goes to {_step(d.get('to'))}"
    return f"{d.get('name')} ({d['permanent']}) leaves the battlefield and {to}"


def _mana(d: Data) -> str:
    pool = "".join(f"{{{m}}}" * int(n) for m, n in (d.get("mana") or {}).items())
    return f"{d['player']} adds {pool or 'no mana'}"


def _activated(d: Data) -> str:
    kind = " (mana ability)" if d.get("mana_ability") else ""
    return f"{d['player']} activates {d['permanent']}{kind}: {d.get('text', '')}".rstrip(": ")


def _game_ended(d: Data) -> str:
    if d.get("draw"):
        return "The game is a draw"
    winners = list(d.get("winners") or ())
    return f"Game over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"


def _reverted(d: Data) -> str:
    n = len(d.get("reverted_versions") or ())
    return f"Backed up to version {d['to_version']} ({_plural(n, 'event')} reverted): {d.get('reason', '')}"


SENTENCES: dict[str, Callable[[Data], str]] = {
    ev.GAME_STARTED: _game_started,
    ev.TURN_BEGAN: lambda d: f"Turn {d['number']} begins: {d.get('active_team') or d['active_player']} is active",
    ev.STEP_BEGAN: lambda d: f"{_step(d['step']).capitalize()} begins",
    ev.TRIGGERS_PENDING: lambda d: (
        f"{d['controller']} must order triggers: " + "; ".join(t["description"] for t in d.get("triggers") or ())
    ),
    ev.TRIGGER_PUT_ON_STACK: lambda d: f"Trigger put on the stack: {_object(d).get('description', '?')}",
    ev.STACK_OBJECT_RESOLVED: lambda d: (
        f"Resolves: {d.get('description', d.get('id'))}" + (f" — {d['note']}" if d.get("note") else "")
    ),
    ev.STACK_OBJECT_COUNTERED: lambda d: f"{d['id']} leaves the stack: {d.get('reason', 'countered')}",
    ev.SPELL_CAST: lambda d: _object(d).get("description") or f"{d['player']} casts a spell",
    ev.ABILITY_ACTIVATED: _activated,
    ev.COUNTERS_ADDED: lambda d: _counters(d, True),
    ev.COUNTERS_REMOVED: lambda d: _counters(d, False),
    ev.LIFE_LOST: _life_lost,
    ev.LIFE_GAINED: lambda d: f"{d['player']} gains {d['amount']} life ({d.get('life_after')} now)",
    ev.DAMAGE_DEALT: _damage,
    ev.CARDS_MILLED: lambda d: f"{d['player']} mills {_names(d.get('cards'))}",
    ev.CARDS_DRAWN: _drawn,
    ev.PROLIFERATED: _proliferated,
    ev.PERMANENT_ENTERED: _entered,
    ev.PERMANENT_LEFT: _left,
    ev.PERMANENT_TAPPED: lambda d: f"{d['permanent']} becomes tapped",
    ev.PERMANENT_UNTAPPED: lambda d: f"{d['permanent']} untaps",
    ev.MANA_ADDED: _mana,
    ev.MANA_POOL_EMPTIED: lambda d: f"{d['player']}'s mana pool empties",
    ev.PLAYER_LOST: lambda d: f"{d['player']} loses the game ({d.get('reason', '')})".replace(" ()", ""),
    ev.TEAM_LOST: lambda d: f"Team {d['team']} loses the game ({d.get('reason', '')})".replace(" ()", ""),
    ev.GAME_ENDED: _game_ended,
    ev.NOTE_ADDED: lambda d: f"Note: {d.get('text', '')}",
    ev.ACTIONS_REVERTED: _reverted,
}


def describe(type_: str, data: Data, rule: str | None) -> str:
    """One readable sentence for an event, with its cause and rule in parentheses."""
    try:
        text = SENTENCES[type_](data) if type_ in SENTENCES else type_
    except (KeyError, TypeError, ValueError, AttributeError):
        text = f"{type_} {dict(data)}"  # an event shape this formatter does not know yet
    cause = data.get("cause")
    why = [str(x) for x in (cause if cause not in (None, "") else None, rule) if x]
    return f"{text} ({', '.join(why)})" if why else text


def _position(event: RecordedEvent, turn: int, step: str) -> tuple[int, str]:
    """The (turn, step) the game is in once ``event`` has happened."""
    d = event.data
    if event.type == ev.GAME_STARTED:
        return int(d["turn"]["number"]), str(d["turn"]["step"])
    if event.type == ev.TURN_BEGAN:
        return int(d["number"]), "untap"
    if event.type == ev.STEP_BEGAN:
        return turn, str(d["step"])
    if event.type == ev.ACTIONS_REVERTED:
        restored = d["restored_state"]["turn"]
        return int(restored["number"]), str(restored["step"])
    return turn, step


def timeline(events: Iterable[RecordedEvent]) -> list[dict[str, Any]]:
    """Readable lines in log order, a new group each time the turn or step changes."""
    groups: list[dict[str, Any]] = []
    turn, step = 0, ""
    for event in events:
        turn, step = _position(event, turn, step)
        if not groups or (groups[-1]["turn"], groups[-1]["step"]) != (turn, step):
            groups.append({"turn": turn, "step": step, "lines": []})
        groups[-1]["lines"].append(line(event))
    return groups


def line(event: RecordedEvent) -> dict[str, Any]:
    return {
        "version": event.version,
        "type": event.type,
        "text": describe(event.type, event.data, event.rule),
        "reverted": event.reverted,
        "rule": event.rule,
        "actor": event.actor.to_json(),
        "action_id": event.action_id,
        "recorded_at": event.recorded_at,
    }


def texts(groups: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every line's text, in order (for tests and logs)."""
    return [ln["text"] for g in groups for ln in g["lines"]]
