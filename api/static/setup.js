/* Setting up a table from the games list (scorekeeper or above): create a game (variant, players
 * and their names, event, round and table), then hand each player their link, which holds that
 * player's token in its fragment, as a QR code to scan at the table.
 *
 * The game is made with POST /v1/games; the links with POST /v1/games/{id}/player-links (the
 * scorekeeper who created the game, or a judge); each QR code is an SVG drawn by the server
 * (POST /v1/qr, the link in the body, never in a URL). The secrets are shown once.
 */

import { api, describeError, enc, gamePath } from "./api.js";
import { $, h } from "./dom.js";
import { newKey } from "./queue.js";

const TEAM_VARIANTS = new Set(["two_headed_giant", "archenemy"]);
const DEFAULT_PLAYERS = { two_player: 2, multiplayer: 4, two_headed_giant: 4, archenemy: 4, commander: 4 };

function status(text, isError) {
  const out = $("#setup-status");
  out.textContent = text;
  out.classList.toggle("error-text", Boolean(isError));
}

function defaultTeam(variant, index) {
  if (variant === "two_headed_giant") return index < 2 ? "A" : "B";
  if (variant === "archenemy") return index === 0 ? "Archenemy" : "Heroes";
  return "";
}

function playerRow(index, variant, name = "", team = "", commander = "") {
  const id = `P${index + 1}`;
  const teams = TEAM_VARIANTS.has(variant);
  // Commander (CR 903): each player's commander, by its catalog name or as printed; a second one
  // (partner, a background) after a "+".
  const commanders = variant === "commander"
    ? h("span", { class: "field" }, h("label", { for: `setup-commander-${id}`, text: `Player ${index + 1} commander` }),
        h("input", { id: `setup-commander-${id}`, name: `commander-${id}`, type: "text", value: commander, required: true, autocomplete: "off", spellcheck: "false", placeholder: "Atraxa, Grand Unifier" }))
    : null;
  return h(
    "div",
    { class: "setup-player", dataset: { player: id } },
    h("span", { class: "field" }, h("label", { for: `setup-name-${id}`, text: `Player ${index + 1} name` }),
      h("input", { id: `setup-name-${id}`, name: `name-${id}`, type: "text", value: name, autocomplete: "off", spellcheck: "false" })),
    teams
      ? h("span", { class: "field" }, h("label", { for: `setup-team-${id}`, text: `Player ${index + 1} team` }),
          h("input", { id: `setup-team-${id}`, name: `team-${id}`, type: "text", value: team || defaultTeam(variant, index), required: true }))
      : null,
    commanders,
  );
}

/** `onCreated(id)` is called once a game is made (the list asks again). */
export function initSetup(onCreated = () => {}) {
  const section = $("#setup");
  const form = $("#setup-form");
  const rows = $("#setup-players");
  const variant = $("#setup-variant");
  let count = DEFAULT_PLAYERS[variant.value];

  const draw = () => {
    const names = [...rows.querySelectorAll("input[name^=name-]")].map((el) => el.value);
    const teams = [...rows.querySelectorAll("input[name^=team-]")].map((el) => el.value);
    const commanders = [...rows.querySelectorAll("input[name^=commander-]")].map((el) => el.value);
    rows.replaceChildren(...Array.from({ length: count }, (_, i) => playerRow(i, variant.value, names[i] || "", teams[i] || "", commanders[i] || "")));
    $("#setup-remove").disabled = count <= 2;
  };
  variant.addEventListener("change", () => {
    count = DEFAULT_PLAYERS[variant.value] || 2;
    rows.replaceChildren();
    draw();
  });
  $("#setup-add").addEventListener("click", () => {
    count += 1;
    draw();
    rows.lastElementChild.querySelector("input").focus();
  });
  $("#setup-remove").addEventListener("click", () => {
    count = Math.max(2, count - 1);
    draw();
  });
  draw();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { variant: variant.value, players: [] };
    const gameId = $("#setup-id").value.trim();
    if (gameId) body.game_id = gameId;
    rows.querySelectorAll(".setup-player").forEach((row) => {
      const id = row.dataset.player;
      const player = { id };
      const name = row.querySelector("input[name^=name-]").value.trim();
      if (name) player.name = name;
      const team = row.querySelector("input[name^=team-]");
      if (team) player.team = team.value.trim();
      const commander = row.querySelector("input[name^=commander-]");
      if (commander) player.commanders = commander.value.split("+").map((c) => c.trim()).filter(Boolean);
      body.players.push(player);
    });
    const tournament = {};
    const event = $("#setup-event").value.trim();
    if (event) tournament.event = event;
    for (const key of ["round", "table"]) {
      const value = $(`#setup-${key}`).value.trim();
      if (value !== "") tournament[key] = Number(value);
    }
    if (Object.keys(tournament).length) body.tournament = tournament;
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    status("Creating the game…");
    try {
      const created = await api("/v1/games", { method: "POST", body, headers: { "Idempotency-Key": newKey() } });
      status(`Game ${created.game_id} created. Making the players' links…`);
      const answer = await api(gamePath(created.game_id, "/player-links"), { method: "POST", body: {} });
      await showLinks(created.game_id, answer.links);
      status(`Game ${created.game_id} is ready: give each player their link.`);
      onCreated(created.game_id);
    } catch (err) {
      status(describeError(err), true);
    } finally {
      submit.disabled = false;
    }
  });
  return (who) => {
    section.hidden = !(who && ["scorekeeper", "judge", "admin"].includes(who.role));
  };
}

async function qrImage(url, alt) {
  const response = await api("/v1/qr", { method: "POST", body: { text: url }, raw: true, headers: { Accept: "image/svg+xml" } });
  const blob = await response.blob();
  return h("img", { class: "qr", src: URL.createObjectURL(blob), alt, width: 220, height: 220 });
}

async function showLinks(gameId, links) {
  const out = $("#setup-links");
  const gameUrl = `${location.origin}/games/${enc(gameId)}`;
  const figures = [];
  for (const link of links) {
    const url = location.origin + link.path;
    const label = link.name && link.name !== link.player_id ? `${link.name} (${link.player_id})` : link.player_id;
    const copy = h("button", { type: "button", "aria-label": `Copy ${label}'s link` }, "Copy link");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Copy it from the text";
      }
    });
    figures.push(
      h(
        "figure",
        { class: "player-link", dataset: { player: link.player_id, url } },
        await qrImage(url, `QR code of ${label}'s link`),
        h("figcaption", {},
          h("b", { text: label }),
          h("a", { class: "link-url", href: url, target: "_blank", rel: "noopener noreferrer", text: url }),
          copy,
        ),
      ),
    );
  }
  out.replaceChildren(
    h("h3", { text: `Links for game ${gameId}` }),
    h("p", { class: "hint", text: "Each link holds that player's token and is shown only now: scan or print them before leaving this page. Anyone with a link can report as that player." }),
    h("div", { class: "links" }, figures),
    h("p", {}, "The game itself (for this device): ", h("a", { href: gameUrl, text: gameUrl })),
  );
  out.hidden = false;
  out.querySelector("h3").setAttribute("tabindex", "-1");
  out.querySelector("h3").focus();
}
