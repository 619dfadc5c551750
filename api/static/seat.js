/* Which player this tab's token acts as in a game (docs/web.md, The player's link): a game link
 * in its own game; an event link (bound to "_tournament/<id>") in a game of its event whose
 * players include its player. The server decides by the seat the tournament's record gives
 * (domain.permissions.seat_refusal: another table's game, a game made outside the event or a
 * dropped player is refused 403); the page only shows the controls where they can work.
 */

const EVENT_BINDING = "_tournament/";

/** The token's player in game `gameId` (its state `state`, when known), else null. */
export function seatedPlayer(who, gameId, state) {
  if (!who || who.role !== "player" || !who.player_id) return null;
  const bound = String(who.game_id || "");
  if (bound === gameId) return who.player_id;
  if (!bound.startsWith(EVENT_BINDING)) return null;
  const event = bound.slice(EVENT_BINDING.length);
  if (!String(gameId).startsWith(event + ".")) return null;
  const tag = state && state.tournament;
  if (state && (!tag || tag.event !== event)) return null;
  if (state && !(state.players && state.players[who.player_id])) return null;
  return who.player_id;
}
