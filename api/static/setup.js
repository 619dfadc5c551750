/* Setting up a table from the games list (scorekeeper or above): create a game (variant, players
 * and their names, the match: REL and best-of, the decks' size and the starting life, event,
 * round and table), then hand each player their link, which holds that player's token in its
 * fragment, as a QR code to scan at the table.
 *
 * The game is made with POST /v1/games with `deck_size` and no library: the server gives each
 * player a paper start, an unknown library of the deck's size less an opening hand of seven
 * (docs/api.md, Games). A form that sent an empty library (the API's v1 meaning of `library: []`)
 * would make the first draw lose the game (CR 704.5b). The links come from POST
 * /v1/games/{id}/player-links (the scorekeeper who created the game, or a judge) and are drawn by
 * qr-links.js; the secrets are shown once.
 */

import { api, describeError } from "./api.js";
import { lookUpCard } from "./card-picker.js";
import { $, h } from "./dom.js";
import { newKey } from "./queue.js";
import { makePlayerLinks, showPlayerLinks } from "./qr-links.js";
import { RANK, rankOf } from "./store.js";

const TEAM_VARIANTS = new Set(["two_headed_giant", "archenemy"]);
const DEFAULT_PLAYERS = { two_player: 2, multiplayer: 4, two_headed_giant: 4, archenemy: 4, commander: 4 };
// Starting life (CR 119.1; a Two-Headed Giant team 30, CR 810.4; Commander 40, CR 903.7; the
// archenemy 40, CR 904.5, which the server sets itself: the field is the heroes').
const STARTING_LIFE = { two_player: 20, multiplayer: 20, two_headed_giant: 30, archenemy: 20, commander: 40 };
const LIFE_LABEL = {
  two_headed_giant: "Starting life (each team)",
  archenemy: "Starting life (each hero; the archenemy 40)",
};
// Decks: 60 cards Constructed, 40 Limited (the formats' minimums), 100 Commander (CR 903.5a).
const DECK_FOR_VARIANT = (variant) => (variant === "commander" ? 100 : 60);
// A match of several games is kept by the server's matches read model (best of 1, 3 or 5, MTR
// 2.1) for two players; a multiplayer game, a pod or a team game is one game here.
const MATCH_VARIANTS = new Set(["two_player"]);

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

function playerRow(index, variant, name = "", team = "", commander = undefined) {
  const id = `P${index + 1}`;
  const teams = TEAM_VARIANTS.has(variant);
  // Commander (CR 903): each player's commander, by its catalog name or as printed; a second one
  // (partner, a background) after a "+". One the catalog doesn't know is sent with the type line
  // and mana cost (its colours) given under it (docs/api.md, Cards).
  const commanders = variant === "commander" ? commanderField(id, index, commander) : null;
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

/** A player's commander: the name(s), what the catalog says of them, and the type picker. */
function commanderField(id, index, value) {
  const { name = "", line = "Legendary Creature", cost = "" } = value || {};
  const status = h("span", { class: "hint card-status", id: `setup-commander-status-${id}`, dataset: { commanderStatus: id }, "aria-live": "polite" });
  const input = h("input", {
    id: `setup-commander-${id}`, name: `commander-${id}`, type: "text", value: name, required: true, autocomplete: "off",
    spellcheck: "false", placeholder: "Atraxa, Grand Unifier", "aria-describedby": status.id,
  });
  const types = h(
    "details",
    { class: "type-picker commander-type", dataset: { commanderType: id } },
    h("summary", { text: `Type and colours of player ${index + 1}'s commander (one the catalog doesn't know)` }),
    h("span", { class: "field" }, h("label", { for: `setup-commander-line-${id}`, text: `Type line of player ${index + 1}'s commander` }),
      h("input", { id: `setup-commander-line-${id}`, name: `commander-line-${id}`, type: "text", value: line, autocomplete: "off", spellcheck: "false" })),
    h("span", { class: "field" }, h("label", { for: `setup-commander-cost-${id}`, text: `Mana cost of player ${index + 1}'s commander (its colours)` }),
      h("input", { id: `setup-commander-cost-${id}`, name: `commander-cost-${id}`, type: "text", value: cost, autocomplete: "off", spellcheck: "false", placeholder: "{2}{G}{U}" })),
  );
  let timer = 0;
  const check = () => describeCommanders(input, status, types);
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(check, 350);
  });
  input.addEventListener("change", check);
  if (name) check();
  return h("div", { class: "field setup-commander" },
    h("label", { for: input.id, text: `Player ${index + 1} commander` }), input, status, types);
}

const commanderNames = (text) => String(text).split("+").map((c) => c.trim()).filter(Boolean);

/** Ask the catalog about each name in a commander field; say what it found, and open the type
 * picker for a name it doesn't know. Returns the names it doesn't know. */
async function describeCommanders(input, status, types) {
  const names = commanderNames(input.value);
  const found = await Promise.all(names.map((n) => lookUpCard(n)));
  if (commanderNames(input.value).join("+") !== names.join("+")) return []; // typed on meanwhile
  const unknown = names.filter((_, i) => found[i] === null);
  if (!names.length) status.textContent = "";
  else if (unknown.length) {
    status.textContent = `Not in the catalog: ${unknown.join(", ")}. Sent with the type line and mana cost below.`;
    types.open = true;
  } else if (found.every(Boolean)) status.textContent = "In the catalog.";
  else status.textContent = "";
  status.classList.toggle("warn-text", unknown.length > 0);
  return unknown;
}

/** The `commanders` of a row: catalog names as they are; a name the catalog doesn't know as
 * {name, type_line, mana_cost?}; or {error}. */
async function commandersOfRow(row) {
  const input = row.querySelector("input[name^=commander-]:not([name^=commander-line-]):not([name^=commander-cost-])");
  const status = row.querySelector("[data-commander-status]");
  const types = row.querySelector("details[data-commander-type]");
  const unknown = new Set(await describeCommanders(input, status, types));
  const line = row.querySelector("input[name^=commander-line-]").value.trim();
  const cost = row.querySelector("input[name^=commander-cost-]").value.trim();
  const out = [];
  for (const name of commanderNames(input.value)) {
    if (!unknown.has(name)) {
      out.push(name);
      continue;
    }
    if (!line) return { error: `${name} is not in the catalog: give its type line (e.g. Legendary Creature — Elf Warrior).` };
    out.push(cost ? { name, type_line: line, mana_cost: cost } : { name, type_line: line });
  }
  return { commanders: out };
}

/** A random hex string: names a casual match's event when none is given. */
function randomHex(bytes) {
  const out = new Uint8Array(bytes);
  crypto.getRandomValues(out);
  return Array.from(out, (b) => b.toString(16).padStart(2, "0")).join("");
}

const wholeNumber = (text) => (/^\d+$/.test(String(text).trim()) ? Number(String(text).trim()) : null);

/** `onCreated(id)` is called once a game is made (the list asks again). */
export function initSetup(onCreated = () => {}) {
  const section = $("#setup");
  const form = $("#setup-form");
  const rows = $("#setup-players");
  const variant = $("#setup-variant");
  const bestOf = $("#setup-best-of");
  const deck = $("#setup-deck");
  const deckSize = $("#setup-deck-size");
  const life = $("#setup-life");
  let count = DEFAULT_PLAYERS[variant.value];
  // What the person typed stays when the variant changes; a value still at the old variant's
  // default follows the new variant.
  let lifeDefault = STARTING_LIFE[variant.value];
  let deckDefault = DECK_FOR_VARIANT(variant.value);
  let matchLength = bestOf.value; // the person's choice, back when the variant plays matches again

  const draw = () => {
    const names = [...rows.querySelectorAll("input[name^=name-]")].map((el) => el.value);
    const teams = [...rows.querySelectorAll("input[name^=team-]")].map((el) => el.value);
    const commanders = [...rows.querySelectorAll(".setup-player")].map((row) => {
      const value = (name) => (row.querySelector(`input[name^=${name}-]`) || { value: undefined }).value;
      return { name: value("commander"), line: value("commander-line"), cost: value("commander-cost") };
    });
    rows.replaceChildren(...Array.from({ length: count }, (_, i) => playerRow(i, variant.value, names[i] || "", teams[i] || "", commanders[i])));
    $("#setup-remove").disabled = count <= 2;
  };
  const syncDeckPreset = () => {
    const preset = [...deck.options].find((o) => o.value === deckSize.value.trim());
    deck.value = preset ? preset.value : "";
  };
  const followVariant = () => {
    const v = variant.value;
    if (Number(life.value) === lifeDefault || life.value.trim() === "") life.value = String(STARTING_LIFE[v] ?? 20);
    lifeDefault = STARTING_LIFE[v] ?? 20;
    $("#setup-life-label").textContent = LIFE_LABEL[v] || "Starting life";
    if (Number(deckSize.value) === deckDefault || deckSize.value.trim() === "") deckSize.value = String(DECK_FOR_VARIANT(v));
    deckDefault = DECK_FOR_VARIANT(v);
    syncDeckPreset();
    const match = MATCH_VARIANTS.has(v);
    if (!match && !bestOf.disabled) matchLength = bestOf.value;
    bestOf.value = match ? matchLength : "1";
    bestOf.disabled = !match;
    $("#setup-best-of-hint").textContent = match ? "" : "One game: the server keeps matches of several games for two players.";
  };
  variant.addEventListener("change", () => {
    count = DEFAULT_PLAYERS[variant.value] || 2;
    rows.replaceChildren();
    draw();
    followVariant();
  });
  deck.addEventListener("change", () => {
    if (deck.value) deckSize.value = deck.value;
    else deckSize.focus();
  });
  deckSize.addEventListener("input", syncDeckPreset);
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
  followVariant();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const submit = form.querySelector("button[type=submit]");
    if (submit.disabled) return; // a second tap while the catalog is asked about the commanders
    submit.disabled = true;
    try {
      const built = await buildBody();
      if (built.error) {
        status(built.error, true);
        return;
      }
      const { body, note } = built;
      status("Creating the game…");
      const created = await api("/v1/games", { method: "POST", body, headers: { "Idempotency-Key": newKey() } });
      status(`Game ${created.game_id} created. Making the players' links…`);
      const links = await makePlayerLinks(created.game_id);
      await showPlayerLinks($("#setup-links"), created.game_id, links, { withGameLink: true });
      status(`Game ${created.game_id} is ready${note}: give each player their link.`);
      onCreated(created.game_id);
    } catch (err) {
      status(describeError(err), true);
    } finally {
      submit.disabled = false;
    }
  });

  /** The POST /v1/games body the form describes, or {error} for what the person must fix. */
  async function buildBody() {
    const v = variant.value;
    const size = wholeNumber(deckSize.value);
    if (size === null || size < 1) return { error: "Cards in each deck: a whole number of cards (60, 40 for Limited, 100 for Commander)." };
    const startLife = wholeNumber(life.value);
    if (startLife === null || startLife < 1) return { error: "Starting life: a whole number of at least 1." };
    // deck_size and no library: the server's paper start (an unknown library, seven in hand).
    const body = { variant: v, deck_size: size, players: [] };
    const gameId = $("#setup-id").value.trim();
    if (gameId) body.game_id = gameId;
    const changedLife = startLife !== STARTING_LIFE[v];
    const teamSizes = {};
    rows.querySelectorAll(".setup-player").forEach((row) => {
      const team = row.querySelector("input[name^=team-]");
      if (team) teamSizes[team.value.trim()] = (teamSizes[team.value.trim()] || 0) + 1;
    });
    for (const row of rows.querySelectorAll(".setup-player")) {
      const id = row.dataset.player;
      const player = { id };
      const name = row.querySelector("input[name^=name-]").value.trim();
      if (name) player.name = name;
      const team = row.querySelector("input[name^=team-]");
      if (team) player.team = team.value.trim();
      if (row.querySelector(".setup-commander")) {
        const given = await commandersOfRow(row);
        if (given.error) return given;
        player.commanders = given.commanders;
      }
      // A Two-Headed Giant team's life is the team's (below); the archenemy (alone on a team)
      // keeps the 40 the server gives it.
      const hero = v !== "archenemy" || (teamSizes[player.team] || 0) > 1;
      if (changedLife && v !== "two_headed_giant" && hero) player.life = startLife;
      body.players.push(player);
    }
    if (changedLife && v === "two_headed_giant") {
      body.teams = Object.fromEntries(Object.keys(teamSizes).map((t) => [t, { life: startLife }]));
    }
    const tournament = { rel: $("#setup-rel").value, best_of: Number(bestOf.value) || 1 };
    const event = $("#setup-event").value.trim();
    if (event) tournament.event = event;
    for (const key of ["round", "table"]) {
      const value = $(`#setup-${key}`).value.trim();
      if (value !== "") tournament[key] = Number(value);
    }
    let note = "";
    if (tournament.best_of > 1) {
      // The match (its score, its next game) is kept by event, round and table: a casual match
      // gets an event name of its own, round 1, table 1.
      if (!tournament.event) {
        tournament.event = `casual-${randomHex(4)}`;
        note = ` (match ${tournament.event}, round ${tournament.round ?? 1}, table ${tournament.table ?? 1})`;
      }
      if (tournament.round === undefined) tournament.round = 1;
      if (tournament.table === undefined) tournament.table = 1;
    }
    body.tournament = tournament;
    return { body, note };
  }

  return (who) => {
    section.hidden = rankOf(who) < RANK.scorekeeper;
  };
}
