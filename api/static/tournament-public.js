/* The players' page at /tournaments/{tid}/public, for a phone (390 px): the round clock, "find my
 * table" by name, the pairings of the current round and the standings. It reads the public view
 * (GET /v1/tournaments/{tid}/public): names only, no ids; no token needed when the server's public
 * reads are on (a spectator's or a player's event link otherwise).
 */

import { api } from "./api.js";
import { clearError, showError } from "./banner.js";
import { h, plural } from "./dom.js";
import { mount as mountMatchResult } from "./match-result.js";
import { RoundClock } from "./tournament-clock.js";
import { FinalPanel } from "./tournament-final.js";
import { Token } from "./token.js";
import { playerDecklists } from "./tournament-decklists.js";
import { eventMeta, fingerprint, poll, tPath } from "./tournament-shared.js";

const POLL_MS = 5000;

const fold = (text) => String(text).toLocaleLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").trim();

export function initPublic(root, tid) {
  document.title = `${tid} · Pairings · MTG Ledger`;
  let view = null;
  let shown = null;
  const title = h("h1", { id: "t-title", text: tid });
  const meta = h("p", { class: "meta" });
  const clock = new RoundClock();
  const query = h("input", { id: "t-find", type: "search", name: "name", autocomplete: "off", spellcheck: "false", enterkeyhint: "search" });
  const found = h("div", { id: "t-found", class: "t-found", role: "status", "aria-live": "polite" });
  const find = h(
    "form",
    { id: "t-find-form", class: "t-form", role: "search", "aria-label": "Find my table" },
    h("label", { for: "t-find", text: "Find my table: your name" }),
    h("div", { class: "t-find-row" }, query, h("button", { type: "submit", text: "Find" })),
  );
  const roundTitle = h("h2", { id: "t-pairings-title", text: "Pairings" });
  const pairings = h("ol", { id: "t-pairings", class: "t-pairings" });
  const byes = h("p", { class: "t-byes" });
  const standingsBody = h("tbody");
  const final = new FinalPanel();
  const standingsTitle = h("h2", { id: "t-public-standings-title", text: "Standings" });
  const standingsCaption = h("caption", { class: "visually-hidden", text: "Standings" });

  // A player's event link (#token=…) reports and confirms the match here until the player's own
  // page mounts the panel; for any other token the panel stays hidden (match-result.js).
  const myMatch = h("div", { id: "t-my-match" });
  const decklists = playerDecklists(tid);
  root.replaceChildren(
    h("div", { class: "t-head" }, title, meta),
    final.el,
    h("section", { id: "t-clock", class: "panel t-clock-panel", "aria-label": "Round clock" }, clock.el),
    myMatch,
    h("section", { class: "panel", "aria-label": "Find my table" }, find, found),
    decklists.el,
    h("section", { id: "t-public-pairings", class: "panel", "aria-labelledby": "t-pairings-title" }, roundTitle, pairings, byes),
    h(
      "section",
      { id: "t-public-standings", class: "panel", "aria-labelledby": "t-public-standings-title" },
      standingsTitle,
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "t-standings" },
          standingsCaption,
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col", class: "num", text: "Rank" }),
              h("th", { scope: "col", text: "Player" }),
              h("th", { scope: "col", class: "num", text: "Points" }),
              h("th", { scope: "col", class: "num", text: "W-L-D" }),
            ),
          ),
          standingsBody,
        ),
      ),
    ),
  );

  function search() {
    const wanted = fold(query.value);
    for (const li of pairings.children) li.classList.remove("t-mine");
    if (!wanted || !view) {
      found.replaceChildren();
      return;
    }
    const lines = [];
    for (const p of view.pairings || []) {
      for (const [i, name] of p.names.entries()) {
        if (!fold(name).includes(wanted)) continue;
        const others = p.names.filter((_, j) => j !== i);
        lines.push(h("p", { class: "t-found-line" }, h("b", { text: `${name}: table ${p.table}` }), others.length ? `, against ${others.join(", ")}` : ""));
        const li = pairings.querySelector(`li[data-table="${p.table}"]`);
        if (li) li.classList.add("t-mine");
      }
    }
    for (const name of view.byes || []) {
      if (fold(name).includes(wanted)) lines.push(h("p", { class: "t-found-line" }, h("b", { text: `${name}: a bye` }), " this round (a 2-0 match win)"));
    }
    if (!lines.length) lines.push(h("p", { text: `No one named “${query.value.trim()}” is paired in round ${view.round}.` }));
    found.replaceChildren(...lines);
    const first = pairings.querySelector("li.t-mine");
    if (first) first.scrollIntoView({ block: "nearest" });
  }
  query.addEventListener("input", search);
  find.addEventListener("submit", (e) => {
    e.preventDefault();
    search();
  });

  function render(v) {
    title.textContent = v.name || tid;
    document.title = `${v.name || tid} · Pairings · MTG Ledger`;
    meta.textContent = eventMeta(v);
    roundTitle.textContent = v.round ? `Pairings, round ${v.round}${v.top_cut ? " (top cut)" : ""}` : "Pairings";
    const list = v.pairings || [];
    pairings.replaceChildren(
      ...(list.length
        ? list.map((p) =>
            h(
              "li",
              { dataset: { table: p.table } },
              h("span", { class: "t-table-number", text: `Table ${p.table}` }),
              h("span", { class: "t-names", text: p.names.join(" vs ") }),
              p.reported ? h("span", { class: "status t-status-reported", text: "Reported" }) : "",
            ),
          )
        : [h("li", { class: "hint", text: "The first round is not paired yet." })]),
    );
    byes.textContent = (v.byes || []).length ? `Bye: ${v.byes.join(", ")}` : "";
    // The standings are the Swiss rounds' only, after the last one with every result in (issue 38).
    standingsTitle.textContent = v.swiss_complete ? `Swiss standings after round ${v.swiss_complete}` : "Standings (no results yet)";
    standingsCaption.textContent = `Standings, ${plural(v.round || 0, "round")} paired`;
    final.render(v);
    standingsBody.replaceChildren(
      ...(v.standings || []).map((s) =>
        h(
          "tr",
          {},
          h("td", { class: "num", text: s.rank }),
          h("th", { scope: "row" }, s.name, s.dropped ? h("span", { class: "tag", text: "dropped" }) : ""),
          h("td", { class: "num", text: s.points }),
          h("td", { class: "num", text: s.matches }),
        ),
      ),
    );
    search();
  }

  const load = async () => {
    try {
      view = await api(tPath(tid, "/public"));
      clearError();
    } catch (err) {
      showError(err, "Loading the pairings");
      return;
    }
    const tables = view.pairings || [];
    clock.update(view.clock, null, tables.length > 0 && tables.every((p) => p.reported));
    decklists.load(); // issue 42: the player's own list, and the published ones
    const print = fingerprint(view);
    if (print === shown) return;
    shown = print;
    render(view);
  };
  if (Token.get()) mountMatchResult(myMatch, { tid });
  poll(load, POLL_MS);
  return load;
}
