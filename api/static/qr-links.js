/* Players' links as QR codes, shared by the setup form (setup.js) and the game page's "Player
 * links" control (game-tools.js).
 *
 * A link is the game page with that player's token in the address fragment
 * (POST /v1/games/{id}/player-links answers its path). The address the phones reach the server
 * at is the server's public base URL (GET /v1/server `public_url`, set with
 * MTG_LEDGER_PUBLIC_URL: the scorekeeper's laptop may browse on http://localhost while the
 * phones need the venue's LAN address); without one, this page's own origin. Each QR code is an
 * SVG the server draws (POST /v1/qr, the link in the body, never in a URL). The links hold
 * secrets and are shown once: the server keeps only the tokens' hashes.
 */

import { api, enc, gamePath } from "./api.js";
import { h } from "./dom.js";

let base = null; // one question per page load: the setting does not change while the server runs

/** "http://192.168.1.20:8000" without a trailing slash, or null for anything but an http(s) URL. */
function cleanBase(url) {
  if (typeof url !== "string") return null;
  const text = url.trim();
  if (!/^https?:\/\/[^/]/i.test(text)) return null;
  return text.replace(/\/+$/, "");
}

/** The base URL players' phones reach this server at: the server's public URL, else this
 * page's origin (also when the server is older and has no GET /v1/server). */
export function publicBase() {
  if (!base) {
    base = api("/v1/server")
      .then((answer) => cleanBase(answer && answer.public_url) || location.origin)
      .catch(() => location.origin);
  }
  return base;
}

/** The QR code of `text` as an image (the SVG the server draws). */
export async function qrImage(text, alt) {
  const response = await api("/v1/qr", { method: "POST", body: { text }, raw: true, headers: { Accept: "image/svg+xml" } });
  const blob = await response.blob();
  return h("img", { class: "qr", src: URL.createObjectURL(blob), alt, width: 220, height: 220 });
}

/** New links for every player of the game (each call makes new tokens; older ones keep working). */
export async function makePlayerLinks(gameId) {
  const answer = await api(gamePath(gameId, "/player-links"), { method: "POST", body: {} });
  return Array.isArray(answer.links) ? answer.links : [];
}

const linkLabel = (link) => (link.name && link.name !== link.player_id ? `${link.name} (${link.player_id})` : link.player_id);

function copyButton(url, label) {
  const copy = h("button", { type: "button", "aria-label": `Copy ${label}'s link` }, "Copy link");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch {
      copy.textContent = "Copy it from the text"; // no clipboard over plain http: the link is shown
    }
  });
  return copy;
}

/** Fill `out` with one figure per link: its QR code, the player, the link and "Copy link".
 * `withGameLink`: also the game's own address, for the device that set the table up. */
export async function showPlayerLinks(out, gameId, links, { withGameLink = false } = {}) {
  const root = await publicBase();
  const figures = [];
  for (const link of links) {
    const url = root + link.path;
    const label = linkLabel(link);
    figures.push(
      h(
        "figure",
        { class: "player-link", dataset: { player: link.player_id, url } },
        await qrImage(url, `QR code of ${label}'s link`),
        h("figcaption", {},
          h("b", { text: label }),
          h("a", { class: "link-url", href: url, target: "_blank", rel: "noopener noreferrer", text: url }),
          copyButton(url, label),
        ),
      ),
    );
  }
  const gameUrl = `${location.origin}/games/${enc(gameId)}`; // this device's own way to the server
  const parts = [
    h("h3", { text: `Links for game ${gameId}`, tabindex: "-1" }),
    h("p", { class: "hint", text: "Each link holds that player's token and is shown only now: scan or print them before leaving this page. Anyone with a link can report as that player. Asking again makes new links; the earlier ones keep working." }),
    h("div", { class: "links" }, figures),
  ];
  if (withGameLink) parts.push(h("p", {}, "The game itself (for this device): ", h("a", { href: gameUrl, text: gameUrl })));
  out.replaceChildren(...parts);
  out.hidden = false;
  out.querySelector("h3").focus();
}
