/* Reporting the game from the table (docs/web.md, Reporting): one panel per player with large
 * controls for life and counters, the cards and permanents, the flow of the game, and the
 * choices the stack's top object needs, as forms.
 *
 * Every report goes through the queue (queue.js): it carries an Idempotency-Key fixed when it
 * is tapped and If-Match, waits in the browser while offline, and is sent in order. What a
 * report may do is the server's: this page offers a player token the controls for its own player
 * and the reports the rules let a player make, a scorekeeper or judge every player, a spectator
 * nothing, and shows the server's refusal when there is one. Choice forms come from the state
 * the server sends (the stack object's `needs`, `pending_order`) and from its refusals
 * (`cards_required` for a draw or mill from an unknown library, `choice_required`).
 */

import { api, describeError, gamePath } from "./api.js";
import { commandZone, commanderControls, dayNightControls, designationTags, isCommanderGame } from "./commander.js";
import { $, h } from "./dom.js";
import { stepName } from "./labels.js";
import { ReportQueue } from "./queue.js";
import { sentenceOf } from "./record.js";

const RANK = { spectator: 0, player: 1, scorekeeper: 2, judge: 3, head_judge: 4, admin: 5 };
const PLAYER_COUNTERS = ["poison", "rad", "energy", "experience"];
const LEAVE_TO = [
  ["graveyard", "Graveyard"],
  ["exile", "Exile"],
  ["hand", "Hand"],
  ["library_top", "Top of library"],
  ["library_bottom", "Bottom of library"],
];

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
  return h(
    "span",
    { class: "field" },
    h("label", { for: id, text: label }),
    h("input", { id, dataset: { key }, ...attrs }),
  );
}

function button(key, text, onclick, attrs = {}) {
  return h("button", { type: "button", dataset: { key }, onclick, ...attrs }, text);
}

export class Reporter {
  /** `game`: {id, head(), recorded(answer), catchUp(), record, latest(state, version)}; `latest`
   * hears of each latest state the panels are drawn from. */
  constructor(game) {
    this.game = game;
    this.who = null;
    this.state = null;
    this.version = 0;
    this.queue = null;
    this.ask = null; // {kind: "cards", body, count} after a cards_required refusal
    this.customKind = null; // {body} after unknown_counter_kind
    this.confirmConcede = null;
    this.order = null; // the order being built for pending triggers (ids, first to resolve first)
    this.message = { text: "", error: false };
    this.notes = new Map(); // Idempotency-Key -> what changed before it was sent (after a 409)
  }

  // ------------------------------------------------------------------ who may report what

  setWho(who) {
    if (this.queue) this.queue.stop();
    this.queue = null;
    this.who = who;
    if (this.reports()) {
      const id = [who.role, who.name, who.player_id || ""].join(":");
      this.queue = new ReportQueue(this.game.id, id, {
        send: (entry) => this.send(entry),
        onStored: (entry, answer) => this.stored(entry, answer),
        onConflict: (entry, err) => this.conflict(entry, err),
        onRefused: (entry, err) => this.refused(entry, err),
        onChange: () => this.showQueue(),
      });
      this.queue.flush();
    }
    this.render();
  }

  rank() {
    return this.who ? RANK[this.who.role] ?? 0 : 0;
  }

  reports() {
    if (!this.who) return false;
    if (this.who.role === "player") return this.who.game_id === this.game.id;
    return this.rank() >= RANK.scorekeeper;
  }

  isMe(playerId) {
    return this.who && this.who.role === "player" && this.who.player_id === playerId;
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

  // ------------------------------------------------------------------ sending

  report(body, label, relative = false) {
    if (!this.queue) return;
    this.message = { text: "", error: false };
    this.queue.add(body, label, this.version || this.game.head(), relative);
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
    if (err.code === "cards_required" && (body.type === "draw" || body.type === "mill")) {
      this.ask = { kind: "cards", body, count: positiveInt(body.count, 1) };
      this.say(`${describeError(err)}. Name the cards that were revealed.`, true);
      this.render();
      this.focusKey("ask.card.0");
      return;
    }
    if (err.code === "unknown_counter_kind" && !body.custom_kind) {
      this.customKind = { body, label: entry.label };
      this.say(`${describeError(err)}.`, true);
      this.render();
      return;
    }
    this.say(`Not recorded: ${entry.label}. ${describeError(err)}`, true);
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

  /** The latest state (from an action's answer or a fetch): redraw the panels with it. */
  show(state, version) {
    if (version < this.version) return;
    this.state = state;
    this.version = version;
    this.render();
    if (this.game.latest) this.game.latest(state, version);
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
    const n = entries.length;
    if (!n) this.queue.offline = false; // nothing of ours is waiting for the network
    if (!n) out.textContent = navigator.onLine === false ? "Offline: nothing waiting." : "All reports sent.";
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
    const parts = [
      this.flowPanel(),
      this.askPanel(),
      h("div", { class: "report-players" }, this.playerOrder().map(([id, p]) => this.playerPanel(id, p))),
    ];
    body.replaceChildren(...parts.filter(Boolean));
    restore(body, kept);
    this.showQueue();
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
      parts.push(
        h(
          "div",
          { class: "big-buttons" },
          button("flow.next-step", "Next step", () => this.report({ type: "advance" }, "Next step"), { disabled: stack.length > 0 }),
          button("flow.next-turn", "Next turn", () => this.report({ type: "advance", to: "next_turn" }, "Next turn"), { disabled: stack.length > 0 }),
        ),
      );
      if (stack.length) parts.push(h("p", { class: "hint", text: "Resolve the stack before moving on." }));
    }
    // Day and night (CR 731): a scorekeeper or judge reports either; a player only while it is
    // neither (the server decides, CR 702.145d/g).
    if (!finished && (this.rank() >= RANK.scorekeeper || (s.players[me] && !s.day_night))) parts.push(dayNightControls(s, this.ui()));
    if (!finished && s.pending_order && Array.isArray(s.pending_order.triggers)) parts.push(this.orderForm(s.pending_order));
    if (!finished && stack.length && !s.pending_order) parts.push(this.resolveForm(stack[stack.length - 1]));
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
          this.report({ type: "order_triggers", resolve_first: this.order.slice() }, "Order the triggers");
          this.order = null;
        },
      },
      h("fieldset", {},
        h("legend", { text: `Triggers to order (${this.names(pending.controller)}): the first resolves first` }),
        h("ol", { class: "order" },
          this.order.map((id, i) => {
            const t = byId.get(id) || { id, description: "" };
            return h("li", {},
              h("span", { text: `${t.id}: ${t.description || ""}` }),
              mine ? button(`order.up.${id}`, "Up", () => move(i, -1), { "aria-label": `Move ${t.id} up (resolve earlier)`, disabled: i === 0 }) : null,
              mine ? button(`order.down.${id}`, "Down", () => move(i, 1), { "aria-label": `Move ${t.id} down (resolve later)`, disabled: i === this.order.length - 1 }) : null,
            );
          }),
        ),
        mine ? h("button", { type: "submit", dataset: { key: "order.submit" } }, "Put them on the stack in this order") : h("p", { class: "hint", text: "Their controller orders them." }),
      ),
    );
  }

  /** The top of the stack and what resolving it needs, as a form (never JSON to type). */
  resolveForm(top) {
    const needs = Array.isArray(top.needs) ? top.needs : [];
    const mine = this.rank() >= RANK.scorekeeper || top.controller === this.who.player_id;
    const label = `Resolve ${top.id}`;
    const fields = [];
    if (mine) {
      for (const need of needs) fields.push(this.needField(top, need));
    }
    const submit = (e) => {
      e.preventDefault();
      const choices = {};
      if (mine) for (const need of needs) {
        const value = this.needValue(top, need);
        if (value !== undefined) choices[need] = value;
      }
      const body = Object.keys(choices).length ? { type: "resolve", choices } : { type: "resolve" };
      this.report(body, label + (needs.length ? ` (${needs.join(", ")})` : ""));
    };
    const canSubmit = !needs.length || mine;
    return h(
      "form",
      { class: "choice", "aria-label": `Resolve the top of the stack`, onsubmit: submit },
      h("p", { class: "stack-top" }, h("b", { text: `Top of the stack: ${top.id}` }), ` (${top.kind}, ${this.names(top.controller)}): `, top.description || ""),
      fields,
      canSubmit
        ? h("button", { type: "submit", class: "primary", dataset: { key: "resolve.submit" } }, needs.length ? `${needs.includes("proliferate") ? "Proliferate and resolve" : "Resolve with these choices"}` : `Resolve ${top.id}`)
        : h("p", { class: "hint", text: `Its controller (${this.names(top.controller)}) makes its choices.` }),
    );
  }

  needField(top, need) {
    const s = this.state;
    const key = `need.${top.id}.${need}`;
    if (need === "proliferate" || need === "targets") {
      const withCounters = (c) => Object.values(c || {}).some((n) => n > 0);
      const players = Object.entries(s.players).filter(([, p]) => need === "targets" || withCounters(p.counters));
      const perms = Object.entries(s.battlefield || {}).filter(([, p]) => need === "targets" || withCounters(p.counters));
      const box = (kind, id, text) =>
        h("div", { class: "check" },
          h("input", { type: "checkbox", id: `r-${safeId(key)}-${kind}-${safeId(id)}`, dataset: { key: `${key}.${kind}.${id}`, kind, id }, class: `pick-${safeId(key)}` }),
          h("label", { for: `r-${safeId(key)}-${kind}-${safeId(id)}`, text }),
        );
      const counters = (c) => Object.entries(c || {}).filter(([, n]) => n > 0).map(([k, n]) => counterWord(k, n)).join(", ");
      return h("fieldset", { class: "picks" },
        h("legend", { text: need === "proliferate" ? "Proliferate: choose any players and permanents with counters" : "Choose the targets" }),
        players.map(([id, p]) => box("player", id, `${p.name || id}${need === "proliferate" ? ` (${counters(p.counters)})` : ""}`)),
        perms.map(([id, p]) => box("permanent", id, `${p.name} (${id})${need === "proliferate" ? `: ${counters(p.counters)}` : ""}`)),
        !players.length && !perms.length ? h("p", { class: "hint", text: "Nothing has a counter: choose nothing." }) : null,
      );
    }
    if (need === "may") {
      const radio = (value, text) => h("div", { class: "radio" },
        h("input", { type: "radio", name: `r-${safeId(key)}`, id: `r-${safeId(key)}-${value}`, value, dataset: { key: `${key}.${value}` } }),
        h("label", { for: `r-${safeId(key)}-${value}`, text }));
      return h("fieldset", {}, h("legend", { text: `“You may”: does ${this.names(top.controller)} do it?` }), radio("yes", "Yes"), radio("no", "No"));
    }
    if (need === "cards") return this.cardsField(key, 1, "The cards revealed (milled), top first");
    if (need === "x") return field(key, "X", { type: "number", min: "0", inputmode: "numeric", required: true });
    return field(key, need === "mode" ? "Mode" : need, { type: "text", required: true, spellcheck: "false" });
  }

  needValue(top, need) {
    const key = `need.${top.id}.${need}`;
    const root = $("#report");
    if (need === "proliferate" || need === "targets") {
      return [...root.querySelectorAll(`input.pick-${CSS.escape(safeId(key))}:checked`)].map((el) => ({ [el.dataset.kind]: el.dataset.id }));
    }
    if (need === "may") {
      const picked = root.querySelector(`input[name="r-${CSS.escape(safeId(key))}"]:checked`);
      return picked ? picked.value === "yes" : undefined;
    }
    if (need === "cards") return this.cardsValue(key);
    const input = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (!input || input.value === "") return undefined;
    return need === "x" ? Number(input.value) : input.value;
  }

  cardsField(key, count, legend) {
    const have = Math.max(count, this.extraCards?.[key] || count);
    const inputs = [];
    for (let i = 0; i < have; i += 1) {
      inputs.push(field(`${key}.${i}`, `Card ${i + 1}`, { type: "text", spellcheck: "false", autocomplete: "off", class: `card-${safeId(key)}` }));
    }
    return h("fieldset", { class: "cards-field" },
      h("legend", { text: legend }),
      inputs,
      button(`${key}.more`, "Add another card", () => {
        this.extraCards = { ...(this.extraCards || {}), [key]: have + 1 };
        this.render();
        this.focusKey(`${key}.${have}`);
      }),
    );
  }

  cardsValue(key) {
    return [...$("#report").querySelectorAll(`input.card-${CSS.escape(safeId(key))}`)].map((el) => el.value.trim()).filter(Boolean);
  }

  /** Forms the server asked for: the cards a draw or mill revealed; a custom counter kind. */
  askPanel() {
    if (this.customKind) {
      const { body, label } = this.customKind;
      return h("div", { class: "choice", role: "group", "aria-label": "Custom counter kind" },
        h("p", { text: `“${body.kind}” is not a counter kind the server knows.` }),
        button("custom.yes", `Record “${body.kind}” as a custom counter kind`, () => {
          this.customKind = null;
          this.report({ ...body, custom_kind: true }, label, true);
        }),
        button("custom.no", "Cancel", () => { this.customKind = null; this.render(); }),
      );
    }
    if (!this.ask) return null;
    const { body, count } = this.ask;
    const verb = body.type === "draw" ? "drew" : "milled";
    const key = "ask.card";
    return h("form", {
        class: "choice",
        "aria-label": `Cards ${this.names(body.player)} ${verb}`,
        onsubmit: (e) => {
          e.preventDefault();
          const cards = this.cardsValue(key);
          this.ask = null;
          this.extraCards = {};
          this.report({ ...body, cards }, `${body.type === "draw" ? "Draw" : "Mill"} ${count} (${this.names(body.player)}): ${cards.join(", ")}`);
          this.render();
        },
      },
      this.cardsField(key, count, `The ${count === 1 ? "card" : count + " cards"} ${this.names(body.player)} ${verb}, top first`),
      h("button", { type: "submit", class: "primary", dataset: { key: "ask.submit" } }, `Record the ${body.type === "draw" ? "draw" : "mill"}`),
      button("ask.cancel", "Cancel", () => { this.ask = null; this.render(); }),
    );
  }

  // ---- one player's panel

  playerPanel(id, p) {
    const name = p.name || id;
    const can = this.controls(id) && this.state.status !== "finished" && !p.lost;
    const k = (rest) => `p.${id}.${rest}`;
    const life = h("p", { class: "life-big" }, h("span", { text: p.team && this.state.teams?.[p.team] ? "Life (team)" : "Life" }), " ", h("b", { dataset: { field: "life" }, text: p.life }));
    const counters = { ...Object.fromEntries(PLAYER_COUNTERS.map((c) => [c, 0])), ...(p.counters || {}) };
    const sections = [
      h("h3", { id: `report-${safeId(id)}` }, name, name !== id ? h("span", { class: "pid", text: ` ${id}` }) : null, p.lost ? h("span", { class: "tag tag-lost", text: "lost" }) : null),
      life,
    ];
    if (can) {
      const amount = () => positiveInt($(`#report [data-key="${CSS.escape(k("amount"))}"]`).value);
      sections.push(
        h("div", { class: "big-buttons life-buttons" },
          button(k("lose1"), "Lose 1 life", () => this.report({ type: "lose_life", player: id, amount: 1 }, `${name} loses 1 life`, true), { class: "lose" }),
          button(k("gain1"), "Gain 1 life", () => this.report({ type: "gain_life", player: id, amount: 1 }, `${name} gains 1 life`, true), { class: "gain" }),
        ),
        h("div", { class: "pad", role: "group", "aria-label": `Any amount of life for ${name}` },
          field(k("amount"), "Amount", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
          [2, 3, 5].map((n) => button(k(`set${n}`), String(n), () => { $(`#report [data-key="${CSS.escape(k("amount"))}"]`).value = String(n); }, { "aria-label": `Set the amount to ${n}`, class: "pad-key" })),
          button(k("lose"), "Lose that much life", () => { const n = amount(); this.report({ type: "lose_life", player: id, amount: n }, `${name} loses ${n} life`, true); }),
          button(k("gain"), "Gain that much life", () => { const n = amount(); this.report({ type: "gain_life", player: id, amount: n }, `${name} gains ${n} life`, true); }),
        ),
      );
    }
    sections.push(
      h("ul", { class: "report-counters", "aria-label": `Counters on ${name}` },
        Object.entries(counters).map(([kind, n]) =>
          h("li", { dataset: { kind, count: n } },
            h("span", { class: "kind", text: kind }), " ", h("b", { text: n }),
            can ? button(k(`c.add.${kind}`), "+", () => this.report({ type: "add_counters", target: { player: id }, kind, amount: 1 }, `${name} gets a ${kind} counter`, true), { "aria-label": `Add a ${kind} counter`, class: "pad-key" }) : null,
            can ? button(k(`c.rem.${kind}`), "−", () => this.report({ type: "remove_counters", target: { player: id }, kind, amount: 1 }, `${name} loses a ${kind} counter`, true), { "aria-label": `Remove a ${kind} counter`, class: "pad-key", disabled: n <= 0 }) : null,
          ),
        ),
      ),
    );
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
      ? h("details", { class: "more-commander", dataset: { key: `p.${id}.cmd` }, open: isCommanderGame(this.state) },
          h("summary", { text: isCommanderGame(this.state) ? "Commander and designations" : "Designations" }), controls)
      : null;
    return h("div", { class: "slot-commander", dataset: { slot: "commander" } },
      tags.length ? h("p", { class: "tags" }, tags) : null,
      commandZone(p, `Command zone of ${name}`),
      wrapped,
    );
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
    const concede = this.confirmConcede === id
      ? [button(k("concede.yes"), `Confirm: ${name} concedes`, () => { this.confirmConcede = null; this.report({ type: "concede", player: id }, `${name} concedes`); }, { class: "danger" }),
         button(k("concede.no"), "Keep playing", () => { this.confirmConcede = null; this.render(); })]
      : [button(k("concede"), `${name} concedes…`, () => { this.confirmConcede = id; this.render(); this.focusKey(k("concede.yes")); })];
    return h("details", { class: "more", dataset: { key: k("more") } },
      h("summary", { text: "Cards, damage, counters, concede" }),
      h("div", { class: "row" },
        field(k("draw.n"), "Cards", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
        button(k("draw"), "Draw", () => { const n = positiveInt(val("draw.n").value); this.report({ type: "draw", player: id, count: n }, `${name} draws ${n}`, true); }, { "aria-label": `${name} draws that many cards` }),
        button(k("mill"), "Mill", () => { const n = positiveInt(val("draw.n").value); this.report({ type: "mill", player: id, count: n }, `${name} mills ${n}`, true); }, { "aria-label": `${name} mills that many cards` }),
      ),
      h("div", { class: "row" },
        field(k("dmg.n"), "Damage", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
        h("span", { class: "field" }, h("label", { for: `r-${safeId(k("dmg.to"))}`, text: "to" }),
          h("select", { id: `r-${safeId(k("dmg.to"))}`, dataset: { key: k("dmg.to") } }, targets.map((t) => h("option", { value: t.value, text: t.text })))),
        field(k("dmg.src"), "Source (optional)", { type: "text", spellcheck: "false" }),
        button(k("dmg"), "Deal the damage", () => {
          const body = { type: "damage", target: targetOf(val("dmg.to").value), amount: positiveInt(val("dmg.n").value) };
          const source = val("dmg.src").value.trim();
          if (source) body.source = source;
          this.report(body, `${body.amount} damage to ${this.names(Object.values(body.target)[0])}`, true);
        }),
      ),
      h("div", { class: "row" },
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
      h("div", { class: "row" },
        field(k("cast.card"), "Card", { type: "text", spellcheck: "false" }),
        field(k("cast.x"), "X (optional)", { type: "number", min: "0", inputmode: "numeric", class: "amount" }),
        button(k("cast"), "Cast", () => {
          const card = val("cast.card").value.trim();
          if (!card) return;
          const body = { type: "cast", player: id, card };
          if (val("cast.x").value !== "") body.x = Number(val("cast.x").value);
          this.report(body, `${name} casts ${card}`);
        }, { "aria-label": `${name} casts the card` }),
        button(k("enter"), "Put onto the battlefield", () => {
          const card = val("cast.card").value.trim();
          if (!card) return;
          const body = { type: "enter", card, controller: id };
          if (val("enter.tapped").checked) body.tapped = true;
          if (val("enter.token").checked) body.token = true;
          this.report(body, `${card} enters under ${name}'s control`);
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
    return h("div", { class: "report-perms" },
      h("h4", { text: `Permanents of ${name}` }),
      h("ul", {}, perms.map(([pid, perm]) => {
        const k = (rest) => `perm.${pid}.${rest}`;
        const label = `${perm.name} (${pid})`;
        const counters = Object.entries(perm.counters || {}).filter(([, n]) => n > 0).map(([kind, n]) => counterWord(kind, n)).join(", ");
        const details = [perm.tapped ? "tapped" : "untapped", perm.summoning_sick ? "summoning sick" : "", perm.damage ? `${perm.damage} damage` : "", counters].filter(Boolean).join(" · ");
        return h("li", { class: "report-perm" + (perm.tapped ? " tapped" : ""), dataset: { permanent: pid } },
          h("span", { class: "perm-name" }, h("b", { text: perm.name }), ` ${pid}`), h("span", { class: "perm-type", text: ` ${details}` }),
          can ? h("span", { class: "perm-buttons" },
            perm.tapped
              ? button(k("untap"), "Untap", () => this.report({ type: "untap", permanent: pid }, `Untap ${label}`), { "aria-label": `Untap ${label}` })
              : button(k("tap"), "Tap", () => this.report({ type: "tap", permanent: pid }, `Tap ${label}`), { "aria-label": `Tap ${label}` }),
            h("label", { for: `r-${safeId(k("to"))}`, class: "visually-hidden", text: `Where ${label} goes` }),
            h("select", { id: `r-${safeId(k("to"))}`, dataset: { key: k("to") } }, LEAVE_TO.map(([v, t]) => h("option", { value: v, text: t }))),
            button(k("leave"), "Leaves", () => {
              const to = $(`#report [data-key="${CSS.escape(k("to"))}"]`).value;
              this.report({ type: "move", permanent: pid, to }, `${label} leaves the battlefield (${to.replace("_", " ")})`);
            }, { "aria-label": `${label} leaves the battlefield to the chosen zone` }),
          ) : null,
          can ? this.activateForm(id, pid, label, perms) : null,
        );
      })),
    );
  }

  /** Activate an ability: its number, X, and the costs a card the server does not automate
   * names (sacrifices, life); the server knows the costs of the cards it automates and says
   * which choice is missing. */
  activateForm(id, pid, label, perms) {
    const k = (rest) => `perm.${pid}.act.${rest}`;
    const val = (rest) => $(`#report [data-key="${CSS.escape(k(rest))}"]`);
    const sacrifice = perms.map(([other, p]) => {
      const boxId = `r-${safeId(k("sac." + other))}`;
      return h("div", { class: "check" },
        h("input", { type: "checkbox", id: boxId, dataset: { key: k("sac." + other), id: other }, class: `sac-${safeId(pid)}` }),
        h("label", { for: boxId, text: `${p.name} (${other})` }));
    });
    return h("details", { class: "activate", dataset: { key: k("open") } },
      h("summary", { text: `Activate ${label}…` }),
      h("div", { class: "row" },
        field(k("n"), "Ability (0 is the first)", { type: "number", min: "0", value: "0", inputmode: "numeric", class: "amount" }),
        field(k("x"), "X (optional)", { type: "number", min: "0", inputmode: "numeric", class: "amount" }),
        field(k("life"), "Pay life (optional)", { type: "number", min: "1", inputmode: "numeric", class: "amount" }),
      ),
      h("fieldset", { class: "picks" }, h("legend", { text: "Sacrifice as a cost" }), sacrifice),
      button(k("go"), `Activate ${label}`, () => {
        const body = { type: "activate", player: id, permanent: pid, ability: Number(val("n").value) || 0 };
        if (val("x").value !== "") body.x = Number(val("x").value);
        const costs = {};
        const sacrificed = [...$("#report").querySelectorAll(`input.sac-${CSS.escape(safeId(pid))}:checked`)].map((el) => el.dataset.id);
        if (sacrificed.length) costs.sacrifice = sacrificed;
        if (val("life").value !== "") costs.pay_life = positiveInt(val("life").value);
        if (Object.keys(costs).length) body.costs = costs;
        const what = sacrificed.length ? ` (sacrificing ${sacrificed.map((s) => this.names(s)).join(", ")})` : "";
        this.report(body, `Activate ${label}${what}`);
      }, { class: "primary" }),
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
