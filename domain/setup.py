"""Creating a game: the ``GameStarted`` event from the API's create body (defaults, CR 119.1)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from domain import events as ev
from domain.commands import CardResolver, counter_map
from domain.errors import InvalidCommand
from domain.state import CURRENT_EDITION, STEPS, TEAM_VARIANTS, VARIANTS

#: Starting life by variant (CR 119.1, 810.4 team of 30; the archenemy 40, CR 904.5).
STARTING_LIFE = {"two_player": 20, "multiplayer": 20, "two_headed_giant": 30, "archenemy": 20}
ARCHENEMY_LIFE = 40


#: Limited Edition Alpha: no game can be pinned to rules older than Magic itself.
EARLIEST_EDITION = "1993-08-05"
MAX_ID = 100


def _str(value: Any, where: str, max_length: int = 200) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidCommand(f"{where} must be a non-empty string, got {value!r}", "invalid_field")
    if len(value) > max_length:
        raise InvalidCommand(f"{where} must be at most {max_length} characters, got {len(value)}", "invalid_field")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidCommand(f"{where} must be a list, got {value!r}", "invalid_field")
    return value


def _tournament(value: Any) -> dict[str, Any] | None:
    """``{"event": str, "round": int >= 0, "table": int >= 0}``, each optional."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidCommand(f"'tournament' must be an object, got {value!r}", "invalid_field")
    unknown = set(value) - {"event", "round", "table"}
    if unknown:
        raise InvalidCommand(
            f"'tournament' has unknown fields {sorted(unknown)}: use event, round, table", "invalid_field"
        )
    out: dict[str, Any] = {}
    if value.get("event") is not None:
        out["event"] = _str(value["event"], "tournament.event")
    for key in ("round", "table"):
        if value.get(key) is not None:
            out[key] = _nonneg(value[key], f"tournament.{key}", 0)
    return out or None


def _archenemy(team_of: dict[str, str]) -> str:
    """The archenemy is the one player of a team of one facing the other team (CR 904.1, 904.5)."""
    members: dict[str, list[str]] = {}
    for pid, team in team_of.items():
        members.setdefault(team, []).append(pid)
    solo = [m[0] for m in members.values() if len(m) == 1]
    if len(members) != 2 or not solo:
        raise InvalidCommand(
            f"archenemy is one player (a team of one) against a team: got teams {members}", "invalid_players"
        )
    return solo[0]


def _cards(value: Any, where: str, resolve: CardResolver) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidCommand(f"{where} must be a list of cards, got {value!r}", "invalid_field")
    return [resolve(item).to_json() for item in value]


def _nonneg(value: Any, where: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidCommand(f"{where} must be an integer >= 0, got {value!r}", "invalid_field")
    return value


def game_started(body: Any, game_id: str, resolve: CardResolver) -> ev.Event:
    """Validate a create body and give the ``GameStarted`` event holding the whole initial state."""
    if not isinstance(body, Mapping):
        raise InvalidCommand(f"the game must be a JSON object, got {body!r}", "invalid_body")
    variant = body.get("variant")
    if variant not in VARIANTS:
        raise InvalidCommand(f"'variant' must be one of {list(VARIANTS)}, got {variant!r}", "invalid_variant")
    edition = body.get("rules_edition") or CURRENT_EDITION
    try:
        date.fromisoformat(_str(edition, "'rules_edition'"))
    except ValueError:
        raise InvalidCommand(f"'rules_edition' must be a date YYYY-MM-DD, got {edition!r}", "invalid_field") from None
    if not EARLIEST_EDITION <= edition <= CURRENT_EDITION:
        raise InvalidCommand(
            f"'rules_edition' {edition!r} must be between {EARLIEST_EDITION} and the current edition {CURRENT_EDITION}",
            "invalid_field",
        )
    raw_players = body.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise InvalidCommand(f"'players' must be a non-empty list, got {raw_players!r}", "invalid_field")
    if variant == "two_player" and len(raw_players) != 2:
        raise InvalidCommand(f"a two_player game has 2 players, got {len(raw_players)}", "invalid_players")
    team_variant = variant in TEAM_VARIANTS
    archenemy: str | None = None
    if variant == "archenemy":
        archenemy = _archenemy(
            {
                str(p.get("id")): str(p.get("team"))
                for p in raw_players
                if isinstance(p, Mapping) and isinstance(p.get("id"), str) and isinstance(p.get("team"), str)
            }
        )
    players: list[dict[str, Any]] = []
    team_members: dict[str, list[str]] = {}
    for i, raw in enumerate(raw_players):
        where = f"players[{i}]"
        if not isinstance(raw, Mapping):
            raise InvalidCommand(f"{where} must be an object, got {raw!r}", "invalid_field")
        pid = _str(raw.get("id"), f"{where}.id", MAX_ID)
        if any(p["id"] == pid for p in players):
            raise InvalidCommand(f"player id {pid!r} is used twice", "duplicate_id")
        team = raw.get("team")
        if team_variant:
            team = _str(team, f"{where}.team (required for {variant})")
            team_members.setdefault(team, []).append(pid)
        elif team is not None:
            team = _str(team, f"{where}.team")
        library = _cards(raw.get("library"), f"{where}.library", resolve)
        library_size = _nonneg(raw.get("library_size"), f"{where}.library_size", len(library))
        if library_size < len(library):
            raise InvalidCommand(
                f"{where}: library_size {library_size} is smaller than the {len(library)} known cards", "invalid_field"
            )
        hand = _cards(raw.get("hand"), f"{where}.hand", resolve)
        hand_size = _nonneg(raw.get("hand_size"), f"{where}.hand_size", len(hand))
        if hand_size < len(hand):
            raise InvalidCommand(
                f"{where}: hand_size {hand_size} is smaller than the {len(hand)} known cards", "invalid_field"
            )
        default_life = ARCHENEMY_LIFE if pid == archenemy else STARTING_LIFE[variant]  # 904.5
        if variant == "two_headed_giant" and raw.get("life") is not None:
            raise InvalidCommand(
                f"{where}.life: in two_headed_giant life is the team's (CR 810.9); set teams.{team}.life",
                "invalid_field",
            )
        life = raw.get("life", default_life)
        if isinstance(life, bool) or not isinstance(life, int):
            raise InvalidCommand(f"{where}.life must be an integer, got {life!r}", "invalid_field")
        name = raw.get("name") or pid
        players.append(
            {
                "id": pid,
                "name": _str(name, f"{where}.name"),
                "team": team,
                "life": life,
                "counters": counter_map(raw.get("counters"), f"{where}.counters"),
                "library": library,
                "library_unknown": library_size - len(library),
                "hand": hand,
                "hand_unknown": hand_size - len(hand),
                "graveyard": _cards(raw.get("graveyard"), f"{where}.graveyard", resolve),
                "exile": _cards(raw.get("exile"), f"{where}.exile", resolve),
            }
        )
    if variant == "two_headed_giant" and (len(team_members) != 2 or any(len(m) != 2 for m in team_members.values())):
        raise InvalidCommand(f"two_headed_giant needs two teams of two players, got {team_members}", "invalid_players")
    if variant == "archenemy" and len(team_members) != 2:
        raise InvalidCommand(
            f"archenemy needs two teams (the archenemy's and the rest), got {team_members}", "invalid_players"
        )

    raw_teams = body.get("teams") or {}
    if not isinstance(raw_teams, Mapping):
        raise InvalidCommand(f"'teams' must be an object, got {raw_teams!r}", "invalid_field")
    teams: dict[str, Any] = {}
    for tid, members in team_members.items():
        raw_team = raw_teams.get(tid) or {}
        if not isinstance(raw_team, Mapping):
            raise InvalidCommand(f"teams.{tid} must be an object, got {raw_team!r}", "invalid_field")
        shared = variant == "two_headed_giant"
        life = raw_team.get("life", STARTING_LIFE[variant]) if shared else None
        if shared and (isinstance(life, bool) or not isinstance(life, int)):
            raise InvalidCommand(f"teams.{tid}.life must be an integer, got {life!r}", "invalid_field")
        counters = counter_map(raw_team.get("counters"), f"teams.{tid}.counters") if shared else {}
        teams[tid] = {"players": members, "life": life, "counters": counters}
    unknown_teams = set(raw_teams) - set(team_members)
    if unknown_teams:
        raise InvalidCommand(f"'teams' names teams no player is on: {sorted(unknown_teams)}", "invalid_field")
    if variant == "two_headed_giant":
        # 810.10: poison is the team's; poison given on a player at creation joins the team's.
        for p in players:
            poison = p["counters"].pop("poison", 0)
            if poison:
                team_counters = teams[p["team"]]["counters"]
                team_counters["poison"] = team_counters.get("poison", 0) + poison

    player_ids = [p["id"] for p in players]
    battlefield: list[dict[str, Any]] = []
    for i, raw in enumerate(_list(body.get("battlefield"), "'battlefield'")):
        where = f"battlefield[{i}]"
        if not isinstance(raw, Mapping):
            raise InvalidCommand(f"{where} must be an object, got {raw!r}", "invalid_field")
        perm_id = _str(raw.get("id"), f"{where}.id", MAX_ID)
        if any(p["id"] == perm_id for p in battlefield):
            raise InvalidCommand(f"permanent id {perm_id!r} is used twice", "duplicate_id")
        if "card" not in raw:
            raise InvalidCommand(f"{where}: missing required field 'card'", "missing_field")
        controller = _str(raw.get("controller"), f"{where}.controller")
        owner = raw.get("owner") or controller
        for role, pid in (("controller", controller), ("owner", owner)):
            if pid not in player_ids:
                raise InvalidCommand(f"{where}.{role} {pid!r} is not a player of this game", "unknown_player")
        for flag in ("tapped", "entered_this_turn", "token"):
            if not isinstance(raw.get(flag, False), bool):
                raise InvalidCommand(f"{where}.{flag} must be true or false, got {raw.get(flag)!r}", "invalid_field")
        battlefield.append(
            {
                "id": perm_id,
                "card": resolve(raw["card"]).to_json(),
                "owner": owner,
                "controller": controller,
                "tapped": raw.get("tapped", False),
                "counters": counter_map(raw.get("counters"), f"{where}.counters"),
                "controlled_since_turn_began": not raw.get("entered_this_turn", False),
                "token": raw.get("token", False),
            }
        )

    raw_turn = body.get("turn") or {}
    if not isinstance(raw_turn, Mapping):
        raise InvalidCommand(f"'turn' must be an object, got {raw_turn!r}", "invalid_field")
    number = raw_turn.get("number", 1)
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise InvalidCommand(f"turn.number must be an integer >= 1, got {number!r}", "invalid_field")
    # 904.6: the archenemy takes the first turn unless the body says otherwise.
    active = raw_turn.get("active_player", archenemy or player_ids[0])
    if active not in player_ids:
        raise InvalidCommand(f"turn.active_player {active!r} is not a player of this game", "unknown_player")
    step = raw_turn.get("step", "untap")
    if step not in STEPS:
        raise InvalidCommand(f"turn.step must be one of {list(STEPS)}, got {step!r}", "invalid_step")
    active_team = next((p["team"] for p in players if p["id"] == active), None) if team_variant else None

    tournament = _tournament(body.get("tournament"))
    started = ev.GameStarted(
        game_id=game_id,
        variant=variant,
        rules_edition=edition,
        tournament=tournament,
        players=players,
        teams=teams,
        battlefield=battlefield,
        turn={"number": number, "active_player": active, "active_team": active_team, "step": step},
    )
    return ev.Event(started, "CR 103")
