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
  // [action, button text, the name of the action in the view's `actions` (issue 38)]
  ["start", "Start the clock", "start_clock"],
  ["pause", "Pause the clock", "pause_clock"],
  ["resume", "Resume the clock", "resume_clock"],
  ["end", "End the round (call time)", "end_round"],
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
    const last = (view.rounds || [])[(view.rounds || []).length - 1];
    clock.update(view.clock, view.round_minutes, Boolean(last && last.tables.every((t) => t.result)));
    decklists.load(); // issue 42: its own read, redrawn on its own
    const print = fingerprint(view);
    if (print === shown) return;
    shown = print;
    render(view);
  };

  const title = h("h1", { id: "t-title", text: tid });
  const stageLine = h("p", { id: "t-stage", class: "t-stage", role: "status" });
  const meta = h("p", { class: "meta" });
  const head = h(
    "div",
    { class: "t-head" },
    h(
      "nav",
      { class: "crumb", "aria-label": "Breadcrumb" },
      h("a", { href: "/tournaments", text: "All events" }),
      " · ",
      h("a", { href: "/?event=" + encodeURIComponent(tid), text: "Games of this event" }),
    ),
    title,
    meta,
    stageLine,
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
      onclick: (e) =>
        send(clockStatus, tPath(tid, `/rounds/${view.clock.round}/clock`), { action }, () => `${text}: done.`, e.currentTarget).then(load),
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
  // Said when nothing can be paired now: what the next pairing waits for.
  const pairWait = h("p", { id: "t-pair-wait", class: "t-stage" });
  pairButton.addEventListener("click", () =>
    send(pairStatus, tPath(tid, "/rounds"), {}, (r) => `Round ${r.round} is paired: ${r.tables.length} tables.`, pairButton).then(load),
  );
  cutButton.addEventListener("click", () =>
    send(cutStatus, tPath(tid, "/top_cut"), {}, (r) => `Top-cut round ${r.round} is paired.`, cutButton).then(load),
  );
  const pairing = h(
    "section",
    { id: "t-pairing", class: "panel", "aria-labelledby": "t-pairing-title" },
    h("h2", { id: "t-pairing-title", text: "Pairings" }),
    h("p", { class: "hint", text: "Swiss pairings per MTR: equal points at random, no rematches, one bye at most." }),
    pairWait,
    h("div", { class: "t-action", id: "t-pair-action" }, pairButton, pairStatus),
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
    // Only what the server accepts now (view.actions, issue 38): no "Pair round 2" while
    // round 1 is playing, no top cut before the last Swiss round's results.
    const actions = new Set(v.actions || []);
    for (const button of clockButtons) {
      const [, , name] = CLOCK_ACTIONS.find(([a]) => a === button.dataset.action);
      button.hidden = !actions.has(name);
      button.disabled = button.hidden;
    }
    const cutBegun = (v.rounds || []).some((r) => r.top_cut);
    pairButton.textContent = `Pair round ${(v.rounds || []).length + 1}`;
    document.getElementById("t-pair-action").hidden = !actions.has("pair_round");
    document.getElementById("t-cut-action").hidden = !actions.has("pair_top_cut") && !v.champion;
    cutButton.hidden = !actions.has("pair_top_cut");
    cutButton.textContent = cutBegun ? "Pair the next top-cut round" : `Pair the top ${v.top_cut}`;
    stageLine.textContent = stageText(v);
    const waiting = !actions.has("pair_round") && !actions.has("pair_top_cut");
    pairWait.hidden = !waiting;
    pairWait.textContent = waiting && v.stage !== "finished" ? `${stageText(v)} The next round is paired once every result is in.` : waiting ? stageText(v) : "";
    if (v.champion) say(cutStatus, `Champion: ${nameOf(v, v.champion)}.`);
    results.render(v);
    standings.render(v);
    bracket.render(v);
    roster.render(v);
  }

  poll(load, POLL_MS);
  return load;
}

/** What the event is waiting for, in a sentence, from the server's stage and actions. */
export function stageText(v) {
  const open = (v.rounds || []).length ? v.rounds[v.rounds.length - 1] : null;
  const actions = v.actions || [];
  switch (v.stage) {
    case "registration":
      return "Registration: pair round 1 when everyone is in.";
    case "swiss":
      return actions.includes("pair_round")
        ? `Round ${open.round} is complete: pair round ${open.round + 1}.`
        : `Round ${open.round} of ${v.rounds_planned || "?"} is being played.`;
    case "swiss_finished":
      return `The Swiss rounds are over: pair the top ${v.top_cut}.`;
    case "top_cut":
      return actions.includes("pair_top_cut") ? "The playoff round is complete: pair the next one." : "The top cut is being played.";
    case "finished":
      return v.champion ? `The event is over. Champion: ${nameOf(v, v.champion)}.` : "The event is over: every round is in.";
    default:
      return "";
  }
}
