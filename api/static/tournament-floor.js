/* The judges' floor view at /tournaments/{tid}/floor: the round clock, the event's open judge
 * calls (their count, a link to the judges' page of the event, and each table's own calls), the
 * current round's tables grouped by status (pending, extended, featured, reported), and one
 * player's penalty history across the event, read from the judging records of the games they
 * played (each game's state, `judging.penalties`, docs/judges.md). A judge's (or scorekeeper's)
 * token reads all of it.
 */

import { api, describeError, enc } from "./api.js";
import { clearError, showError } from "./banner.js";
import { h, plural } from "./dom.js";
import { callHref, openCalls } from "./judges-calls.js";
import { RoundClock, formatSeconds } from "./tournament-clock.js";
import { floorDecklists } from "./tournament-decklists.js";
import { eventMeta, fingerprint, poll, resultText, say, STATUS_NAMES, statusLine, tPath } from "./tournament-shared.js";

const POLL_MS = 5000;
const GROUPS = ["pending", "extended", "featured", "reported"];

export function initFloor(root, tid) {
  document.title = `${tid} · Floor · MTG Ledger`;
  let view = null;
  let shown = null;
  let calls = null; // the event's open judge calls (null: not read, or the token may not)
  const title = h("h1", { id: "t-title", text: tid });
  const meta = h("p", { class: "meta" });
  const clock = new RoundClock();
  const roundTitle = h("h2", { id: "t-floor-title", text: "Tables" });
  const callsLine = h("p", { id: "t-calls", class: "t-calls-line", role: "status", hidden: true });
  const groups = h("div", { class: "t-floor-groups" });

  const historyStatus = statusLine("t-history-status");
  const player = h("select", { id: "t-history-player", name: "player" });
  const history = h("ol", { id: "t-history", class: "records" });
  const historyForm = h(
    "form",
    { id: "t-history-form", class: "t-form", "aria-label": "A player's penalty history" },
    h("div", { class: "field" }, h("label", { for: "t-history-player", text: "Player" }), player),
    h("div", { class: "field buttons" }, h("button", { type: "submit", text: "Show the penalty history" })),
  );
  historyForm.addEventListener("submit", (e) => {
    e.preventDefault();
    showHistory(player.value);
  });

  const decklists = floorDecklists(tid);
  root.replaceChildren(
    h(
      "div",
      { class: "t-head" },
      h("nav", { class: "crumb", "aria-label": "Breadcrumb" }, h("a", { href: `/tournaments/${enc(tid)}`, text: "Scorekeeper's page" })),
      title,
      meta,
    ),
    h("section", { id: "t-clock", class: "panel t-clock-panel", "aria-label": "Round clock" }, clock.el),
    h("section", { id: "t-floor", class: "panel", "aria-labelledby": "t-floor-title" }, roundTitle, callsLine, groups),
    decklists.el,
    h(
      "section",
      { id: "t-penalties", class: "panel", "aria-labelledby": "t-penalties-title" },
      h("h2", { id: "t-penalties-title", text: "Penalty history" }),
      historyForm,
      historyStatus,
      history,
    ),
  );

  clock.onTick((left) => {
    for (const el of groups.querySelectorAll("[data-extension]")) {
      const extra = Number(el.dataset.extension);
      el.textContent = `+${extra} min` + (left === null ? "" : `: ${formatSeconds(Math.max(left + extra * 60, 0))} left`);
    }
  });

  /** "2 open judge calls: the judges' page", or nothing for a token that may not read them. */
  function renderCalls() {
    callsLine.hidden = calls === null;
    if (calls === null) return;
    const n = calls.total;
    callsLine.classList.toggle("waiting", n > 0);
    callsLine.replaceChildren(
      h("b", { text: n ? plural(n, "open judge call") : "No open judge calls" }),
      h("a", { href: `/judges?event=${enc(tid)}`, text: "The judges' page of this event" }),
    );
  }

  function render(v) {
    renderCalls();
    title.textContent = v.name || tid;
    document.title = `${v.name || tid} · Floor · MTG Ledger`;
    meta.textContent = eventMeta(v);
    const rounds = v.rounds || [];
    const rnd = rounds[rounds.length - 1];
    roundTitle.textContent = rnd ? `Tables, round ${rnd.round}${rnd.top_cut ? " (top cut)" : ""}` : "Tables";
    groups.replaceChildren(
      ...(rnd
        ? GROUPS.map((status) => {
            const tables = rnd.tables.filter((t) => (t.status || "pending") === status);
            return h(
              "section",
              { class: `t-floor-group t-group-${status}`, dataset: { status }, "aria-label": STATUS_NAMES[status] },
              h("h3", { text: `${STATUS_NAMES[status]} (${tables.length})` }),
              h("ul", {}, tables.length ? tables.map(card) : h("li", { class: "hint", text: "None." })),
            );
          })
        : [h("p", { class: "hint", text: "No round is paired yet." })]),
    );
    const kept = player.value;
    player.replaceChildren(...(v.players || []).map((p) => h("option", { value: p.player_id, text: p.name })));
    if (kept) player.value = kept;
  }

  function card(t) {
    const games = new Set(t.games || []);
    const waiting = calls === null ? [] : calls.calls.filter((c) => games.has(c.game_id));
    return h(
      "li",
      { class: "t-floor-table", dataset: { table: t.table } },
      h("b", { text: `Table ${t.table}` }),
      h("span", { class: "t-names", text: t.names.join(" vs ") }),
      t.result ? h("span", { class: "hint", text: resultText(t) }) : "",
      t.extension_minutes ? h("span", { class: "t-time", dataset: { extension: t.extension_minutes }, text: `+${t.extension_minutes} min` }) : "",
      h("span", { class: "t-games" }, (t.games || []).map((g, i) => h("a", { href: "/games/" + enc(g), text: `Game ${i + 1}` }))),
      waiting.map((c) => h("a", { class: "t-table-call", href: callHref(c.game_id, c.call), dataset: { call: c.call }, text: `Judge call: ${c.caller}` })),
    );
  }

  /** Every penalty of the player in the event's games, round by round. */
  async function showHistory(pid) {
    if (!view || !pid) return;
    const name = (view.players.find((p) => p.player_id === pid) || {}).name || pid;
    const games = [];
    for (const r of view.rounds || []) {
      for (const t of r.tables) {
        if (t.players.includes(pid)) for (const g of t.games || []) games.push({ round: r.round, table: t.table, game: g });
      }
    }
    say(historyStatus, `Reading ${plural(games.length, "game")} of ${name}…`);
    const lines = [];
    try {
      for (const g of games) {
        const answer = await api(`/v1/games/${enc(g.game)}`);
        const judging = (answer.state && answer.state.judging) || {};
        for (const p of judging.penalties || []) {
          if (p.player !== pid) continue;
          lines.push(
            h(
              "li",
              { dataset: { penalty: p.penalty } },
              h("b", { text: `Round ${g.round}, table ${g.table}: ${p.penalty}` }),
              `, IPG ${p.section} ${p.infraction || ""}`.trimEnd(),
              p.reason ? `: ${p.reason}` : "",
              " ",
              h("a", { href: "/games/" + enc(g.game), text: "Open the game" }),
            ),
          );
        }
      }
    } catch (err) {
      say(historyStatus, describeError(err), true);
      return;
    }
    history.replaceChildren(...lines);
    say(historyStatus, `${name}: ${lines.length ? plural(lines.length, "penalty", "penalties") : "no penalties"} in ${plural(games.length, "game")}.`);
  }

  const load = async () => {
    try {
      view = await api(tPath(tid));
      clearError();
    } catch (err) {
      showError(err, "Loading the tournament");
      return;
    }
    try {
      // One indexed read of the open-calls read model: cheap at every poll.
      calls = await openCalls(tid);
    } catch {
      calls = null; // a token that may not read the calls sees the floor without them
    }
    clock.update(view.clock, view.round_minutes);
    decklists.load(); // issue 42: deck checks and the cross-check's judge calls
    const print = fingerprint(view) + JSON.stringify(calls && [calls.total, calls.calls.map((c) => [c.game_id, c.call, c.caller])]);
    if (print === shown) return;
    shown = print;
    render(view);
  };
  poll(load, POLL_MS);
  return load;
}
