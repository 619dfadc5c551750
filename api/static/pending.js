/* What this device's reports would change once stored (docs/web.md, Reporting): the totals on
 * screen are the server's; beside them the page shows where they go once the reports this device
 * made and the server has not yet stored (the queue's entries, and taps still being grouped)
 * arrive: "40 → 37 (pending)". Offline, three taps of "Lose 1 life" show 40 → 37 at once.
 *
 * Only reports that add to or take from what is there are counted (life, counters on a player,
 * damage to a player); the server still decides what they do once they arrive. What a source's
 * damage does is the server's word, not the page's: each permanent's `damage_effects` in the
 * state says whether it has infect or lifelink and which commander's damage it is (docs/api.md);
 * a report's own `infect` and `toxic` fields are added as they say.
 */

const NO_EFFECTS = { infect: false, lifelink: false, commander_key: null };

/** Per player: {life, counters: {kind: n}, commander: {key: n}}, the changes still to come. */
export function pendingEffects(bodies, state) {
  const out = new Map();
  const of = (pid) => {
    if (!out.has(pid)) out.set(pid, { life: 0, counters: {}, commander: {} });
    return out.get(pid);
  };
  const counters = (pid, kind, n) => {
    const p = of(pid);
    p.counters[kind] = (p.counters[kind] || 0) + n;
  };
  const board = (state && state.battlefield) || {};
  for (const body of bodies) {
    if (!body || typeof body !== "object") continue;
    const amount = Number(body.amount) || 0;
    const target = body.target && typeof body.target === "object" ? body.target.player : null;
    switch (body.type) {
      case "lose_life":
        of(body.player).life -= amount;
        break;
      case "gain_life":
        of(body.player).life += amount;
        break;
      case "add_counters":
        if (target) counters(target, body.kind, amount);
        break;
      case "remove_counters":
        if (target) counters(target, body.kind, -amount);
        break;
      case "damage": {
        const source = body.source ? board[body.source] : null;
        const effects = (source && source.damage_effects) || NO_EFFECTS;
        if (target) {
          if (body.infect || effects.infect) counters(target, "poison", amount);
          else of(target).life -= amount;
          if (body.toxic) counters(target, "poison", Number(body.toxic) || 0);
          if (body.combat && effects.commander_key) {
            const p = of(target);
            p.commander[effects.commander_key] = (p.commander[effects.commander_key] || 0) + amount;
          }
        }
        if (source && effects.lifelink) of(source.controller).life += amount;
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** A player's pending life change, counting their team's (a shared life total, CR 810.9). */
export function pendingLife(effects, state, playerId) {
  const team = state.players[playerId] && state.players[playerId].team;
  const teamLife = team && state.teams && state.teams[team] && state.teams[team].life !== null && state.teams[team].life !== undefined;
  const shared = teamLife ? state.teams[team].players : [playerId];
  return shared.reduce((sum, pid) => sum + ((effects.get(pid) || {}).life || 0), 0);
}
