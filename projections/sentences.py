"""One readable sentence per event type, written from the event's own fields.

Events record resolved outcomes, so no state is needed: ``Alice mills Lightning Bolt, Forest
(radiation, CR 728.1)``. Sentences are shown to every reader, so hidden information stays out:
drawn cards are counted, never named, and a revert's restored state is not described. Each
sentence is registered by event class in ``SENTENCES``; a test checks every type has one.

Players and permanents are named by name (issue 30): events carry ids, so ``describe`` takes the
``Names`` of the game (``Names.of_state``, and what each event says, ``Names.learn``), and a
sentence asks them with ``_who`` (a player) and ``_what`` (a permanent). An id stays where it is
the only name: a player given none, a permanent whose card isn't known, a sentence written
without ``Names`` (then as before: ``bears becomes tapped``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from domain import events as ev
from domain.state import GameState

SENTENCES: ev.EventHandlers[Callable[[Any], str]] = ev.EventHandlers("sentence")


@dataclass
class Names:
    """Who and what the sentences of one game name: each player's name and each permanent's
    card name, by id. Learned from the game's state and from its events as they are read."""

    players: dict[str, str] = field(default_factory=dict)
    """Player id -> name (only players whose name is not their id)."""
    permanents: dict[str, str] = field(default_factory=dict)
    """Permanent id -> its card's name (kept after it leaves: later events may still name it)."""

    @classmethod
    def of_state(cls, state: GameState) -> Names:
        names = cls()
        for pid, p in state.players.items():
            names._player(pid, p.name)
        for perm_id, perm in state.battlefield.items():
            names.permanents[perm_id] = perm.card.name
        return names

    def _player(self, pid: Any, name: Any) -> None:
        if isinstance(pid, str) and isinstance(name, str) and name.strip() and name != pid:
            self.players[pid] = name

    def _permanent(self, raw: Any) -> None:
        if isinstance(raw, Mapping) and isinstance(raw.get("id"), str) and isinstance(raw.get("card"), Mapping):
            name = raw["card"].get("name")
            if isinstance(name, str):
                self.permanents[raw["id"]] = name

    def learn(self, payload: ev.DomainEvent | None) -> None:
        """What ``payload`` tells of names: the players and permanents a game starts with (or a
        backup restores), a permanent entering or leaving."""
        if isinstance(payload, ev.GameStarted | ev.ActionsReverted):
            raw = payload.restored_state if isinstance(payload, ev.ActionsReverted) else payload.to_json()
            for p in raw.get("players") or ():
                if isinstance(p, Mapping):
                    self._player(p.get("id"), p.get("name"))
            for b in raw.get("battlefield") or ():
                self._permanent(b)
        elif isinstance(payload, ev.PermanentEntered):
            self._permanent(payload.permanent)
        elif isinstance(payload, ev.PermanentLeft):
            self.permanents[payload.permanent] = payload.name


_NAMES: ContextVar[Names | None] = ContextVar("sentence_names", default=None)
"""The ``Names`` of the sentence being written (``describe`` sets them for its one call): the
sentence functions keep one argument, the event, however many of them other code registers."""


@contextmanager
def _naming(names: Names | None) -> Iterator[None]:
    token = _NAMES.set(names)
    try:
        yield
    finally:
        _NAMES.reset(token)


def _who(player: Any) -> str:
    """A player by name (their id when they have no other, or when no names are known)."""
    names = _NAMES.get()
    return names.players.get(player, str(player)) if names is not None and isinstance(player, str) else str(player)


def _what(permanent: Any) -> str:
    """A permanent by its card's name (its id when the card isn't known); any other text (a
    reported damage source such as ``Lightning Bolt``) as it is."""
    names = _NAMES.get()
    if names is not None and isinstance(permanent, str):
        return names.permanents.get(permanent, permanent)
    return str(permanent)


def _with_id(name: str, object_id: Any) -> str:
    """``Grizzly Bears (bears)`` without names, the only link from an id to its card;
    ``Grizzly Bears`` with them."""
    return name if _NAMES.get() is not None else f"{name} ({object_id})"


def _said(text: Any) -> str:
    """Server-written text (a stack object's description, ``P1 casts Shock``) with its player
    ids as names."""
    names = _NAMES.get()
    written = str(text)
    if names is None or not names.players:
        return written
    ids = "|".join(re.escape(pid) for pid in sorted(names.players, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])(?:{ids})(?![\w-])", lambda m: names.players[m.group(0)], written)


def _target(target: Any) -> str:
    if isinstance(target, Mapping):
        if "player" in target:
            return _who(target["player"])
        if "permanent" in target:
            return _what(target["permanent"])
        if "team" in target:
            return f"team {target['team']}"
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
        f"{_who(turn['active_player'])} active, {_words(turn['step'])}"
    )


@SENTENCES.on(ev.TurnBegan)
def _turn_began(e: ev.TurnBegan) -> str:
    return f"Turn {e.number} begins: {e.active_team or _who(e.active_player)} is active"


@SENTENCES.on(ev.StepBegan)
def _step_began(e: ev.StepBegan) -> str:
    return f"{_words(e.step).capitalize()} begins"


@SENTENCES.on(ev.FirstPlayerChosen)
def _first_player_chosen(e: ev.FirstPlayerChosen) -> str:
    how = "picked at random" if e.method == "random" else "chosen"
    return f"{_who(e.player)} takes the first turn, {how}"


@SENTENCES.on(ev.MulliganTaken)
def _mulligan_taken(e: ev.MulliganTaken) -> str:
    return f"{_who(e.player)} takes mulligan {e.mulligans} and draws a new hand of {e.hand_size}"


@SENTENCES.on(ev.HandKept)
def _hand_kept(e: ev.HandKept) -> str:
    # The bottom cards leave a hidden hand: counted, never named.
    bottom = f", putting {_plural(e.bottom_count, 'card')} on the bottom of their library" if e.bottom_count else ""
    return f"{_who(e.player)} keeps their hand{bottom}"


@SENTENCES.on(ev.TriggersPending)
def _triggers_pending(e: ev.TriggersPending) -> str:
    return f"{_who(e.controller)} must order triggers: " + "; ".join(_said(t.get("description")) for t in e.triggers)


@SENTENCES.on(ev.TriggerPutOnStack)
def _trigger_put_on_stack(e: ev.TriggerPutOnStack) -> str:
    return f"Trigger put on the stack: {_said(e.object.get('description', '?'))}"


@SENTENCES.on(ev.StackObjectResolved)
def _resolved(e: ev.StackObjectResolved) -> str:
    return f"Resolves: {_said(e.description)}" + (f" — {_said(e.note)}" if e.note else "")


@SENTENCES.on(ev.StackObjectCountered)
def _countered(e: ev.StackObjectCountered) -> str:
    what = _with_id(_said(e.description), e.id) if e.description else e.id
    return f"{what} leaves the stack: {e.reason}"


@SENTENCES.on(ev.SpellCast)
def _spell_cast(e: ev.SpellCast) -> str:
    text = _said(e.object.get("description") or f"{e.player} casts a spell")
    if e.commander_tax is not None:
        text += f" from the command zone (commander tax {e.commander_tax})"
    return text


@SENTENCES.on(ev.AbilityActivated)
def _activated(e: ev.AbilityActivated) -> str:
    kind = " (mana ability)" if e.mana_ability else ""
    return f"{_who(e.player)} activates {_what(e.permanent)}{kind}: {e.text}".rstrip(": ")


@SENTENCES.on(ev.CountersAdded)
def _counters_added(e: ev.CountersAdded) -> str:
    return f"{_target(e.target)} gets {_plural(e.amount, f'{e.kind} counter')}"


@SENTENCES.on(ev.CountersRemoved)
def _counters_removed(e: ev.CountersRemoved) -> str:
    return f"{_plural(e.amount, f'{e.kind} counter')} removed from {_target(e.target)}"


@SENTENCES.on(ev.Proliferated)
def _proliferated(e: ev.Proliferated) -> str:
    return f"{_who(e.player)} proliferates: {', '.join(_target(c) for c in e.chosen) or 'nothing'}"


@SENTENCES.on(ev.LifeLost)
def _life_lost(e: ev.LifeLost) -> str:
    return f"{_who(e.player)} {'pays' if e.paid else 'loses'} {e.amount} life ({e.life_after} left)"


@SENTENCES.on(ev.LifeGained)
def _life_gained(e: ev.LifeGained) -> str:
    return f"{_who(e.player)} gains {e.amount} life ({e.life_after} now)"


@SENTENCES.on(ev.DamageDealt)
def _damage(e: ev.DamageDealt) -> str:
    extra = [w for w, on in (("combat", e.combat), ("infect", e.infect), (f"toxic {e.toxic}", e.toxic)) if on]
    if e.commander:
        owner, _, commander = str(e.commander).partition(":")  # the key OWNER:Name (CR 903.10a)
        source = f"{_who(owner)}'s {commander}" if commander else owner
        extra.append(f"commander damage from {source}")
    how = f" ({', '.join(extra)})" if extra else ""
    return f"{_what(e.source)} deals {e.amount} damage to {_target(e.target)}{how}"


@SENTENCES.on(ev.CardsMilled)
def _milled(e: ev.CardsMilled) -> str:
    if not e.unnamed_count:
        return f"{_who(e.player)} mills {_names(e.cards)}"
    named = f"{_names(e.cards)} and " if e.cards else ""
    return f"{_who(e.player)} mills {named}{_plural(e.unnamed_count, 'unnamed card')}, {e.nonland_count} nonland in all"


@SENTENCES.on(ev.CardsDrawn)
def _drawn(e: ev.CardsDrawn) -> str:
    n = len(e.cards or ()) + e.unknown_count  # counted, never named: a hand is hidden
    empty = " and finds the library empty" if e.from_empty else ""
    return f"{_who(e.player)} draws {_plural(n, 'card')}{empty}"


@SENTENCES.on(ev.CardsMoved)
def _moved(e: ev.CardsMoved) -> str:
    if e.to == "none":
        verb = "leaves" if len(e.cards) == 1 else "leave"
        return f"{_names(e.cards)} {verb} the game with {_who(e.player)} ({_words(e.from_zone)} zone)"
    to = "the bottom of their library in a random order" if e.random_order else _words(e.to)
    to = "the command zone" if e.to == "command" else to
    return f"{_who(e.player)} moves {_names(e.cards)} from {_words(e.from_zone)} to {to}"


@SENTENCES.on(ev.PermanentEntered)
def _entered(e: ev.PermanentEntered) -> str:
    perm = e.permanent
    counters = perm.get("counters") or {}
    with_counters = " with " + ", ".join(_plural(n, f"{k} counter") for k, n in counters.items()) if counters else ""
    tapped = " tapped" if perm.get("tapped") else ""
    name = _with_id(perm["card"]["name"], perm["id"])
    return f"{name} enters the battlefield{tapped} under {_who(perm['controller'])}'s control{with_counters}"


@SENTENCES.on(ev.PermanentLeft)
def _left(e: ev.PermanentLeft) -> str:
    to = "ceases to exist" if e.to == "none" else f"goes to {_words(e.to)}"
    return f"{_with_id(e.name, e.permanent)} leaves the battlefield and {to}"


@SENTENCES.on(ev.PermanentTapped)
def _tapped(e: ev.PermanentTapped) -> str:
    return f"{_what(e.permanent)} becomes tapped"


@SENTENCES.on(ev.PermanentUntapped)
def _untapped(e: ev.PermanentUntapped) -> str:
    return f"{_what(e.permanent)} untaps"


@SENTENCES.on(ev.ControlChanged)
def _control_changed(e: ev.ControlChanged) -> str:
    if e.ends_effects:
        return f"control of {_what(e.permanent)} returns to {_who(e.controller)}"
    return f"{_who(e.controller)} gains control of {_what(e.permanent)}"


@SENTENCES.on(ev.PowerToughnessModified)
def _power_toughness(e: ev.PowerToughnessModified) -> str:
    until = " until end of turn" if e.until == "end_of_turn" else ""
    return f"{_what(e.permanent)} gets {e.power:+d}/{e.toughness:+d}{until}"


@SENTENCES.on(ev.AttackersDeclared)
def _attackers(e: ev.AttackersDeclared) -> str:
    attacks = ", ".join(f"{_what(a.get('permanent'))} attacks {_target(a.get('attacks'))}" for a in e.attackers)
    return f"{_who(e.player)} declares attackers: {attacks or 'none'}"


@SENTENCES.on(ev.ManaAdded)
def _mana(e: ev.ManaAdded) -> str:
    pool = "".join(f"{{{m}}}" * int(n) for m, n in e.mana.items())
    return f"{_who(e.player)} adds {pool or 'no mana'}"


@SENTENCES.on(ev.ManaPoolEmptied)
def _mana_emptied(e: ev.ManaPoolEmptied) -> str:
    return f"{_who(e.player)}'s mana pool empties"


@SENTENCES.on(ev.PlayerLost)
def _player_lost(e: ev.PlayerLost) -> str:
    return f"{_who(e.player)} loses the game ({e.reason})" if e.reason else f"{_who(e.player)} loses the game"


@SENTENCES.on(ev.TeamLost)
def _team_lost(e: ev.TeamLost) -> str:
    return f"Team {e.team} loses the game ({e.reason})" if e.reason else f"Team {e.team} loses the game"


@SENTENCES.on(ev.GameEnded)
def _game_ended(e: ev.GameEnded) -> str:
    if e.draw:
        return "The game is a draw"
    return f"Game over: {' and '.join(map(_who, e.winners))} {'wins' if len(e.winners) == 1 else 'win'}"


@SENTENCES.on(ev.NoteAdded)
def _note(e: ev.NoteAdded) -> str:
    return f"Note: {e.text}"


@SENTENCES.on(ev.JudgeCallOpened)
def _call_opened(e: ev.JudgeCallOpened) -> str:
    where = f" at table {e.table}" if e.table is not None else ""
    return f"Judge call {e.call}{where} by {_who(e.called_by)}: {e.question}"


@SENTENCES.on(ev.JudgeCallAnswered)
def _call_answered(e: ev.JudgeCallAnswered) -> str:
    return f"Ruling on {e.call}: {e.ruling}"


@SENTENCES.on(ev.PenaltyGiven)
def _penalty(e: ev.PenaltyGiven) -> str:
    why = f": {e.reason}" if e.reason else ""
    return f"Penalty for {_who(e.player)}: {e.penalty} (IPG {e.section} {e.infraction}){why}"


@SENTENCES.on(ev.TimeExtended)
def _time(e: ev.TimeExtended) -> str:
    return f"Time extension: {_plural(e.minutes, 'minute')} ({e.reason})"


@SENTENCES.on(ev.DeckChecked)
def _deck_check(e: ev.DeckChecked) -> str:
    return f"Deck check of {', '.join(map(_who, e.players))}: {e.result}"


@SENTENCES.on(ev.ReportAwaitingAcknowledgement)
def _awaiting(e: ev.ReportAwaitingAcknowledgement) -> str:
    by = ", ".join(map(_who, e.players))
    return f"{_who(e.reporter)}'s report {e.report} awaits acknowledgement by {by} ({e.summary})"


@SENTENCES.on(ev.ReportAcknowledged)
def _acknowledged(e: ev.ReportAcknowledged) -> str:
    return f"Report {e.report} acknowledged by {_who(e.by)}"


@SENTENCES.on(ev.ReportDisputed)
def _disputed(e: ev.ReportDisputed) -> str:
    return f"{_who(e.by)} disputes report {e.report}: {e.reason}"


@SENTENCES.on(ev.ActionsReverted)
def _reverted(e: ev.ActionsReverted) -> str:
    return f"Backed up to version {e.to_version} ({_plural(len(e.reverted_versions), 'event')} reverted): {e.reason}"


def describe(
    type_: str,
    data: Mapping[str, Any],
    rule: str | None,
    payload: ev.DomainEvent | None = None,
    names: Names | None = None,
) -> str:
    """One readable sentence for a stored event, with its cause and rule in parentheses. A record
    that doesn't fit the vocabulary (a damaged one) is named by its type, never shown as JSON.
    ``payload``: the event's payload, when the caller has parsed ``data`` already; ``names``: the
    game's names (``Names``), else players and permanents are named by id."""
    try:
        if payload is None:
            payload = ev.event_class(type_).from_json(data)
        with _naming(names):
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
    return f"{_who(e.player)} {what} ({_words(e.cause)})"


@SENTENCES.on(ev.RoomEntered)
def _room_entered(e: ev.RoomEntered) -> str:
    return f"{_who(e.player)} ventures into {e.dungeon}: {e.room}"


@SENTENCES.on(ev.DungeonCompleted)
def _dungeon_completed(e: ev.DungeonCompleted) -> str:
    return f"{_who(e.player)} completes {e.dungeon}"
