/* MTG Ledger web page: the games list (/), a game (/games/{id}, ?version=V) and a tournament's
 * pages (/tournaments/{tid}, /tournaments/{tid}/public, /tournaments/{tid}/floor).
 *
 * Plain JavaScript modules, no dependencies, no build step, no network beyond this server's v1
 * API (docs/api.md). What an event says and what an undo reverts come from the server; the
 * page only shows them. See docs/web.md.
 */

import { clearError } from "./banner.js";
import { $ } from "./dom.js";
import { initGame } from "./game.js";
import { initList } from "./list.js";
import { initTournament, tournamentInPath } from "./tournament.js";
import { Token, takeTokenFromFragment } from "./token.js";

function showTokenState() {
  const has = Token.get() !== null;
  $("#token-state").textContent = has ? "Token in use (this tab only)" : "No token: reading as the public";
  $("#token-clear").hidden = !has;
  document.body.classList.toggle("has-token", has);
}

/** The token form; `reload()` asks the server again with the new token (or none). */
function initToken(reload) {
  $("#token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("#token-input");
    const value = input.value.trim();
    input.value = "";
    if (!value) return;
    Token.set(value);
    showTokenState();
    clearError();
    reload();
  });
  $("#token-clear").addEventListener("click", () => {
    Token.clear();
    showTokenState();
    reload();
  });
  $("#error-close").addEventListener("click", clearError);
}

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
  showTokenState();
  let reload = () => {};
  initToken(() => reload());
  const tournament = tournamentInPath(location.pathname);
  const id = gameIdInPath();
  if (tournament) reload = initTournament(tournament);
  else reload = id === null ? initList() : initGame(id);
}

main();
