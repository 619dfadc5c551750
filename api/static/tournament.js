/* A tournament's pages (docs/web.md, Tournaments): the scorekeeper's event page at
 * /tournaments/{tid}, the players' phone page at /tournaments/{tid}/public and the judges' floor
 * view at /tournaments/{tid}/floor, and the player's own page at /tournaments/{tid}/me (where
 * their event link lands: tournament-player.js). This module reads the address and starts the page; what the
 * three share is in tournament-shared.js.
 *
 * Everything shown is the server's (GET /v1/tournaments/{tid} or its /public view): the page works
 * out no pairing, no standing and no tiebreaker; it only sends what the person asks for.
 */

import { $ } from "./dom.js";
import { initFloor } from "./tournament-floor.js";
import { initPublic } from "./tournament-public.js";
import { initMe } from "./tournament-player.js";
import { initScorekeeper } from "./tournament-scorekeeper.js";

const PAGES = { "": "scorekeeper", "/public": "public", "/floor": "floor", "/me": "me" };

/** {id, page} for a tournament's address, else null. Ids never hold "/" (docs/api.md). */
export function tournamentInPath(pathname) {
  const match = /^\/tournaments\/([^/]+)(\/public|\/floor|\/me)?\/?$/.exec(pathname);
  if (!match) return null;
  let id = match[1];
  try {
    id = decodeURIComponent(id);
  } catch {
    /* shown as typed */
  }
  return { id, page: PAGES[match[2] || ""] };
}

/** Start the page the address names; returns the function that loads it again (a new token). */
export function initTournament({ id, page }) {
  const root = $("#tournament-view");
  root.hidden = false;
  root.dataset.page = page;
  document.body.classList.add("tournament-" + page);
  const start = { scorekeeper: initScorekeeper, public: initPublic, floor: initFloor, me: initMe }[page];
  return start(root, id);
}

