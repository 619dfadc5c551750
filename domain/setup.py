"""Creating a game: the ``GameStarted`` event from the API's create body (defaults, CR 119.1).

The body's fields are checked one by one by its model (``domain.commands.bodies.create``); this
module applies the rules that tie them together.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date
from typing import Any

from domain import events as ev
from domain.commands.bodies.create import GameCreateBody, PermanentSetup, PlayerSetup, TournamentSetup
from domain.commands.bodies.fields import counters_of
from domain.commands.parse import parse_create_body
from domain.commands.vocabulary import CardResolver
from domain.errors import Code, InvalidCommand
from domain.state import CURRENT_EDITION, TEAM_VARIANTS

#: Starting life by variant (CR 119.1, 810.4 team of 30; the archenemy 40, CR 904.5; 40 in
#: Commander, CR 903.7).
STARTING_LIFE = {"two_player": 20, "multiplayer": 20, "two_headed_giant": 30, "archenemy": 20, "commander": 40}
#: Players in a Commander game: two to eight, free-for-all (CR 903.2, 806; docs/api.md).
COMMANDER_PLAYERS = (2, 8)
ARCHENEMY_LIFE = 40


#: Limited Edition Alpha: no game can be pinned to rules older than Magic itself.
EARLIEST_EDITION = "1993-08-05"

#: A deck's size when the body doesn't give one: 60, the Constructed minimum (CR 100.2a); a
#: Commander deck is exactly 100 cards, its commander included (CR 903.5a). Limited decks (40,
#: CR 100.2b) are given as ``deck_size``.
DECK_SIZE = 60
COMMANDER_DECK_SIZE = 100
#: The starting hand size: seven (CR 103.5).
OPENING_HAND = 7


def _tournament(value: TournamentSetup | None) -> dict[str, Any] | None:
    if value is None:
        return None
    fields = (
        ("event", value.event),
        ("round", value.round),
        ("table", value.table),
        ("rel", value.rel),
        ("best_of", value.best_of),
    )
    out = {k: v for k, v in fields if v is not None}
    return out or None


def _archenemy(players: Sequence[PlayerSetup]) -> str:
    """The archenemy is the one player of a team of one facing the other team (CR 904.1, 904.5)."""
    members: dict[str, list[str]] = {}
    for p in players:
        if p.team is not None:
            members.setdefault(p.team, []).append(p.id)
    solo = [m[0] for m in members.values() if len(m) == 1]
    if len(members) != 2 or not solo:
        raise InvalidCommand(
            f"archenemy is one player (a team of one) against a team: got teams {members}", Code.INVALID_PLAYERS
        )
    return solo[0]


def _cards(refs: Sequence[Any] | None, resolve: CardResolver) -> list[dict[str, Any]]:
    return [resolve(ref).to_json() for ref in refs or ()]


def _edition(body: GameCreateBody) -> str:
    edition = body.rules_edition or CURRENT_EDITION
    try:
        date.fromisoformat(edition)
    except ValueError:
        raise InvalidCommand(
            f"'rules_edition' must be a date YYYY-MM-DD, got {edition!r}", Code.INVALID_FIELD
        ) from None
    if not EARLIEST_EDITION <= edition <= CURRENT_EDITION:
        raise InvalidCommand(
            f"'rules_edition' {edition!r} must be between {EARLIEST_EDITION} and the current edition {CURRENT_EDITION}",
            Code.INVALID_FIELD,
        )
    return edition


def _player(
    raw: PlayerSetup, where: str, body: GameCreateBody, archenemy: str | None, resolve: CardResolver
) -> dict[str, Any]:
    variant = body.variant
    team = raw.team
    if variant in TEAM_VARIANTS and team is None:
        raise InvalidCommand(f"{where}.team is required for {variant}", Code.INVALID_FIELD)
    paper = _paper_start(raw)
    if raw.deck_size is not None and not paper:
        raise InvalidCommand(
            f"{where}.deck_size is for a paper start: give it, or 'library'/'library_size', not both",
            Code.INVALID_FIELD,
        )
    library = _cards(raw.library, resolve)
    library_size = len(library) if raw.library_size is None else raw.library_size
    if library_size < len(library):
        raise InvalidCommand(
            f"{where}: library_size {library_size} is smaller than the {len(library)} known cards", Code.INVALID_FIELD
        )
    hand = _cards(raw.hand, resolve)
    if paper and raw.hand is None and raw.hand_size is None:
        hand_size = OPENING_HAND  # 103.5: each player draws their starting hand, unknown to the server
    else:
        hand_size = len(hand) if raw.hand_size is None else raw.hand_size
    if hand_size < len(hand):
        raise InvalidCommand(
            f"{where}: hand_size {hand_size} is smaller than the {len(hand)} known cards", Code.INVALID_FIELD
        )
    if variant == "two_headed_giant" and raw.life is not None:
        raise InvalidCommand(
            f"{where}.life: in two_headed_giant life is the team's (CR 810.9); set teams.{team}.life",
            Code.INVALID_FIELD,
        )
    default_life = ARCHENEMY_LIFE if raw.id == archenemy else STARTING_LIFE[variant]  # 904.5
    out = {
        "id": raw.id,
        "name": raw.name or raw.id,
        "team": team,
        "life": default_life if raw.life is None else raw.life,
        "counters": counters_of(raw.counters, custom=body.custom_kind, where=f"{where}.counters"),
        "library": library,
        "library_unknown": library_size - len(library),
        "hand": hand,
        "hand_unknown": hand_size - len(hand),
        "graveyard": _cards(raw.graveyard, resolve),
        "exile": _cards(raw.exile, resolve),
    }
    commanders = _commanders(raw, where, variant, resolve)
    if commanders is not None:
        out["commanders"] = commanders
    return out


def _paper_start(raw: PlayerSetup) -> bool:
    """A player given neither ``library`` nor ``library_size`` starts as at a paper table: their
    library is the rest of their deck, unknown (an explicit ``library: []`` is an empty one)."""
    return raw.library is None and raw.library_size is None


def _paper_libraries(body: GameCreateBody, players: list[dict[str, Any]], battlefield: list[dict[str, Any]]) -> None:
    """The unknown library of each paper-start player: their deck less every card the game starts
    with elsewhere: the opening hand, graveyard, exile, command zone (a commander, CR 903.6) and
    the nontoken permanents they own. 60 cards: 53 and 7 in hand; 40: 33; Commander's 100: 92,
    7 in hand and the commander in the command zone (CR 100.2a, 100.2b, 903.5a, 103.5)."""
    default = (
        body.deck_size
        if body.deck_size is not None
        else COMMANDER_DECK_SIZE
        if body.variant == "commander"
        else DECK_SIZE
    )
    owned: dict[str, int] = {}  # one pass: creation stays linear in the body's size
    for b in battlefield:
        if not b["token"]:
            owned[b["owner"]] = owned.get(b["owner"], 0) + 1
    for i, (raw, p) in enumerate(zip(body.players, players, strict=True)):
        if not _paper_start(raw):
            continue
        deck = raw.deck_size if raw.deck_size is not None else default
        elsewhere = len(p["hand"]) + p["hand_unknown"] + len(p["graveyard"]) + len(p["exile"])
        elsewhere += len(p.get("command", ())) + owned.get(p["id"], 0)
        if deck < elsewhere:
            raise InvalidCommand(
                f"players[{i}]: a deck of {deck} is smaller than the {elsewhere} cards the player starts with "
                "outside their library (hand, graveyard, exile, command zone, permanents)",
                Code.INVALID_FIELD,
            )
        p["library_unknown"] = deck - elsewhere


def _command_zones(players: list[dict[str, Any]], battlefield: list[dict[str, Any]]) -> None:
    """Each commander starts in the command zone (903.6), unless the body describes it elsewhere:
    a permanent its player owns, or a card in their hand, graveyard or exile."""
    for p in players:
        if "commanders" not in p:
            continue
        elsewhere = [c["name"] for zone in ("hand", "graveyard", "exile") for c in p[zone]]
        elsewhere += [b["card"]["name"] for b in battlefield if b["owner"] == p["id"] and not b["token"]]
        p["command"] = [c for c in p["commanders"] if c["name"] not in elsewhere]


def _commanders(raw: PlayerSetup, where: str, variant: str, resolve: CardResolver) -> list[dict[str, Any]] | None:
    """A Commander player's one or two commanders (CR 903.3; two with partner, "friends forever"
    or a background); no other variant has commanders."""
    if variant != "commander":
        if raw.commanders is not None:
            raise InvalidCommand(f"{where}.commanders: only a commander game has commanders", Code.INVALID_FIELD)
        return None
    if raw.team is not None:
        raise InvalidCommand(
            f"{where}.team: a commander game is free-for-all, without teams (CR 903.2)", Code.INVALID_FIELD
        )
    cards = _cards(raw.commanders, resolve)
    names = [c["name"] for c in cards]
    if not 1 <= len(cards) <= 2 or len(set(names)) != len(names):
        raise InvalidCommand(
            f"{where}.commanders: one commander, or two different ones (partners), got {names} (CR 903.3)",
            Code.INVALID_FIELD,
        )
    return cards


def _teams(body: GameCreateBody, players: list[dict[str, Any]]) -> dict[str, Any]:
    variant = body.variant
    members: dict[str, list[str]] = {}
    for p in players:
        if variant in TEAM_VARIANTS:
            members.setdefault(p["team"], []).append(p["id"])
    if variant == "two_headed_giant" and (len(members) != 2 or any(len(m) != 2 for m in members.values())):
        raise InvalidCommand(f"two_headed_giant needs two teams of two players, got {members}", Code.INVALID_PLAYERS)
    if variant == "archenemy" and len(members) != 2:
        raise InvalidCommand(
            f"archenemy needs two teams (the archenemy's and the rest), got {members}", Code.INVALID_PLAYERS
        )
    given = body.teams or {}
    unknown = set(given) - set(members)
    shared = variant == "two_headed_giant"
    teams: dict[str, Any] = {}
    for tid, ids in members.items():
        raw = given.get(tid)
        life = (STARTING_LIFE[variant] if raw is None or raw.life is None else raw.life) if shared else None
        counters = (
            counters_of(raw.counters if raw else None, custom=body.custom_kind, where=f"teams.{tid}.counters")
            if shared
            else {}
        )
        teams[tid] = {"players": ids, "life": life, "counters": counters}
    if unknown:
        raise InvalidCommand(f"'teams' names teams no player is on: {sorted(unknown)}", Code.INVALID_FIELD)
    if shared:
        # 810.10: poison is the team's; poison given on a player at creation joins the team's.
        for p in players:
            poison = p["counters"].pop("poison", 0)
            if poison:
                team_counters = teams[p["team"]]["counters"]
                team_counters["poison"] = team_counters.get("poison", 0) + poison
    return teams


def _permanent(
    raw: PermanentSetup, where: str, body: GameCreateBody, player_ids: Collection[str], resolve: CardResolver
) -> dict[str, Any]:
    owner = raw.owner or raw.controller
    for role, pid in (("controller", raw.controller), ("owner", owner)):
        if pid not in player_ids:
            raise InvalidCommand(f"{where}.{role} {pid!r} is not a player of this game", Code.INVALID_PLAYERS)
    return {
        "id": raw.id,
        "card": resolve(raw.card).to_json(),
        "owner": owner,
        "controller": raw.controller,
        "tapped": raw.tapped,
        "counters": counters_of(raw.counters, custom=body.custom_kind, where=f"{where}.counters"),
        "controlled_since_turn_began": not raw.entered_this_turn,
        "token": raw.token,
    }


def game_started(body: Any, game_id: str, resolve: CardResolver) -> ev.Event:
    """Validate a create body (a JSON object or its parsed model) and give the ``GameStarted``
    event holding the whole initial state."""
    create = parse_create_body(body)
    edition = _edition(create)
    variant = create.variant
    if variant == "two_player" and len(create.players) != 2:
        raise InvalidCommand(f"a two_player game has 2 players, got {len(create.players)}", Code.INVALID_PLAYERS)
    low, high = COMMANDER_PLAYERS
    if variant == "commander" and not low <= len(create.players) <= high:
        raise InvalidCommand(
            f"a commander game has {low} to {high} players, got {len(create.players)}", Code.INVALID_PLAYERS
        )
    archenemy = _archenemy(create.players) if variant == "archenemy" else None
    # Sets, not scans: creation is linear in the body's size (a scan per player was quadratic).
    players: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, raw in enumerate(create.players):
        if raw.id in seen:
            raise InvalidCommand(f"player id {raw.id!r} is used twice", Code.DUPLICATE_ID)
        seen.add(raw.id)
        players.append(_player(raw, f"players[{i}]", create, archenemy, resolve))
    teams = _teams(create, players)

    player_ids = [p["id"] for p in players]
    battlefield: list[dict[str, Any]] = []
    placed: set[str] = set()
    for i, perm in enumerate(create.battlefield or ()):
        if perm.id in placed:
            raise InvalidCommand(f"permanent id {perm.id!r} is used twice", Code.DUPLICATE_ID)
        placed.add(perm.id)
        battlefield.append(_permanent(perm, f"battlefield[{i}]", create, seen, resolve))

    _command_zones(players, battlefield)
    _paper_libraries(create, players, battlefield)

    turn = create.turn
    number = 1 if turn is None else turn.number
    step = "untap" if turn is None else turn.step
    # 904.6: the archenemy takes the first turn unless the body says otherwise.
    active = turn.active_player if turn is not None and turn.active_player is not None else archenemy or player_ids[0]
    if active not in seen:
        raise InvalidCommand(f"turn.active_player {active!r} is not a player of this game", Code.INVALID_PLAYERS)
    active_team = next((p["team"] for p in players if p["id"] == active), None) if variant in TEAM_VARIANTS else None

    started = ev.GameStarted(
        game_id=game_id,
        variant=variant,
        rules_edition=edition,
        tournament=_tournament(create.tournament),
        players=players,
        teams=teams,
        battlefield=battlefield,
        turn={"number": number, "active_player": active, "active_team": active_team, "step": step},
    )
    return ev.Event(started, "CR 103")
