/* What this device's reports would change once stored (docs/web.md, Reporting): the totals on
 * screen are the server's; beside them the page shows where they go once the reports this device
 * made and the server has not yet stored (the queue's entries, and taps still being grouped)
 * arrive: "40 → 37 (pending)". Offline, three taps of "Lose 1 life" show 40 → 37 at once.
 *
 * Only reports that add to or take from what is there are counted (life, counters on a player,
 * damage to a player); the server still decides what they do once they arrive. Infect and
 * lifelink are read from the damage's source as the board shows it (CR 702.90b, 702.15b), toxic
 * is the report's own (CR 702.164c), and a commander's combat damage also counts toward 21
 * (CR 903.10a).
 */

const hasKeyword = (card, word) =>
  Boolean(card && card.oracle_text) &&
  card.oracle_text
    .toLowerCase()
    .split("\n")
    .some((line) => line.split(",").map((w) => w.trim()).includes(word) || line.startsWith(word + " "));

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
  const players = (state && state.players) || {};
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
        const card = source ? source.card : null;
        if (target) {
          // Damage to a player from a source with infect gives poison counters instead (702.90b).
          if (body.infect || hasKeyword(card, "infect")) counters(target, "poison", amount);
          else of(target).life -= amount;
          if (body.toxic) counters(target, "poison", Number(body.toxic) || 0);
          const owner = source && players[source.owner];
          if (body.combat && owner && !source.token && (owner.commanders || []).includes(source.name)) {
            const key = `${source.owner}:${source.name}`;
            const p = of(target);
            p.commander[key] = (p.commander[key] || 0) + amount;
          }
        }
        if (source && hasKeyword(card, "lifelink")) of(source.controller).life += amount;
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
