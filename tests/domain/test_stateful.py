"""A Hypothesis state machine that throws random, legal or illegal, commands at the kernel.

After every step:
- folding every event from ``GameStarted`` gives the live state (``domain.fold``);
- no counter count is negative (players, teams, permanents); a kind at zero is not listed; and
  the counter events, replayed without clamping, never take a count below zero and add up to
  the live counts;
- life adds up: starting life + the LifeGained amounts - the LifeLost amounts is the life total,
  per player, or per team in Two-Headed Giant (CR 810.9);
- a refused command (any ``GameError``) changes nothing, and a command that is illegal whatever
  the state (a permanent that never was, a negative amount, an order leaving a trigger out) is
  refused.

Over the whole run the kernel must both accept and refuse a fair share of the commands: a kernel
that refused everything would otherwise keep every invariant above (nothing ever changes).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from domain import fold, run
from domain.commands import parse_command
from domain.errors import GameError
from domain.events import (
    CountersAdded,
    CountersRemoved,
    Event,
    GameStarted,
    LifeGained,
    LifeLost,
    PermanentEntered,
    PermanentLeft,
)
from domain.serialize import state_to_json
from domain.setup import game_started
from domain.state import STEPS, GameState
from tests.domain.helpers import BEARS, BOLT, CATALOG, FOREST, GOLEM, RELIC, SAGA

VARIANTS = ("two_player", "multiplayer", "two_headed_giant")
KINDS = ("rad", "poison", "+1/+1", "-1/-1", "oil", "lore")
CARD_NAMES = ("Grizzly Bears", "Forest", "Lightning Bolt")
GHOST = {"permanent": "ghost"}
"""A permanent that never was: every command naming it is refused (unknown_permanent)."""
LIBRARY = [BEARS, FOREST, BOLT, FOREST, BEARS, BOLT, BEARS, FOREST, BOLT, BEARS, FOREST, BOLT]


def _players(variant: str) -> list[dict[str, Any]]:
    if variant == "two_headed_giant":
        ids = [("A1", "A"), ("A2", "A"), ("B1", "B"), ("B2", "B")]
    elif variant == "multiplayer":
        ids = [("P1", None), ("P2", None), ("P3", None)]
    else:
        ids = [("P1", None), ("P2", None)]
    players: list[dict[str, Any]] = []
    for i, (pid, team) in enumerate(ids):
        raw: dict[str, Any] = {
            "id": pid,
            "counters": {"rad": 2} if i % 2 == 0 else {"poison": 1},
            "hand_size": 3,
            "graveyard": [BOLT],
        }
        if team:
            raw["team"] = team
        else:
            raw["life"] = 40
        if i == 1:
            raw["library_size"] = 12  # an unknown library: mills must reveal their cards
        else:
            raw["library"] = LIBRARY
        players.append(raw)
    return players


class KernelMachine(RuleBasedStateMachine):
    """One game; each rule tries one command and keeps its events only if it was accepted."""

    tally: ClassVar[Counter[str]] = Counter()
    """Accepted and refused commands over every example of a run (reset by the test); refusals
    after the game's end are counted apart."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.state: GameState | None = None

    @initialize(variant=st.sampled_from(VARIANTS))
    def start(self, variant: str) -> None:
        players = _players(variant)
        first, second = players[0]["id"], players[-1]["id"]
        body: dict[str, Any] = {
            "variant": variant,
            "players": players,
            "battlefield": [
                {"id": "bears", "card": BEARS, "controller": first, "counters": {"+1/+1": 1}},
                {"id": "golem", "card": GOLEM, "controller": second, "tapped": True},
                {"id": "relic", "card": RELIC, "controller": second, "counters": {"oil": 2}},
                {"id": "saga", "card": SAGA, "controller": first, "counters": {"lore": 1}},
            ],
            "turn": {"number": 3, "active_player": first, "step": "upkeep"},
        }
        if variant == "two_headed_giant":
            body["teams"] = {"A": {"life": 40}, "B": {"life": 40, "counters": {"poison": 2}}}
        start = game_started(body, "g-stateful", CATALOG.resolve)
        self.events = [start]
        self.state = fold([start])

    # -- helpers --------------------------------------------------------------------------------
    @property
    def live(self) -> GameState:
        assert self.state is not None
        return self.state

    def player_ids(self) -> list[str]:
        return list(self.live.players)

    def targets(self) -> list[dict[str, str]]:
        """Every player and permanent, plus a permanent that is gone (or never was)."""
        found = [{"player": pid} for pid in self.live.players]
        found += [{"permanent": pid} for pid in self.live.battlefield]
        return [*found, GHOST]

    def attempt(self, body: dict[str, Any], *, illegal: bool = False) -> None:
        """Run one action; a refusal must leave the state exactly as it was. ``illegal``: the
        command is illegal in any state, so it must be refused."""
        before_json = state_to_json(self.live)
        try:
            command = parse_command(body, CATALOG.resolve)
            events, state = run(self.live, command)
        except GameError:
            # Once the game is over every game action is refused (CR 104.1): not counted.
            self.tally["refused" if self.live.status == "in_progress" else "after the end"] += 1
            # The state's mappings are plain dicts: a kernel that wrote into them before refusing
            # would change the live state in place.
            assert state_to_json(self.live) == before_json, f"refused {body} changed the state"
            return
        assert not illegal, f"{body} was accepted: {[e.type for e in events]}"
        self.tally["accepted"] += 1
        self.events.extend(events)
        self.state = state

    # -- rules ----------------------------------------------------------------------------------
    @rule(data=st.data(), kind=st.sampled_from(KINDS), amount=st.integers(-1, 4))
    def add_counters(self, data: st.DataObject, kind: str, amount: int) -> None:
        target = data.draw(st.sampled_from(self.targets()))
        body = {"type": "add_counters", "target": target, "kind": kind, "amount": amount}
        self.attempt(body, illegal=amount < 1 or target == GHOST)

    @rule(data=st.data(), kind=st.sampled_from(KINDS), amount=st.integers(0, 4), up_to=st.booleans())
    def remove_counters(self, data: st.DataObject, kind: str, amount: int, up_to: bool) -> None:
        target = data.draw(st.sampled_from(self.targets()))
        body = {"type": "remove_counters", "target": target, "kind": kind, "amount": amount, "up_to": up_to}
        self.attempt(body, illegal=target == GHOST)

    @rule(data=st.data(), how=st.sampled_from(("lose_life", "gain_life", "pay_life")), amount=st.integers(0, 8))
    def life(self, data: st.DataObject, how: str, amount: int) -> None:
        pid = data.draw(st.sampled_from(self.player_ids()))
        self.attempt({"type": how, "player": pid, "amount": amount})

    @rule(data=st.data(), amount=st.integers(1, 5), infect=st.booleans(), toxic=st.integers(0, 2))
    def damage(self, data: st.DataObject, amount: int, infect: bool, toxic: int) -> None:
        target = data.draw(st.sampled_from(self.targets()))
        body = {"type": "damage", "target": target, "amount": amount, "infect": infect, "toxic": toxic}
        self.attempt(body, illegal=target == GHOST)

    @rule(data=st.data(), count=st.integers(1, 4), reveal=st.lists(st.sampled_from(CARD_NAMES), max_size=4))
    def mill(self, data: st.DataObject, count: int, reveal: list[str]) -> None:
        pid = data.draw(st.sampled_from(self.player_ids()))
        body: dict[str, Any] = {"type": "mill", "player": pid, "count": count}
        if data.draw(st.booleans()):
            body["cards"] = reveal
        self.attempt(body)

    @rule(data=st.data(), count=st.integers(1, 2))
    def draw(self, data: st.DataObject, count: int) -> None:
        pid = data.draw(st.sampled_from(self.player_ids()))
        self.attempt({"type": "draw", "player": pid, "count": count})

    @rule(data=st.data())
    def proliferate(self, data: st.DataObject) -> None:
        pid = data.draw(st.sampled_from(self.player_ids()))
        choose = data.draw(st.lists(st.sampled_from(self.targets()), max_size=4))
        self.attempt({"type": "proliferate", "player": pid, "choose": choose})

    @rule(to=st.one_of(st.none(), st.sampled_from([*STEPS, "next_turn"])))
    def advance(self, to: str | None) -> None:
        self.attempt({"type": "advance", "to": to} if to else {"type": "advance"})

    @rule(data=st.data(), reveal=st.lists(st.sampled_from(CARD_NAMES), max_size=3))
    def resolve(self, data: st.DataObject, reveal: list[str]) -> None:
        choices: dict[str, Any] = {}
        if data.draw(st.booleans()):
            choices["cards"] = reveal
        if data.draw(st.booleans()):
            choices["proliferate"] = data.draw(st.lists(st.sampled_from(self.targets()[:-1]), max_size=3))
        self.attempt({"type": "resolve", "choices": choices} if choices else {"type": "resolve"})

    @precondition(lambda self: self.state is not None and bool(self.state.pending))
    @rule(data=st.data())
    def order_triggers(self, data: st.DataObject) -> None:
        ids = [t.id for t in self.live.pending[0].triggers]
        order = data.draw(st.permutations(ids))
        leave_one_out = data.draw(st.booleans())
        if leave_one_out:
            order = order[1:]
        self.attempt({"type": "order_triggers", "resolve_first": list(order)}, illegal=leave_one_out)

    @rule(data=st.data(), card=st.sampled_from((BEARS, BOLT, FOREST)), zone=st.sampled_from(("hand", "graveyard")))
    def cast(self, data: st.DataObject, card: dict[str, Any], zone: str) -> None:
        pid = data.draw(st.sampled_from(self.player_ids()))
        self.attempt({"type": "cast", "player": pid, "card": card, "from": zone})

    @precondition(lambda self: self.state is not None and len(self.state.in_game()) > 2)
    @rule(data=st.data())
    def concede(self, data: st.DataObject) -> None:
        """Only while the game would go on: a player leaving it (CR 800.4a)."""
        pid = data.draw(st.sampled_from(self.player_ids()))
        self.attempt({"type": "concede", "player": pid})

    @rule(data=st.data(), untap=st.booleans())
    def tap(self, data: st.DataObject, untap: bool) -> None:
        target = data.draw(st.sampled_from([*self.live.battlefield, GHOST["permanent"]]))
        self.attempt({"type": "untap" if untap else "tap", "permanent": target}, illegal=target == GHOST["permanent"])

    # -- invariants -----------------------------------------------------------------------------
    @invariant()
    def folding_every_event_gives_the_live_state(self) -> None:
        if self.state is None:
            return
        assert self.events[0].type == GameStarted.TYPE
        assert state_to_json(fold(self.events)) == state_to_json(self.state)

    @invariant()
    def no_counter_count_is_negative_or_zero(self) -> None:
        if self.state is None:
            return
        counts = [
            *(n for p in self.state.players.values() for n in p.counters.values()),
            *(n for t in self.state.teams.values() for n in t.counters.values()),
            *(n for perm in self.state.battlefield.values() for n in perm.counters.values()),
        ]
        assert all(n > 0 for n in counts), counts

    @invariant()
    def counter_changes_add_up_and_never_go_below_zero(self) -> None:
        """Replaying the counter events without the fold's clamping: starting counters plus
        ``CountersAdded`` minus ``CountersRemoved`` never dip below zero and give the live counts
        (a permanent's counters start with its ``PermanentEntered`` and end with ``PermanentLeft``,
        CR 122.2; 2HG poison is the team's, CR 810.10)."""
        if self.state is None:
            return
        start = self.events[0].data
        shared = self.state.shares_life
        books: dict[tuple[str, str], Counter[str]] = {}
        for raw in start["players"]:
            books[("player", raw["id"])] = Counter(raw["counters"])
        for tid, team in start["teams"].items():
            books[("team", tid)] = Counter(team["counters"])
        for raw in start["battlefield"]:
            books[("permanent", raw["id"])] = Counter(raw["counters"])
        team_of = {raw["id"]: raw["team"] for raw in start["players"]}
        for event in self.events[1:]:
            if event.type == PermanentEntered.TYPE:
                books[("permanent", event.data["permanent"]["id"])] = Counter(event.data["permanent"]["counters"])
            elif event.type == PermanentLeft.TYPE:
                del books[("permanent", event.data["permanent"])]
            elif event.type in (CountersAdded.TYPE, CountersRemoved.TYPE):
                target, kind = event.data["target"], event.data["kind"]
                key = ("permanent", target["permanent"]) if "permanent" in target else ("player", target["player"])
                if shared and kind == "poison" and key[0] == "player":
                    key = ("team", team_of[key[1]])
                sign = 1 if event.type == CountersAdded.TYPE else -1
                assert event.data["amount"] > 0, event
                books[key][kind] += sign * event.data["amount"]
                assert books[key][kind] >= 0, f"{event} takes {key} below zero"
        live = {("player", p.id): p.counters for p in self.state.players.values()}
        live |= {("team", t.id): t.counters for t in self.state.teams.values()}
        live |= {("permanent", p.id): p.counters for p in self.state.battlefield.values()}
        assert {k: +v for k, v in books.items()} == {k: Counter(v) for k, v in live.items()}

    @invariant()
    def life_changes_add_up(self) -> None:
        if self.state is None:
            return
        start = self.events[0].data
        delta: Counter[str] = Counter()
        for event in self.events:
            if event.type == LifeGained.TYPE:
                delta[event.data["player"]] += event.data["amount"]
            elif event.type == LifeLost.TYPE:
                delta[event.data["player"]] -= event.data["amount"]
        if self.state.shares_life:
            for tid, team in start["teams"].items():
                total = team["life"] + sum(delta[pid] for pid in team["players"])
                assert self.state.teams[tid].life == total
        else:
            for raw in start["players"]:
                assert self.state.players[raw["id"]].life == raw["life"] + delta[raw["id"]]


SETTINGS = settings(
    max_examples=30, stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def test_random_commands_keep_every_invariant_and_are_both_accepted_and_refused() -> None:
    KernelMachine.tally = Counter()
    run_state_machine_as_test(KernelMachine, settings=SETTINGS)
    accepted, refused = KernelMachine.tally["accepted"], KernelMachine.tally["refused"]
    # While the game goes on, 26-56% of the commands were accepted over 16 runs (the rest were
    # refused); the bounds are wide so that only a kernel that (nearly) stopped accepting, or
    # stopped refusing, fails here.
    total = accepted + refused
    share = max(1, total // 10)
    assert accepted >= share, f"only {accepted} of {total} commands accepted while the game went on"
    assert refused >= share, f"only {refused} of {total} commands refused while the game went on"
