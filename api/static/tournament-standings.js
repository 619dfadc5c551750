/* Standings after each round, as the server ranks them (match points, then OMW%, GW%, OGW% per
 * MTR appendix C: the page computes none of it), with the CSV and JSON exports; and the top-cut
 * bracket, seeded from them, round by round.
 */

import { h, plural } from "./dom.js";
import { download, nameOf, resultText, statusLine, tPath } from "./tournament-shared.js";

const percent = (value) => (typeof value === "number" ? `${(value * 100).toFixed(2)}%` : "");
// A player with no round on the record has only MTR Appendix C's 33% floor for tiebreakers:
// shown as a dash, not as "33.00%" before any match is played (issue 38).
const tiebreak = (s, value) => (s.rounds === 0 ? "–" : percent(value));

/** "Swiss standings after round 2" (the last Swiss round whose results are all in: the server's
 * `swiss_complete`; the top cut's rounds are not in the standings) and how far the next one is. */
export function standingsCaption(rounds, swissComplete = null) {
  const swiss = rounds.filter((r) => !r.top_cut);
  const complete = swiss.filter((r) => r.tables.every((t) => t.result));
  const last = swissComplete ?? (complete.length ? complete[complete.length - 1].round : 0);
  let text = last ? `Swiss standings after round ${last}` : "Standings before the first results";
  const open = swiss.find((r) => r.round > last);
  if (open) text += ` (round ${open.round}: ${open.tables.filter((t) => t.result).length} of ${plural(open.tables.length, "result")} in)`;
  return text;
}

export class Standings {
  constructor(tid) {
    this.tid = tid;
    this.caption = h("caption", { id: "t-standings-caption" });
    this.body = h("tbody");
    this.status = statusLine("t-export-status");
    const exportButton = (text, rest, filename, accept) =>
      h("button", { type: "button", text, onclick: () => download(this.status, tPath(tid, rest), filename, accept) });
    this.el = h(
      "section",
      { id: "t-standings", class: "panel", "aria-labelledby": "t-standings-title" },
      h("h2", { id: "t-standings-title", text: "Standings" }),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "t-standings" },
          this.caption,
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
              h("th", { scope: "col", class: "num", title: "Opponents' match-win percentage", text: "OMW" }),
              h("th", { scope: "col", class: "num", title: "Game-win percentage", text: "GW" }),
              h("th", { scope: "col", class: "num", title: "Opponents' game-win percentage", text: "OGW" }),
            ),
          ),
          this.body,
        ),
      ),
      h(
        "div",
        { class: "t-buttons", role: "group", "aria-label": "Exports" },
        exportButton("Standings (CSV)", "/standings.csv", `${tid}-standings.csv`, "text/csv"),
        exportButton("Standings (JSON)", "/standings", `${tid}-standings.json`, "application/json"),
        exportButton("Results (CSV)", "/results.csv", `${tid}-results.csv`, "text/csv"),
      ),
      this.status,
    );
  }

  render(view) {
    this.caption.textContent = standingsCaption(view.rounds || [], view.swiss_complete);
    this.body.replaceChildren(
      ...(view.standings || []).map((s) =>
        h(
          "tr",
          { dataset: { player: s.player_id } },
          h("td", { class: "num", text: s.rank }),
          h("th", { scope: "row" }, s.name, s.dropped ? h("span", { class: "tag", text: "dropped" }) : ""),
          h("td", { class: "num", dataset: { field: "points" }, text: s.points }),
          h("td", { class: "num", text: s.matches }),
          h("td", { class: "num", text: tiebreak(s, s.omw) }),
          h("td", { class: "num", text: tiebreak(s, s.gw) }),
          h("td", { class: "num", text: tiebreak(s, s.ogw) }),
        ),
      ),
    );
  }
}

const STAGE_NAMES = { 8: "Quarterfinals", 4: "Semifinals", 2: "Final" };

export class Bracket {
  constructor() {
    this.rounds = h("div", { class: "t-bracket" });
    this.champion = h("p", { class: "t-champion" });
    this.el = h(
      "section",
      { id: "t-bracket", class: "panel", "aria-labelledby": "t-bracket-title", hidden: true },
      h("h2", { id: "t-bracket-title", text: "Top cut" }),
      this.champion,
      this.rounds,
    );
  }

  render(view) {
    const cut = (view.rounds || []).filter((r) => r.top_cut);
    this.el.hidden = cut.length === 0;
    this.champion.textContent = view.champion ? `Champion: ${nameOf(view, view.champion)}` : "";
    this.rounds.replaceChildren(
      ...cut.map((r) =>
        h(
          "section",
          { class: "t-bracket-round", "aria-label": STAGE_NAMES[r.cut] || `Round ${r.round}` },
          h("h3", { text: `${STAGE_NAMES[r.cut] || "Top " + r.cut} (round ${r.round})` }),
          h(
            "ol",
            {},
            r.tables.map((t) =>
              h(
                "li",
                { dataset: { table: t.table } },
                h("span", { class: "t-names", text: t.names.join(" vs ") }),
                h("span", { class: "hint", text: t.result ? ` ${resultText(t)}` : " (playing)" }),
              ),
            ),
          ),
        ),
      ),
    );
  }
}
