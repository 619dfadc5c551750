/* The game-level flow above the reporting panels (docs/web.md, Starting and moving the game):
 * before the first turn, who plays first (CR 103.1) and each player's mulligans (CR 103.5);
 * during the game, one tap to the main phase or to combat.
 *
 * What the panel offers is drawn from the latest state (turn, stack, each player's `mulligans`
 * and `hand_kept`); the server decides what is allowed and the refusal is shown here, beside the
 * buttons. Every tap goes through the reporting queue (report.js, queue.js): it keeps its
 * Idempotency-Key, waits while offline and is sent in order with the other reports.
 */

import { ApiError, api } from "./api.js";
import { $, h } from "./dom.js";
import { stepName } from "./labels.js";
import { Panel } from "./panel.js";
import { RANK } from "./store.js";

// The steps in order, as `advance` `to` names them (docs/api.md, Actions).
const STEPS = [
  "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
  "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end", "cleanup",
];
const at = (step) => STEPS.indexOf(step);

/** Where "To main phase" goes from `step`: this turn's next main phase, else the next turn's first. */
export function mainPhaseTarget(step) {
  const i = at(step);
  if (i < at("precombat_main")) return { to: "precombat_main", label: "To main phase" };
  if (i < at("postcombat_main")) return { to: "postcombat_main", label: "To second main phase" };
  return { to: "precombat_main", label: "To next turn's main phase" };
}

/** "To combat" stops at the declare attackers step, where attackers are declared (CR 508.1;
 * the `attack` action needs it); after it, combat is over for this turn. */
export function combatTarget(step) {
  return at(step) < at("declare_attackers") ? { to: "declare_attackers", label: "To combat" } : null;
}

export class GameFlow extends Panel {
  /** `game`: {id, report(body, label) (null when this token cannot report), match(state)
   * (the match of this game's table, or null)}. */
  constructor(game) {
    super();
    this.game = game;
    this.mine = new Set(); // the labels of the reports sent from this panel, to hear their fate
    this.previousLoser = undefined; // MTR 2.2: who chooses in a later game of a match
    this.status = { text: "", error: false };
  }

  stateChanged() {
    if (this.previousLoser === undefined && this.pregame()) this.findPreviousLoser();
  }

  me() {
    return this.who && this.who.role === "player" ? this.who.player_id : null;
  }

  canReport() {
    return Boolean(this.game.report && this.game.report.available());
  }

  controls(playerId) {
    return this.rank() >= RANK.scorekeeper || this.me() === playerId;
  }

  canAdvance() {
    if (this.rank() >= RANK.scorekeeper) return true;
    const me = this.me();
    const s = this.state;
    const turn = s.turn || {};
    const player = me && s.players[me];
    return Boolean(player && (turn.active_player === me || (turn.active_team && player.team === turn.active_team)));
  }

  /** Before the first turn-based action: turn 1's untap step, on a server that tracks mulligans. */
  pregame() {
    const s = this.state;
    if (!s || s.status !== "in_progress") return false;
    const turn = s.turn || {};
    const players = Object.values(s.players || {});
    return turn.number === 1 && turn.step === "untap" && players.some((p) => typeof p.hand_kept === "boolean");
  }

  /** Chosen once (the state's `first_player`), before anyone has taken a mulligan or kept (CR
   * 103.1 comes before 103.5); the archenemy always goes first (CR 904.6). */
  firstPlayerOpen() {
    const s = this.state;
    return this.pregame() && !s.first_player && s.variant !== "archenemy" && Object.values(s.players).every((p) => !p.hand_kept && !(p.mulligans > 0));
  }

  async findPreviousLoser() {
    this.previousLoser = null;
    try {
      const match = await this.game.match(this.state);
      if (!match) return;
      const order = match.games.map((g) => g.game_id);
      const before = match.games[order.indexOf(this.game.id) - 1];
      if (!before || before.status !== "finished" || before.draw || before.winners.length !== 1) return;
      this.previousLoser = match.players.find((p) => p !== before.winners[0]) || null;
      this.render();
    } catch {
      /* no match known: the generic hint stays */
    }
  }

  name(id) {
    const p = this.state.players[id];
    return p ? p.name || id : `team ${id}`;
  }

  // ------------------------------------------------------------------ sending and hearing back

  send(body, label) {
    if (!this.canReport()) return;
    this.mine.add(label);
    this.say(`Sending: ${label}…`);
    this.game.report.send(body, label);
  }

  /** The queue stored a report; `label` tells whether it was one of ours. */
  stored(label) {
    if (!this.mine.delete(label)) return;
    this.say(`Recorded: ${label}.`);
  }

  refused(label, text) {
    if (!this.mine.delete(label)) return;
    this.say(`Not recorded: ${label}. ${text}`, true);
  }

  say(text, error = false) {
    this.status = { text, error };
    const out = $("#flow-status");
    if (out) {
      out.textContent = text;
      out.classList.toggle("error-text", error);
    }
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const root = $("#game-flow");
    if (!root) return;
    const s = this.state;
    const show = Boolean(s && this.who && this.canReport() && s.status === "in_progress");
    root.hidden = !show;
    if (!show) {
      root.replaceChildren();
      return;
    }
    let body = $("#flow-body");
    if (!body) {
      // The status line stays put, so a screen reader hears each new status.
      body = h("div", { id: "flow-body" });
      root.replaceChildren(h("h2", { id: "flow-title", class: "visually-hidden", text: "Move the game on" }), body,
        h("p", { id: "flow-status", class: "flow-status", role: "status" }));
      this.say(this.status.text, this.status.error);
    }
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const parts = [];
    if (this.pregame()) parts.push(this.pregamePanel());
    if (this.canAdvance()) parts.push(this.jumpButtons());
    body.replaceChildren(...parts);
    root.hidden = !parts.length; // nothing this token may do now (another player's turn)
    if (focused) {
      const again = root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
    }
    $("#flow-title").textContent = this.pregame() ? "Start of the game" : "Move the game on";
    $("#flow-title").classList.toggle("visually-hidden", !this.pregame());
  }

  pregamePanel() {
    const s = this.state;
    const turn = s.turn || {};
    const first = turn.active_team ? `team ${turn.active_team}` : this.name(turn.active_player);
    const parts = [];
    const choosing = this.firstPlayerOpen() && (this.rank() >= RANK.scorekeeper || Boolean(this.me()));
    const how = s.first_player ? (s.first_player.method === "random" ? " (chosen at random)" : " (chosen)") : s.variant === "archenemy" ? " (the archenemy, CR 904.6)" : "";
    // Before the choice (CR 103.1) nobody plays first yet: the turn's active player is only the
    // server's placeholder until someone chooses, or until a mulligan or keep closes the choice.
    if (!s.first_player && this.firstPlayerOpen()) {
      parts.push(h("p", { class: "first-player", dataset: { field: "first-player-open" }, text: "Who plays first: not chosen yet." }));
    } else {
      parts.push(h("p", { class: "first-player" }, "Plays first: ", h("b", { dataset: { field: "first-player" }, text: first }), how, "."));
    }
    if (choosing) {
      const loser = this.previousLoser;
      parts.push(
        h("div", { class: "big-buttons" },
          button("first.random", "Random first player", () => this.send({ type: "choose_first_player" }, "Random first player")),
        ),
        h("div", { class: "row first-chosen", role: "group", "aria-label": "Choose who plays first" },
          Object.keys(s.players).map((pid) =>
            button(`first.${pid}`, `${this.name(pid)} plays first`, () => this.send({ type: "choose_first_player", player: pid }, `${this.name(pid)} plays first`)),
          ),
        ),
        h("p", { class: "hint", text: loser
          ? `${this.name(loser)} lost the previous game, so ${this.name(loser)} chooses who plays first (MTR 2.2).`
          : "Chosen at random for the first game of a match (CR 103.1); in a later game the loser of the previous one chooses (MTR 2.2). Choose before looking at the opening hands." }),
      );
    }
    parts.push(h("h3", { text: "Opening hands (London mulligan, CR 103.5)" }));
    parts.push(
      h("ul", { class: "mulligans" },
        Object.entries(s.players).map(([pid, p]) => this.mulliganRow(pid, p)),
      ),
    );
    parts.push(h("p", { class: "hint", text: "A mulligan shuffles the hand back and draws a new seven; keeping puts one card on the bottom for each mulligan taken (in a multiplayer game the first mulligan is free)." }));
    return h("section", { class: "pregame", "aria-label": "Start of the game" }, parts);
  }

  mulliganRow(pid, p) {
    const name = this.name(pid);
    const n = p.mulligans || 0;
    const taken = n === 0 ? "no mulligan" : n === 1 ? "1 mulligan" : `${n} mulligans`;
    const sizes = `${p.hand_size} in hand, ${p.library_size} in library`;
    const line = h("span", { class: "mulligan-text" }, h("b", { text: name }), `: ${sizes}; ${taken}`, p.hand_kept ? h("span", { class: "tag tag-kept", text: "kept" }) : null);
    const buttons = !p.hand_kept && !p.lost && this.controls(pid)
      ? h("span", { class: "mulligan-buttons" },
          button(`mull.${pid}`, "Mulligan", () => this.send({ type: "mulligan", player: pid }, `${name} takes a mulligan`), { "aria-label": `${name} takes a mulligan` }),
          button(`keep.${pid}`, "Keep", () => this.send({ type: "keep_hand", player: pid }, `${name} keeps`), { "aria-label": `${name} keeps this hand`, class: "primary" }),
        )
      : null;
    return h("li", { dataset: { player: pid, mulligans: n, kept: String(Boolean(p.hand_kept)) } }, line, buttons);
  }

  jumpButtons() {
    const s = this.state;
    const turn = s.turn || {};
    const stack = Array.isArray(s.stack) ? s.stack : [];
    const waiting = Object.entries(s.players || {}).filter(([, p]) => p.mulligans > 0 && p.hand_kept === false && !p.lost);
    const blocked = stack.length > 0 || Boolean(s.pending_order) || (this.pregame() && waiting.length > 0);
    const main = mainPhaseTarget(turn.step);
    const combat = combatTarget(turn.step);
    const jump = (target) => this.send({ type: "advance", to: target.to }, target.label);
    const why = stack.length || s.pending_order
      ? "Resolve the stack before moving on."
      : blocked
        ? `Waiting for ${waiting.map(([pid]) => this.name(pid)).join(", ")} to keep (CR 103.5).`
        : "";
    return h("div", { class: "jump", role: "group", "aria-label": "Jump ahead" },
      h("div", { class: "big-buttons" },
        button("jump.main", main.label, () => jump(main), { disabled: blocked, title: `Advance to the ${stepName(main.to).toLowerCase()} step` }),
        button("jump.combat", "To combat", () => combat && jump(combat), { disabled: blocked || !combat, title: combat ? "Advance to the declare attackers step" : "Combat is over for this turn" }),
      ),
      why ? h("p", { class: "hint", text: why }) : null,
    );
  }
}

function button(key, text, onclick, attrs = {}) {
  return h("button", { type: "button", dataset: { key }, onclick, ...attrs }, text);
}

/** The match of a game's table (GET /v1/events/{event}/rounds/{round}/tables/{table}), or null
 * when the game is not part of one (no event, round and table) or the server does not know it
 * yet (`404 unknown_match`: the matches read model may trail a write by a moment). */
export async function matchOf(state) {
  const t = (state && state.tournament) || {};
  const given = (v) => v !== undefined && v !== null && v !== "";
  if (!given(t.event) || !given(t.round) || !given(t.table)) return null;
  const e = encodeURIComponent;
  try {
    return await api(`/v1/events/${e(t.event)}/rounds/${e(String(t.round))}/tables/${e(String(t.table))}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
