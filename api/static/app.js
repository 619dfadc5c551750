/* MTG Ledger web page: the games list (/) and a game (/games/{id}, ?version=V).
 *
 * Plain JavaScript, no dependencies, no network beyond this server's v1 API (shared/API.md).
 * Every value from the server is written with textContent, never as HTML.
 * The token comes from the URL fragment (#token=...) or the form; it lives in sessionStorage and
 * only ever travels in the Authorization header. It is never put in a URL or logged.
 */
"use strict";

(() => {
  const TOKEN_KEY = "mtg-ledger.token";
  const STATE_CACHE_LIMIT = 300;
  const EVENT_PAGE = 1000;
  const POLL_MS = 2000;
  const RECONNECT_MS = 2000;

  const STEPS = {
    untap: "Untap", upkeep: "Upkeep", draw: "Draw", precombat_main: "Precombat main",
    beginning_of_combat: "Beginning of combat", declare_attackers: "Declare attackers",
    declare_blockers: "Declare blockers", combat_damage: "Combat damage", end_of_combat: "End of combat",
    postcombat_main: "Postcombat main", end: "End", cleanup: "Cleanup",
  };
  const VARIANTS = {
    two_player: "Two-player", multiplayer: "Multiplayer", two_headed_giant: "Two-Headed Giant",
    archenemy: "Archenemy",
  };
  const STATUSES = { in_progress: "In progress", finished: "Finished" };
  // SSE events are named by type (`event: CountersAdded`): EventSource needs a listener per name.
  const EVENT_TYPES = [
    "GameStarted", "TurnBegan", "StepBegan", "TriggersPending", "TriggerPutOnStack", "StackObjectResolved",
    "StackObjectCountered", "SpellCast", "AbilityActivated", "CountersAdded", "CountersRemoved", "LifeLost",
    "LifeGained", "DamageDealt", "CardsMilled", "CardsDrawn", "Proliferated", "PermanentEntered",
    "PermanentLeft", "PermanentTapped", "PermanentUntapped", "ManaAdded", "ManaPoolEmptied", "PlayerLost",
    "TeamLost", "GameEnded", "NoteAdded", "ActionsReverted", "message",
  ];

  // ---------------------------------------------------------------- small helpers

  const $ = (selector, root = document) => root.querySelector(selector);

  /** Build an element: h("li", {class: "x", text: "..."}, child, ...). */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = String(value);
      else if (key === "dataset") Object.assign(el.dataset, value);
      else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;
  const stepName = (step) => STEPS[step] || (step ? String(step).replace(/_/g, " ") : "");
  const enc = encodeURIComponent;

  function formatTime(iso) {
    if (!iso) return "";
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
  }

  // ---------------------------------------------------------------- token

  let memoryToken = null; // when sessionStorage is unavailable (privacy modes)

  const Token = {
    get() {
      try {
        return sessionStorage.getItem(TOKEN_KEY) || null;
      } catch {
        return memoryToken;
      }
    },
    set(value) {
      memoryToken = value;
      try {
        sessionStorage.setItem(TOKEN_KEY, value);
      } catch {
        /* kept in memory only */
      }
    },
    clear() {
      memoryToken = null;
      try {
        sessionStorage.removeItem(TOKEN_KEY);
      } catch {
        /* nothing stored */
      }
    },
  };

  /** Move `#token=...` from the address bar into sessionStorage, keeping any other fragment. */
  function takeTokenFromFragment() {
    if (!location.hash || location.hash.length < 2) return;
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has("token")) return;
    const value = (params.get("token") || "").trim();
    params.delete("token");
    if (value) Token.set(value);
    const rest = params.toString();
    history.replaceState(history.state, "", location.pathname + location.search + (rest ? "#" + rest : ""));
  }

  function showTokenState() {
    const has = Token.get() !== null;
    $("#token-state").textContent = has ? "Token in use (this tab only)" : "No token: reading as the public";
    $("#token-clear").hidden = !has;
    $("#judge-panel").hidden = !has;
    document.body.classList.toggle("has-token", has);
  }

  // ---------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(status, title, detail, code) {
      super(detail || title);
      this.name = "ApiError";
      this.status = status;
      this.title = title;
      this.detail = detail;
      this.code = code;
    }
  }

  function authHeaders(extra) {
    const headers = { Accept: "application/json", ...(extra || {}) };
    const token = Token.get();
    if (token) headers.Authorization = "Bearer " + token;
    return headers;
  }

  async function problemOf(response) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (body && typeof body === "object" && !Array.isArray(body)) {
      return new ApiError(response.status, body.title || response.statusText, body.detail || "", body.code || "");
    }
    return new ApiError(response.status, response.statusText || "Error", `HTTP ${response.status}`, "");
  }

  /** Call the API; resolve to the parsed JSON (or the Response with raw), reject with ApiError. */
  async function api(path, { method = "GET", body, headers, signal, raw = false } = {}) {
    const init = { method, headers: authHeaders(headers), signal, cache: "no-store", credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      if (err && err.name === "AbortError") throw err;
      throw new ApiError(0, "Network error", "the server could not be reached", "network");
    }
    if (!response.ok) throw await problemOf(response);
    return raw ? response : response.json();
  }

  function describeError(err) {
    if (!(err instanceof ApiError)) return String((err && err.message) || err);
    let text = err.detail || err.title;
    if (err.status) text += ` (${err.status} ${err.title}${err.code ? ", " + err.code : ""})`;
    if (err.status === 401) text += ". Enter a token at the top of the page, or open the page with #token=… after the address.";
    return text;
  }

  function showError(err, context) {
    if (err && err.name === "AbortError") return;
    $("#error-text").textContent = (context ? context + ": " : "") + describeError(err);
    $("#error").hidden = false;
  }

  function clearError() {
    $("#error").hidden = true;
    $("#error-text").textContent = "";
  }

  // ---------------------------------------------------------------- games list

  const FILTERS = ["event", "round", "table", "status"];

  function initList() {
    $("#list-view").hidden = false;
    document.title = "Games · MTG Ledger";
    const form = $("#filters");
    const query = new URLSearchParams(location.search);
    for (const name of FILTERS) form.elements[name].value = query.get(name) || "";

    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const params = filterParams(form);
      history.replaceState(null, "", "/" + (params.toString() ? "?" + params : ""));
      loadList(params);
    });
    form.addEventListener("reset", () => setTimeout(() => form.requestSubmit(), 0));
    $("#open-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const id = $("#open-id").value.trim();
      if (id) location.assign("/games/" + enc(id));
    });
    reloadView = () => loadList(filterParams(form));
    $("#list-refresh").addEventListener("click", reloadView);
    loadList(filterParams(form));
  }

  function filterParams(form) {
    const params = new URLSearchParams();
    for (const name of FILTERS) {
      const value = String(form.elements[name].value || "").trim();
      if (value) params.set(name, value);
    }
    return params;
  }

  async function loadList(params) {
    const summary = $("#list-summary");
    const body = $("#games-table tbody");
    summary.textContent = "Loading the games…";
    let games;
    try {
      const answer = await api("/v1/games" + (params.toString() ? "?" + params : ""));
      games = Array.isArray(answer.games) ? answer.games : [];
      clearError();
    } catch (err) {
      showError(err, "Loading the games");
      summary.textContent = "The games could not be loaded.";
      body.replaceChildren();
      return;
    }
    const filtered = params.toString() ? " matching the filter" : "";
    summary.textContent = games.length ? `${plural(games.length, "game")}${filtered}.` : `No games${filtered}.`;
    body.replaceChildren(...games.map(gameRow));
  }

  function gameRow(game) {
    const id = String(game.game_id);
    const status = game.status || "";
    const winners = Array.isArray(game.winners) ? game.winners.join(", ") : "";
    return h(
      "tr",
      { dataset: { gameId: id } },
      h("th", { scope: "row" }, h("a", { href: "/games/" + enc(id), text: id })),
      h("td", { text: game.event ?? "" }),
      h("td", { class: "num", text: game.round ?? "" }),
      h("td", { class: "num", text: game.table ?? "" }),
      h("td", { class: "opt", text: VARIANTS[game.variant] || game.variant || "" }),
      h("td", {}, h("span", { class: "status status-" + status, text: STATUSES[status] || status })),
      h("td", { class: "opt", text: winners }),
      h("td", { class: "num opt", text: game.version ?? "" }),
      h("td", { class: "opt" }, game.updated_at ? h("time", { datetime: game.updated_at, text: formatTime(game.updated_at) }) : ""),
    );
  }

  // ---------------------------------------------------------------- game view: model

  /** Everything the game view knows. Versions run 1..head without gaps. */
  const G = {
    id: "",
    events: [], // index = version - 1
    head: 0,
    selected: 0,
    following: true,
    cache: new Map(), // version -> state (a version's state never changes; cleared with the token)
    ctx: [], // index = version - 1: {turn, step, active} after that event
    turnStarts: [], // versions where a turn starts, ascending
    names: new Map(), // player and permanent ids -> names, for readable lines
    rows: new Map(), // version -> timeline <li>
    run: null, // the timeline group the next event goes into, when its context matches
    want: 0,
    shown: 0,
    loading: false,
    generation: 0, // bumps on every reload so late answers of an old load are dropped
    live: null, // {stop()}
    urlTimer: 0,
    verifyTimer: 0,
  };

  function resetModel() {
    G.events = [];
    G.head = 0;
    G.selected = 0;
    G.following = true;
    G.cache.clear();
    G.ctx = [];
    G.turnStarts = [];
    G.names = new Map();
    G.rows = new Map();
    G.run = null;
    G.want = 0;
    G.shown = 0;
    G.generation += 1;
    $("#timeline").replaceChildren();
  }

  function cacheState(version, state) {
    G.cache.set(version, state);
    if (G.cache.size > STATE_CACHE_LIMIT) G.cache.delete(G.cache.keys().next().value);
  }

  function learnNames(event) {
    const data = event.data || {};
    if (event.type === "GameStarted") {
      for (const p of data.players || []) if (p && p.id) G.names.set("player:" + p.id, p.name || "");
      for (const perm of data.battlefield || []) {
        if (perm && perm.id) G.names.set("permanent:" + perm.id, cardName(perm.card) || perm.name || "");
      }
    } else if (event.type === "PermanentEntered" && data.permanent && data.permanent.id) {
      G.names.set("permanent:" + data.permanent.id, cardName(data.permanent.card));
    } else if (event.type === "PermanentLeft" && data.permanent && data.name) {
      G.names.set("permanent:" + data.permanent, data.name);
    }
  }

  function learnNamesFromState(state) {
    for (const [id, p] of Object.entries(state.players || {})) if (p.name) G.names.set("player:" + id, p.name);
    for (const [id, perm] of Object.entries(state.battlefield || {})) G.names.set("permanent:" + id, perm.name);
  }

  function cardName(card) {
    if (!card) return "";
    return typeof card === "string" ? card : card.name || "";
  }

  /** The turn context after an event: turn number, step and active player. */
  function contextAfter(event, before) {
    const data = event.data || {};
    switch (event.type) {
      case "GameStarted": {
        const turn = data.turn || {};
        return { turn: turn.number || 1, step: turn.step || "untap", active: turn.active_team || turn.active_player || "" };
      }
      case "TurnBegan":
        return { turn: data.number, step: "", active: data.active_team || data.active_player || "" };
      case "StepBegan":
        return { ...before, turn: data.turn ?? before.turn, step: data.step };
      case "ActionsReverted": {
        const restored = G.ctx[(data.to_version || 1) - 1];
        return restored ? { ...restored } : before;
      }
      default:
        return before;
    }
  }

  /** The context an event is shown under: where it happened (a revert happened before it restored). */
  function groupContext(event, before, after) {
    return event.type === "ActionsReverted" && before ? before : after;
  }

  /** Reverted flags from the events themselves, as the server computes them (domain/undo.py). */
  function recomputeReverted() {
    const reverted = new Set();
    for (let i = G.events.length - 1; i >= 0; i -= 1) {
      const e = G.events[i];
      if (e.type === "ActionsReverted" && !reverted.has(e.version)) {
        for (const v of (e.data && e.data.reverted_versions) || []) reverted.add(v);
      }
    }
    for (const e of G.events) {
      const now = reverted.has(e.version);
      if (Boolean(e.reverted) !== now) {
        e.reverted = now;
        const row = G.rows.get(e.version);
        if (row) row.replaceWith(eventRow(e));
      }
    }
  }

  /** Add events (in version order) to the model and the timeline; returns how many were new. */
  function ingest(events) {
    let added = 0;
    let reverts = false;
    for (const event of events) {
      if (!event || typeof event.version !== "number") continue;
      if (event.version <= G.head) continue; // already known (a stream may resend)
      if (event.version !== G.head + 1) break; // a gap: the caller fills it from /events
      const before = G.head ? G.ctx[G.head - 1] : null;
      const after = contextAfter(event, before || {});
      G.events.push(event);
      G.ctx.push(after);
      G.head = event.version;
      if (!before || after.turn !== before.turn) G.turnStarts.push(event.version);
      learnNames(event);
      appendToTimeline(event, groupContext(event, before, after));
      if (event.type === "ActionsReverted") reverts = true;
      added += 1;
    }
    if (reverts) recomputeReverted();
    return added;
  }

  async function fetchEventsAfter(after, generation) {
    const out = [];
    let cursor = after;
    while (cursor !== null && cursor !== undefined) {
      const page = await api(`/v1/games/${enc(G.id)}/events?after=${cursor}&limit=${EVENT_PAGE}`);
      if (generation !== G.generation) return [];
      const events = Array.isArray(page.events) ? page.events : [];
      out.push(...events);
      const next = page.next_after;
      if (next === null || next === undefined || !events.length || next <= cursor) break;
      cursor = next;
    }
    return out;
  }

  // ---------------------------------------------------------------- game view: timeline

  function who(target) {
    if (!target || typeof target !== "object") return String(target ?? "");
    if (target.player) return nameOf("player", target.player);
    if (target.permanent) return nameOf("permanent", target.permanent);
    if (target.team) return "team " + target.team;
    return JSON.stringify(target);
  }

  function nameOf(kind, id) {
    const name = G.names.get(kind + ":" + id);
    return name && name !== id ? `${name} (${id})` : String(id);
  }

  const player = (id) => nameOf("player", id);
  /** A player, or a team in team variants (triggers are ordered by the active team). */
  const side = (id) => (G.names.has("player:" + id) ? player(id) : `team ${id}`);
  const counters = (n, kind) => `${n} ${kind} counter${n === 1 ? "" : "s"}`;

  function cardList(cards) {
    if (!Array.isArray(cards)) return "";
    return cards.map((c) => cardName(c) || "?").join(", ");
  }

  /** One readable line for an event. */
  function describe(event) {
    const d = event.data || {};
    switch (event.type) {
      case "GameStarted":
        return `Game started: ${VARIANTS[d.variant] || d.variant || ""}, ${(d.players || []).map((p) => nameOf("player", p.id)).join(", ")}`;
      case "TurnBegan":
        return `Turn ${d.number} began: ${d.active_team ? "team " + d.active_team : player(d.active_player)} is active`;
      case "StepBegan":
        return `${stepName(d.step)} step began`;
      case "TriggersPending":
        return `Triggers wait for ${side(d.controller)} to order them: ${(d.triggers || []).map((t) => t.description).join("; ")}`;
      case "TriggerPutOnStack":
        return `Trigger put on the stack: ${(d.object && d.object.description) || ""}`;
      case "StackObjectResolved":
        return `Resolved: ${d.description || d.id || ""}`;
      case "StackObjectCountered":
        return `Countered: ${d.description || d.id || ""}${d.reason ? " (" + d.reason + ")" : ""}`;
      case "SpellCast":
        return `${player(d.player)} cast ${cardName(d.object && d.object.card) || (d.object && d.object.description) || "a spell"}`;
      case "AbilityActivated":
        return `${player(d.player)} activated ${nameOf("permanent", d.permanent)}${d.text ? ": " + d.text : ""}`;
      case "CountersAdded":
        return `${counters(d.amount, d.kind)} put on ${who(d.target)}`;
      case "CountersRemoved":
        return `${counters(d.amount, d.kind)} removed from ${who(d.target)}`;
      case "LifeLost":
        return `${player(d.player)} ${d.paid ? "paid" : "lost"} ${d.amount} life (now ${d.life_after})`;
      case "LifeGained":
        return `${player(d.player)} gained ${d.amount} life (now ${d.life_after})`;
      case "DamageDealt":
        return `${d.amount} damage to ${who(d.target)}${d.source && d.source !== "manual" ? " from " + d.source : ""}${d.infect ? " (infect)" : ""}`;
      case "CardsMilled":
        return `${player(d.player)} milled ${plural((d.cards || []).length, "card")}${d.cards && d.cards.length ? ": " + cardList(d.cards) : ""}`;
      case "CardsDrawn": {
        // Counted, never named: the page may be on a screen others see (as the server's timeline).
        const n = Array.isArray(d.cards) ? d.cards.length + (d.unknown_count || 0) : d.count ?? d.requested;
        return `${player(d.player)} drew ${plural(n, "card")}${d.from_empty ? " (from an empty library)" : ""}`;
      }
      case "Proliferated":
        return `${player(d.player)} proliferated${d.chosen && d.chosen.length ? ": " + d.chosen.map(who).join(", ") : " (nothing chosen)"}`;
      case "PermanentEntered": {
        const p = d.permanent || {};
        return `${cardName(p.card)} (${p.id}) entered under ${player(p.controller)}`;
      }
      case "PermanentLeft":
        return `${nameOf("permanent", d.permanent)} left the battlefield to ${String(d.to || "").replace(/_/g, " ")}`;
      case "PermanentTapped":
        return `${nameOf("permanent", d.permanent)} tapped`;
      case "PermanentUntapped":
        return `${nameOf("permanent", d.permanent)} untapped`;
      case "ManaAdded":
        return `${player(d.player)} added mana: ${Object.entries(d.mana || {}).map(([k, n]) => `${n} ${k}`).join(", ")}`;
      case "ManaPoolEmptied":
        return `${player(d.player)}'s mana pool emptied`;
      case "PlayerLost":
        return `${player(d.player)} lost the game${d.reason ? " (" + d.reason + ")" : ""}`;
      case "TeamLost":
        return `Team ${d.team} lost the game${d.reason ? " (" + d.reason + ")" : ""}`;
      case "GameEnded":
        return d.draw ? "The game ended in a draw" : `The game ended: ${(d.winners || []).map(player).join(", ") || "no"} won`;
      case "NoteAdded":
        return `Note: ${d.text}`;
      case "ActionsReverted":
        return `Backed up to version ${d.to_version} (${plural((d.reverted_versions || []).length, "event")} reverted): ${d.reason}`;
      default:
        return `${event.type}${Object.keys(d).length ? " " + JSON.stringify(d) : ""}`;
    }
  }

  function eventMeta(event) {
    const d = event.data || {};
    const parts = [];
    const cause = d.cause || (d.source && typeof d.source === "string" ? d.source : null);
    if (cause && cause !== "manual") parts.push("cause: " + cause);
    else if (cause === "manual") parts.push("reported");
    if (event.rule) parts.push(event.rule);
    if (event.actor && event.actor.name) parts.push(`by ${event.actor.name} (${event.actor.role})`);
    return parts.join(" · ");
  }

  function eventRow(event) {
    const text = describe(event);
    const reverted = Boolean(event.reverted);
    const classes = ["event", "type-" + event.type];
    if (reverted) classes.push("reverted");
    if (event.version === G.selected) classes.push("current");
    if (event.version > G.selected) classes.push("future");
    const line = reverted ? h("del", { text }) : h("span", { text });
    const button = h(
      "button",
      {
        type: "button",
        class: "event-button",
        "aria-current": event.version === G.selected ? "step" : null,
        title: `Show the game at version ${event.version}`,
        onclick: () => seek(event.version),
      },
      h("span", { class: "version", text: "v" + event.version }),
      h("span", { class: "line" }, line, reverted ? h("span", { class: "visually-hidden", text: " (reverted)" }) : null),
      h("span", { class: "event-meta", text: eventMeta(event) }),
    );
    const row = h("li", { class: classes.join(" "), dataset: { version: event.version, type: event.type } }, button);
    G.rows.set(event.version, row);
    return row;
  }

  function appendToTimeline(event, ctx) {
    const root = $("#timeline");
    const key = `${ctx.turn}|${ctx.step}`;
    if (!G.run || G.run.key !== key) {
      let turnSection = G.run && G.run.turn === ctx.turn ? G.run.turnSection : null;
      if (!turnSection) {
        const active = ctx.active ? ` · ${side(ctx.active)}` : "";
        turnSection = h("section", { class: "turn", dataset: { turn: ctx.turn } }, h("h3", { text: `Turn ${ctx.turn}${active}` }));
        root.append(turnSection);
      }
      const list = h("ol", { class: "events" });
      const stepSection = h("section", { class: "step" }, ctx.step ? h("h4", { text: stepName(ctx.step) }) : null, list);
      turnSection.append(stepSection);
      G.run = { key, turn: ctx.turn, turnSection, list };
    }
    G.run.list.append(eventRow(event));
  }

  /** Mark the selected row and the rows after it, touching only the rows that change. */
  function markTimeline(from, to) {
    const lo = Math.max(1, Math.min(from, to));
    const hi = Math.min(G.head, Math.max(from, to));
    for (let v = lo; v <= hi; v += 1) {
      const row = G.rows.get(v);
      if (!row) continue;
      row.classList.toggle("future", v > to);
      row.classList.toggle("current", v === to);
      const button = row.firstElementChild;
      if (v === to) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
    const current = G.rows.get(to);
    if (current) scrollIntoViewIfNeeded(current);
  }

  function scrollIntoViewIfNeeded(row) {
    const box = $("#timeline");
    if (box.scrollHeight <= box.clientHeight) return; // not a scrolling box (phone layout)
    const rowTop = row.offsetTop - box.offsetTop;
    if (rowTop < box.scrollTop || rowTop + row.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = rowTop - box.clientHeight / 3;
    }
  }

  // ---------------------------------------------------------------- game view: board

  function counterList(map, label) {
    const entries = Object.entries(map || {}).filter(([, n]) => n > 0);
    if (!entries.length) return null;
    return h(
      "ul",
      { class: "counters", "aria-label": label },
      entries.map(([kind, n]) =>
        h("li", { class: "counter", dataset: { kind, count: n } }, h("span", { class: "kind", text: kind }), " ", h("b", { text: n })),
      ),
    );
  }

  function stat(label, value, field, extraClass) {
    return h("div", { class: "stat " + (extraClass || "") }, h("dt", { text: label }), h("dd", { dataset: { field }, text: value }));
  }

  function cardItems(cards) {
    return cards.map((c) => h("li", { title: c.type_line || "", text: cardName(c) || "?" }));
  }

  function playerCard(id, p, state, inTeam) {
    const turn = state.turn || {};
    const active = turn.active_player === id || (inTeam && turn.active_team && turn.active_team === p.team);
    const classes = ["player"];
    if (active) classes.push("active");
    if (p.lost) classes.push("lost");
    const graveyard = Array.isArray(p.graveyard) ? p.graveyard : [];
    const exile = Array.isArray(p.exile) ? p.exile : [];
    const mana = Object.entries(p.mana_pool || {}).filter(([, n]) => n > 0);
    const titleId = "player-" + id.replace(/[^A-Za-z0-9_-]/g, "_");
    return h(
      "article",
      { class: classes.join(" "), dataset: { player: id }, "aria-labelledby": titleId },
      h(
        "h3",
        { id: titleId },
        p.name || id,
        " ",
        h("span", { class: "pid", text: p.name && p.name !== id ? id : "" }),
        active ? h("span", { class: "tag tag-active", text: "active" }) : null,
        p.lost ? h("span", { class: "tag tag-lost", text: "lost" + (p.loss_reason ? ": " + p.loss_reason : "") }) : null,
      ),
      h(
        "dl",
        { class: "stats" },
        stat(inTeam ? "Life (team)" : "Life", p.life, "life", "life"),
        stat("Library", p.library_size, "library_size"),
        stat("Hand", p.hand_size, "hand_size"),
        stat("Graveyard", graveyard.length, "graveyard_size"),
      ),
      counterList(p.counters, `Counters on ${p.name || id}`),
      mana.length ? h("p", { class: "mana", text: "Mana pool: " + mana.map(([k, n]) => `${n} ${k}`).join(", ") }) : null,
      graveyard.length
        ? h("details", { class: "zone" }, h("summary", { text: `Graveyard (${graveyard.length})` }), h("ol", { class: "cards" }, cardItems(graveyard)))
        : null,
      exile.length ? h("details", { class: "zone" }, h("summary", { text: `Exile (${exile.length})` }), h("ol", { class: "cards" }, cardItems(exile))) : null,
      Array.isArray(p.library) && p.library.length
        ? h(
            "details",
            { class: "zone" },
            h("summary", { text: `Known library, top first (${p.library.length})` }),
            h("ol", { class: "cards" }, cardItems(p.library)),
          )
        : null,
    );
  }

  function renderPlayers(state) {
    const root = $("#players");
    const players = state.players || {};
    const teams = state.teams || {};
    const teamIds = Object.keys(teams);
    if (!teamIds.length) {
      root.replaceChildren(...Object.entries(players).map(([id, p]) => playerCard(id, p, state, false)));
      return;
    }
    const seen = new Set();
    const sections = teamIds.map((teamId) => {
      const team = teams[teamId];
      const members = (team.players || []).filter((id) => players[id]);
      members.forEach((id) => seen.add(id));
      const active = state.turn && state.turn.active_team === teamId;
      return h(
        "section",
        { class: "team" + (team.lost ? " lost" : "") + (active ? " active" : ""), dataset: { team: teamId }, "aria-label": `Team ${teamId}` },
        h(
          "h3",
          { class: "team-name" },
          `Team ${teamId}`,
          active ? h("span", { class: "tag tag-active", text: "active" }) : null,
          team.lost ? h("span", { class: "tag tag-lost", text: "lost" }) : null,
        ),
        h("dl", { class: "stats" }, team.life !== null && team.life !== undefined ? stat("Team life", team.life, "team_life", "life") : null),
        counterList(team.counters, `Counters on team ${teamId}`),
        h("div", { class: "team-players" }, members.map((id) => playerCard(id, players[id], state, true))),
      );
    });
    const others = Object.entries(players).filter(([id]) => !seen.has(id));
    root.replaceChildren(...sections, ...others.map(([id, p]) => playerCard(id, p, state, false)));
  }

  function permanentCard(id, perm) {
    const card = perm.card || {};
    const pt = card.power !== undefined && card.power !== null ? `${card.power}/${card.toughness}` : "";
    const tags = [];
    if (perm.tapped) tags.push(h("span", { class: "tag tag-tapped", text: "tapped" }));
    if (perm.summoning_sick) tags.push(h("span", { class: "tag", text: "summoning sick", title: "CR 302.6" }));
    if (perm.token) tags.push(h("span", { class: "tag", text: "token" }));
    if (perm.damage) tags.push(h("span", { class: "tag tag-damage", text: `${perm.damage} damage` }));
    if (perm.owner && perm.owner !== perm.controller) tags.push(h("span", { class: "tag", text: `owner ${perm.owner}` }));
    return h(
      "li",
      { class: "permanent" + (perm.tapped ? " tapped" : ""), dataset: { permanent: id, tapped: perm.tapped ? "true" : "false" } },
      h("div", { class: "perm-name" }, h("b", { text: perm.name || cardName(card) || id }), " ", h("span", { class: "pid", text: id })),
      h("div", { class: "perm-type", text: [card.type_line, pt].filter(Boolean).join(" · ") }),
      tags.length ? h("div", { class: "tags" }, tags) : null,
      counterList(perm.counters, `Counters on ${perm.name || id}`),
    );
  }

  function renderBattlefield(state) {
    const root = $("#battlefield");
    const byController = new Map();
    for (const id of Object.keys(state.players || {})) byController.set(id, []);
    for (const [id, perm] of Object.entries(state.battlefield || {})) {
      const key = perm.controller || "?";
      if (!byController.has(key)) byController.set(key, []);
      byController.get(key).push([id, perm]);
    }
    const groups = [];
    for (const [controller, perms] of byController) {
      if (!perms.length) continue;
      groups.push(
        h(
          "section",
          { class: "controller", dataset: { controller }, "aria-label": `Permanents controlled by ${player(controller)}` },
          h("h3", { text: player(controller) }),
          h("ul", { class: "permanents" }, perms.map(([id, perm]) => permanentCard(id, perm))),
        ),
      );
    }
    root.replaceChildren(...(groups.length ? groups : [h("p", { class: "empty", text: "No permanents." })]));
  }

  function renderStack(state) {
    const stack = Array.isArray(state.stack) ? state.stack : [];
    const list = $("#stack");
    const items = stack
      .map((obj, index) => {
        const needs = Array.isArray(obj.needs) ? obj.needs : [];
        return h(
          "li",
          { class: "stack-object", dataset: { id: obj.id, kind: obj.kind } },
          h(
            "div",
            { class: "stack-head" },
            index === stack.length - 1 ? h("span", { class: "tag tag-top", text: "top" }) : null,
            h("span", { class: "tag", text: obj.kind }),
            h("b", { text: obj.id }),
            " · ",
            player(obj.controller),
            obj.source ? ` · source ${nameOf("permanent", obj.source)}` : "",
          ),
          h("div", { class: "stack-desc", text: obj.description || "" }),
          needs.length
            ? h("div", { class: "needs" }, "Resolving needs: ", needs.map((n) => h("span", { class: "tag tag-need", text: n })))
            : null,
        );
      })
      .reverse(); // the API lists bottom first; show the top first
    list.replaceChildren(...(items.length ? items : [h("li", { class: "empty", text: "The stack is empty." })]));

    const pending = $("#pending");
    const order = state.pending_order;
    if (order && Array.isArray(order.triggers) && order.triggers.length) {
      pending.hidden = false;
      pending.replaceChildren(
        h("p", {}, h("b", { text: "Triggers waiting to be ordered" }), ` by ${side(order.controller)} (order_triggers, first to resolve first):`),
        h("ul", {}, order.triggers.map((t) => h("li", {}, h("b", { text: t.id }), " ", t.description || ""))),
      );
    } else {
      pending.hidden = true;
      pending.replaceChildren();
    }
  }

  function renderTurn(state, version) {
    const turn = state.turn || {};
    const active = turn.active_team ? `team ${turn.active_team}` : player(turn.active_player);
    const parts = [
      h("span", { class: "turn-number", text: `Turn ${turn.number}` }),
      h("span", { text: stepName(turn.step) + " step" }),
      h("span", { text: `Active: ${active}` }),
    ];
    if (state.status === "finished") {
      const result = state.result || {};
      const text = result.draw ? "Finished: a draw" : `Finished: ${(result.winners || []).map(player).join(", ") || "no one"} won`;
      parts.push(h("span", { class: "status status-finished", text }));
    } else {
      parts.push(h("span", { class: "status status-in_progress", text: "In progress" }));
    }
    parts.push(h("span", { class: "shown-version", text: `at version ${version}` }));
    $("#turn-info").replaceChildren(...parts);
  }

  function renderBoard(state, version) {
    learnNamesFromState(state);
    renderTurn(state, version);
    renderPlayers(state);
    renderBattlefield(state);
    renderStack(state);
    $("#board").dataset.version = String(version);
  }

  function renderGameMeta(state) {
    const t = state.tournament || {};
    const parts = [];
    if (t.event) parts.push(t.event);
    if (t.round !== undefined && t.round !== null) parts.push(`Round ${t.round}`);
    if (t.table !== undefined && t.table !== null) parts.push(`Table ${t.table}`);
    parts.push(VARIANTS[state.variant] || state.variant);
    if (state.rules_edition) parts.push(`rules of ${state.rules_edition}`);
    $("#game-meta").textContent = parts.filter(Boolean).join(" · ");
  }

  // ---------------------------------------------------------------- game view: seeking

  function clampVersion(v) {
    return Math.min(Math.max(1, Math.round(v) || 1), Math.max(1, G.head));
  }

  function versionText(v) {
    const ctx = G.ctx[v - 1];
    const where = ctx ? `, turn ${ctx.turn}${ctx.step ? ", " + stepName(ctx.step).toLowerCase() + " step" : ""}` : "";
    return `Version ${v} of ${G.head}${where}`;
  }

  function versionUrl(v) {
    return `/games/${enc(G.id)}?version=${v}`;
  }

  /** Show version v: the controls move at once; the board follows when its state arrives. */
  function seek(v) {
    if (!G.head) return;
    const target = clampVersion(v);
    const previous = G.selected || target;
    G.selected = target;
    G.following = target === G.head;
    updateSeekControls();
    markTimeline(previous, target);
    scheduleAddressUpdate();
    G.want = target;
    pump();
  }

  /** Keep the address on the shown version (debounced: browsers throttle rapid replaceState). */
  function scheduleAddressUpdate() {
    clearTimeout(G.urlTimer);
    G.urlTimer = setTimeout(() => {
      const url = G.following ? `/games/${enc(G.id)}` : versionUrl(G.selected);
      if (location.pathname + location.search !== url) history.replaceState(null, "", url + location.hash);
    }, 200);
  }

  function updateSeekControls() {
    const slider = $("#seek-slider");
    slider.max = String(Math.max(1, G.head));
    slider.value = String(G.selected);
    const text = versionText(G.selected);
    slider.setAttribute("aria-valuetext", text);
    $("#seek-out").textContent = G.following ? `${text} (latest)` : text;
    const link = $("#permalink");
    link.href = versionUrl(G.selected);
    link.textContent = `Link to version ${G.selected}`;
    $("#undo-to-version").textContent = String(G.selected);
    $("#undo-to").disabled = G.selected >= G.head;
    if ($("#undo-to").disabled && $("#undo-to").checked) $("#undo-last").checked = true;
    $("#seek-first").disabled = $("#seek-prev").disabled = $("#seek-prev-turn").disabled = G.selected <= 1;
    $("#seek-last").disabled = $("#seek-next").disabled = $("#seek-next-turn").disabled = G.selected >= G.head;
    $("#new-events").hidden = G.following;
    $("#new-events").textContent = `${plural(G.head - G.selected, "later event")}: go to the latest`;
  }

  function turnStep(direction) {
    const v = G.selected;
    if (direction > 0) {
      const next = G.turnStarts.find((s) => s > v);
      return next === undefined ? G.head : next;
    }
    let previous = 1;
    for (const s of G.turnStarts) {
      if (s >= v) break;
      previous = s;
    }
    return previous;
  }

  /** Fetch and draw the wanted version; at most one request at a time, the latest wish wins. */
  async function pump() {
    if (G.loading) return;
    G.loading = true;
    const generation = G.generation;
    try {
      while (G.want && G.want !== G.shown && generation === G.generation) {
        const v = G.want;
        let state = G.cache.get(v);
        if (!state) {
          $("#board").setAttribute("aria-busy", "true");
          const answer = await api(`/v1/games/${enc(G.id)}?version=${v}`);
          if (generation !== G.generation) return;
          state = answer.state;
          cacheState(v, state);
        }
        G.shown = v;
        if (G.want === v) {
          renderBoard(state, v);
          if (v === G.head) renderGameMeta(state);
        }
      }
    } catch (err) {
      showError(err, `Loading version ${G.want}`);
      G.want = G.shown;
    } finally {
      G.loading = false;
      $("#board").removeAttribute("aria-busy");
    }
  }

  function onKey(e) {
    if (!G.head || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && t.closest && t.closest("textarea, select, [contenteditable]")) return;
    if (t && t.tagName === "INPUT" && t.type !== "range") return; // text fields and radios keep their keys
    if (t && t.tagName === "SUMMARY" && (e.key === " " || e.key === "Enter")) return;
    let target = null;
    switch (e.key) {
      case "ArrowLeft":
        target = G.selected - 1;
        break;
      case "ArrowRight":
        target = G.selected + 1;
        break;
      case "Home":
        target = 1;
        break;
      case "End":
        target = G.head;
        break;
      case "PageUp":
      case "[":
        target = turnStep(-1);
        break;
      case "PageDown":
      case "]":
        target = turnStep(1);
        break;
      default:
        return;
    }
    e.preventDefault();
    seek(target);
  }

  // ---------------------------------------------------------------- game view: live updates

  function setLive(text, cls) {
    const badge = $("#live-badge");
    badge.textContent = text;
    badge.className = "badge " + (cls || "");
  }

  /** New events arrived (stream, poll or our own action): add them, follow the head if we were there. */
  async function onNewEvents(events, generation) {
    if (generation !== G.generation) return;
    const wasFollowing = G.following;
    const last = events.length ? events[events.length - 1].version : 0;
    let added = ingest(events);
    if (last > G.head) {
      // A gap (e.g. an event type this page has no listener for): fill it from the paged list.
      try {
        added += ingest(await fetchEventsAfter(G.head, generation));
      } catch (err) {
        showError(err, "Catching up with the game");
      }
    }
    if (!added) return;
    if (wasFollowing) seek(G.head);
    else updateSeekControls();
    scheduleVerify();
  }

  function parseStreamEvent(data) {
    try {
      return JSON.parse(data);
    } catch {
      return null;
    }
  }

  /** EventSource (no token; public reads): it cannot send an Authorization header. */
  function liveWithEventSource(generation) {
    const source = new EventSource(`/v1/games/${enc(G.id)}/events/stream?after=${G.head}`);
    let queue = [];
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      const batch = queue;
      queue = [];
      onNewEvents(batch, generation);
    };
    const onMessage = (m) => {
      const event = parseStreamEvent(m.data);
      if (!event) return;
      queue.push(event);
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, 50); // one board update per burst of events
      }
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, onMessage);
    source.onopen = () => setLive("Live", "live");
    let fallback = null;
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        // The server refused the stream (e.g. reads need a token): poll instead, errors shown there.
        fallback = livePolling(generation);
      } else {
        setLive("Reconnecting…", "warn");
      }
    };
    return {
      stop() {
        source.close();
        if (fallback) fallback.stop();
      },
    };
  }

  /** fetch() streaming with the Authorization header, reading the SSE format by hand. */
  function liveWithFetch(generation) {
    const controller = new AbortController();
    let stopped = false;
    let lastId = G.head;
    let timer = 0;

    const connect = async () => {
      if (stopped) return;
      try {
        const response = await fetch(`/v1/games/${enc(G.id)}/events/stream?after=${lastId}`, {
          headers: authHeaders({ Accept: "text/event-stream", "Last-Event-ID": String(lastId) }),
          signal: controller.signal,
          cache: "no-store",
        });
        if (!response.ok) throw await problemOf(response);
        setLive("Live", "live");
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          let cut;
          const batch = [];
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const parsed = parseSseBlock(block);
            if (parsed.id !== null && /^\d+$/.test(parsed.id)) lastId = Number(parsed.id);
            if (parsed.data !== null) {
              const event = parseStreamEvent(parsed.data);
              if (event) batch.push(event);
            }
          }
          if (batch.length) await onNewEvents(batch, generation);
        }
        if (!stopped) setLive("Reconnecting…", "warn");
      } catch (err) {
        if (stopped || (err && err.name === "AbortError")) return;
        if (err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404)) {
          showError(err, "Live updates");
          setLive("Not live", "");
          return;
        }
        setLive("Reconnecting…", "warn");
      }
      if (!stopped) timer = setTimeout(connect, RECONNECT_MS);
    };
    const stopper = {
      stop() {
        stopped = true;
        clearTimeout(timer);
        controller.abort();
      },
    };
    connect();
    return stopper;
  }

  function parseSseBlock(block) {
    const out = { id: null, event: null, data: null };
    const data = [];
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "id") out.id = value;
      else if (field === "event") out.event = value;
    }
    if (data.length) out.data = data.join("\n");
    return out;
  }

  /** The fallback: ask for new events every two seconds. */
  function livePolling(generation) {
    let stopped = false;
    let timer = 0;
    setLive("Polling", "warn");
    const tick = async () => {
      if (stopped) return;
      try {
        const events = await fetchEventsAfter(G.head, generation);
        if (events.length) await onNewEvents(events, generation);
      } catch (err) {
        showError(err, "Polling for new events");
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return {
      stop() {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  function startLive() {
    stopLive();
    const generation = G.generation;
    if (Token.get() === null && window.EventSource) G.live = liveWithEventSource(generation);
    else if (window.ReadableStream && window.TextDecoderStream) G.live = liveWithFetch(generation);
    else G.live = livePolling(generation);
  }

  function stopLive() {
    if (G.live) G.live.stop();
    G.live = null;
    setLive("Not live", "");
  }

  // ---------------------------------------------------------------- game view: verify, judge

  async function verify() {
    const badge = $("#verify-badge");
    const generation = G.generation;
    try {
      const report = await api(`/v1/games/${enc(G.id)}/verify`);
      if (generation !== G.generation) return;
      if (report.ok) {
        badge.textContent = `Record verified: ${plural(report.events, "event")}`;
        badge.className = "badge ok";
        badge.title = report.head ? `Hash chain head ${report.head}` : "";
      } else {
        badge.textContent = `Record altered: first bad version ${report.first_bad_version}`;
        badge.className = "badge bad";
        badge.title = "GET /verify found an event whose content or hash does not match";
      }
      badge.dataset.ok = String(Boolean(report.ok));
    } catch (err) {
      badge.textContent = "Record not checked";
      badge.className = "badge";
      badge.title = describeError(err);
    }
  }

  function scheduleVerify() {
    clearTimeout(G.verifyTimer);
    G.verifyTimer = setTimeout(verify, 1500);
  }

  function judgeStatus(text, isError) {
    const status = $("#judge-status");
    status.textContent = text;
    status.classList.toggle("error-text", Boolean(isError));
  }

  async function submitJudge(form, path, body, headers, done) {
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    judgeStatus("Sending…");
    try {
      const result = await api(path, { method: "POST", body, headers });
      const events = Array.isArray(result.events) ? result.events : [];
      if (events.length) cacheState(result.version, result.state);
      G.following = true; // our own change: show it
      await onNewEvents(events, G.generation);
      seek(G.head);
      done(result);
    } catch (err) {
      judgeStatus(describeError(err), true);
    } finally {
      buttons.forEach((b) => (b.disabled = false));
      updateSeekControls();
    }
  }

  function initJudge() {
    const undoForm = $("#undo-form");
    undoForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const reason = $("#undo-reason").value.trim();
      if (!reason) {
        judgeStatus("An undo needs a reason for the record.", true);
        $("#undo-reason").focus();
        return;
      }
      const toShown = $("#undo-to").checked && G.selected < G.head;
      const body = toShown ? { to_version: G.selected, reason } : { actions: 1, reason };
      // If-Match: refuse (409) when the game moved on since this page last saw it.
      submitJudge(undoForm, `/v1/games/${enc(G.id)}/undo`, body, { "If-Match": `"${G.head}"` }, (result) => {
        $("#undo-reason").value = "";
        $("#undo-last").checked = true;
        judgeStatus(`Undone: the game is at version ${result.version}.`);
      });
    });
    const noteForm = $("#note-form");
    noteForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("#note-text").value.trim();
      if (!text) {
        judgeStatus("The note is empty.", true);
        return;
      }
      submitJudge(noteForm, `/v1/games/${enc(G.id)}/actions`, { type: "note", text }, undefined, (result) => {
        $("#note-text").value = "";
        judgeStatus(`Note added at version ${result.version}.`);
      });
    });
    $("#export-button").addEventListener("click", exportRecord);
  }

  async function exportRecord() {
    const button = $("#export-button");
    button.disabled = true;
    judgeStatus("Preparing the export…");
    try {
      const response = await api(`/v1/games/${enc(G.id)}/export`, { raw: true, headers: { Accept: "application/x-ndjson" } });
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: `${G.id}.ndjson`, class: "visually-hidden" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      judgeStatus(`Exported ${G.id}.ndjson.`);
    } catch (err) {
      judgeStatus(describeError(err), true);
    } finally {
      button.disabled = false;
    }
  }

  // ---------------------------------------------------------------- game view: start

  async function loadGame(version) {
    stopLive();
    resetModel();
    const generation = G.generation;
    $("#verify-badge").textContent = "Checking the record…";
    $("#verify-badge").className = "badge";
    let events;
    try {
      events = await fetchEventsAfter(0, generation);
    } catch (err) {
      showError(err, `Loading game ${G.id}`);
      $("#turn-info").textContent = "The game could not be loaded.";
      return;
    }
    if (generation !== G.generation) return;
    clearError();
    ingest(events);
    if (!G.head) {
      $("#turn-info").textContent = "This game has no events.";
      return;
    }
    const start = version ? clampVersion(version) : G.head;
    G.selected = start;
    markTimeline(1, start);
    seek(start);
    verify();
    startLive();
  }

  function initGame(id) {
    G.id = id;
    $("#game-view").hidden = false;
    $("#game-title").textContent = `Game ${id}`;
    document.title = `${id} · MTG Ledger`;
    const slider = $("#seek-slider");
    slider.addEventListener("input", () => seek(Number(slider.value)));
    $("#seek-first").addEventListener("click", () => seek(1));
    $("#seek-prev").addEventListener("click", () => seek(G.selected - 1));
    $("#seek-next").addEventListener("click", () => seek(G.selected + 1));
    $("#seek-last").addEventListener("click", () => seek(G.head));
    $("#seek-prev-turn").addEventListener("click", () => seek(turnStep(-1)));
    $("#seek-next-turn").addEventListener("click", () => seek(turnStep(1)));
    $("#new-events").addEventListener("click", () => seek(G.head));
    document.addEventListener("keydown", onKey);
    initJudge();
    const param = new URLSearchParams(location.search).get("version");
    const version = param && /^\d+$/.test(param) ? Number(param) : null;
    reloadView = () => loadGame(G.following ? null : G.selected);
    loadGame(version);
  }

  // ---------------------------------------------------------------- start

  let reloadView = () => {};

  function initToken() {
    takeTokenFromFragment();
    showTokenState();
    $("#token-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("#token-input");
      const value = input.value.trim();
      input.value = "";
      if (!value) return;
      Token.set(value);
      showTokenState();
      clearError();
      reloadView();
    });
    $("#token-clear").addEventListener("click", () => {
      Token.clear();
      showTokenState();
      reloadView();
    });
    $("#error-close").addEventListener("click", clearError);
  }

  function main() {
    initToken();
    const path = location.pathname;
    const match = /^\/games\/([^/]+)\/?$/.exec(path);
    if (match) {
      let id;
      try {
        id = decodeURIComponent(match[1]);
      } catch {
        id = match[1];
      }
      initGame(id);
    } else {
      initList();
    }
  }

  main();
})();
