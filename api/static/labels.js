/* Display names for the values a game's state holds (steps, variants, statuses).
 *
 * These only label what the server reports; what an event means is the server's business
 * (each event comes with its own `sentence`).
 */

const STEPS = {
  untap: "Untap", upkeep: "Upkeep", draw: "Draw", precombat_main: "Precombat main",
  beginning_of_combat: "Beginning of combat", declare_attackers: "Declare attackers",
  declare_blockers: "Declare blockers", combat_damage: "Combat damage", end_of_combat: "End of combat",
  postcombat_main: "Postcombat main", end: "End", cleanup: "Cleanup",
};
const VARIANTS = {
  two_player: "Two-player", multiplayer: "Multiplayer", two_headed_giant: "Two-Headed Giant",
  archenemy: "Archenemy", commander: "Commander",
};
const STATUSES = { in_progress: "In progress", finished: "Finished" };

export const stepName = (step) => STEPS[step] || (step ? String(step).replace(/_/g, " ") : "");
export const variantName = (variant) => VARIANTS[variant] || variant || "";
export const statusName = (status) => STATUSES[status] || status || "";

/** "a poison counter", "an energy counter", "an experience counter", "a +1/+1 counter": the
 * article by the sound of the kind's first letter (a kind written with a sign or digit, "a"). */
export const aCounter = (kind) => `${/^[aeiou]/i.test(String(kind)) ? "an" : "a"} ${kind} counter`;

/** Server-written text (a stack object's description, "Rad counters (CR 728.1): P1 mills cards")
 * with each player id replaced by the player's name, as the server's sentences do
 * (projections.sentences): whole ids only, the longest first. */
export function withNames(text, players) {
  const named = Object.entries(players || {}).filter(([id, p]) => p && p.name && p.name !== id);
  if (!text || !named.length) return text || "";
  const byId = new Map(named.map(([id, p]) => [id, p.name]));
  const ids = [...byId.keys()].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return String(text).replace(new RegExp(`(?<![\\w-])(?:${ids.join("|")})(?![\\w-])`, "g"), (m) => byId.get(m));
}
