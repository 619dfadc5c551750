"""One readable sentence per event type, written from the event's own fields.

Events record resolved outcomes, so no state is needed: ``P1 mills Lightning Bolt, Forest
(radiation, CR 728.1)``. Sentences are shown to every reader, so hidden information stays out:
drawn cards are counted, never named, and a revert's restored state is not described. Each
sentence is registered by event class in ``SENTENCES``; a test checks every type has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev

SENTENCES: ev.EventHandlers[Callable[[Any], str]] = ev.EventHandlers("sentence")


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


def _words(value: Any) -> str:
    return str(value).replace("_", " ")


@SENTENCES.on(ev.GameStarted)
def _game_started(e: ev.GameStarted) -> str:
    players = ", ".join(
        f"{p['id']} ({p['name']})" if p.get("name") and p["name"] != p["id"] else str(p["id"]) for p in e.players
    )
    turn = e.turn
    return (
        f"Game started ({_words(e.variant)}): {players}; turn {turn['number']}, "
        f"{turn['active_player']} active, {_words(turn['step'])}"
    )


@SENTENCES.on(ev.TurnBegan)
def _turn_began(e: ev.TurnBegan) -> str:
    return f"Turn {e.number} begins: {e.active_team or e.active_player} is active"


@SENTENCES.on(ev.StepBegan)
def _step_began(e: ev.StepBegan) -> str:
    return f"{_words(e.step).capitalize()} begins"


@SENTENCES.on(ev.TriggersPending)
def _triggers_pending(e: ev.TriggersPending) -> str:
    return f"{e.controller} must order triggers: " + "; ".join(str(t.get("description")) for t in e.triggers)


@SENTENCES.on(ev.TriggerPutOnStack)
def _trigger_put_on_stack(e: ev.TriggerPutOnStack) -> str:
    return f"Trigger put on the stack: {e.object.get('description', '?')}"


@SENTENCES.on(ev.StackObjectResolved)
def _resolved(e: ev.StackObjectResolved) -> str:
    return f"Resolves: {e.description}" + (f" — {e.note}" if e.note else "")


@SENTENCES.on(ev.StackObjectCountered)
def _countered(e: ev.StackObjectCountered) -> str:
    what = f"{e.description} ({e.id})" if e.description else e.id
    return f"{what} leaves the stack: {e.reason}"


@SENTENCES.on(ev.SpellCast)
def _spell_cast(e: ev.SpellCast) -> str:
    text = str(e.object.get("description") or f"{e.player} casts a spell")
    if e.commander_tax is not None:
        text += f" from the command zone (commander tax {e.commander_tax})"
    return text


@SENTENCES.on(ev.AbilityActivated)
def _activated(e: ev.AbilityActivated) -> str:
    kind = " (mana ability)" if e.mana_ability else ""
    return f"{e.player} activates {e.permanent}{kind}: {e.text}".rstrip(": ")


@SENTENCES.on(ev.CountersAdded)
def _counters_added(e: ev.CountersAdded) -> str:
    return f"{_target(e.target)} gets {_plural(e.amount, f'{e.kind} counter')}"


@SENTENCES.on(ev.CountersRemoved)
def _counters_removed(e: ev.CountersRemoved) -> str:
    return f"{_plural(e.amount, f'{e.kind} counter')} removed from {_target(e.target)}"


@SENTENCES.on(ev.Proliferated)
def _proliferated(e: ev.Proliferated) -> str:
    return f"{e.player} proliferates: {', '.join(_target(c) for c in e.chosen) or 'nothing'}"


@SENTENCES.on(ev.LifeLost)
def _life_lost(e: ev.LifeLost) -> str:
    return f"{e.player} {'pays' if e.paid else 'loses'} {e.amount} life ({e.life_after} left)"


@SENTENCES.on(ev.LifeGained)
def _life_gained(e: ev.LifeGained) -> str:
    return f"{e.player} gains {e.amount} life ({e.life_after} now)"


@SENTENCES.on(ev.DamageDealt)
def _damage(e: ev.DamageDealt) -> str:
    extra = [w for w, on in (("combat", e.combat), ("infect", e.infect), (f"toxic {e.toxic}", e.toxic)) if on]
    if e.commander:
        extra.append(f"commander damage from {e.commander}")
    how = f" ({', '.join(extra)})" if extra else ""
    return f"{e.source} deals {e.amount} damage to {_target(e.target)}{how}"


@SENTENCES.on(ev.CardsMilled)
def _milled(e: ev.CardsMilled) -> str:
    return f"{e.player} mills {_names(e.cards)}"


@SENTENCES.on(ev.CardsDrawn)
def _drawn(e: ev.CardsDrawn) -> str:
    n = len(e.cards or ()) + e.unknown_count  # counted, never named: a hand is hidden
    empty = " and finds the library empty" if e.from_empty else ""
    return f"{e.player} draws {_plural(n, 'card')}{empty}"


@SENTENCES.on(ev.CardsMoved)
def _moved(e: ev.CardsMoved) -> str:
    if e.to == "none":
        verb = "leaves" if len(e.cards) == 1 else "leave"
        return f"{_names(e.cards)} {verb} the game with {e.player} ({_words(e.from_zone)} zone)"
    to = "the bottom of their library in a random order" if e.random_order else _words(e.to)
    to = "the command zone" if e.to == "command" else to
    return f"{e.player} moves {_names(e.cards)} from {_words(e.from_zone)} to {to}"


@SENTENCES.on(ev.PermanentEntered)
def _entered(e: ev.PermanentEntered) -> str:
    perm = e.permanent
    counters = perm.get("counters") or {}
    with_counters = " with " + ", ".join(_plural(n, f"{k} counter") for k, n in counters.items()) if counters else ""
    tapped = " tapped" if perm.get("tapped") else ""
    name = f"{perm['card']['name']} ({perm['id']})"
    return f"{name} enters the battlefield{tapped} under {perm['controller']}'s control{with_counters}"


@SENTENCES.on(ev.PermanentLeft)
def _left(e: ev.PermanentLeft) -> str:
    to = "ceases to exist" if e.to == "none" else f"goes to {_words(e.to)}"
    return f"{e.name} ({e.permanent}) leaves the battlefield and {to}"


@SENTENCES.on(ev.PermanentTapped)
def _tapped(e: ev.PermanentTapped) -> str:
    return f"{e.permanent} becomes tapped"


@SENTENCES.on(ev.PermanentUntapped)
def _untapped(e: ev.PermanentUntapped) -> str:
    return f"{e.permanent} untaps"


@SENTENCES.on(ev.ControlChanged)
def _control_changed(e: ev.ControlChanged) -> str:
    if e.ends_effects:
        return f"control of {e.permanent} returns to {e.controller}"
    return f"{e.controller} gains control of {e.permanent}"


@SENTENCES.on(ev.PowerToughnessModified)
def _power_toughness(e: ev.PowerToughnessModified) -> str:
    until = " until end of turn" if e.until == "end_of_turn" else ""
    return f"{e.permanent} gets {e.power:+d}/{e.toughness:+d}{until}"


@SENTENCES.on(ev.AttackersDeclared)
def _attackers(e: ev.AttackersDeclared) -> str:
    attacks = ", ".join(f"{a.get('permanent')} attacks {_target(a.get('attacks'))}" for a in e.attackers)
    return f"{e.player} declares attackers: {attacks or 'none'}"


@SENTENCES.on(ev.ManaAdded)
def _mana(e: ev.ManaAdded) -> str:
    pool = "".join(f"{{{m}}}" * int(n) for m, n in e.mana.items())
    return f"{e.player} adds {pool or 'no mana'}"


@SENTENCES.on(ev.ManaPoolEmptied)
def _mana_emptied(e: ev.ManaPoolEmptied) -> str:
    return f"{e.player}'s mana pool empties"


@SENTENCES.on(ev.PlayerLost)
def _player_lost(e: ev.PlayerLost) -> str:
    return f"{e.player} loses the game ({e.reason})" if e.reason else f"{e.player} loses the game"


@SENTENCES.on(ev.TeamLost)
def _team_lost(e: ev.TeamLost) -> str:
    return f"Team {e.team} loses the game ({e.reason})" if e.reason else f"Team {e.team} loses the game"


@SENTENCES.on(ev.GameEnded)
def _game_ended(e: ev.GameEnded) -> str:
    if e.draw:
        return "The game is a draw"
    return f"Game over: {' and '.join(e.winners)} {'wins' if len(e.winners) == 1 else 'win'}"


@SENTENCES.on(ev.NoteAdded)
def _note(e: ev.NoteAdded) -> str:
    return f"Note: {e.text}"


@SENTENCES.on(ev.JudgeCallOpened)
def _call_opened(e: ev.JudgeCallOpened) -> str:
    where = f" at table {e.table}" if e.table is not None else ""
    return f"Judge call {e.call}{where} by {e.called_by}: {e.question}"


@SENTENCES.on(ev.JudgeCallAnswered)
def _call_answered(e: ev.JudgeCallAnswered) -> str:
    return f"Ruling on {e.call}: {e.ruling}"


@SENTENCES.on(ev.PenaltyGiven)
def _penalty(e: ev.PenaltyGiven) -> str:
    why = f": {e.reason}" if e.reason else ""
    return f"Penalty for {e.player}: {e.penalty} (IPG {e.section} {e.infraction}){why}"


@SENTENCES.on(ev.TimeExtended)
def _time(e: ev.TimeExtended) -> str:
    return f"Time extension: {_plural(e.minutes, 'minute')} ({e.reason})"


@SENTENCES.on(ev.DeckChecked)
def _deck_check(e: ev.DeckChecked) -> str:
    return f"Deck check of {', '.join(e.players)}: {e.result}"


@SENTENCES.on(ev.ReportAwaitingAcknowledgement)
def _awaiting(e: ev.ReportAwaitingAcknowledgement) -> str:
    return f"{e.reporter}'s report {e.report} awaits acknowledgement by {', '.join(e.players)} ({e.summary})"


@SENTENCES.on(ev.ReportAcknowledged)
def _acknowledged(e: ev.ReportAcknowledged) -> str:
    return f"Report {e.report} acknowledged by {e.by}"


@SENTENCES.on(ev.ReportDisputed)
def _disputed(e: ev.ReportDisputed) -> str:
    return f"{e.by} disputes report {e.report}: {e.reason}"


@SENTENCES.on(ev.ActionsReverted)
def _reverted(e: ev.ActionsReverted) -> str:
    return f"Backed up to version {e.to_version} ({_plural(len(e.reverted_versions), 'event')} reverted): {e.reason}"


def describe(type_: str, data: Mapping[str, Any], rule: str | None, payload: ev.DomainEvent | None = None) -> str:
    """One readable sentence for a stored event, with its cause and rule in parentheses. A record
    that doesn't fit the vocabulary (a damaged one) is named by its type, never shown as JSON.
    ``payload``: the event's payload, when the caller has parsed ``data`` already."""
    try:
        if payload is None:
            payload = ev.event_class(type_).from_json(data)
        text = SENTENCES[type(payload)](payload)
    except (ev.EventFormatError, KeyError, TypeError, ValueError, AttributeError):
        text = f"{type_} (unreadable record)"
    cause = data.get("cause") if isinstance(data, Mapping) else None
    why = [str(x) for x in (cause if cause not in (None, "") else None, rule) if x]
    return f"{text} ({', '.join(why)})" if why else text


@SENTENCES.on(ev.DesignationChanged)
def _designation_changed(e: ev.DesignationChanged) -> str:
    if e.designation == "day_night":
        return f"It becomes {e.value} ({_words(e.cause)})"
    what = {"monarch": "becomes the monarch", "initiative": "takes the initiative"}.get(
        e.designation, "gets the city's blessing"
    )
    return f"{e.player} {what} ({_words(e.cause)})"


@SENTENCES.on(ev.RoomEntered)
def _room_entered(e: ev.RoomEntered) -> str:
    return f"{e.player} ventures into {e.dungeon}: {e.room}"


@SENTENCES.on(ev.DungeonCompleted)
def _dungeon_completed(e: ev.DungeonCompleted) -> str:
    return f"{e.player} completes {e.dungeon}"
