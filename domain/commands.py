"""Commands: what a table, judge or tool asks for, parsed from the API's JSON bodies.

Parsing checks shape only (types, required fields, positive amounts) and raises
``InvalidCommand`` (400) naming the field; whether the command is legal in the game is
``decide``'s business. Card references are resolved through a ``CardResolver`` so this module
stays free of I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.cards.model import Card
from domain.errors import InvalidCommand
from domain.state import STEPS

CardResolver = Callable[[Any], Card]
"""Turns a card reference (a name string or a card object) into a ``Card``."""

Target = dict[str, str]
ZONES_TO = ("graveyard", "exile", "hand", "library_top", "library_bottom")


@dataclass(frozen=True, slots=True)
class Choices:
    """Choices carried by ``resolve`` (CR 608.2)."""

    cards: tuple[Card, ...] | None = None
    proliferate: tuple[dict[str, str], ...] | None = None
    targets: tuple[Any, ...] | None = None
    x: int | None = None
    mode: Any = None
    may: bool | None = None
    proliferate_rounds: tuple[tuple[dict[str, str], ...], ...] | None = None
    """For an effect that proliferates more than once: one list of choices per proliferate, given
    as ``"proliferate": [[...], [...]]`` (``proliferate`` then holds the first list)."""
    replacement_order: tuple[str, ...] = ()
    """Ids of replacement-effect sources, in the order to apply them where several modify one
    event (CR 616.1); see ``domain.rules.replacements``."""


@dataclass(frozen=True, slots=True)
class Advance:
    to: str | None = None


@dataclass(frozen=True, slots=True)
class Resolve:
    choices: Choices = field(default_factory=Choices)


@dataclass(frozen=True, slots=True)
class OrderTriggers:
    resolve_first: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AddCounters:
    target: Target
    kind: str
    amount: int
    source: str | None = None
    replacement_order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RemoveCounters:
    target: Target
    kind: str
    amount: int
    up_to: bool = False
    source: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeLife:
    """``lose_life``, ``gain_life`` or ``pay_life``."""

    how: str
    player: str
    amount: int
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Damage:
    target: Target
    amount: int
    source: str | None = None
    """A card name or note, or the id of the permanent dealing the damage (its keywords apply)."""
    infect: bool = False
    toxic: int = 0
    combat: bool = False
    """Combat damage (CR 510): "deals combat damage to a player" abilities trigger on it."""


@dataclass(frozen=True, slots=True)
class Mill:
    player: str
    count: int
    cards: tuple[Card, ...] | None = None
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    count: int
    cards: tuple[Card, ...] | None = None
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Proliferate:
    player: str
    choose: tuple[dict[str, str], ...]
    source: str | None = None
    replacement_order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Move:
    permanent: str
    to: str


@dataclass(frozen=True, slots=True)
class Sacrifice:
    permanent: str


@dataclass(frozen=True, slots=True)
class Tap:
    permanent: str
    untap: bool = False


@dataclass(frozen=True, slots=True)
class Enter:
    card: Card
    controller: str
    id: str | None = None
    counters: Mapping[str, int] = field(default_factory=dict)
    tapped: bool = False
    token: bool = False
    x: int = 0
    replacement_order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attack:
    """Declared attackers (CR 508.1): each entry names a creature and what it attacks."""

    player: str
    attackers: tuple[tuple[str, Target], ...]
    """(attacking permanent id, ``{"player": id}`` or ``{"permanent": id}`` it attacks)."""


@dataclass(frozen=True, slots=True)
class Concede:
    player: str


@dataclass(frozen=True, slots=True)
class CounterObject:
    """A spell or ability on the stack is countered (CR 701.6a), reported by hand."""

    object_id: str
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Note:
    text: str


@dataclass(frozen=True, slots=True)
class Cast:
    player: str
    card: Card
    x: int = 0
    targets: tuple[Any, ...] = ()
    from_zone: str = "hand"


@dataclass(frozen=True, slots=True)
class PlayLand:
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class ActivateCosts:
    """Costs an operator names for an ability the server doesn't automate (CR 118)."""

    tap: bool = False
    untap: bool = False
    sacrifice: tuple[str, ...] = ()
    remove_counters: Mapping[str, int] = field(default_factory=dict)
    pay_life: int = 0


@dataclass(frozen=True, slots=True)
class Activate:
    player: str
    permanent: str
    ability: int = 0
    x: int = 0
    costs: ActivateCosts = field(default_factory=ActivateCosts)
    targets: tuple[Any, ...] = ()
    mana: str | None = None


Command = (
    Advance
    | Resolve
    | OrderTriggers
    | AddCounters
    | RemoveCounters
    | ChangeLife
    | Damage
    | Mill
    | Draw
    | Proliferate
    | Move
    | Sacrifice
    | Tap
    | Enter
    | Concede
    | Note
    | CounterObject
    | Cast
    | PlayLand
    | Activate
    | Attack
)


MAX_TEXT = 200
"""Longest id, name or kind string accepted in a command (a note's text may be longer)."""
MAX_AMOUNT = 1_000_000
"""Largest amount, count or X accepted: far beyond any real game, well inside JSON's safe integers."""


# -- field readers: each names the field and quotes the bad value ------------------------------
class _Body:
    def __init__(self, body: Mapping[str, Any], action: str) -> None:
        self.body = body
        self.action = action

    def _bad(self, key: str, expected: str) -> InvalidCommand:
        return InvalidCommand(f"{self.action}: '{key}' must be {expected}, got {self.body.get(key)!r}", "invalid_field")

    def has(self, key: str) -> bool:
        return self.body.get(key) is not None

    def str_(self, key: str, max_length: int = MAX_TEXT) -> str:
        value = self.body.get(key)
        if value is None:
            raise InvalidCommand(f"{self.action}: missing required field '{key}'", "missing_field")
        if not isinstance(value, str) or not value:
            raise self._bad(key, "a non-empty string")
        if len(value) > max_length:
            raise InvalidCommand(
                f"{self.action}: '{key}' must be at most {max_length} characters, got {len(value)}", "invalid_field"
            )
        return value

    def opt_str(self, key: str) -> str | None:
        return self.str_(key) if self.has(key) else None

    def int_(self, key: str, *, minimum: int, default: int | None = None) -> int:
        value = self.body.get(key)
        if value is None:
            if default is not None:
                return default
            raise InvalidCommand(f"{self.action}: missing required field '{key}'", "missing_field")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._bad(key, "an integer")
        if value < minimum:
            raise InvalidCommand(f"{self.action}: '{key}' must be at least {minimum}, got {value!r}", "invalid_amount")
        if value > MAX_AMOUNT:
            raise InvalidCommand(
                f"{self.action}: '{key}' must be at most {MAX_AMOUNT}, got {value!r}", "invalid_amount"
            )
        return value

    def bool_(self, key: str, default: bool = False) -> bool:
        value = self.body.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self._bad(key, "true or false")
        return value

    def list_(self, key: str) -> list[Any] | None:
        value = self.body.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise self._bad(key, "a list")
        return value

    def target(self, key: str = "target") -> Target:
        return parse_target(self.body.get(key), f"{self.action}: '{key}'")

    def cards(self, key: str, resolve: CardResolver) -> tuple[Card, ...] | None:
        items = self.list_(key)
        return None if items is None else tuple(resolve(item) for item in items)


def parse_target(value: Any, where: str, allow_team: bool = False) -> Target:
    """``{"player": id}`` or ``{"permanent": id}`` (exactly one key)."""
    keys = ("player", "permanent", "team") if allow_team else ("player", "permanent")
    if not isinstance(value, Mapping):
        raise InvalidCommand(
            f'{where} must be {{"player": id}} or {{"permanent": id}}, got {value!r}', "invalid_target"
        )
    present = [k for k in keys if k in value]
    if len(present) != 1 or not isinstance(value[present[0]], str) or not value[present[0]]:
        raise InvalidCommand(f"{where} must name exactly one player or permanent, got {value!r}", "invalid_target")
    return {present[0]: value[present[0]]}


def parse_choice_list(value: Any, where: str) -> tuple[dict[str, str], ...]:
    """Proliferate choices: each names one player or permanent, and maybe a ``kind``."""
    if not isinstance(value, list):
        raise InvalidCommand(f"{where} must be a list, got {value!r}", "invalid_field")
    out = []
    for item in value:
        if not isinstance(item, Mapping):
            raise InvalidCommand(f"{where}: each choice must be an object, got {item!r}", "invalid_target")
        choice = parse_target({k: v for k, v in item.items() if k != "kind"}, where, allow_team=True)
        if "kind" in item:
            if not isinstance(item["kind"], str) or not item["kind"]:
                raise InvalidCommand(f"{where}: 'kind' must be a counter name, got {item['kind']!r}", "invalid_field")
            choice["kind"] = item["kind"]
        out.append(choice)
    return tuple(out)


MAX_KIND = 64
"""Longest counter kind name accepted (the longest printed ones are about 20 characters)."""


def counter_map(value: Any, where: str) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and 0 < len(k) <= MAX_KIND and isinstance(n, int) and not isinstance(n, bool) and n >= 0
        for k, n in value.items()
    ):
        raise InvalidCommand(f"{where} must map counter kinds to counts >= 0, got {value!r}", "invalid_field")
    return {k: n for k, n in value.items() if n > 0}


def parse_replacement_order(value: Any, where: str) -> tuple[str, ...]:
    """``replacement_order``: permanent ids, first applied first (CR 616.1)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(i, str) and i for i in value):
        raise InvalidCommand(f"{where} must list permanent ids, got {value!r}", "invalid_field")
    return tuple(value)


def parse_choices(value: Any, resolve: CardResolver) -> Choices:
    if value is None:
        return Choices()
    if not isinstance(value, Mapping):
        raise InvalidCommand(f"resolve: 'choices' must be an object, got {value!r}", "invalid_field")
    body = _Body(value, "resolve choices")
    x = body.int_("x", minimum=0) if body.has("x") else None
    may = body.bool_("may") if body.has("may") else None
    targets = body.list_("targets")
    raw_prolif = value.get("proliferate")
    proliferate: tuple[dict[str, str], ...] | None = None
    rounds: tuple[tuple[dict[str, str], ...], ...] | None = None
    if isinstance(raw_prolif, list) and raw_prolif and all(isinstance(r, list) for r in raw_prolif):
        rounds = tuple(parse_choice_list(r, f"resolve: 'choices.proliferate[{i}]'") for i, r in enumerate(raw_prolif))
        proliferate = rounds[0]
    elif raw_prolif is not None:
        proliferate = parse_choice_list(raw_prolif, "resolve: 'choices.proliferate'")
    return Choices(
        cards=body.cards("cards", resolve),
        proliferate=proliferate,
        targets=tuple(targets) if targets is not None else None,
        x=x,
        mode=value.get("mode"),
        may=may,
        proliferate_rounds=rounds,
        replacement_order=parse_replacement_order(
            value.get("replacement_order"), "resolve: 'choices.replacement_order'"
        ),
    )


def _parse_costs(value: Any) -> ActivateCosts:
    if value is None:
        return ActivateCosts()
    if not isinstance(value, Mapping):
        raise InvalidCommand(f"activate: 'costs' must be an object, got {value!r}", "invalid_field")
    body = _Body(value, "activate costs")
    sacrifice = body.list_("sacrifice") or []
    if not all(isinstance(s, str) and s for s in sacrifice):
        raise InvalidCommand(f"activate: 'costs.sacrifice' must list permanent ids, got {sacrifice!r}", "invalid_field")
    return ActivateCosts(
        tap=body.bool_("tap"),
        untap=body.bool_("untap"),
        sacrifice=tuple(sacrifice),
        remove_counters=counter_map(value.get("remove_counters"), "activate: 'costs.remove_counters'"),
        pay_life=body.int_("pay_life", minimum=0, default=0),
    )


def parse_command(body: Any, resolve: CardResolver) -> Command:
    """Parse one action body (``{"type": ..., ...}``) into a command."""
    if not isinstance(body, Mapping):
        raise InvalidCommand(f"an action must be a JSON object, got {body!r}", "invalid_body")
    kind = body.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise InvalidCommand(f"unknown action type {kind!r}; expected one of {sorted(_PARSERS)}", "unknown_action")
    return parser(_Body(body, str(kind)), resolve)


def _advance(b: _Body, _: CardResolver) -> Advance:
    to = b.opt_str("to")
    if to is not None and to not in STEPS and to != "next_turn":
        raise InvalidCommand(f"advance: unknown step {to!r}; expected one of {[*STEPS, 'next_turn']}", "invalid_step")
    return Advance(to)


def _order(b: _Body, _: CardResolver) -> OrderTriggers:
    ids = b.list_("resolve_first")
    if not ids or not all(isinstance(i, str) for i in ids):
        raise InvalidCommand(f"order_triggers: 'resolve_first' must list trigger ids, got {ids!r}", "invalid_field")
    return OrderTriggers(tuple(ids))


def _add_counters(b: _Body, _: CardResolver) -> AddCounters:
    return AddCounters(
        b.target(),
        b.str_("kind"),
        b.int_("amount", minimum=1),
        b.opt_str("source"),
        parse_replacement_order(b.body.get("replacement_order"), "add_counters: 'replacement_order'"),
    )


def _remove_counters(b: _Body, _: CardResolver) -> RemoveCounters:
    return RemoveCounters(
        b.target(), b.str_("kind"), b.int_("amount", minimum=1), b.bool_("up_to"), b.opt_str("source")
    )


def _life(how: str) -> Callable[[_Body, CardResolver], ChangeLife]:
    def parse(b: _Body, _: CardResolver) -> ChangeLife:
        minimum = 0 if how == "pay_life" else 1  # paying 0 life is always allowed (CR 119.4)
        return ChangeLife(how, b.str_("player"), b.int_("amount", minimum=minimum), b.opt_str("source"))

    return parse


def _damage(b: _Body, _: CardResolver) -> Damage:
    return Damage(
        b.target(),
        b.int_("amount", minimum=1),
        b.opt_str("source"),
        b.bool_("infect"),
        b.int_("toxic", minimum=0, default=0),
        b.bool_("combat"),
    )


def _mill(b: _Body, r: CardResolver) -> Mill:
    return Mill(b.str_("player"), b.int_("count", minimum=1), b.cards("cards", r), b.opt_str("source"))


def _draw(b: _Body, r: CardResolver) -> Draw:
    return Draw(b.str_("player"), b.int_("count", minimum=1, default=1), b.cards("cards", r), b.opt_str("source"))


def _proliferate(b: _Body, _: CardResolver) -> Proliferate:
    choose = b.body.get("choose", [])
    return Proliferate(
        b.str_("player"),
        parse_choice_list(choose, "proliferate: 'choose'"),
        b.opt_str("source"),
        parse_replacement_order(b.body.get("replacement_order"), "proliferate: 'replacement_order'"),
    )


def _move(b: _Body, _: CardResolver) -> Move:
    to = b.str_("to")
    if to not in ZONES_TO:
        raise InvalidCommand(f"move: 'to' must be one of {list(ZONES_TO)}, got {to!r}", "invalid_zone")
    return Move(b.str_("permanent"), to)


def _enter(b: _Body, r: CardResolver) -> Enter:
    if not b.has("card"):
        raise InvalidCommand("enter: missing required field 'card'", "missing_field")
    return Enter(
        card=r(b.body["card"]),
        controller=b.str_("controller"),
        id=b.opt_str("id"),
        counters=counter_map(b.body.get("counters"), "enter: 'counters'"),
        tapped=b.bool_("tapped"),
        token=b.bool_("token"),
        x=b.int_("x", minimum=0, default=0),
        replacement_order=parse_replacement_order(b.body.get("replacement_order"), "enter: 'replacement_order'"),
    )


def _cast(b: _Body, r: CardResolver) -> Cast:
    if not b.has("card"):
        raise InvalidCommand("cast: missing required field 'card'", "missing_field")
    from_zone = b.opt_str("from") or "hand"
    if from_zone not in ("hand", "command", "exile", "graveyard", "library"):
        raise InvalidCommand(f"cast: unknown zone 'from' {from_zone!r}", "invalid_zone")
    return Cast(
        b.str_("player"),
        r(b.body["card"]),
        b.int_("x", minimum=0, default=0),
        tuple(b.list_("targets") or ()),
        from_zone,
    )


def _play_land(b: _Body, r: CardResolver) -> PlayLand:
    if not b.has("card"):
        raise InvalidCommand("play_land: missing required field 'card'", "missing_field")
    return PlayLand(b.str_("player"), r(b.body["card"]))


def _activate(b: _Body, _: CardResolver) -> Activate:
    return Activate(
        player=b.str_("player"),
        permanent=b.str_("permanent"),
        ability=b.int_("ability", minimum=0, default=0),
        x=b.int_("x", minimum=0, default=0),
        costs=_parse_costs(b.body.get("costs")),
        targets=tuple(b.list_("targets") or ()),
        mana=b.opt_str("mana"),
    )


def _attack(b: _Body, _: CardResolver) -> Attack:
    """``{"player": "P1", "attackers": [{"permanent": "moth", "attacks": {"player": "P2"}}]}``."""
    items = b.list_("attackers")
    if not items:
        raise InvalidCommand(f"attack: 'attackers' must be a non-empty list, got {items!r}", "invalid_field")
    out: list[tuple[str, Target]] = []
    for i, item in enumerate(items):
        where = f"attack: 'attackers[{i}]'"
        if not isinstance(item, Mapping) or not isinstance(item.get("permanent"), str) or not item["permanent"]:
            raise InvalidCommand(
                f'{where} must be {{"permanent": id, "attacks": target}}, got {item!r}', "invalid_field"
            )
        out.append((item["permanent"], parse_target(item.get("attacks"), f"{where}.attacks")))
    return Attack(b.str_("player"), tuple(out))


def _note(b: _Body, _: CardResolver) -> Note:
    return Note(b.str_("text", max_length=10_000))


_PARSERS: dict[str, Callable[[_Body, CardResolver], Command]] = {
    "advance": _advance,
    "resolve": lambda b, r: Resolve(parse_choices(b.body.get("choices"), r)),
    "order_triggers": _order,
    "add_counters": _add_counters,
    "remove_counters": _remove_counters,
    "lose_life": _life("lose_life"),
    "gain_life": _life("gain_life"),
    "pay_life": _life("pay_life"),
    "damage": _damage,
    "mill": _mill,
    "draw": _draw,
    "proliferate": _proliferate,
    "move": _move,
    "sacrifice": lambda b, _: Sacrifice(b.str_("permanent")),
    "tap": lambda b, _: Tap(b.str_("permanent")),
    "untap": lambda b, _: Tap(b.str_("permanent"), untap=True),
    "enter": _enter,
    "concede": lambda b, _: Concede(b.str_("player")),
    "note": _note,
    "counter": lambda b, _: CounterObject(b.str_("object"), b.opt_str("source")),
    "cast": _cast,
    "play_land": _play_land,
    "activate": _activate,
    "attack": _attack,
}
ACTION_TYPES: tuple[str, ...] = tuple(_PARSERS)
