/* The scorekeeper's results grid: one row per table of the chosen round (the latest by default)
 * with its players by name, its status (pending, reported, extended, featured), its result, the
 * judges' extension and the table's own time left, its games with "Next game" (the match's next
 * game, once the latest has ended), "Feature"/"Unfeature"; and the form that reports a result,
 * corrects one (with the reason, on the record: a correction is a new event, never an edit) or
 * records an intentional draw (MTR 2.4). Above the grid, the players' reports waiting for the
 * opponent and the disputes (GET …/reports), each with "Settle"; the form is prefilled from the
 * players' report or the games the ledger recorded (GET …/rounds/{r}/tables/{t}/report), and
 * takes a reason (needed for a correction and to settle a dispute; issue 38).
 */

import { api } from "./api.js";
import { h, plural } from "./dom.js";
import { formatSeconds } from "./tournament-clock.js";
import { nameOf, resultText, say, send, STATUS_NAMES, statusLine, tPath } from "./tournament-shared.js";

const MAX_GAMES = 5;

export class ResultsGrid {
  constructor(tid, clock, reload) {
    this.tid = tid;
    this.clock = clock;
    this.reload = reload;
    this.view = null;
    this.round = null; // the round shown; null follows the latest
    this.chosen = null; // {round, table} the form is for
    this.select = h("select", { id: "t-round-select", onchange: () => this.pick(Number(this.select.value)) });
    this.summary = h("p", { class: "summary", role: "status" });
    this.body = h("tbody");
    this.byes = h("p", { class: "t-byes" });
    this.form = h("form", { id: "t-result-form", class: "t-form", hidden: true, novalidate: true });
    this.status = statusLine("t-result-status");
    this.reports = h("ul", { id: "t-reports", class: "t-reports", "aria-label": "Players' reports waiting and disputes" });
    this.el = h(
      "section",
      { id: "t-results", class: "panel", "aria-labelledby": "t-results-title" },
      h(
        "div",
        { class: "t-section-head" },
        h("h2", { id: "t-results-title", text: "Results" }),
        h("label", { for: "t-round-select", text: "Round" }),
        this.select,
      ),
      this.summary,
      this.reports,
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "t-grid", id: "t-grid" },
          h("caption", { class: "visually-hidden", text: "The tables of the round and their results" }),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Table", "Players", "Status", "Result", "Time", "Games", ""].map((c) => h("th", { scope: "col", text: c })),
            ),
          ),
          this.body,
        ),
      ),
      this.byes,
      this.form,
      this.status,
    );
    clock.onTick((left) => this.tick(left));
  }

  pick(number) {
    const rounds = this.view.rounds || [];
    this.round = number === rounds.length ? null : number;
    this.render(this.view);
  }

  shownRound() {
    const rounds = this.view.rounds || [];
    const number = this.round ?? rounds.length;
    return rounds.find((r) => r.round === number) || null;
  }

  render(view) {
    this.view = view;
    const rounds = view.rounds || [];
    const rnd = this.shownRound();
    this.select.replaceChildren(
      ...rounds.map((r) => h("option", { value: r.round, text: `${r.round}${r.top_cut ? " (top cut)" : ""}` })),
    );
    this.select.disabled = rounds.length === 0;
    if (!rnd) {
      this.summary.textContent = "No round is paired yet.";
      this.body.replaceChildren();
      this.byes.textContent = "";
      return;
    }
    this.select.value = String(rnd.round);
    const done = rnd.tables.filter((t) => t.result).length;
    this.summary.textContent = `Round ${rnd.round}: ${done} of ${plural(rnd.tables.length, "result")} in.`;
    this.body.replaceChildren(...rnd.tables.map((t) => this.row(rnd, t)));
    const byes = (rnd.byes || []).map((pid) => nameOf(view, pid));
    this.byes.textContent = byes.length ? `Bye (a 2-0 match win): ${byes.join(", ")}` : "";
    if (this.chosen) {
      const table = rnd.round === this.chosen.round && rnd.tables.find((t) => t.table === this.chosen.table);
      if (!table) this.close();
    }
    this.tick(this.clock.remaining()); // a redrawn row shows its time now, not at the next tick
    this.loadReports();
  }

  async loadReports() {
    let answer;
    try {
      answer = await api(tPath(this.tid, "/reports"));
    } catch {
      return; // the grid's own reads report a failure
    }
    this.reports.replaceChildren(
      ...answer.reports.map((r) => {
        const names = Object.fromEntries(r.players.map((p) => [p.player_id, p.name]));
        const score = r.players.map((p) => r.report.wins[p.player_id] ?? 0).join("-") + (r.report.draws ? `-${r.report.draws}` : "");
        const what =
          r.state === "disputed"
            ? `disputed by ${names[r.report.disputed_by] || r.report.disputed_by}${r.report.note ? `: “${r.report.note}”` : ""}`
            : `waiting for the opponent to confirm`;
        return h(
          "li",
          { dataset: { state: r.state, table: r.table, round: r.round } },
          h("b", { text: `Round ${r.round}, table ${r.table}` }),
          ` ${names[r.report.player] || r.report.player} reported ${score}, ${what} `,
          h("button", { type: "button", text: r.state === "disputed" ? "Settle" : "Enter", onclick: () => this.open(r.round, r.table) }),
        );
      }),
    );
  }

  row(rnd, table) {
    const status = table.status || "pending";
    const label = `${table.result ? "Correct" : "Enter"} the result of table ${table.table}`;
    return h(
      "tr",
      { dataset: { table: table.table, status } },
      h("th", { scope: "row", class: "num", text: table.table }),
      h("td", { class: "t-names", text: table.names.join(" vs ") }),
      h("td", {}, h("span", { class: `status t-status-${status}`, text: STATUS_NAMES[status] || status })),
      h(
        "td",
        { class: "t-result" },
        resultText(table),
        table.corrections ? h("span", { class: "hint", text: ` (corrected ${plural(table.corrections, "time")})` }) : "",
      ),
      h("td", {
        class: "t-time",
        dataset: { extension: table.extension_minutes || 0 },
        text: table.extension_minutes ? `+${table.extension_minutes} min` : "",
      }),
      h(
        "td",
        { class: "t-games" },
        (table.games || []).map((g, i) => h("a", { href: "/games/" + encodeURIComponent(g), text: `Game ${i + 1}` })),
        // The server decides whether the match may have another game (its latest game over, no
        // result, a game left of the best-of-N); a refusal shows under the grid.
        table.result
          ? ""
          : h("button", {
              type: "button",
              class: "t-next-game",
              text: "Next game",
              "aria-label": `Next game of table ${table.table}`,
              onclick: () => this.nextGame(rnd.round, table.table),
            }),
      ),
      h(
        "td",
        { class: "t-buttons" },
        h("button", { type: "button", text: table.result ? "Correct" : "Enter result", "aria-label": label, onclick: () => this.open(rnd.round, table.table) }),
        h("button", {
          type: "button",
          class: "t-feature",
          text: table.featured ? "Unfeature" : "Feature",
          "aria-label": `${table.featured ? "Unfeature" : "Feature"} table ${table.table}`,
          onclick: () => this.feature(rnd.round, table.table, !table.featured),
        }),
      ),
    );
  }

  async nextGame(round, number) {
    await send(this.status, tPath(this.tid, `/rounds/${round}/tables/${number}/games`), {}, (t) => `Created game ${t.game} of table ${number}.`);
    this.reload();
  }

  async feature(round, number, featured) {
    const done = (t) => `Table ${number} is ${t.featured ? "featured" : "no longer featured"}.`;
    await send(this.status, tPath(this.tid, `/rounds/${round}/tables/${number}/featured`), { featured }, done);
    this.reload();
  }

  /** Each table with an extension shows its own time left: the round's plus its minutes. */
  tick(left) {
    const rnd = this.view && this.shownRound();
    const current = this.view && (this.view.rounds || []).length === (rnd && rnd.round);
    for (const cell of this.body.querySelectorAll("td.t-time")) {
      const extra = Number(cell.dataset.extension) || 0;
      if (!extra) continue;
      const own = left === null || !current ? "" : `: ${formatSeconds(Math.max(left + extra * 60, 0))} left`;
      cell.textContent = `+${extra} min${own}`;
    }
  }

  open(round, number) {
    const rnd = (this.view.rounds || []).find((r) => r.round === round);
    const table = rnd && rnd.tables.find((t) => t.table === number);
    if (!table) return;
    this.chosen = { round, table: number };
    const correcting = Boolean(table.result);
    const wins = table.players.map((pid, i) =>
      h(
        "div",
        { class: "field small" },
        h("label", { for: `t-wins-${pid}`, text: `Games won by ${table.names[i]}` }),
        h("input", {
          id: `t-wins-${pid}`,
          name: pid,
          type: "number",
          min: 0,
          max: MAX_GAMES,
          inputmode: "numeric",
          value: table.result ? table.result.wins[pid] ?? 0 : "",
          required: true,
        }),
      ),
    );
    const draws = h("input", { id: "t-draws", name: "draws", type: "number", min: 0, max: MAX_GAMES, inputmode: "numeric", value: table.result ? table.result.draws : 0 });
    const reason = h("input", { id: "t-reason", name: "reason", type: "text", maxlength: 200, required: correcting });
    const intentional = correcting
      ? null
      : h("button", {
          type: "button",
          text: "Intentional draw (MTR 2.4)",
          onclick: () => this.submit(round, number, "/intentional_draw", {}, "Recorded an intentional draw"),
        });
    this.form.replaceChildren(
      h(
        "fieldset",
        {},
        h("legend", { text: `Round ${round}, table ${number}: ${table.names.join(" vs ")}` }),
        h("div", { class: "t-fields" }, wins, h("div", { class: "field small" }, h("label", { for: "t-draws", text: "Drawn games" }), draws)),
        h("div", { class: "field" }, h("label", { for: "t-reason", text: correcting ? "Why the correction (on the record)" : "Reason (on the record; needed to settle a dispute)" }), reason),
        h("p", { id: "t-prefill", class: "hint" }),
        h(
          "div",
          { class: "t-buttons" },
          h("button", { type: "submit", text: correcting ? "Correct the result" : "Report the result" }),
          intentional,
          h("button", { type: "button", text: "Cancel", onclick: () => this.close() }),
        ),
      ),
    );
    this.form.onsubmit = (e) => {
      e.preventDefault();
      const body = { wins: {}, draws: Number(draws.value) || 0 };
      for (const pid of table.players) {
        const value = this.form.elements[pid].value.trim();
        if (value === "") return say(this.status, `Enter the games won by each player.`, true);
        body.wins[pid] = Number(value);
      }
      if (correcting) {
        body.reason = reason.value.trim();
        if (!body.reason) return say(this.status, "A correction needs its reason (it goes on the record).", true);
        return this.submit(round, number, "/correction", body, "Corrected the result");
      }
      if (reason.value.trim()) body.reason = reason.value.trim();
      return this.submit(round, number, "/result", body, "Reported the result");
    };
    if (!correcting) this.prefill(round, number, table);
    this.form.hidden = false;
    say(this.status, "");
    this.form.querySelector("input").focus();
  }

  /** Fill the empty fields from the players' report, else from the games the ledger recorded. */
  async prefill(round, number, table) {
    let form;
    try {
      form = await api(tPath(this.tid, `/rounds/${round}/tables/${number}/report`));
    } catch {
      return;
    }
    if (!this.chosen || this.chosen.round !== round || this.chosen.table !== number) return;
    const from = form.report || form.prefill;
    const played = Object.values(from.wins).some((n) => n > 0) || from.draws > 0;
    // Only into an untouched form: what the scorekeeper typed meanwhile stays.
    if (!played || table.players.some((pid) => !this.form.elements[pid] || this.form.elements[pid].value !== "")) return;
    for (const pid of table.players) this.form.elements[pid].value = String(from.wins[pid] ?? 0);
    const draws = this.form.elements.draws;
    if (draws) draws.value = String(from.draws);
    const hint = this.form.querySelector("#t-prefill");
    if (hint) {
      hint.textContent = form.report
        ? `Prefilled from ${form.players.find((p) => p.player_id === form.report.player)?.name || form.report.player}'s report (${form.state}).`
        : "Prefilled from the games the ledger recorded.";
    }
  }

  async submit(round, number, rest, body, done) {
    const answer = await send(
      this.status,
      tPath(this.tid, `/rounds/${round}/tables/${number}${rest}`),
      body,
      (t) => `${done} of table ${number}: ${resultText(t)}.`,
    );
    if (answer) this.close(false);
    this.reload();
  }

  close(clearStatus = true) {
    this.chosen = null;
    this.form.hidden = true;
    this.form.replaceChildren();
    if (clearStatus) say(this.status, "");
  }
}
