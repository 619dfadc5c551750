"""Doubling Season {4}{G}, Enchantment.

Oracle text (catalog.json):

- "If an effect would create one or more tokens under your control, it creates twice that many
  of those tokens instead." Automated for tokens the server creates (Vault 12, Screeching
  Scorchbeast, Hangarback Walker, Ajani Goldmane); two Doubling Seasons make four times as many
  (ruling 2024-08-07). Tokens reported with ``enter`` are taken as given.
- "If an effect would put one or more counters on a permanent you control, it puts twice that
  many of those counters on that permanent instead." Automated (CR 614.1a) for every counter
  placement the server records on a permanent its controller controls: effects, proliferate,
  "enters with" counters (a planeswalker enters with twice its loyalty: ruling 2024-08-07).
  Not for costs: a loyalty ability's +N isn't doubled (ruling 2024-08-07: "those counters are
  put on as a cost, not as an effect"). Not for counters a rule puts: a Saga's lore counter as
  it enters (714.3a) and after the draw step (714.3c) stays one (Matt Tabak, WotC rules
  manager: "they were built to not be effects"). Counters on players (rad, poison) are not on
  a permanent, so not doubled. With other modifiers (Hardened Scales) the affected permanent's
  controller orders them (616.1): ``replacement_order``.
"""

from __future__ import annotations

from domain.cards.behaviour import Behaviour, register
from domain.state import GameState, Permanent

NAME = "Doubling Season"


def _double(source: Permanent, state: GameState, target: dict[str, str], kind: str, n: int, by_effect: bool) -> int:
    perm = state.battlefield.get(target.get("permanent", ""))
    if by_effect and perm is not None and perm.controller == source.controller:
        return n * 2
    return n


register(Behaviour(name=NAME, token_multiplier=2, counter_modifier=_double))
