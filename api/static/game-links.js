/* "Player links" on a game's page (docs/web.md, Player links on the game page): for a
 * scorekeeper, judge or admin, new links for every player of the game, each as a QR code, on
 * any device and at any time (a phone changed, a tab was closed), not only in the tab that set
 * the table up. The server decides who may (the scorekeeper who created the game, or a judge:
 * `403 not_game_creator` otherwise) and its refusal is shown beside the button.
 */

import { describeError } from "./api.js";
import { $ } from "./dom.js";
import { makePlayerLinks, showPlayerLinks } from "./qr-links.js";
import { RANK, rankOf } from "./store.js";


export function initPlayerLinks(gameId) {
  const open = $("#links-open");
  const panel = $("#links-panel");
  const out = $("#links-out");
  const status = (text, error = false) => {
    const line = $("#links-status");
    line.textContent = text;
    line.classList.toggle("error-text", error);
  };
  open.addEventListener("click", async () => {
    panel.hidden = false;
    open.disabled = true;
    status("Making the players' links…");
    try {
      const links = await makePlayerLinks(gameId);
      await showPlayerLinks(out, gameId, links);
      status(`${links.length} new links: each phone scans its own.`);
    } catch (err) {
      status(`No links were made. ${describeError(err)}`, true);
    } finally {
      open.disabled = false;
    }
  });
  $("#links-close").addEventListener("click", () => {
    // The links hold secrets: they leave the screen (and the page) when closed.
    out.replaceChildren();
    out.hidden = true;
    panel.hidden = true;
    status("");
    open.focus();
  });
  return (who) => {
    open.hidden = rankOf(who) < RANK.scorekeeper;
    if (open.hidden) {
      out.replaceChildren();
      panel.hidden = true;
    }
  };
}
