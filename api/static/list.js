/* The games list at `/`: filter by event, round, table and status, kept in the address. */

import { api, enc } from "./api.js";
import { clearError, showError } from "./banner.js";
import { $, formatTime, h, plural } from "./dom.js";
import { statusName, variantName } from "./labels.js";
import { initSetup } from "./setup.js";
import { RANK, rankOf } from "./store.js";

const FILTERS = ["event", "round", "table", "status"];

/** Show the list; returns the function that loads it again (after a token change). */
export function initList() {
  $("#list-view").hidden = false;
  document.title = "Games · MTG Ledger";
  const form = $("#filters");
  const query = new URLSearchParams(location.search);
  for (const name of FILTERS) form.elements[name].value = query.get(name) || "";

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const params = filterParams(form);
    history.replaceState(null, "", "/" + (params.toString() ? "?" + params : ""));
    loadList(params);
  });
  // The reset event fires before the fields are cleared: filter once they are.
  form.addEventListener("reset", () => setTimeout(() => form.requestSubmit(), 0));
  $("#open-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = $("#open-id").value.trim();
    if (id) location.assign("/games/" + enc(id));
  });
  const reload = () => loadList(filterParams(form));
  // The list is a read model: a game created a moment ago shows after the next write is folded.
  const showSetup = initSetup(() => setTimeout(reload, 300));
  const whoAmI = () =>
    api("/v1/whoami").then(
      (who) => {
        showSetup(who);
        linkTournaments(who);
      },
      () => showSetup(null),
    );
  $("#list-refresh").addEventListener("click", reload);
  whoAmI();
  reload();
  return () => {
    whoAmI();
    reload();
  };
}

let tournaments = new Set(); // the events that are tournaments here: their event cell links to its page

/** Scorekeepers and above read the tournaments: an event that is one links to its event page. */
async function linkTournaments(who) {
  if (rankOf(who) < RANK.scorekeeper) return;
  const events = document.getElementById("list-events");
  if (events) events.hidden = false;
  try {
    // Every page of the list (GET /v1/tournaments pages it, newest first).
    const found = [];
    let after = null;
    do {
      const answer = await api("/v1/tournaments" + (after ? "?after=" + enc(after) : ""));
      found.push(...(answer.tournaments || []).map((t) => String(t.id)));
      after = answer.next || null;
    } while (after);
    tournaments = new Set(found);
  } catch {
    return; // no link, the event's name stays as text
  }
  for (const cell of document.querySelectorAll("#games-table td.event")) cell.replaceChildren(eventCell(cell.dataset.event));
}

function eventCell(event) {
  if (!event || !tournaments.has(event)) return event || "";
  return h("a", { href: "/tournaments/" + enc(event), title: "The tournament's scorekeeper page", text: event });
}

function filterParams(form) {
  const params = new URLSearchParams();
  for (const name of FILTERS) {
    const value = String(form.elements[name].value || "").trim();
    if (value) params.set(name, value);
  }
  return params;
}

async function loadList(params) {
  const summary = $("#list-summary");
  const body = $("#games-table tbody");
  summary.textContent = "Loading the games…";
  let games;
  try {
    const answer = await api("/v1/games" + (params.toString() ? "?" + params : ""));
    games = Array.isArray(answer.games) ? answer.games : [];
    clearError();
  } catch (err) {
    showError(err, "Loading the games");
    summary.textContent = "The games could not be loaded.";
    body.replaceChildren();
    return;
  }
  const filtered = params.toString() ? " matching the filter" : "";
  summary.textContent = games.length ? `${plural(games.length, "game")}${filtered}.` : `No games${filtered}.`;
  body.replaceChildren(...games.map(gameRow));
  fillPlayers(games);
}

const names = new Map(); // game id -> {version, text}: the players' names at that version
const NAME_REQUESTS = 4; // at most this many asked at once

/** The players' names of each listed game, from its state (the list's read model holds ids). */
async function fillPlayers(games) {
  const queue = games.slice();
  const worker = async () => {
    while (queue.length) {
      const game = queue.shift();
      const id = String(game.game_id);
      let known = names.get(id);
      if (!known || known.version !== game.version) {
        try {
          const answer = await api(`/v1/games/${enc(id)}`);
          const players = Object.entries(answer.state.players || {});
          known = {
            version: game.version,
            text: players.map(([pid, p]) => p.name || pid).join(", "),
            byId: Object.fromEntries(players.map(([pid, p]) => [pid, p.name || pid])),
          };
          names.set(id, known);
        } catch {
          known = { version: -1, text: "", byId: {} };
        }
      }
      const row = document.querySelector(`#games-table tr[data-game-id="${CSS.escape(id)}"]`);
      if (!row) continue;
      row.querySelector("td.players").textContent = known.text;
      row.querySelector("td.winners").textContent = winnersText(game, known.byId);
    }
  };
  await Promise.all(Array.from({ length: NAME_REQUESTS }, worker));
}

/** The winners by name where the game's players are known, else by id. */
function winnersText(game, byId) {
  return Array.isArray(game.winners) ? game.winners.map((w) => byId[w] || w).join(", ") : "";
}

function gameRow(game) {
  const id = String(game.game_id);
  const status = game.status || "";
  const winners = winnersText(game, names.has(id) ? names.get(id).byId : {});
  return h(
    "tr",
    { dataset: { gameId: id } },
    h("th", { scope: "row" }, h("a", { href: "/games/" + enc(id), text: id })),
    // data-label: the column's name, shown before the value where the rows are cards (phones).
    h("td", { class: "players", dataset: { label: "Players" }, text: names.has(id) ? names.get(id).text : "" }),
    h("td", { class: "event", dataset: { event: game.event ?? "", label: "Event" } }, eventCell(game.event ?? "")),
    h("td", { class: "num", dataset: { label: "Round" }, text: game.round ?? "" }),
    h("td", { class: "num", dataset: { label: "Table" }, text: game.table ?? "" }),
    h("td", { class: "opt", dataset: { label: "Variant" }, text: variantName(game.variant) }),
    h("td", { dataset: { label: "Status" } }, h("span", { class: "status status-" + status, text: statusName(status) })),
    h("td", { class: "opt winners", text: winners }),
    h("td", { class: "num opt", text: game.version ?? "" }),
    h("td", { class: "opt" }, game.updated_at ? h("time", { datetime: game.updated_at, text: formatTime(game.updated_at) }) : ""),
  );
}
