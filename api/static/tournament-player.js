/* The player's own page at /tournaments/{tid}/me, where their event link lands (docs/web.md,
 * The player's link; docs/tournaments.md): "my match now": the round and its clock, the table,
 * the opponent and a link into the game to play now, then the matches so far. It polls the event
 * link's own view (GET /v1/tournaments/{tid}/me) and so follows the player from game to game
 * and round to round; the game page works with the same link (the token stays in this tab's
 * sessionStorage), in the games where the player is seated.
 *
 * A place for other panels (the match result a player reports and confirms, issue 38):
 *
 *   import { addMatchPanel } from "./tournament-player.js";
 *   addMatchPanel((panel, me) => { ... });
 *
 * `addMatchPanel(fn)` registers `fn`, which is called with the panel's element (the empty
 * <section id="t-me-extra"> under the match, which `fn` fills and owns) and the latest view
 * (the /me answer, its `match` the current one) at every view that changed, and once at once
 * if a view was already shown. Registered before or after the page starts, in any order; the
 * page never touches the section's children itself.
 */

import { api } from "./api.js";
import { clearError, showError } from "./banner.js";
import { h } from "./dom.js";
import { RoundClock } from "./tournament-clock.js";
import { playerDecklists } from "./tournament-decklists.js";
import { fingerprint, pageHref, PLAYER_STATUS, poll, tPath } from "./tournament-shared.js";

const POLL_MS = 5000;

const panels = [];
let extra = null; // the <section id="t-me-extra"> of the page, once started
let latest = null; // the latest view shown

function runPanel(fn) {
  try {
    fn(extra, latest);
  } catch (err) {
    console.error("a match panel failed", err); // one panel's failure leaves the page working
  }
}

/** Mount a panel under the player's match: see the module's comment. */
export function addMatchPanel(fn) {
  panels.push(fn);
  if (extra && latest) runPanel(fn);
}

const gameHref = (gameId) => `/games/${encodeURIComponent(gameId)}`;
const opponents = (m) => m.opponents.map((o) => o.name).join(", ") || "no one";

function scoreText(m, me) {
  if (!m.result) return m.status === "pending" || m.status === "featured" || m.status === "extended" ? "Playing" : "";
  if (m.result.intentional_draw) return "Intentional draw";
  const mine = m.result.wins[me] ?? 0;
  const theirs = Math.max(0, ...m.opponents.map((o) => m.result.wins[o.player_id] ?? 0));
  const verdict = mine > theirs ? "Won" : mine < theirs ? "Lost" : "Drew";
  return `${verdict} ${mine}-${theirs}${m.result.draws ? `-${m.result.draws}` : ""}`;
}

export function initMe(root, tid) {
  document.title = `${tid} · My match · MTG Ledger`;
  let shown = null;
  const title = h("h1", { id: "t-title", text: tid });
  const who = h("p", { id: "t-me-who", class: "meta" });
  const clock = new RoundClock();
  const roundTitle = h("h2", { id: "t-me-round", text: "My match" });
  const now = h("div", { id: "t-me-now", class: "t-me-now", role: "status", "aria-live": "polite" });
  extra = h("section", { id: "t-me-extra", class: "t-me-extra", "aria-label": "My match result" });
  const history = h("ol", { id: "t-me-matches", class: "t-pairings" });
  const decklists = playerDecklists(tid); // issue 42: the player registers their list from their own link
  root.replaceChildren(
    h("div", { class: "t-head" }, title, who),
    h("section", { id: "t-clock", class: "panel t-clock-panel", "aria-label": "Round clock" }, clock.el),
    h("section", { id: "t-me", class: "panel", "aria-labelledby": "t-me-round" }, roundTitle, now, extra),
    h(
      "section",
      { class: "panel", "aria-labelledby": "t-me-matches-title" },
      h("h2", { id: "t-me-matches-title", text: "My matches" }),
      history,
      h("p", {}, h("a", { id: "t-me-public", href: pageHref(tid, "public"), text: "Pairings and standings of the event" })),
    ),
    decklists.el,
  );

  function renderNow(v) {
    const me = v.player.player_id;
    roundTitle.textContent = v.round ? `Round ${v.round}${v.match && v.match.top_cut ? " (top cut)" : ""}` : "My match";
    if (v.player.status !== "active") {
      const why = v.player.status === "no_show" ? "were marked a no-show" : "dropped";
      const after = v.player.dropped_after ? ` after round ${v.player.dropped_after}` : "";
      now.replaceChildren(h("p", { id: "t-me-dropped", text: `You ${why}${after}: your link no longer acts in games; this page and the event's pairings stay yours to read.` }));
      return;
    }
    if (!v.round) {
      now.replaceChildren(h("p", { text: "Round 1 is not paired yet: this page shows your table as soon as it is." }));
      return;
    }
    if (!v.match) {
      const text = v.bye ? `A bye this round (a 2-0 match win): no game to play until round ${v.round + 1}.` : `You are not paired in round ${v.round}.`;
      now.replaceChildren(h("p", { text }));
      return;
    }
    const m = v.match;
    const parts = [
      h("p", { class: "t-me-table" }, h("b", { id: "t-me-table", text: `Table ${m.table}` }), ", against ", h("b", { id: "t-me-opponent", text: opponents(m) })),
    ];
    const score = scoreText(m, me);
    if (score) parts.push(h("p", { id: "t-me-score", class: "t-me-score", text: m.result ? `Match: ${score}` : score }));
    if (m.game_id && !m.result) {
      const number = m.games.length;
      parts.push(h("a", { id: "t-me-game", class: "button t-me-game", href: gameHref(m.game_id), text: `Go to my game (game ${number})` }));
    }
    now.replaceChildren(...parts);
  }

  function render(v) {
    title.textContent = v.name || tid;
    document.title = `${v.name || tid} · My match · MTG Ledger`;
    who.textContent = `${v.player.name} · ${PLAYER_STATUS[v.player.status] || v.player.status}`;
    renderNow(v);
    const me = v.player.player_id;
    history.replaceChildren(
      ...(v.matches.length
        ? v.matches
            .slice()
            .reverse()
            .map((m) =>
              h(
                "li",
                { dataset: { round: m.round } },
                h("span", { class: "t-table-number", text: `Round ${m.round}, table ${m.table}` }),
                h("span", { class: "t-names", text: `vs ${opponents(m)}` }),
                h("span", { class: "status", text: scoreText(m, me) }),
                ...m.games.map((g, i) => h("a", { class: "t-me-game-link", href: gameHref(g), text: `game ${i + 1}` })),
              ),
            )
        : [h("li", { class: "hint", text: "No match yet." })]),
    );
    latest = v;
    for (const fn of panels) runPanel(fn);
    decklists.load();
  }

  const load = async () => {
    let view;
    try {
      view = await api(tPath(tid, "/me"));
      clearError();
    } catch (err) {
      showError(err, "Loading your match (open the link the scorekeeper gave you)");
      return;
    }
    clock.update(view.clock);
    const print = fingerprint(view);
    if (print === shown) return;
    shown = print;
    render(view);
  };
  poll(load, POLL_MS);
  return load;
}
