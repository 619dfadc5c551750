"""Checking an export file (``ledger.game_files``) before it is imported (docs/audit.md).

Checking a file means (the rules of one record or action, 3, 4 and 6, are in ``ledger.import_rules``):

1. every line is a JSON object with the Event fields, versions 1, 2, ... in order;
2. the hash chain recomputes: each ``prev_hash`` is the previous line's ``hash`` (64 zeros for
   the first) and each ``hash`` is what ``store.hash_chain.seal`` gives its record;
3. the actions are whole: one action's events are consecutive lines and its id is not used
   again; ``GameStarted`` and each ``ActionsReverted`` are an action of their own;
4. the rules replay: the first event is ``GameStarted`` and ``domain.setup.game_started`` gives
   exactly its data again from the create body it describes; every later event is consistent
   with the state before it (``domain.audit.check_event``) and folds into it without error; each
   ``ActionsReverted`` lists exactly the versions it reverts (all but judge records) and its
   ``restored_state`` equals the replayed state at its ``to_version`` with the judge records
   before it; and each action ends settled (``domain.audit.check_settled``: no state-based action
   left, the game over exactly when one side is left), except the creation, an undo and an action
   of judge records and acknowledgements only;
5. the header's ``events`` and ``head`` match the lines;
6. every record is one the live server could have written (``check_as_written``): a known actor
   role that may make that event (a note or an undo by a judge or admin, a game created by a
   scorekeeper or above), the action id a UUID, one time per action, times in order and not in
   the future, and every string and list within the limits of a request body (no control
   characters, docs/api.md Limits; lists may be longer: a restored state may hold a zone larger
   than one request names); and what its actor could have written on the state before it
   (``check_by_its_actor``, ``PlayerActors``: a player answers only the reports naming them,
   at Competitive REL a backup is the head judge's, a player's action that changed another
   player's side carries the report awaiting their acknowledgement).

Commands can't be re-decided from events in general (a mill from an unknown library records what
was revealed, not a request), so step 4 checks what can be checked without them. The first
failing line is named in an ``InvalidExport`` (code ``invalid_import``); a failure at the end of
an action names the action's last line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import reduce
from typing import Any

from domain import events as ev
from domain.audit import check_event
from domain.errors import GameError, InvalidExport
from ledger.game_files import FORMAT
from ledger.import_rules import (
    PlayerActors,
    check_action,
    check_action_end,
    check_as_written,
    check_by_its_actor,
    check_revert,
    recheck_setup,
)
from store.aggregate import Game, start_game
from store.hash_chain import GENESIS_HASH, Fact, seal
from store.records import GameEvent

TOKEN_ID = re.compile(r"[0-9a-f]{16}")
"""A token's public id as an actor's ``token`` (``ledger.tokens.ID_LENGTH`` hex digits)."""
KEEP_EVERY = 256
"""Versions between the replayed games an import keeps (an undo's target is replayed from one)."""


@dataclass(frozen=True, slots=True)
class CheckedGame:
    """A file that passed every check, ready to be stored as it is."""

    game_id: str
    records: list[GameEvent]
    """The events exactly as the file has them (versions, metadata, hashes)."""
    final: Game
    """The game at the last version."""
    checkpoints: list[Game]
    """The game at each multiple of the snapshot interval (for snapshots)."""


def _str(raw: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
    value = raw.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key!r} must be a non-empty string, got {value!r}")
    return value


def _event_from_line(raw: Any, game_id: str, version: int, prev_hash: str) -> GameEvent:
    """Parse one event line and check its place in the chain."""
    if not isinstance(raw, Mapping):
        raise ValueError("an event line must be a JSON object")
    if raw.get("version") != version or isinstance(raw.get("version"), bool):
        raise ValueError(f"expected version {version}, got {raw.get('version')!r}")
    type_ = _str(raw, "type")
    if ev.find_event_class(type_) is None:
        raise ValueError(f"unknown event type {type_!r}")
    data = raw.get("data")
    if not isinstance(data, dict):
        raise ValueError(f"'data' must be an object, got {data!r}")
    rule = _str(raw, "rule", optional=True)
    action_id = _str(raw, "action_id")
    actor = raw.get("actor")
    if not isinstance(actor, Mapping) or set(actor) not in ({"name", "role"}, {"name", "role", "token"}):
        raise ValueError(f"'actor' must be {{'name', 'role'}} (and a 'token' id), got {actor!r}")
    actor_json = {"name": _str(actor, "name"), "role": _str(actor, "role")}
    if "token" in actor:  # the token's public id, recorded since issue 38 (older records have none)
        token = _str(actor, "token")
        if TOKEN_ID.fullmatch(token) is None:
            raise ValueError(f"'actor.token' must be a token's public id (16 hex digits), got {token[:40]!r}")
        actor_json["token"] = token
    recorded_at = _str(raw, "recorded_at")
    if datetime.fromisoformat(recorded_at.replace("Z", "+00:00")).tzinfo is None:
        raise ValueError(f"'recorded_at' must carry a time zone, got {recorded_at!r}")
    if raw.get("prev_hash") != prev_hash:
        raise ValueError(f"prev_hash {raw.get('prev_hash')!r} is not the previous event's hash {prev_hash!r}")
    (sealed,) = seal(
        game_id,
        [Fact(type_, data, rule)],
        after=version - 1,
        prev_hash=prev_hash,
        action_id=action_id,
        actor=actor_json,
        recorded_at=recorded_at,
    )
    if raw.get("hash") != sealed.hash:
        raise ValueError(f"hash {raw.get('hash')!r} does not match the event's content (expected {sealed.hash!r})")
    return sealed


def _ends_action(event: GameEvent, following: Any) -> bool:
    """Whether ``event`` is the last of its action: the next line is another action's (or there
    is none). A next line that can't be read isn't taken as the end: that line is the bad one."""
    if following is None:
        return True
    if not isinstance(following, Mapping):
        return False
    return bool(following.get("action_id") != event.action_id)


def _lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """Non-blank lines as (line number, parsed JSON or the parse error)."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except ValueError as err:
            yield number, err


def check_export(
    lines: Iterable[str],
    *,
    snapshot_interval: int,
    on_header: Callable[[str], None] = lambda game_id: None,
    valid_game_id: Callable[[str], bool] = lambda game_id: True,
    now: datetime | None = None,
) -> CheckedGame:
    """Check a whole file (see the module docstring); ``on_header`` runs once the game id is
    known (the service refuses an existing id there, before replaying anything).

    The lines are read one at a time (a file or a request body streamed line by line): what is
    kept is the checked records (stored in one save afterwards) and the game every
    ``KEEP_EVERY`` versions, from which an undo's target state is replayed."""
    stream = _lines(lines)
    first = next(stream, None)
    if first is None:
        raise InvalidExport(1, "the file is empty: expected a header line and events")
    header_line, header = first
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidExport(header_line, f'the first line must be a header with "format": {FORMAT!r}')
    game_id = header.get("game_id")
    if not isinstance(game_id, str) or not valid_game_id(game_id):
        raise InvalidExport(header_line, f"invalid game_id {game_id!r}")
    on_header(game_id)
    at = now if now is not None else datetime.now(UTC)
    records: list[GameEvent] = []
    kept: dict[int, Game] = {}
    checkpoints: list[Game] = []
    game: Game | None = None
    prev_hash = GENESIS_HASH

    def state_at(version: int) -> Game:
        """The replayed game at ``version`` (before the current line): the nearest kept game at
        or below it, and the records after that folded again."""
        base = max(v for v in kept if v <= version)
        return reduce(Game.apply, records[base:version], kept[base])  # each record's event parsed once

    actions: set[str] = set()  # the action ids of the actions before the current one
    action: list[GameEvent] = []  # the current action's events so far
    before_action: Game | None = None  # the game before the current action
    player_actors = PlayerActors()
    pending = next(stream, None)
    version = 0
    while pending is not None:
        number, raw = pending
        following = next(stream, None)
        version += 1
        try:
            if isinstance(raw, Exception):
                raise ValueError(f"not JSON: {raw}")
            event = _event_from_line(raw, game_id, version, prev_hash)
            domain_event = event.event  # parsed once: checked, then folded (``Game.apply``)
            if game is None:
                if event.event_class is not ev.GameStarted:
                    raise ValueError(f"the first event must be GameStarted, got {event.type}")
                recheck_setup(event)
            else:
                check_action(event, records[-1], actions)
                if event.action_id != records[-1].action_id:
                    action, before_action = [], game
                check_by_its_actor(event, game.state)
                if isinstance(domain_event.payload, ev.ActionsReverted):
                    check_revert(event, domain_event.payload, state_at, game, records)
                reason = check_event(game.state, domain_event)
                if reason:
                    raise ValueError(reason)
            check_as_written(event, records[-1] if records else None, at)
            game = start_game(event) if game is None else game.apply(event)
            action.append(event)
            if _ends_action(event, following[1] if following is not None else None):
                check_action_end(event, records, game)
                if before_action is not None:
                    player_actors.observe(action, before_action.state, game.state, number)
        except (GameError, ValueError, KeyError, TypeError, AttributeError, IndexError, StopIteration) as err:
            message = err.message_for(True) if isinstance(err, GameError) else str(err)
            raise InvalidExport(number, f"event {version}: {message or type(err).__name__}", version) from None
        late = player_actors.unreported()
        if late is not None:
            raise InvalidExport(late.line, f"event {late.version}: {late}", late.version)
        records.append(event)
        prev_hash = event.hash
        if version == 1 or version % KEEP_EVERY == 0:
            kept[version] = game
        if snapshot_interval > 0 and version % snapshot_interval == 0:
            checkpoints.append(game)
        pending = following
    if game is None:
        raise InvalidExport(header_line, "the file has no events")
    if header.get("events") != len(records):
        raise InvalidExport(
            header_line, f"the header says {header.get('events')!r} events, the file has {len(records)}"
        )
    if header.get("head") != prev_hash:
        raise InvalidExport(header_line, f"the header's head {header.get('head')!r} is not the last hash {prev_hash!r}")
    return CheckedGame(game_id=game_id, records=records, final=game, checkpoints=checkpoints)
