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
