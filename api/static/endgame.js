/* The end-of-game banner at the top of a finished game's page (docs/web.md, The end of a game):
 * who won, the match score of best-of-N (the server's matches read model, GET
 * /v1/events/{event}/rounds/{round}/tables/{table}) and the way to the next game:
 *
 * - a link to it once the match has one;
 * - for a scorekeeper, judge or admin, "Start game N" while the match is undecided: a
 *   tournament's table asks the tournament for it (POST /v1/tournaments/{tid}/rounds/{n}/tables/{t}/games,
 *   which numbers it and checks the match), a casual match makes it with POST /v1/games (the same
 *   players, names, decks, life, variant, rules and table, game id `<first>.g2`, `.g3`, ..., so
 *   two presses make one game);
 * - for anyone else, the match is asked again every few seconds until the next game appears.
 *
 * The page works out no result: the winners are the state's, the score is the server's.
 */

import { ApiError, api, describeError, enc, gamePath } from "./api.js";
import { $, h } from "./dom.js";
import { matchOf } from "./game-flow.js";
import { newKey } from "./queue.js";
import { Panel } from "./panel.js";
import { RANK } from "./store.js";

const RETRY_MS = 1500; // the matches read model trails a game's end by a moment
const RETRIES = 8;
const WAIT_MS = 5000; // how often a player's page asks whether the next game exists

/** The id of a casual match's game `number`: the first game's id (any `.gN` taken off), `.gN`. */
export function nextGameId(gameId, number) {
  return `${String(gameId).replace(/\.g\d+$/, "")}.g${number}`;
}

export class EndGame extends Panel {
  /** `game`: {id, navigate(url)}. */
  constructor(game) {
    super();
    this.game = game;
    this.match = null;
    this.tries = 0;
    this.timer = 0;
    this.tournament = undefined; // whether the event is a tournament of this server (scorekeepers ask)
    this.status = { text: "", error: false };
    this.starting = false;
  }

  /** A finished game shows the banner and asks for its match. */
  stateChanged(before) {
    const wasFinished = before && before.status === "finished";
    if (this.state.status !== "finished") {
      clearTimeout(this.timer);
      this.match = null;
    } else if (!wasFinished) {
      this.tries = 0;
      this.loadMatch();
    }
  }

  async loadMatch() {
    clearTimeout(this.timer);
    const state = this.state;
    if (!state || state.status !== "finished") return;
    let match = null;
    try {
      match = await matchOf(state);
    } catch {
      match = null;
    }
    if (this.state.status !== "finished") return; // an undo took the end back meanwhile
    const mine = match && match.games.find((g) => g.game_id === this.game.id);
    if (match && mine && mine.status === "finished") {
      this.match = match;
      this.render();
      if (!this.nextGame() && !match.result.complete) this.timer = setTimeout(() => this.loadMatch(), WAIT_MS);
      return;
    }
    const tagged = state.tournament && state.tournament.event;
    if (tagged && this.tries < RETRIES) {
      this.tries += 1;
      this.timer = setTimeout(() => this.loadMatch(), RETRY_MS);
    }
  }

  nextGame() {
    if (!this.match) return null;
    const order = this.match.games.map((g) => g.game_id);
    const i = order.indexOf(this.game.id);
    return i >= 0 && i + 1 < order.length ? order[i + 1] : null;
  }

  name(id) {
    const p = this.state.players[id];
    return p ? p.name || id : String(id);
  }

  say(text, error = false) {
    this.status = { text, error };
    const out = $("#endgame-status");
    if (out) {
      out.textContent = text;
      out.classList.toggle("error-text", error);
    }
  }

  render() {
    const root = $("#endgame");
    if (!root) return;
    const s = this.state;
    if (!s || s.status !== "finished") {
      root.hidden = true;
      root.replaceChildren();
      return;
    }
    const result = s.result || {};
    const winners = Array.isArray(result.winners) ? result.winners : [];
    const title = result.draw || !winners.length
      ? "Game over: a draw"
      : `Game over: ${winners.map((w) => this.name(w)).join(" and ")} ${winners.length === 1 ? "wins" : "win"}`;
    const losers = Object.entries(s.players).filter(([, p]) => p.lost);
    const parts = [
      h("h2", { id: "endgame-title", text: title }),
      losers.length
        ? h("p", { class: "endgame-losers", text: losers.map(([pid, p]) => `${this.name(pid)} lost${p.loss_reason ? ` (${p.loss_reason})` : ""}`).join("; ") + "." })
        : null,
    ];
    parts.push(this.matchPart());
    parts.push(h("p", { id: "endgame-status", class: "judge-status", role: "status" }));
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
    root.replaceChildren(...parts.filter(Boolean));
    root.hidden = false;
    this.say(this.status.text, this.status.error);
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  matchPart() {
    const m = this.match;
    if (!m) {
      const t = this.state.tournament || {};
      return t.event ? h("p", { class: "hint", text: "Asking for the match score…" }) : null;
    }
    const r = m.result || {};
    const number = m.games.findIndex((g) => g.game_id === this.game.id) + 1;
    const scores = m.players.map((p) => `${this.name(p)} ${r.wins?.[p] ?? 0}`).join(", ");
    const drawn = r.draws ? `, ${r.draws} drawn game${r.draws === 1 ? "" : "s"}` : "";
    const parts = [
      h("p", { class: "match-score", dataset: { score: r.score || "" } },
        h("b", { text: `Match, best of ${m.best_of}` }), ` (game ${number}): `, h("span", { dataset: { field: "match-score" }, text: scores + drawn }), "."),
    ];
    const next = this.nextGame();
    if (r.complete) {
      parts.push(h("p", { class: "match-over", text: r.draw ? "The match is a draw." : `${this.name(r.winner)} wins the match.` }));
    }
    if (next) {
      parts.push(h("p", { class: "next-game" }, h("a", { id: "endgame-next", href: `/games/${enc(next)}`, text: `Go to the next game (${next})` })));
    } else if (!r.complete && m.games.length < m.best_of) {
      if (this.rank() >= RANK.scorekeeper) {
        parts.push(h("p", { class: "next-game" },
          h("button", { type: "button", id: "endgame-start", class: "primary", disabled: this.starting, onclick: () => this.startNext(m.games.length + 1) }, `Start game ${m.games.length + 1}`)));
      } else {
        parts.push(h("p", { class: "hint", text: `Game ${m.games.length + 1} is next: its link appears here once the scorekeeper starts it.` }));
      }
    }
    return h("div", { class: "endgame-match" }, parts);
  }

  async isTournament(event) {
    if (this.tournament === undefined) {
      try {
        await api(`/v1/tournaments/${enc(event)}`);
        this.tournament = true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) this.tournament = false;
        else throw err;
      }
    }
    return this.tournament;
  }

  async startNext(number) {
    if (this.starting) return;
    this.starting = true;
    this.render();
    this.say(`Starting game ${number}…`);
    const t = this.state.tournament;
    try {
      let gameId;
      if (await this.isTournament(t.event)) {
        const answer = await api(`/v1/tournaments/${enc(t.event)}/rounds/${enc(String(t.round))}/tables/${enc(String(t.table))}/games`, { method: "POST", body: {} });
        gameId = answer.game_id;
      } else {
        gameId = await this.createCasualGame(number);
      }
      this.say(`Game ${number} is ready: ${gameId}. Opening it…`);
      this.game.navigate(`/games/${enc(gameId)}`);
    } catch (err) {
      this.say(`Game ${number} was not started. ${describeError(err)}`, true);
      this.loadMatch();
    } finally {
      this.starting = false;
      this.render();
    }
  }

  /** A casual match's next game: the first game's players and setup, a new start. */
  async createCasualGame(number) {
    const first = (await api(gamePath(this.game.id, "?version=1"))).state;
    const variant = first.variant;
    const players = Object.entries(first.players).map(([pid, p]) => {
      const commanders = Array.isArray(p.commanders) && p.commanders.length
        ? p.commanders.map((name) => (p.command || []).find((c) => c && c.name === name) || name)
        : null;
      const out = { id: pid, name: p.name || pid };
      if (p.team) out.team = p.team;
      if (variant !== "two_headed_giant") out.life = p.life;
      if (commanders) out.commanders = commanders;
      // The deck: what the player started with (library, hand, commanders), unless the state says it.
      const deck = Number.isInteger(p.deck_size) ? p.deck_size : (p.library_size || 0) + (p.hand_size || 0) + (commanders ? commanders.length : 0);
      if (deck > 7) out.deck_size = deck; // else the first game was set up by hand: the server's default
      return out;
    });
    const body = { game_id: nextGameId(this.game.id, number), variant, players, tournament: { ...(first.tournament || {}) } };
    if (first.rules_edition) body.rules_edition = first.rules_edition;
    if (variant === "two_headed_giant") {
      body.teams = Object.fromEntries(Object.entries(first.teams || {}).map(([tid, team]) => [tid, { life: team.life }]));
    }
    try {
      const created = await api("/v1/games", { method: "POST", body, headers: { "Idempotency-Key": newKey() } });
      return created.game_id;
    } catch (err) {
      // Pressed on two devices at once: the other one made it; open it.
      if (err instanceof ApiError && err.code === "game_exists") return body.game_id;
      throw err;
    }
  }
}
