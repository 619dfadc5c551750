/* The games list at `/`: filter by event, round, table and status, kept in the address. */

import { api, enc } from "./api.js";
import { clearError, showError } from "./banner.js";
import { $, formatTime, h, plural } from "./dom.js";
import { statusName, variantName } from "./labels.js";
import { initSetup } from "./setup.js";

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
  const showSetup = initSetup();
  const whoAmI = () => api("/v1/whoami").then(showSetup, () => showSetup(null));
  const reload = () => loadList(filterParams(form));
  $("#list-refresh").addEventListener("click", reload);
  whoAmI();
  reload();
  return () => {
    whoAmI();
    reload();
  };
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
}

function gameRow(game) {
  const id = String(game.game_id);
  const status = game.status || "";
  const winners = Array.isArray(game.winners) ? game.winners.join(", ") : "";
  return h(
    "tr",
    { dataset: { gameId: id } },
    h("th", { scope: "row" }, h("a", { href: "/games/" + enc(id), text: id })),
    h("td", { text: game.event ?? "" }),
    h("td", { class: "num", text: game.round ?? "" }),
    h("td", { class: "num", text: game.table ?? "" }),
    h("td", { class: "opt", text: variantName(game.variant) }),
    h("td", {}, h("span", { class: "status status-" + status, text: statusName(status) })),
    h("td", { class: "opt", text: winners }),
    h("td", { class: "num opt", text: game.version ?? "" }),
    h("td", { class: "opt" }, game.updated_at ? h("time", { datetime: game.updated_at, text: formatTime(game.updated_at) }) : ""),
  );
}
