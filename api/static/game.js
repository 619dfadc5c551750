/* The game view at /games/{id} (?version=V&player=P&type=T): the board at the shown version,
 * the seek bar and keys, the timeline and its filter, live updates, the game's flow (first
 * player, mulligans, jumps), the end-of-game banner, the player links and the judge panel, wired
 * together. The address holds what is on screen: the version (when not the latest) and the
 * timeline's filter, so a copied address or a version link shows the same.
 */

import { ApiError, api, describeError, enc, gamePath } from "./api.js";
import { clearError, showError } from "./banner.js";
import { renderBoard, renderGameMeta } from "./board.js";
import { LifeChart } from "./chart.js";
import { $, h, plural } from "./dom.js";
import { EndGame } from "./endgame.js";
import { GameFlow, matchOf } from "./game-flow.js";
import { initPlayerLinks } from "./game-links.js";
import { initJudge, showUndoTarget } from "./judge.js";
import { Judging } from "./judging.js";
import { stepName } from "./labels.js";
import { follow } from "./live.js";
import { GameRecord } from "./record.js";
import { Reporter } from "./report.js";
import { TimelineView } from "./timeline.js";
import { resetVerifyBadge, verify } from "./verify.js";
import { RANK, rankOf, store } from "./store.js";

/** The panels drawn from the latest state, whichever version the board shows. */
const LIVE_PANELS = ["#endgame", "#unacknowledged", "#call-judge", "#judge-panel", "#game-flow", "#report"];
const STATE_CACHE_LIMIT = 300; // a version's state never changes, so any cached one stays right
const VERIFY_DELAY_MS = 1500; // check the chain once a burst of new events has settled

class GameView {
  constructor(id) {
    this.id = id;
    this.generation = 0; // bumps on every load, so late answers of an old load are dropped
    this.cache = new Map(); // version -> state
    this.live = null;
    this.urlTimer = 0;
    this.verifyTimer = 0;
    const view = this;
    // The reports waiting for acknowledgement and the judge's calls, penalties and time: drawn
    // from the latest state, which the reporter keeps (it asks for it after new events).
    this.judging = new Judging({ id, recorded: (result) => this.recorded(result), catchUp: () => this.catchUp() });
    this.reporter = new Reporter({
      id,
      head: () => this.head,
      recorded: (result) => this.recorded(result),
      catchUp: () => this.catchUp(),
      latest: (state, version) => this.latest(state, version),
      get record() {
        return view.record;
      },
    });
    // The flow panel's taps go through the reporter's queue (kept offline, sent once, in order
    // with the other reports); it hears back what became of them.
    this.flow = new GameFlow({
      id,
      report: { available: () => Boolean(this.reporter.queue), send: (body, label) => this.reporter.report(body, label) },
      match: (state) => matchOf(state),
    });
    hearReports(this.reporter, this.flow);
    this.endgame = new EndGame({ id, navigate: (url) => location.assign(url) });
    // The panels draw from the page's one store (store.js): who the token is, the latest state
    // (which the reporter fetches after new events and publishes through latest()).
    this.reporter.follow(store, { state: false });
    for (const panel of [this.judging, this.flow, this.endgame]) panel.follow(store);
    // The timeline filter the address asked for, until the select offers it (the players come
    // with the latest state, the event types with the events).
    const params = new URLSearchParams(location.search);
    this.wantFilter = { player: params.get("player") || "", type: params.get("type") || "" };
    this.chart = new LifeChart($("#chart"), {
      events: () => this.record.events,
      stateAt: (v) => this.stateAt(v),
    });
    this.chartTimer = 0;
    this.reset();
  }

  /** Each latest state the reporter is drawn from: the judging, flow and end-of-game panels too. */
  latest(state, version) {
    // The latest state names the players (and their permanents) the timeline filter offers,
    // whichever version the board shows.
    if (version >= this.head) this.updateFilterOptions(state);
    store.setState(state, version);
  }

  /** The state at version v, from the cache or the server. */
  async stateAt(v) {
    const cached = this.cache.get(v);
    if (cached) return cached;
    const answer = await api(gamePath(this.id, `?version=${v}`));
    this.cacheState(v, answer.state);
    return answer.state;
  }

  /** Draw the chart again soon, if its panel is open. */
  redrawChart(delay = 800) {
    clearTimeout(this.chartTimer);
    if (!$("#chart-details").open || !this.head) return;
    this.chartTimer = setTimeout(() => this.chart.draw(), delay);
  }

  reset() {
    this.generation += 1;
    this.record = new GameRecord(this.id);
    this.timeline = new TimelineView($("#timeline"), this.record, (v) => this.seek(v));
    this.placing = Promise.resolve(); // the server's timeline is asked for one request at a time
    this.selected = 0;
    this.following = true;
    this.want = 0; // the version the board should show
    this.shown = 0; // the version it shows
    this.loading = false;
    this.cache.clear(); // states depend on the token (known libraries are for judges)
    store.reset();
  }

  current() {
    const generation = this.generation;
    return () => generation === this.generation;
  }

  get head() {
    return this.record.head;
  }

  // ------------------------------------------------------------------ loading and new events

  async load(version) {
    this.stopLive();
    this.reset();
    const isCurrent = this.current();
    resetVerifyBadge();
    let events;
    try {
      events = await this.record.fetchEventsAfter(0, isCurrent);
    } catch (err) {
      showError(err, `Loading game ${this.id}`);
      $("#turn-info").textContent = "The game could not be loaded.";
      return;
    }
    if (!isCurrent()) return;
    clearError();
    this.record.add(events);
    if (!this.head) {
      $("#turn-info").textContent = "This game has no events.";
      return;
    }
    await this.place(isCurrent);
    if (!isCurrent()) return;
    this.updateFilterOptions(null);
    this.applyFilter();
    this.seek(version ? this.clamp(version) : this.head);
    this.redrawChart(0);
    this.reporter.refresh();
    verify(this.id, isCurrent);
    this.startLive();
  }

  /** Ask the server's timeline where each event stands and which are reverted, then redraw the
   * lines that changed. Chained, so an older answer never lands after a newer one. */
  place(isCurrent) {
    this.placing = this.placing.then(async () => {
      let changed = [];
      try {
        changed = this.record.applyTimeline(await this.record.fetchTimeline());
      } catch (err) {
        // The lines still show, under the last turn and step the server gave. A server without
        // the timeline (404) is older, not broken: nothing to report.
        if (isCurrent() && !(err instanceof ApiError && err.status === 404)) showError(err, "Loading the timeline");
      }
      if (isCurrent()) this.timeline.sync(changed);
    });
    return this.placing;
  }

  /** New events arrived (stream, poll or our own action): add them, follow the head if we were there. */
  async onNewEvents(events, isCurrent) {
    if (!isCurrent()) return;
    const wasFollowing = this.following;
    let added = this.record.add(events);
    const last = events.length ? events[events.length - 1].version : 0;
    if (last > this.head) {
      // A gap (a dropped message): fill it from the paged list.
      try {
        added += this.record.add(await this.record.fetchEventsAfter(this.head, isCurrent));
      } catch (err) {
        showError(err, "Catching up with the game");
      }
    }
    if (!added || !isCurrent()) return;
    if (this.reporter.version < this.head) this.reporter.refresh();
    await this.place(isCurrent);
    if (!isCurrent()) return;
    this.updateFilterOptions(null);
    if (this.timeline.keep) this.applyFilter();
    if (wasFollowing) this.seek(this.head);
    else this.updateSeekControls();
    clearTimeout(this.verifyTimer);
    this.verifyTimer = setTimeout(() => verify(this.id, isCurrent), VERIFY_DELAY_MS);
    this.redrawChart();
  }

  /** A judge action's answer: its events and the state at its version; show the new latest. */
  async recorded(result) {
    const events = Array.isArray(result.events) ? result.events : [];
    if (result.state && Number.isInteger(result.version)) this.reporter.show(result.state, result.version);
    if (events.length && result.state) this.cacheState(result.version, result.state);
    this.following = true; // our own change: show it
    await this.onNewEvents(events, this.current());
    this.seek(this.head);
  }

  /** Ask for the events this page has not seen yet (after a 409) and take them in. */
  async catchUp() {
    const isCurrent = this.current();
    try {
      const events = await this.record.fetchEventsAfter(this.head, isCurrent);
      await this.onNewEvents(events, isCurrent);
    } catch (err) {
      showError(err, "Catching up with the game");
    }
  }

  startLive() {
    this.stopLive();
    const isCurrent = this.current();
    this.live = follow(this.id, {
      lastVersion: () => this.head,
      onEvents: (batch) => this.onNewEvents(batch, isCurrent),
      onStatus: (text, cls) => this.setLive(text, cls),
      onFatal: (err) => showError(err, "Live updates"),
      pollEvents: () => this.record.fetchEventsAfter(this.head, isCurrent),
    });
  }

  stopLive() {
    if (this.live) this.live.stop();
    this.live = null;
    this.setLive("Not live", "");
  }

  setLive(text, cls) {
    const badge = $("#live-badge");
    badge.textContent = text;
    badge.className = "badge " + (cls || "");
  }

  // ------------------------------------------------------------------ timeline filter

  /** The players and event types the filter offers: the game's players, the types recorded. */
  updateFilterOptions(state) {
    if (state && state.players) {
      const players = Object.entries(state.players).map(([id, p]) => [id, p.name && p.name !== id ? `${p.name} (${id})` : id]);
      fillSelect($("#tl-player"), players);
      this.latestState = state;
    }
    const types = [...new Set(this.record.events.map((e) => e.type))].sort();
    fillSelect($("#tl-type"), types.map((t) => [t, readableType(t)]));
    this.takeWantedFilter();
  }

  /** Set the filter the address asked for once its selects offer the values. */
  takeWantedFilter() {
    let changed = false;
    for (const [key, select] of [["player", $("#tl-player")], ["type", $("#tl-type")]]) {
      const want = this.wantFilter[key];
      if (!want || ![...select.options].some((o) => o.value === want)) continue;
      select.value = want;
      this.wantFilter[key] = "";
      changed = true;
    }
    if (changed) this.applyFilter();
  }

  /** The filter as the address's query: what the selects show, or what the address still waits for. */
  filterQuery() {
    const params = new URLSearchParams();
    const player = $("#tl-player").value || this.wantFilter.player;
    const type = $("#tl-type").value || this.wantFilter.type;
    if (player) params.set("player", player);
    if (type) params.set("type", type);
    return params.toString();
  }

  /** The person changed the filter: the address and the version link follow. */
  filterChanged(key) {
    this.wantFilter[key] = "";
    this.applyFilter();
    if (this.head) this.updateSeekControls();
    this.scheduleAddressUpdate();
  }

  applyFilter() {
    const player = $("#tl-player").value;
    const type = $("#tl-type").value;
    if (!player && !type) {
      this.timeline.filter(null);
      $("#tl-count").textContent = "";
      return;
    }
    // A player's events name them or a permanent they control or own (in the latest state).
    const ids = new Set(player ? [player] : []);
    const board = (this.latestState && this.latestState.battlefield) || {};
    for (const [id, perm] of Object.entries(board)) if (perm.controller === player || perm.owner === player) ids.add(id);
    const keep = (event) => (!type || event.type === type) && (!player || mentions(event.data, ids));
    this.timeline.filter(keep);
    const n = this.record.events.filter(keep).length;
    $("#tl-count").textContent = `${plural(n, "event")} of ${this.head} shown.`;
  }

  // ------------------------------------------------------------------ seeking

  clamp(v) {
    return Math.min(Math.max(1, Math.round(v) || 1), Math.max(1, this.head));
  }

  versionText(v) {
    const place = this.record.place(v);
    const step = place.step ? ", " + stepName(place.step).toLowerCase() + " step" : "";
    return `Version ${v} of ${this.head}${place.turn ? `, turn ${place.turn}${step}` : ""}`;
  }

  /** The address of version v (null: the latest, followed live), with the timeline's filter. */
  versionUrl(v) {
    const filter = this.filterQuery();
    if (v === null) return `/games/${enc(this.id)}${filter ? "?" + filter : ""}`;
    return `/games/${enc(this.id)}?version=${v}${filter ? "&" + filter : ""}`;
  }

  /** Show version v: the controls move at once; the board follows when its state arrives. */
  seek(v) {
    if (!this.head) return;
    const target = this.clamp(v);
    this.selected = target;
    this.following = target === this.head;
    this.updateSeekControls();
    this.timeline.select(target);
    this.scheduleAddressUpdate();
    this.want = target;
    this.pump();
  }

  /** Keep the address on the shown version (debounced: browsers throttle rapid replaceState). */
  scheduleAddressUpdate() {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      const url = this.versionUrl(this.following ? null : this.selected);
      if (location.pathname + location.search !== url) history.replaceState(null, "", url + location.hash);
    }, 200);
  }

  updateSeekControls() {
    const slider = $("#seek-slider");
    slider.max = String(Math.max(1, this.head));
    slider.value = String(this.selected);
    const text = this.versionText(this.selected);
    slider.setAttribute("aria-valuetext", text);
    $("#seek-out").textContent = this.following ? `${text} (latest)` : text;
    const link = $("#permalink");
    link.href = this.versionUrl(this.selected);
    link.textContent = `Link to version ${this.selected}`;
    showUndoTarget(this.record.actionEnd(this.selected), this.head);
    const atStart = this.selected <= 1;
    const atEnd = this.selected >= this.head;
    for (const id of ["#seek-first", "#seek-prev", "#seek-prev-turn"]) $(id).disabled = atStart;
    for (const id of ["#seek-last", "#seek-next", "#seek-next-turn"]) $(id).disabled = atEnd;
    $("#new-events").hidden = this.following;
    $("#new-events").textContent = `${plural(this.head - this.selected, "later event")}: go to the latest`;
    this.showReplaying();
  }

  /** While an earlier version is replayed, the panels above the seek bar (the end of the game,
   * the reports waiting, the flow, Report) still show the game now: each says so, and a note
   * says which version the board shows, with the way back to the latest. */
  showReplaying() {
    const replaying = !this.following && this.selected < this.head;
    document.body.classList.toggle("replaying", replaying);
    const note = $("#replay-note");
    note.hidden = !replaying;
    const live = `Live: the game now (version ${this.head}), not the replayed version ${this.selected}`;
    for (const id of LIVE_PANELS) {
      const panel = $(id);
      if (replaying) panel.dataset.live = live;
      else delete panel.dataset.live;
    }
    if (replaying) {
      $("#replay-text").textContent = `Replaying version ${this.selected} of ${this.head}: the board, the seek bar and the timeline show version ${this.selected}. The panels above them show the game now, live.`;
    }
  }

  /** The start of the next turn (or the latest), or of this turn (the previous one when there). */
  turnStep(direction) {
    const v = this.selected;
    const starts = this.record.turnStarts();
    if (direction > 0) {
      const next = starts.find((s) => s > v);
      return next === undefined ? this.head : next;
    }
    let previous = 1;
    for (const s of starts) {
      if (s >= v) break;
      previous = s;
    }
    return previous;
  }

  cacheState(version, state) {
    this.cache.set(version, state);
    if (this.cache.size > STATE_CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value);
  }

  /** Fetch and draw the wanted version; at most one request at a time, the latest wish wins. */
  async pump() {
    if (this.loading) return;
    this.loading = true;
    const isCurrent = this.current();
    const board = $("#board");
    try {
      while (this.want && this.want !== this.shown && isCurrent()) {
        const v = this.want;
        let state = this.cache.get(v);
        if (!state) {
          board.setAttribute("aria-busy", "true");
          const answer = await api(gamePath(this.id, `?version=${v}`));
          if (!isCurrent()) return;
          state = answer.state;
          this.cacheState(v, state);
        }
        this.shown = v;
        if (this.want === v) {
          renderBoard(state, v);
          if (v === this.head) this.updateFilterOptions(state);
          // The tournament and variant do not change in a game: any version's state can say them.
          if (v === this.head || !$("#game-meta").textContent) renderGameMeta(state);
        }
      }
    } catch (err) {
      showError(err, `Loading version ${this.want}`);
      this.want = this.shown;
    } finally {
      this.loading = false;
      board.removeAttribute("aria-busy");
    }
  }

  // ------------------------------------------------------------------ keys

  onKey(e) {
    if (!this.head || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && t.closest && t.closest("textarea, select, [contenteditable]")) return;
    if (t && t.tagName === "INPUT" && t.type !== "range") return; // text fields and radios keep their keys
    if (t && t.tagName === "SUMMARY" && (e.key === " " || e.key === "Enter")) return;
    const targets = {
      ArrowLeft: () => (e.shiftKey ? this.selected - 1 : this.record.actionStep(this.selected, -1)),
      ArrowRight: () => (e.shiftKey ? this.selected + 1 : this.record.actionStep(this.selected, 1)),
      Home: () => 1,
      End: () => this.head,
      PageUp: () => this.turnStep(-1),
      "[": () => this.turnStep(-1),
      PageDown: () => this.turnStep(1),
      "]": () => this.turnStep(1),
    };
    if (!(e.key in targets)) return;
    e.preventDefault();
    this.seek(targets[e.key]());
  }
}

/** Keep a select's options in step with `options` ([value, text]), keeping the choice. */
function fillSelect(select, options) {
  const have = [...select.options].slice(1).map((o) => o.value + "\u0000" + o.text).join("\n");
  const want = options.map(([v, t]) => v + "\u0000" + t).join("\n");
  if (have === want) return;
  const value = select.value;
  select.replaceChildren(select.options[0], ...options.map(([v, t]) => h("option", { value: v, text: t })));
  select.value = options.some(([v]) => v === value) ? value : "";
}

/** "SomethingHappened" as "Something happened": the type's own words, nothing the page knows of it. */
function readableType(type) {
  const words = String(type).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether any string in the event's data (at any depth) is one of `ids`. */
function mentions(value, ids) {
  if (typeof value === "string") return ids.has(value);
  if (Array.isArray(value)) return value.some((v) => mentions(v, ids));
  if (value && typeof value === "object") return Object.values(value).some((v) => mentions(v, ids));
  return false;
}

/** Show game `id`; returns the function that loads it again (after a token change). */
export function initGame(id) {
  const view = new GameView(id);
  $("#game-view").hidden = false;
  $("#game-title").textContent = `Game ${id}`;
  document.title = `${id} · MTG Ledger`;
  const slider = $("#seek-slider");
  // The slider stops at the end of actions only: a value inside an action moves on to its end.
  slider.addEventListener("input", () => view.seek(view.record.actionEnd(view.clamp(Number(slider.value)))));
  $("#seek-first").addEventListener("click", () => view.seek(1));
  $("#seek-prev").addEventListener("click", () => view.seek(view.record.actionStep(view.selected, -1)));
  $("#seek-next").addEventListener("click", () => view.seek(view.record.actionStep(view.selected, 1)));
  $("#seek-last").addEventListener("click", () => view.seek(view.head));
  $("#seek-prev-turn").addEventListener("click", () => view.seek(view.turnStep(-1)));
  $("#seek-next-turn").addEventListener("click", () => view.seek(view.turnStep(1)));
  $("#new-events").addEventListener("click", () => view.seek(view.head));
  $("#replay-latest").addEventListener("click", () => view.seek(view.head));
  $("#tl-player").addEventListener("change", () => view.filterChanged("player"));
  $("#chart-details").addEventListener("toggle", () => view.redrawChart(0));
  $("#tl-type").addEventListener("change", () => view.filterChanged("type"));
  document.addEventListener("keydown", (e) => view.onKey(e));
  initJudge({
    id,
    head: () => view.head,
    selected: () => view.record.actionEnd(view.selected), // a backup goes back to an action's end
    recorded: (result) => view.recorded(result),
  });
  const showLinks = initPlayerLinks(id);
  const param = new URLSearchParams(location.search).get("version");
  whoAmI(view, showLinks);
  view.load(param && /^\d+$/.test(param) ? Number(param) : null);
  return () => {
    whoAmI(view, showLinks);
    view.load(view.following ? null : view.selected);
  };
}

/** Tell the flow panel what became of the reports it queued: stored, or refused with the
 * server's words (shown beside its buttons, not only under Report). */
function hearReports(reporter, flow) {
  const stored = reporter.stored;
  const refused = reporter.refused;
  if (typeof stored !== "function" || typeof refused !== "function") return;
  reporter.stored = function (entry, answer) {
    flow.stored(entry.label);
    return stored.call(this, entry, answer);
  };
  reporter.refused = function (entry, err) {
    flow.refused(entry.label, describeError(err));
    return refused.call(this, entry, err);
  };
}

/** Who the token is decides what the page offers: the reporting panels (a player token for its
 * own game, scorekeeper or above), the judge panel (judge or admin) and the buttons on the
 * reports waiting for acknowledgement (the affected player's token, a judge's). The server decides
 * what is allowed; the page only leaves out what would be refused. */
async function whoAmI(view, showLinks) {
  let who = null;
  try {
    who = await api("/v1/whoami");
  } catch {
    who = null; // no token where reads are private, or a bad one (the board shows that error)
  }
  const judge = rankOf(who) >= RANK.judge;
  $("#judge-panel").hidden = !judge;
  document.body.dataset.role = who ? who.role : "public";
  store.setWho(who);
  showLinks(who);
}
