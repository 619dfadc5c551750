/* MTG Ledger web page: the games list (/), a game (/games/{id}, ?version=V) and a tournament's
 * pages (/tournaments: the events; /tournaments/{tid}, /tournaments/{tid}/public, /tournaments/{tid}/floor).
 *
 * Plain JavaScript modules, no dependencies, no build step, no network beyond this server's v1
 * API (docs/api.md). What an event says and what an undo reverts come from the server; the
 * page only shows them. See docs/web.md.
 */

import { initGame } from "./game.js";
import { initList } from "./list.js";
import { initTournament, tournamentInPath } from "./tournament.js";
import { initEvents } from "./tournament-events.js";
import { initOffline } from "./offline.js";
import { initToken, showTokenState } from "./token-bar.js";
import { takeTokenFromFragment } from "./token.js";

function gameIdInPath() {
  const match = /^\/games\/([^/]+)\/?$/.exec(location.pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

function main() {
  takeTokenFromFragment(); // first: the token must leave the address bar before anything else
  initOffline();
  showTokenState();
  let reload = () => {};
  initToken(() => reload());
  const tournament = tournamentInPath(location.pathname);
  const id = gameIdInPath();
  if (/^\/tournaments\/?$/.test(location.pathname)) reload = initEvents();
  else if (tournament) reload = initTournament(tournament);
  else reload = id === null ? initList() : initGame(id);
}

main();
