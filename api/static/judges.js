/* The judges' page at /judges (?event=E: one event's tables): every judge call not answered yet,
 * newest first, at desktop width and on a phone (docs/web.md, Judges).
 *
 * Everything shown is GET /v1/judge-calls (a read model the server keeps as calls open and are
 * answered; a judge's, scorekeeper's or admin's token reads it). The page asks again every few
 * seconds while the tab is shown; each call links to its game's page with the call preselected
 * (/games/{id}#call=call-2: the judge panel starts its forms from that call, judging.js).
 *
 * This page's module replaces main.js in the same index.html (api/routes/web.py), so the top bar,
 * the token form and the error banner are the page's own; token-bar.js wires them, as for main.js.
 */

import { $, h } from "./dom.js";
import { JudgesPage, TITLE } from "./judges-page.js";
import { initOffline } from "./offline.js";
import { initToken, showTokenState } from "./token-bar.js";
import { takeTokenFromFragment } from "./token.js";

function main() {
  takeTokenFromFragment(); // first: the token must leave the address bar before anything else
  initOffline();
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
