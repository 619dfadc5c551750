"""Commands: what a table, judge or tool asks for, and the request bodies they are parsed from.

- ``vocabulary``: the commands themselves, frozen values ``decide`` dispatches on;
- ``bodies``: one model per action type and one for the create body: each validates its JSON,
  builds its command and gives the schema ``/openapi.json`` publishes;
- ``parse``: ``parse_command(body, resolve)``, the one path from a JSON body to a command;
- ``refusals``: what a model refuses, as errors with the API's stable codes.

The models use pydantic, which does no I/O: the kernel stays pure, and every caller (HTTP, CLI,
the import audit, the tests) validates a body the same way.
"""

from domain.commands.bodies.fields import MAX_AMOUNT, MAX_KIND, MAX_TEXT, ZONES_TO
from domain.commands.parse import ACTION_BODIES, ACTION_TYPES, parse_action_body, parse_command, parse_create_body
from domain.commands.vocabulary import (
    Activate,
    ActivateCosts,
    AddCounters,
    Advance,
    Attack,
    CardResolver,
    Cast,
    ChangeLife,
    Choices,
    ChooseFirstPlayer,
    Command,
    Concede,
    CounterObject,
    Damage,
    Designate,
    Draw,
    Enter,
    KeepHand,
    Mill,
    Move,
    Mulligan,
    Note,
    OrderTriggers,
    PlayLand,
    Proliferate,
    RemoveCounters,
    Resolve,
    Sacrifice,
    Tap,
    Target,
)

__all__ = [
    "ACTION_BODIES",
    "ACTION_TYPES",
    "MAX_AMOUNT",
    "MAX_KIND",
    "MAX_TEXT",
    "ZONES_TO",
    "Activate",
    "ActivateCosts",
    "AddCounters",
    "Advance",
    "Attack",
    "CardResolver",
    "Cast",
    "ChangeLife",
    "Choices",
    "ChooseFirstPlayer",
    "Command",
    "Concede",
    "CounterObject",
    "Damage",
    "Designate",
    "Draw",
    "Enter",
    "KeepHand",
    "Mill",
    "Move",
    "Mulligan",
    "Note",
    "OrderTriggers",
    "PlayLand",
    "Proliferate",
    "RemoveCounters",
    "Resolve",
    "Sacrifice",
    "Tap",
    "Target",
    "parse_action_body",
    "parse_command",
    "parse_create_body",
]
