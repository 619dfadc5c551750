/* What the judges' page and the floor view share about open judge calls (GET /v1/judge-calls,
 * docs/api.md): where a call links to, how long it has waited, where its table is.
 */

import { api, enc } from "./api.js";

const POLL_QUERY = { status: "open" };

/** The open calls (of `event`'s games, if given): {calls, total, read_model}; rejects with ApiError. */
export function openCalls(event) {
  const query = new URLSearchParams(POLL_QUERY);
  if (event) query.set("event", event);
  return api(`/v1/judge-calls?${query}`);
}

/** The game page's address with the call preselected (judging.js reads `#call=`). */
export const callHref = (gameId, call) => `/games/${enc(gameId)}#call=${enc(call)}`;

/** "just now", "4 min ago", "1 h 5 min ago": how long a call has waited, from `now` (ms). */
export function waited(openedAt, now) {
  const at = Date.parse(openedAt);
  if (Number.isNaN(at)) return "";
  const minutes = Math.floor(Math.max(0, now - at) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
}

/** The event and round of a call ("GP Lyon · round 3"; the table is shown on its own), or "". */
export function whereText(c) {
  const bits = [];
  if (c.event) bits.push(c.event);
  if (c.round !== null && c.round !== undefined) bits.push(`round ${c.round}`);
  return bits.join(" · ");
}
