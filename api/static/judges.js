/* The judges' page at /judges (?event=E: one event's tables): every judge call not answered yet,
 * newest first, at desktop width and on a phone (docs/web.md, Judges).
 *
 * Everything shown is GET /v1/judge-calls (a read model the server keeps as calls open and are
 * answered; a judge's, scorekeeper's or admin's token reads it). The page asks again every few
 * seconds while the tab is shown; each call links to its game's page with the call preselected
 * (/games/{id}#call=call-2: the judge panel starts its forms from that call, judging.js).
 *
 * This page's module replaces main.js in the same index.html (api/routes/web.py), so the top bar,
 * the token form and the error banner are the page's own; this module wires them like main.js.
 */

import { clearError } from "./banner.js";
import { $, h } from "./dom.js";
import { JudgesPage, TITLE } from "./judges-page.js";
import { Token, takeTokenFromFragment } from "./token.js";

function showTokenState() {
  const has = Token.get() !== null;
  $("#token-state").textContent = has ? "Token in use (this tab only)" : "No token: reading as the public";
  $("#token-clear").hidden = !has;
  document.body.classList.toggle("has-token", has);
}

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

function main() {
  takeTokenFromFragment(); // first: the token must leave the address bar before anything else
  showTokenState();
  const root = h("section", { id: "judges-view", class: "judges", "aria-labelledby": "judges-title" });
  $("#main").append(root);
  document.body.classList.add("judges-page");
  document.title = `${TITLE} · MTG Ledger`;
  const page = new JudgesPage(root);
  initToken(() => page.load());
  page.load();
}

main();
