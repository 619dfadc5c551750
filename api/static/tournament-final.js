/* How the event ended, on the players' page (/tournaments/{tid}/public, 390 px): the champion,
 * the top-cut bracket round by round and the final standings as the server ranks them (the
 * bracket's outcome first, then the Swiss standings: docs/rules.md, Final standings after a top
 * cut). The page ranks nothing itself; it shows the public view's `champion`, `bracket` and
 * `final_standings` (issue 38, item 13).
 */

import { h } from "./dom.js";

const STAGE_NAMES = { 8: "Quarterfinals", 4: "Semifinals", 2: "Final" };
const REACHED = { 1: "Champion", 2: "Finalist", 4: "Semifinalist", 8: "Quarterfinalist" };

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

export class FinalPanel {
  constructor() {
    this.champion = h("p", { id: "t-champion", class: "t-champion", role: "status" });
    this.bracket = h("div", { id: "t-public-bracket", class: "t-bracket" });
    this.body = h("tbody");
    this.standings = h(
      "section",
      { id: "t-final-standings", class: "panel", "aria-labelledby": "t-final-title", hidden: true },
      h("h2", { id: "t-final-title", text: "Final standings" }),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "t-standings" },
          h("caption", { class: "visually-hidden", text: "Final standings: the top cut by its outcome, then the Swiss standings" }),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col", class: "num", text: "Place" }),
              h("th", { scope: "col", text: "Player" }),
              h("th", { scope: "col", text: "Top cut" }),
              h("th", { scope: "col", class: "num", text: "Swiss W-L-D" }),
            ),
          ),
          this.body,
        ),
      ),
    );
    this.cut = h(
      "section",
      { id: "t-public-cut", class: "panel", "aria-labelledby": "t-public-cut-title", hidden: true },
      h("h2", { id: "t-public-cut-title", text: "Top cut" }),
      this.champion,
      this.bracket,
    );
    this.el = h("div", { class: "t-final" }, this.cut, this.standings);
  }

  render(view) {
    const rounds = view.bracket || [];
    this.cut.hidden = rounds.length === 0;
    this.champion.textContent = view.champion ? `Champion: ${view.champion}` : "";
    this.champion.hidden = !view.champion;
    this.bracket.replaceChildren(
      ...rounds.map((r) =>
        h(
          "section",
          { class: "t-bracket-round", "aria-label": STAGE_NAMES[r.cut] || `Round ${r.round}` },
          h("h3", { text: STAGE_NAMES[r.cut] || `Top ${r.cut}` }),
          h(
            "ol",
            {},
            r.tables.map((t) =>
              h(
                "li",
                { dataset: { table: t.table } },
                h("span", { class: "t-names" }, ...t.names.flatMap((name, i) => [i ? " vs " : "", name === t.winner ? h("b", { text: name }) : name])),
                h("span", { class: "hint", text: t.wins ? ` ${t.wins.join("-")}` : " (playing)" }),
              ),
            ),
          ),
        ),
      ),
    );
    const placed = view.final_standings || [];
    this.standings.hidden = !view.champion || placed.length === 0;
    this.body.replaceChildren(
      ...placed.map((p) =>
        h(
          "tr",
          { dataset: { place: p.place } },
          h("td", { class: "num", text: ordinal(p.place) }),
          h("th", { scope: "row" }, p.name, p.dropped ? h("span", { class: "tag", text: "dropped" }) : ""),
          h("td", { text: REACHED[p.reached] || "" }),
          h("td", { class: "num", text: p.matches }),
        ),
      ),
    );
  }
}
