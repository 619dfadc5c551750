/* The scorekeeper's event page at /tournaments/{tid} (desktop): the round clock and its controls,
 * pairing the next round (or the top cut), the results grid, standings with their exports, the
 * top-cut bracket and the roster. It reads GET /v1/tournaments/{tid} (scorekeeper, judge or
 * admin token) every few seconds and after each write, and redraws only when the view changed,
 * so what someone is typing stays.
 */

import { api } from "./api.js";
import { clearError, showError } from "./banner.js";
import { h } from "./dom.js";
import { RoundClock } from "./tournament-clock.js";
import { ResultsGrid } from "./tournament-results.js";
import { Roster } from "./tournament-roster.js";
import { eventMeta, fingerprint, nameOf, pageHref, poll, say, send, statusLine, tPath } from "./tournament-shared.js";
import { Bracket, Standings } from "./tournament-standings.js";
import { scorekeeperDecklists } from "./tournament-decklists.js";

const POLL_MS = 3000;
const CLOCK_ACTIONS = [
  // [action, button text, the clock states it applies to]
  ["start", "Start the clock", ["not_started"]],
  ["pause", "Pause the clock", ["running"]],
  ["resume", "Resume the clock", ["paused"]],
  ["end", "End the round (call time)", ["running", "paused"]],
];

export function initScorekeeper(root, tid) {
  document.title = `${tid} · Scorekeeper · MTG Ledger`;
  let shown = null;
  let view = null;
  const load = async () => {
    try {
      view = await api(tPath(tid));
      clearError();
    } catch (err) {
      showError(err, "Loading the tournament");
      return;
    }
    clock.update(view.clock, view.round_minutes);
    decklists.load(); // issue 42: its own read, redrawn on its own
    const print = fingerprint(view);
    if (print === shown) return;
    shown = print;
    render(view);
  };

  const title = h("h1", { id: "t-title", text: tid });
  const meta = h("p", { class: "meta" });
  const head = h(
    "div",
    { class: "t-head" },
    h("nav", { class: "crumb", "aria-label": "Breadcrumb" }, h("a", { href: "/?event=" + encodeURIComponent(tid), text: "Games of this event" })),
    title,
    meta,
    h(
      "nav",
      { class: "t-links", "aria-label": "The event's other pages" },
      h("a", { href: pageHref(tid, "public"), text: "Players' page (pairings, standings)" }),
      h("a", { href: pageHref(tid, "floor"), text: "Judges' floor view" }),
    ),
  );

  const clock = new RoundClock();
  const clockStatus = statusLine("t-clock-status");
  const clockButtons = CLOCK_ACTIONS.map(([action, text]) =>
    h("button", {
      type: "button",
      dataset: { action },
      text,
      onclick: () =>
        send(clockStatus, tPath(tid, `/rounds/${view.clock.round}/clock`), { action }, () => `${text}: done.`).then(load),
    }),
  );
  const clockPanel = h(
    "section",
    { id: "t-clock", class: "panel t-clock-panel", "aria-labelledby": "t-clock-title" },
    h("h2", { id: "t-clock-title", text: "Round clock" }),
    clock.el,
    h("div", { class: "t-buttons" }, clockButtons),
    clockStatus,
  );

  const pairButton = h("button", { type: "button", id: "t-pair", class: "primary", text: "Pair the next round" });
  const pairStatus = statusLine("t-pair-status");
  const cutButton = h("button", { type: "button", id: "t-top-cut", text: "Pair the top cut" });
  const cutStatus = statusLine("t-cut-status");
  pairButton.addEventListener("click", () =>
    send(pairStatus, tPath(tid, "/rounds"), {}, (r) => `Round ${r.round} is paired: ${r.tables.length} tables.`).then(load),
  );
  cutButton.addEventListener("click", () =>
    send(cutStatus, tPath(tid, "/top_cut"), {}, (r) => `Top-cut round ${r.round} is paired.`).then(load),
  );
  const pairing = h(
    "section",
    { id: "t-pairing", class: "panel", "aria-labelledby": "t-pairing-title" },
    h("h2", { id: "t-pairing-title", text: "Pairings" }),
    h("p", { class: "hint", text: "Swiss pairings per MTR: equal points at random, no rematches, one bye at most." }),
    h("div", { class: "t-action" }, pairButton, pairStatus),
    h("div", { class: "t-action", id: "t-cut-action", hidden: true }, cutButton, cutStatus),
  );

  const results = new ResultsGrid(tid, clock, load);
  const standings = new Standings(tid);
  const bracket = new Bracket();
  const roster = new Roster(tid, load);
  const decklists = scorekeeperDecklists(tid);

  root.replaceChildren(
    head,
    h(
      "div",
      { class: "t-layout" },
      h("div", { class: "t-main" }, clockPanel, pairing, results.el, bracket.el),
      h("div", { class: "t-side" }, standings.el, roster.el, decklists.el),
    ),
  );

  function render(v) {
    title.textContent = v.name || tid;
    document.title = `${v.name || tid} · Scorekeeper · MTG Ledger`;
    meta.textContent = eventMeta(v);
    const state = v.clock ? v.clock.state : null;
    for (const button of clockButtons) {
      const [, , states] = CLOCK_ACTIONS.find(([a]) => a === button.dataset.action);
      button.disabled = !state || !states.includes(state);
    }
    const swiss = (v.rounds || []).filter((r) => !r.top_cut).length;
    pairButton.textContent = `Pair round ${(v.rounds || []).length + 1}`;
    pairButton.hidden = (v.rounds || []).some((r) => r.top_cut);
    document.getElementById("t-cut-action").hidden = !v.top_cut || swiss === 0;
    cutButton.textContent = (v.rounds || []).some((r) => r.top_cut) ? "Pair the next top-cut round" : `Pair the top ${v.top_cut}`;
    if (v.champion) say(cutStatus, `Champion: ${nameOf(v, v.champion)}.`);
    results.render(v);
    standings.render(v);
    bracket.render(v);
    roster.render(v);
  }

  poll(load, POLL_MS);
  return load;
}
