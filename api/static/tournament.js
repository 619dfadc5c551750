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
import { mount as mountMatchResult } from "./match-result.js";
import { initFloor } from "./tournament-floor.js";
import { initPublic } from "./tournament-public.js";
import { addMatchPanel, initMe } from "./tournament-player.js";
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

let matchResult = null; // the player's match result panel on their own page, mounted once
let meMounted = false;

/** The player's page reports and confirms the match result (match-result.js) under "my match
 * now": mounted in the page's panel slot, read again when the player's match changes. */
function mountMatchResultOnMe(tid) {
  let shownMatch = null;
  addMatchPanel((section, me) => {
    if (!matchResult) matchResult = mountMatchResult(section, { tid });
    const m = me && me.match;
    const now = m ? `${m.round}/${m.table}/${m.status}/${m.result ? "r" : ""}` : "";
    if (now !== shownMatch) {
      shownMatch = now;
      matchResult.refresh();
    }
  });
}

/** Start the page the address names; returns the function that loads it again (a new token). */
export function initTournament({ id, page }) {
  const root = $("#tournament-view");
  root.hidden = false;
  root.dataset.page = page;
  document.body.classList.add("tournament-" + page);
  if (page === "me" && !meMounted) {
    meMounted = true;
    mountMatchResultOnMe(id);
  }
  const start = { scorekeeper: initScorekeeper, public: initPublic, floor: initFloor, me: initMe }[page];
  return start(root, id);
}

