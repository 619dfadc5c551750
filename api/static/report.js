/* Reporting the game from the table (docs/web.md, Reporting): every player's total on the first
 * screen with a quick pad (pad.js), the flow of the game and the choices the stack's top object
 * needs as forms (choice-forms.js), then a panel per player with their counters, cards and
 * permanents.
 *
 * Every report goes through the queue (queue.js): it carries an Idempotency-Key fixed when it
 * is queued and If-Match, waits in the browser while offline, and is sent in order; taps of one
 * kind in a row are grouped before they are queued (taps.js), and the totals show what this
 * device's unsent reports will change (pending.js). What a report may do is the server's: this
 * page offers a player token the controls for its own player, the reports a player may make on
 * an opponent (they wait for the opponent's acknowledgement) and a quick undo of its own last
 * report (report-undo.js); a scorekeeper or judge every player; a spectator nothing. A refusal
 * is shown beside the control that sent it, and in the status line under Report.
 */

import { api, describeError, gamePath } from "./api.js";
import { cardLabel, cardPicker, markUnknown, pickedCard, pickerAt, refreshPickers } from "./card-picker.js";
import { activateForm, cardsValue, resolveForm } from "./choice-forms.js";
import { commandZone, commanderControls, dayNightControls, designationTags, isCommanderGame } from "./commander.js";
import { $, h } from "./dom.js";
import { aCounter, stepName, withNames } from "./labels.js";
import { landControls } from "./land-play.js";
import { quickPad, tally } from "./pad.js";
import { pendingEffects, pendingLife } from "./pending.js";
import { ReportQueue } from "./queue.js";
import { sentenceOf } from "./record.js";
import { QuickUndo } from "./report-undo.js";
import { TapGroups } from "./taps.js";
import { Panel } from "./panel.js";
import { seatedPlayer } from "./seat.js";
import { RANK } from "./store.js";

const PLAYER_COUNTERS = ["poison", "rad", "energy", "experience"];
const LEAVE_TO = [
  ["graveyard", "Graveyard"],
  ["exile", "Exile"],
  ["hand", "Hand"],
  ["library_top", "Top of library"],
  ["library_bottom", "Bottom of library"],
];
/** Reports the page offers no quick undo for: the turn moving on and a concession concern every
 * player, and taking back a random first-player pick would be drawing again (CR 103.1). */
const NO_QUICK_UNDO = new Set(["advance", "concede", "choose_first_player"]);
const CARD_REFUSALS = new Set(["unknown_card", "invalid_card"]);

const safeId = (text) => String(text).replace(/[^A-Za-z0-9_-]/g, "_");
const counterWord = (kind, n) => `${n} ${kind} counter${n === 1 ? "" : "s"}`;

function positiveInt(value, fallback = 1) {
  const n = Number.parseInt(String(value), 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A labelled field: the label's `for` points at the input, the input has a `data-key` so that
 * what was typed survives a redraw. */
function field(key, label, attrs) {
  const id = "r-" + safeId(key);
  return h("span", { class: "field" }, h("label", { for: id, text: label }), h("input", { id, dataset: { key }, ...attrs }));
}

function button(key, text, onclick, attrs = {}) {
  const { dataset, ...rest } = attrs;
  return h("button", { type: "button", dataset: { ...(dataset || {}), key }, onclick, ...rest }, text);
}

export class Reporter extends Panel {
  /** `game`: {id, head(), recorded(answer), catchUp(), record, latest(state, version)}; `latest`
   * hears of each latest state the panels are drawn from. */
  constructor(game) {
    super();
    this.game = game;
    this.queue = null;
    this.groups = null;
    this.ask = null; // {kind: "cards", body, count, origin} after a cards_required refusal
    this.customKind = null; // {body} after unknown_counter_kind
    this.confirmConcede = null;
    this.order = null; // the order being built for pending triggers (ids, first to resolve first)
    this.message = { text: "", error: false };
    this.notes = new Map(); // Idempotency-Key -> what changed before it was sent (after a 409)
    this.refusals = new Map(); // data-key of a control -> the refusal of what it sent
    this.selected = null; // the player the quick pad reports for
    this.sheet = null; // the number pad that is open
    this.abilityPicks = {}; // permanent id -> the ability picked in its form
    this.extraCards = {};
    this.origin = null; // the data-key of the control last pressed
    this.undo = new QuickUndo(game, {
      onUndone: (text) => this.say(text),
      dropGroup: () => {
        const what = this.groups && this.groups.cancel();
        if (what) this.say(`Not sent: ${what}.`);
      },
      groupLabel: () => (this.groups && this.groups.open ? this.groups.open.label(this.groups.open.body.amount) : null),
    });
    this.field = field;
    this.button = button;
    // The control pressed last, anywhere on the page: a report it sends is answered beside it
    // (a control outside this panel, or none, leaves the answer to the status lines).
    const pressed = (el) => {
      this.origin = el && el.closest && el.closest("#report") && el.dataset && el.dataset.key ? el.dataset.key : null;
    };
    document.addEventListener("click", (e) => pressed(e.target && e.target.closest ? e.target.closest("button, input, summary") : null), true);
    document.addEventListener("submit", (e) => pressed(e.submitter || e.target.querySelector("button[type=submit]")), true);
  }

  // ------------------------------------------------------------------ who may report what

  /** A new token holder: their own queue of reports (kept per game and holder). */
  whoChanged(who) {
    if (this.groups) this.groups.stop();
    if (this.queue) this.queue.stop();
    this.queue = null;
    this.groups = null;
    this.selected = who && who.role === "player" ? who.player_id : null;
    this.undo.clear();
    if (this.reports()) {
      const id = [who.role, who.name, who.player_id || ""].join(":");
      this.queue = new ReportQueue(this.game.id, id, {
        send: (entry) => this.send(entry),
        onStored: (entry, answer) => this.stored(entry, answer),
        onConflict: (entry, err) => this.conflict(entry, err),
        onRefused: (entry, err) => this.refused(entry, err),
        onChange: () => this.render(),
      });
      this.groups = new TapGroups({
        queue: (body, label, origin, taps, base) => this.queue && this.queue.add(body, label, base, true, { origin, taps }),
        onChange: () => this.render(),
      });
      this.queue.flush();
    }
  }

  reports() {
    if (!this.who) return false;
    if (this.who.role === "player") {
      // A game link in its game; an event link where its player is seated (seat.js).
      return seatedPlayer(this.who, this.game.id, this.state) !== null;
    }
    return this.rank() >= RANK.scorekeeper;
  }

  /** The token's own player in this game, or null. */
  myPlayer() {
    return this.who && this.who.role === "player" && this.state && this.state.players[this.who.player_id] ? this.who.player_id : null;
  }

  isMe(playerId) {
    return Boolean(this.who && this.who.role === "player" && this.who.player_id === playerId);
  }

  controls(playerId) {
    return this.rank() >= RANK.scorekeeper || this.isMe(playerId);
  }

  mySide(side) {
    if (this.rank() >= RANK.scorekeeper) return true;
    const me = this.who && this.who.player_id;
    const team = me && this.state && this.state.players[me] ? this.state.players[me].team : null;
    return side === me || (team !== null && side === team);
  }

  select(id) {
    if (this.selected !== id) this.sheet = null;
    this.selected = id;
    this.render();
    this.focusKey(`tally.${id}`);
  }

  // ------------------------------------------------------------------ sending

  /** Queue a report; `origin`: the control that made it (its refusal is shown beside it). */
  report(body, label, relative = false, origin = this.origin) {
    if (!this.queue) return;
    if (this.groups) this.groups.flush(); // the taps before it go first
    this.message = { text: "", error: false };
    this.refusals.clear();
    this.queue.add(body, label, this.version || this.game.head(), relative, { origin });
  }

  /** A tap that adds to or takes from what is there: grouped with the taps of its kind. */
  tap(body, label, origin = this.origin) {
    if (!this.groups) return;
    this.message = { text: "", error: false };
    this.refusals.clear();
    this.groups.tap(body, label, origin, this.version || this.game.head());
  }

  send(entry) {
    return api(gamePath(this.game.id, "/actions"), {
      method: "POST",
      body: entry.body,
      headers: { "Idempotency-Key": entry.key, "If-Match": `"${entry.base}"` },
    });
  }

  async stored(entry, answer) {
    const note = this.notes.get(entry.key);
    this.notes.delete(entry.key);
    this.say(note ? `${note} It was recorded after that.` : `Recorded: ${entry.label}.`);
    if (this.who && this.who.role === "player" && !NO_QUICK_UNDO.has(entry.body.type) && Number.isInteger(answer.version)) {
      this.undo.offerFor(entry.label, answer.version);
    }
    if (answer.state && answer.version >= this.version) this.show(answer.state, answer.version);
    await this.game.recorded(answer);
  }

  /** Someone else reported first: catch up, say what changed, then send or hold. */
  async conflict(entry, err) {
    await this.game.catchUp();
    const changes = [];
    for (let v = entry.base + 1; v <= this.game.head(); v += 1) {
      const event = this.game.record.event(v);
      if (event) changes.push(sentenceOf(event, this.game.record.texts.get(v)));
    }
    const what = changes.length ? changes.join(" ") : "another report was stored.";
    if (entry.relative) {
      const note = `The game changed before “${entry.label}” was sent: ${what}`;
      this.notes.set(entry.key, note);
      this.say(`${note} Sending it after that…`);
      return { resend: true, base: this.game.head(), changes };
    }
    this.say(`The game changed before “${entry.label}” was sent: ${what} Send it anyway, or drop it.`, true);
    return { resend: false, changes };
  }

  refused(entry, err) {
    const body = entry.body;
    const origin = entry.origin || null;
    if (err.code === "cards_required" && (body.type === "draw" || body.type === "mill")) {
      const p = this.state && this.state.players[body.player];
      const size = p && Number.isInteger(p.library_size) ? p.library_size : Infinity;
      this.ask = { kind: "cards", body, count: Math.max(1, Math.min(positiveInt(body.count, 1), size)), origin };
      this.say(`${describeError(err)}. ${body.type === "mill" ? "Say how many were nonland, or name the cards." : "Name the cards that were revealed."}`, true);
      this.render();
      this.focusKey(body.type === "mill" ? "ask.nonland.0" : "ask.card.0");
      return;
    }
    if (err.code === "unknown_counter_kind" && !body.custom_kind) {
      this.customKind = { body, label: entry.label, origin };
      this.say(`${describeError(err)}.`, true);
      this.render();
      return;
    }
    // The server's words name players by id ("not in 'P1''s hand"): shown with their names.
    let text = `Not recorded: ${entry.label}. ${withNames(describeError(err), this.state && this.state.players)}`;
    if (CARD_REFUSALS.has(err.code)) {
      // The catalog doesn't know the card: its field now asks for its type.
      for (const card of [body.card, ...(body.cards || []), ...((body.choices && body.choices.cards) || [])]) {
        if (typeof card === "string") markUnknown(card);
      }
      text += " Choose the card's type, then send it again.";
    }
    if (origin) this.refusals.set(origin, text);
    this.say(text, true);
    this.render();
    if (err.code === "choice_required") this.game.catchUp();
  }

  say(text, error = false) {
    this.message = { text, error };
    const out = $("#report-status");
    if (out) {
      out.textContent = text;
      out.classList.toggle("error-text", error);
    }
  }

  // ------------------------------------------------------------------ state

  /** The latest state (from an action's answer or a fetch): redraw the panels with it, and
   * publish it (game.latest puts it in the page's store, which the other panels follow). */
  show(state, version) {
    if (!state || version < this.version) return;
    super.show(state, version);
    if (this.game.latest) this.game.latest(state, version);
  }

  stateChanged() {
    this.undo.seen(this.version);
    if (this.who && !this.selected) this.selected = Object.keys(this.state.players || {})[0] || null;
  }

  async refresh() {
    try {
      const answer = await api(gamePath(this.game.id));
      this.show(answer.state, answer.version);
    } catch {
      /* the board shows the error; the panels keep the last state */
    }
  }

  // ------------------------------------------------------------------ drawing

  showQueue() {
    const out = $("#queue-status");
    if (!out || !this.queue) return;
    const entries = this.queue.entries;
    const grouping = this.groups && this.groups.open ? 1 : 0; // taps about to be queued (taps.js)
    const n = entries.length + grouping;
    if (!entries.length) this.queue.offline = false; // nothing of ours is waiting for the network
    if (!n) out.textContent = navigator.onLine === false ? "Offline: nothing waiting." : "All reports sent.";
    else if (!entries.length) out.textContent = "Sending in a moment…";
    else if (this.queue.offline) out.textContent = `Offline: ${n} report${n === 1 ? "" : "s"} waiting, sent in order when the connection returns.`;
    else out.textContent = `Sending ${n} report${n === 1 ? "" : "s"}…`;
    out.classList.toggle("warn", this.queue.offline || entries.some((e) => e.held));
    const held = $("#held");
    held.replaceChildren(
      ...entries
        .filter((e) => e.held)
        .map((e) =>
          h(
            "div",
            { class: "held", role: "group", "aria-label": `Not sent yet: ${e.label}` },
            h("p", { text: `Not sent yet: ${e.label}. The game changed first: ${e.held.changes.join(" ") || e.held.detail}` }),
            button(`held.send.${e.key}`, `Send “${e.label}” anyway`, () => this.queue.release(e.key, this.game.head())),
            button(`held.drop.${e.key}`, `Drop “${e.label}”`, () => this.queue.drop(e.key)),
          ),
        ),
    );
  }

  /** What this device's unsent reports (queued, or taps being grouped) will change. */
  effects() {
    const bodies = [...(this.queue ? this.queue.bodies() : []), ...(this.groups ? this.groups.bodies() : [])];
    return pendingEffects(bodies, this.state);
  }

  render() {
    const root = $("#report");
    if (!root) return;
    const show = this.reports() && this.state;
    root.hidden = !show;
    if (!show) {
      root.replaceChildren();
      return;
    }
    let body = $("#report-body");
    if (!body) {
      // The title and the status lines stay put (a screen reader hears each new status); the
      // controls under them are drawn again with each state.
      body = h("div", { id: "report-body" });
      root.replaceChildren(
        h("h2", { id: "report-title", text: "Report" }),
        h("p", { id: "queue-status", class: "queue-status", role: "status" }),
        h("div", { id: "held" }),
        h("p", { id: "report-status", class: "report-status", role: "status" }),
        body,
      );
      this.say(this.message.text, this.message.error);
    }
    const kept = snapshot(body);
    const effects = this.effects();
    if (this.selected && !this.state.players[this.selected]) this.selected = Object.keys(this.state.players)[0];
    const parts = [
      tally(this, effects),
      this.selected ? quickPad(this) : null,
      // The quick undo goes under the pad, in the page's flow: it covers no control (a bar fixed
      // over the screen's bottom hid the pad's row on a short screen for its 30 seconds).
      this.undo.el,
      this.flowPanel(),
      h("div", { class: "report-players" }, this.playerOrder().map(([id, p]) => this.playerPanel(id, p, effects))),
    ];
    body.replaceChildren(...parts.filter(Boolean));
    restore(body, kept);
    this.placeAsk(body, kept);
    this.placeRefusals(body);
    refreshPickers(body);
    this.showQueue();
    this.undo.draw();
  }

  /** A form the server asked for goes beside the control whose report it completes. */
  placeAsk(body, kept) {
    const form = this.askPanel();
    if (!form) return;
    restore(form, kept);
    const origin = this.ask ? this.ask.origin : this.customKind ? this.customKind.origin : null;
    const at = origin ? body.querySelector(`[data-key="${CSS.escape(origin)}"]`) : null;
    if (at) {
      const details = at.closest("details");
      if (details) details.open = true;
      (at.closest(".row, .quick-row, .pad, form, fieldset") || at).after(form);
    } else body.prepend(form);
    if (kept.focus && form.querySelector(`[data-key="${CSS.escape(kept.focus)}"]`)) restore(form, { values: new Map(), focus: kept.focus });
  }

  /** Each refusal beside the control that sent its report (or first, if that control is gone). */
  placeRefusals(body) {
    for (const [origin, text] of this.refusals) {
      const note = h("p", { class: "refusal", role: "alert", dataset: { refusalFor: origin }, text });
      const at = body.querySelector(`[data-key="${CSS.escape(origin)}"]`);
      if (!at) {
        body.prepend(note);
        continue;
      }
      const details = at.closest("details");
      if (details) details.open = true;
      (at.closest(".row, .quick-row, .keys, .cells, .big-buttons, .choice, fieldset") || at).after(note);
    }
  }

  /** The players in the game's order, a player token's own player first (it is the one they use). */
  playerOrder() {
    const players = Object.entries(this.state.players || {});
    const me = this.who.role === "player" ? this.who.player_id : null;
    return [...players.filter(([id]) => id === me), ...players.filter(([id]) => id !== me)];
  }

  focusKey(key) {
    const el = document.querySelector(`#report [data-key="${CSS.escape(key)}"]`);
    if (el) el.focus();
  }

  names(id) {
    const p = this.state.players[id];
    if (p) return p.name || id;
    const perm = this.state.battlefield[id];
    return perm ? `${perm.name} (${id})` : String(id);
  }

  // ---- the flow of the game: steps, turns, the stack, triggers to order

  flowPanel() {
    const s = this.state;
    const turn = s.turn || {};
    const active = turn.active_team ? `team ${turn.active_team}` : this.names(turn.active_player);
    const me = this.who.player_id;
    const canAdvance = this.rank() >= RANK.scorekeeper || (s.players[me] && (turn.active_player === me || (turn.active_team && s.players[me].team === turn.active_team)));
    const stack = Array.isArray(s.stack) ? s.stack : [];
    const finished = s.status === "finished";
    const parts = [
      h("h3", { text: "Turn and stack" }),
      h("p", { class: "flow-now", text: `Turn ${turn.number}, ${stepName(turn.step).toLowerCase()} step; active: ${active}.` }),
    ];
    if (!finished && canAdvance && !s.pending_order) {
      // The jumps to the main phase and to combat are the flow panel's, above (game-flow.js).
      parts.push(
        h(
          "div",
          { class: "big-buttons flow-buttons" },
          button("flow.next-step", "Next step", () => this.report({ type: "advance" }, "Next step"), { disabled: stack.length > 0 }),
          button("flow.next-turn", "Next turn", () => this.report({ type: "advance", to: "next_turn" }, "Next turn"), { disabled: stack.length > 0 }),
        ),
      );
      if (stack.length) parts.push(h("p", { class: "hint", text: "Resolve the stack before moving on." }));
    }
    // Day and night (CR 731): a scorekeeper or judge reports either; a player only while it is
    // neither (the server decides, CR 702.145d/g).
    if (!finished && (this.rank() >= RANK.scorekeeper || (s.players[me] && !s.day_night))) {
      parts.push(h("details", { class: "more-flow", dataset: { key: "flow.more" } }, h("summary", { text: "Day and night" }), dayNightControls(s, this.ui())));
    }
    if (!finished && s.pending_order && Array.isArray(s.pending_order.triggers)) parts.push(this.orderForm(s.pending_order));
    if (!finished && stack.length && !s.pending_order) {
      const top = stack[stack.length - 1];
      parts.push(resolveForm(this, top, this.rank() >= RANK.scorekeeper || top.controller === this.who.player_id));
    }
    return h("section", { class: "flow", "aria-label": "Turn and stack" }, parts);
  }

  orderForm(pending) {
    const ids = pending.triggers.map((t) => t.id);
    const sorted = (list) => [...list].sort().join("\n");
    if (!this.order || sorted(this.order) !== sorted(ids)) this.order = ids.slice();
    const byId = new Map(pending.triggers.map((t) => [t.id, t]));
    const mine = this.mySide(pending.controller);
    const move = (i, d) => {
      const j = i + d;
      if (j < 0 || j >= this.order.length) return;
      [this.order[i], this.order[j]] = [this.order[j], this.order[i]];
      this.render();
      this.focusKey(`order.${d < 0 ? "up" : "down"}.${this.order[j]}`);
    };
    return h(
      "form",
      {
        class: "choice",
        "aria-label": "Order the triggers",
        onsubmit: (e) => {
          e.preventDefault();
          this.report({ type: "order_triggers", resolve_first: this.order.slice() }, "Order the triggers", false, "order.submit");
          this.order = null;
        },
      },
      h(
        "fieldset",
        {},
        h("legend", { text: `Triggers to order (${this.names(pending.controller)}): the first resolves first` }),
        h(
          "ol",
          { class: "order" },
          this.order.map((id, i) => {
            const t = byId.get(id) || { id, description: "" };
            return h(
              "li",
              {},
              h("span", { text: `${t.id}: ${withNames(t.description, this.state.players)}` }),
              mine ? button(`order.up.${id}`, "Up", () => move(i, -1), { "aria-label": `Move ${t.id} up (resolve earlier)`, disabled: i === 0 }) : null,
              mine ? button(`order.down.${id}`, "Down", () => move(i, 1), { "aria-label": `Move ${t.id} down (resolve later)`, disabled: i === this.order.length - 1 }) : null,
            );
          }),
        ),
        mine ? h("button", { type: "submit", dataset: { key: "order.submit" } }, "Put them on the stack in this order") : h("p", { class: "hint", text: "Their controller orders them." }),
      ),
    );
  }

  /** Forms the server asked for: the cards a draw or mill revealed; a custom counter kind. */
  askPanel() {
    if (this.customKind) {
      const { body, label } = this.customKind;
      return h(
        "div",
        { class: "choice", role: "group", "aria-label": "Custom counter kind" },
        h("p", { text: `“${body.kind}” is not a counter kind the server knows.` }),
        button("custom.yes", `Record “${body.kind}” as a custom counter kind`, () => {
          this.customKind = null;
          this.report({ ...body, custom_kind: true }, label, true, "custom.yes");
        }),
        button("custom.no", "Cancel", () => {
          this.customKind = null;
          this.render();
        }),
      );
    }
    if (!this.ask) return null;
    const { body, count } = this.ask;
    const verb = body.type === "draw" ? "drew" : "milled";
    const key = "ask.card";
    const pickers = Array.from({ length: count }, (_, i) => cardPicker(`${key}.${i}`, `Card ${i + 1}`, { class: `card-${safeId(key)}` }));
    const named = h("fieldset", { class: "cards-field" }, h("legend", { text: `The ${count === 1 ? "card" : count + " cards"} ${this.names(body.player)} ${verb}, top first` }), pickers);
    // A mill the table doesn't name: how many of the cards were nonland is what the rules read
    // of them (a rad trigger, Glowing One; the server counts the unnamed cards in the graveyard).
    const unnamed =
      body.type === "mill"
        ? h(
            "div",
            { class: "nonland", role: "group", "aria-label": `How many of the ${count} cards ${this.names(body.player)} milled were nonland` },
            h("p", { class: "nonland-q", text: `Not named: how many of the ${count} were nonland?` }),
            h(
              "div",
              { class: "keys" },
              Array.from({ length: count + 1 }, (_, n) =>
                button(`ask.nonland.${n}`, String(n), () => {
                  const origin = this.ask.origin;
                  this.ask = null;
                  this.report({ ...body, nonland_count: n }, `Mill ${count} (${this.names(body.player)}), ${n} nonland`, false, origin);
                }, { class: "pad-key", "aria-label": `${n} nonland: record the mill` }),
              ),
            ),
          )
        : null;
    return h(
      "form",
      {
        class: "choice",
        "aria-label": `Cards ${this.names(body.player)} ${verb}`,
        onsubmit: (e) => {
          e.preventDefault();
          const cards = cardsValue($("#report"), key);
          const origin = this.ask.origin;
          this.ask = null;
          this.report({ ...body, cards }, `${body.type === "draw" ? "Draw" : "Mill"} ${count} (${this.names(body.player)}): ${cards.map(cardLabel).join(", ")}`, false, origin);
          this.render();
        },
      },
      unnamed,
      unnamed ? h("details", { class: "name-cards", dataset: { key: "ask.named" } }, h("summary", { text: "Name the cards instead" }), named) : named,
      h("button", { type: "submit", class: unnamed ? "" : "primary", dataset: { key: "ask.submit" } }, `Record the ${body.type === "draw" ? "draw" : "mill"}${unnamed ? " with these cards" : ""}`),
      button("ask.cancel", "Cancel", () => {
        this.ask = null;
        this.render();
      }),
    );
  }

  // ---- one player's panel

  playerPanel(id, p, effects) {
    const name = p.name || id;
    const can = this.controls(id) && this.state.status !== "finished" && !p.lost;
    const k = (rest) => `p.${id}.${rest}`;
    const pending = pendingLife(effects, this.state, id);
    const fx = effects.get(id) || { counters: {} };
    const life = h(
      "p",
      { class: "life-line" },
      h("span", { text: p.team && this.state.teams?.[p.team] ? "Life (team)" : "Life" }),
      " ",
      h("b", { dataset: { field: "life" }, text: p.life }),
      pending ? h("span", { class: "tile-pending", dataset: { field: "pending-life" } }, ` → ${p.life + pending} `, h("small", { text: "(pending)" })) : null,
    );
    const counters = { ...Object.fromEntries(PLAYER_COUNTERS.map((c) => [c, 0])), ...(p.counters || {}) };
    const sections = [
      h("h3", { id: `report-${safeId(id)}` }, name, name !== id ? h("span", { class: "pid", text: ` ${id}` }) : null, p.lost ? h("span", { class: "tag tag-lost", text: "lost" }) : null),
      life,
      h(
        "ul",
        { class: "report-counters", "aria-label": `Counters on ${name}` },
        Object.entries(counters).map(([kind, n]) => {
          const later = n + (fx.counters[kind] || 0);
          return h(
            "li",
            { dataset: { kind, count: n } },
            h("span", { class: "kind", text: kind }),
            " ",
            h("b", { text: n }),
            later !== n ? h("span", { class: "tile-pending", text: ` → ${Math.max(0, later)} (pending)` }) : null,
            can
              ? button(k(`c.add.${kind}`), "+", () => this.tap({ type: "add_counters", target: { player: id }, kind, amount: 1 }, (m) => `${name} gets ${counterWord(kind, m)}`, k(`c.add.${kind}`)), { "aria-label": `Add ${aCounter(kind)}`, class: "pad-key" })
              : null,
            can
              ? button(k(`c.rem.${kind}`), "−", () => this.tap({ type: "remove_counters", target: { player: id }, kind, amount: 1 }, (m) => `${name} loses ${counterWord(kind, m)}`, k(`c.rem.${kind}`)), { "aria-label": `Remove ${aCounter(kind)}`, class: "pad-key", disabled: n <= 0 })
              : null,
          );
        }),
      ),
    ];
    if (can) sections.push(landControls(this, id, name, (p.lands_played || 0) > 0));
    sections.push(this.commanderSlot(id, p, name, can));
    if (can) sections.push(this.moreControls(id, name));
    sections.push(this.permanentsOf(id, name, can));
    return h("section", { class: "report-player" + (this.isMe(id) ? " me" : ""), dataset: { player: id }, "aria-label": name }, sections);
  }

  /** The command zone, the designations a player holds, and (for a reporter) their controls. */
  commanderSlot(id, p, name, can) {
    const tags = designationTags(this.state, id, p);
    const controls = can ? commanderControls(this.state, id, p, this.ui()) : null;
    const wrapped = controls
      ? h(
          "details",
          { class: "more-commander", dataset: { key: `p.${id}.cmd` }, open: isCommanderGame(this.state) },
          h("summary", { text: isCommanderGame(this.state) ? "Commander and designations" : "Designations" }),
          controls,
        )
      : null;
    return h("div", { class: "slot-commander", dataset: { slot: "commander" } }, tags.length ? h("p", { class: "tags" }, tags) : null, commandZone(p, `Command zone of ${name}`), wrapped);
  }

  /** What the commander controls need of this panel. */
  ui() {
    return {
      button,
      field,
      report: (body, label, relative) => this.report(body, label, relative),
      value: (key) => $(`#report [data-key="${CSS.escape(key)}"]`).value,
    };
  }

  moreControls(id, name) {
    const k = (rest) => `p.${id}.${rest}`;
    const val = (rest) => $(`#report [data-key="${CSS.escape(k(rest))}"]`);
    const targets = [
      ...Object.entries(this.state.players).map(([pid, p]) => ({ value: `player:${pid}`, text: p.name || pid })),
      ...Object.entries(this.state.battlefield || {}).map(([pid, p]) => ({ value: `permanent:${pid}`, text: `${p.name} (${pid})` })),
    ];
    const targetOf = (value) => {
      const [kind, ...rest] = value.split(":");
      return { [kind]: rest.join(":") };
    };
    const card = () => pickedCard(pickerAt($("#report"), k("cast.card")));
    const concede =
      this.confirmConcede === id
        ? [
            button(k("concede.yes"), `Confirm: ${name} concedes`, () => {
              this.confirmConcede = null;
              this.report({ type: "concede", player: id }, `${name} concedes`);
            }, { class: "danger" }),
            button(k("concede.no"), "Keep playing", () => {
              this.confirmConcede = null;
              this.render();
            }),
          ]
        : [button(k("concede"), `${name} concedes…`, () => {
            this.confirmConcede = id;
            this.render();
            this.focusKey(k("concede.yes"));
          })];
    return h(
      "details",
      { class: "more", dataset: { key: k("more") } },
      h("summary", { text: "Cards, damage, counters, concede" }),
      h(
        "div",
        { class: "row" },
        field(k("draw.n"), "Cards", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
        button(k("draw"), "Draw", () => {
          const n = positiveInt(val("draw.n").value);
          this.report({ type: "draw", player: id, count: n }, `${name} draws ${n}`, true);
        }, { "aria-label": `${name} draws that many cards` }),
        button(k("mill"), "Mill", () => {
          const n = positiveInt(val("draw.n").value);
          this.report({ type: "mill", player: id, count: n }, `${name} mills ${n}`, true);
        }, { "aria-label": `${name} mills that many cards` }),
      ),
      h(
        "div",
        { class: "row" },
        field(k("dmg.n"), "Damage", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
        h(
          "span",
          { class: "field" },
          h("label", { for: `r-${safeId(k("dmg.to"))}`, text: "to" }),
          h("select", { id: `r-${safeId(k("dmg.to"))}`, dataset: { key: k("dmg.to") } }, targets.map((t) => h("option", { value: t.value, text: t.text }))),
        ),
        field(k("dmg.src"), "Source (optional)", { type: "text", spellcheck: "false" }),
        button(k("dmg"), "Deal the damage", () => {
          const body = { type: "damage", target: targetOf(val("dmg.to").value), amount: positiveInt(val("dmg.n").value) };
          const source = val("dmg.src").value.trim();
          if (source) body.source = source;
          this.report(body, `${body.amount} damage to ${this.names(Object.values(body.target)[0])}`, true);
        }),
      ),
      h(
        "div",
        { class: "row" },
        field(k("ck.kind"), "Counter kind", { type: "text", spellcheck: "false" }),
        field(k("ck.n"), "How many", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
        button(k("ck.add"), `Add to ${name}`, () => {
          const kind = val("ck.kind").value.trim();
          if (kind) this.report({ type: "add_counters", target: { player: id }, kind, amount: positiveInt(val("ck.n").value) }, `${name} gets ${counterWord(kind, positiveInt(val("ck.n").value))}`, true);
        }, { "aria-label": `Add that many counters of that kind to ${name}` }),
        button(k("ck.rem"), `Remove from ${name}`, () => {
          const kind = val("ck.kind").value.trim();
          if (kind) this.report({ type: "remove_counters", target: { player: id }, kind, amount: positiveInt(val("ck.n").value) }, `${name} loses ${counterWord(kind, positiveInt(val("ck.n").value))}`, true);
        }, { "aria-label": `Remove that many counters of that kind from ${name}` }),
      ),
      h(
        "div",
        { class: "row cast-row" },
        cardPicker(k("cast.card"), "Card"),
        field(k("cast.x"), "X (optional)", { type: "number", min: "0", inputmode: "numeric", class: "amount" }),
        button(k("cast"), "Cast", () => {
          const c = card();
          if (!c) return;
          const body = { type: "cast", player: id, card: c };
          if (val("cast.x").value !== "") body.x = Number(val("cast.x").value);
          this.report(body, `${name} casts ${cardLabel(c)}`);
        }, { "aria-label": `${name} casts the card` }),
        button(k("enter"), "Put onto the battlefield", () => {
          const c = card();
          if (!c) return;
          const body = { type: "enter", card: c, controller: id };
          if (val("enter.tapped").checked) body.tapped = true;
          if (val("enter.token").checked) body.token = true;
          this.report(body, `${cardLabel(c)} enters under ${name}'s control`);
        }, { "aria-label": `The card enters the battlefield under ${name}'s control` }),
        h("span", { class: "check" }, h("input", { type: "checkbox", id: `r-${safeId(k("enter.tapped"))}`, dataset: { key: k("enter.tapped") } }), h("label", { for: `r-${safeId(k("enter.tapped"))}`, text: "tapped" })),
        h("span", { class: "check" }, h("input", { type: "checkbox", id: `r-${safeId(k("enter.token"))}`, dataset: { key: k("enter.token") } }), h("label", { for: `r-${safeId(k("enter.token"))}`, text: "a token" })),
      ),
      h("div", { class: "row" }, concede),
    );
  }

  permanentsOf(id, name, can) {
    const perms = Object.entries(this.state.battlefield || {}).filter(([, p]) => p.controller === id);
    if (!perms.length) return null;
    return h(
      "div",
      { class: "report-perms" },
      h("h4", { text: `Permanents of ${name}` }),
      h(
        "ul",
        {},
        perms.map(([pid, perm]) => {
          const k = (rest) => `perm.${pid}.${rest}`;
          const label = `${perm.name} (${pid})`;
          const counters = Object.entries(perm.counters || {}).filter(([, n]) => n > 0).map(([kind, n]) => counterWord(kind, n)).join(", ");
          const details = [perm.tapped ? "tapped" : "untapped", perm.summoning_sick ? "summoning sick" : "", perm.damage ? `${perm.damage} damage` : "", counters].filter(Boolean).join(" · ");
          return h(
            "li",
            { class: "report-perm" + (perm.tapped ? " tapped" : ""), dataset: { permanent: pid } },
            h("span", { class: "perm-name" }, h("b", { text: perm.name }), ` ${pid}`),
            h("span", { class: "perm-type", text: ` ${details}` }),
            can
              ? h(
                  "span",
                  { class: "perm-buttons row" },
                  perm.tapped
                    ? button(k("untap"), "Untap", () => this.report({ type: "untap", permanent: pid }, `Untap ${label}`), { "aria-label": `Untap ${label}` })
                    : button(k("tap"), "Tap", () => this.report({ type: "tap", permanent: pid }, `Tap ${label}`), { "aria-label": `Tap ${label}` }),
                  h("label", { for: `r-${safeId(k("to"))}`, class: "visually-hidden", text: `Where ${label} goes` }),
                  h("select", { id: `r-${safeId(k("to"))}`, dataset: { key: k("to") } }, LEAVE_TO.map(([v, t]) => h("option", { value: v, text: t }))),
                  button(k("leave"), "Leaves", () => {
                    const to = $(`#report [data-key="${CSS.escape(k("to"))}"]`).value;
                    this.report({ type: "move", permanent: pid, to }, `${label} leaves the battlefield (${to.replace("_", " ")})`);
                  }, { "aria-label": `${label} leaves the battlefield to the chosen zone` }),
                )
              : null,
            can ? activateForm(this, id, pid, perm, label) : null,
          );
        }),
      ),
    );
  }
}

/** What the person typed, ticked and opened, and where the focus is, by `data-key`. */
function snapshot(root) {
  const values = new Map();
  for (const el of root.querySelectorAll("[data-key]")) {
    if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) values.set(el.dataset.key, el.checked);
    else if (el.tagName === "INPUT" || el.tagName === "SELECT") values.set(el.dataset.key, el.value);
    else if (el.tagName === "DETAILS") values.set(el.dataset.key, el.open);
  }
  const active = document.activeElement;
  const focus = active && root.contains(active) && active.dataset ? active.dataset.key : null;
  return { values, focus };
}

function restore(root, { values, focus }) {
  for (const el of root.querySelectorAll("[data-key]")) {
    if (!values.has(el.dataset.key)) continue;
    const value = values.get(el.dataset.key);
    if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) el.checked = value;
    else if (el.tagName === "INPUT" || el.tagName === "SELECT") el.value = value;
    else if (el.tagName === "DETAILS") el.open = value;
  }
  if (focus) {
    const el = root.querySelector(`[data-key="${CSS.escape(focus)}"]`);
    if (el && !el.disabled) el.focus();
  }
}
