"""``GameReads``: one database's games read back: state at a version, events, actions, timeline.

Every read goes through the games' repository (``store.repository``): the cached head when this
process has one, snapshots for a past version, so any page costs about the same.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domain.errors import Code, InvalidCommand, NotFound
from domain.state import GameState
from domain.undo import JUDGE_RECORDS, reverted_versions
from projections.sentences import Names
from projections.timeline import timeline as timeline_groups
from store.repository import MAX_VERSION, GameRepository, recorded
from store.results import ActionResult, Actor, RecordedEvent

MAX_EVENTS_PAGE = 1000


class TimelinePage(NamedTuple):
    """One page of the timeline and where the next one starts (``None``: at the head)."""

    groups: list[dict[str, Any]]
    next_after: int | None


def int_arg(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidCommand(f"{name} must be an integer >= {minimum}, got {value!r}", Code.INVALID_FIELD)
    return value


class GameReads:
    """The queries of one ledger application's games."""

    def __init__(self, games: GameRepository) -> None:
        self._games = games

    def head_version(self, game_id: str) -> int:
        return self._games.load(game_id).version

    def state_at(self, game_id: str, version: int | None = None) -> tuple[int, GameState]:
        """``(version, state)`` at ``version`` (the head when ``None``); replays at most one
        snapshot interval. ``NotFound(unknown_version)`` outside 1..head."""
        if version is None:
            game = self._games.load(game_id)
            return game.version, game.state
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= MAX_VERSION:
            head = self._games.load(game_id).version
            raise NotFound(f"game {game_id!r} has versions 1..{head}, not {version!r}", Code.UNKNOWN_VERSION)
        return version, self._games.version(game_id, version).state

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> list[RecordedEvent]:
        """Events after version ``after`` (at most ``limit``, up to 1000), with reverted flags."""
        after = int_arg("after", after, 0)
        limit = int_arg("limit", limit, 1)
        game = self._games.load(game_id)
        if after >= game.version:
            return []  # also keeps an integer past the database's range out of the query
        flagged = reverted_versions(game.reverts)
        stored = self._games.stored(game_id, gt=after, lte=game.version, limit=min(limit, MAX_EVENTS_PAGE))
        return [recorded(e, e.originator_version in flagged) for e in stored]

    def action(self, game_id: str, action_id: str, version: int) -> ActionResult:
        """A stored action as its ``act`` returned it: its events (those of the last 1000 versions
        up to ``version`` with its id) and the state after it (an Idempotency-Key retry whose
        first response was never stored is answered from this, ``api.idempotency``)."""
        _, state = self.state_at(game_id, version)
        window = self.events(game_id, after=max(0, version - MAX_EVENTS_PAGE), limit=MAX_EVENTS_PAGE)
        return ActionResult(game_id, action_id, version, [e for e in window if e.action_id == action_id], state)

    def creator(self, game_id: str) -> Actor:
        """Who created the game: its first event's actor."""
        return self.events(game_id, after=0, limit=1)[0].actor

    def boundaries(self, game_id: str) -> list[dict[str, Any]]:
        """The game's actions, oldest first: ``{"action_id", "first", "last", "reverted",
        "judge_record"}``. A backup's ``to_version`` is some action's ``last``; the page's
        slider and the timeline step by them (docs/judges.md)."""
        game = self._games.load(game_id)
        flagged = reverted_versions(game.reverts)
        out: list[dict[str, Any]] = []
        for e in self._games.stored(game_id, lte=game.version):
            v = e.originator_version
            if out and out[-1]["action_id"] == e.action_id:
                out[-1]["last"] = v
                out[-1]["reverted"] = out[-1]["reverted"] and v in flagged
                out[-1]["judge_record"] = out[-1]["judge_record"] and e.event_class in JUDGE_RECORDS
                continue
            out.append(
                {
                    "action_id": e.action_id,
                    "first": v,
                    "last": v,
                    "reverted": v in flagged,
                    "judge_record": e.event_class in JUDGE_RECORDS,
                }
            )
        return out

    def timeline(self, game_id: str, after: int = 0, limit: int = MAX_EVENTS_PAGE) -> TimelinePage:
        """Readable lines of the events after ``after`` (at most ``limit``, up to 1000), grouped
        by turn and step (``projections.timeline``); a page starts in the turn and step of the
        state at ``after``, read from the nearest snapshot, so any page costs about the same."""
        events = self.events(game_id, after, limit)
        # Does the page's last event end its action? The event after the page says.
        after_page = self.events(game_id, events[-1].version, 1) if events else []
        following = after_page[0].action_id if after_page else None
        start = (0, "")
        names = None
        if events and events[0].version > 1:
            _, before = self.state_at(game_id, events[0].version - 1)
            start = (before.turn.number, before.turn.step)
            names = Names.of_state(before)  # a later page names what the game had by then
        head = self._games.load(game_id).version
        last = events[-1].version if events else after
        return TimelinePage(timeline_groups(events, start, following, names), last if last < head else None)
