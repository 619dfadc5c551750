/* Judging on the game page (docs/web.md, Judging; docs/judges.md): the reports waiting for the
 * acknowledgement of the player they affect, and the judge panel's calls and rulings, penalties
 * and time extensions.
 *
 * Everything shown comes from the latest state's `unacknowledged` and `judging` fields and from
 * the server's answers. What is allowed is the server's: the page leaves out the buttons it
 * would refuse (Acknowledge and Dispute for the affected player's token, Acknowledge for a
 * judge's) and shows its refusal otherwise. None of these requests carries If-Match: an
 * acknowledgement, a ruling or a penalty means the same whatever was reported meanwhile.
 *
 * The penalty and time forms start from a judge call (issue 30), not from the first entries of
 * their selects: the call the address names (`#call=call-2`, the judges' page links so), or the
 * one whose "Penalty for this call" was pressed, else the newest open call; the penalty's player
 * is the call's caller when a player called. A form the judge has changed keeps their choices
 * until it is sent.
 */

import { api, describeError, gamePath } from "./api.js";
import { $, h, plural } from "./dom.js";
import { Panel } from "./panel.js";
import { seatedPlayer } from "./seat.js";
import { RANK } from "./store.js";

/** The infractions the server knows (IPG sections 2-4, docs/judges.md; the server refuses any
 * other section with `unknown_infraction`). */
export const INFRACTIONS = [
  ["2.1", "Missed Trigger"],
  ["2.2", "Looking at Extra Cards"],
  ["2.3", "Hidden Card Error"],
  ["2.4", "Mulligan Procedure Error"],
  ["2.5", "Game Rule Violation"],
  ["2.6", "Failure to Maintain Game State"],
  ["3.1", "Tardiness"],
  ["3.2", "Outside Assistance"],
  ["3.3", "Slow Play"],
  ["3.4", "Decklist Problem"],
  ["3.5", "Deck Problem"],
  ["3.6", "Limited Procedure Violation"],
  ["3.7", "Communication Policy Violation"],
  ["3.8", "Marked Cards"],
  ["3.9", "Insufficient Shuffling"],
  ["4.1", "Unsporting Conduct — Minor"],
  ["4.2", "Unsporting Conduct — Major"],
  ["4.3", "Improperly Determining a Winner"],
  ["4.4", "Bribery and Wagering"],
  ["4.5", "Aggressive Behavior"],
  ["4.6", "Theft of Tournament Material"],
  ["4.7", "Stalling"],
  ["4.8", "Cheating"],
];
const GAME_ENDING = new Set(["Game Loss", "Match Loss", "Disqualification"]);

const safeId = (text) => String(text).replace(/[^A-Za-z0-9_-]/g, "_");

/** The call the address names (`#call=call-2`), or null. */
export function callInAddress(hash = location.hash) {
  if (!hash || hash.length < 2) return null;
  const call = new URLSearchParams(hash.slice(1)).get("call");
  return call ? call : null;
}

/** The call the judge's forms start from: `wanted` while the state has it, else the newest
 * open call, else null. */
export function startingCall(calls, wanted) {
  const named = wanted ? calls.find((c) => c.call === wanted) : null;
  if (named) return named;
  const open = calls.filter((c) => c.open !== false);
  return open.length ? open[open.length - 1] : null;
}

function say(selector, text, isError = false) {
  const out = $(selector);
  if (!out) return;
  out.textContent = text;
  out.classList.toggle("error-text", Boolean(isError));
}

/** Keep the options of a select (after its first `keep` fixed ones) in step, keeping the choice. */
function fillOptions(select, options, keep = 0) {
  const fixed = [...select.options].slice(0, keep);
  const want = options.map(([v, t]) => v + "\u0000" + t).join("\n");
  const have = [...select.options].slice(keep).map((o) => o.value + "\u0000" + o.text).join("\n");
  if (want === have) return;
  const value = select.value;
  select.replaceChildren(...fixed, ...options.map(([v, t]) => h("option", { value: v, text: t })));
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

export class Judging extends Panel {
  /** `game`: {id, recorded(result), catchUp()}: `recorded` takes an answer (its events and state)
   * into the page; `catchUp` fetches what the page has not seen (after a refusal, which may come
   * from a change made elsewhere: a report a judge settled meanwhile). */
  constructor(game) {
    super();
    this.game = game;
    this.drafts = new Map(); // the text typed into a dispute or ruling field, by its id
    this.confirming = null; // the game-ending penalty waiting for its second press
    this.drawn = ""; // what the unacknowledged list was drawn from
    this.wantedCall = callInAddress(); // the call the judge's forms start from (judges' page link)
    this.scrollToCall = this.wantedCall; // shown once, when the panel first draws it
    this.touched = { penalty: false, time: false }; // a form the judge changed keeps their choices
    fillOptions($("#penalty-section"), INFRACTIONS.map(([section, name]) => [section, `${section} ${name}`]));
    this.wireForms();
  }

  isJudge() {
    return this.rank() >= RANK.judge;
  }

  /** The player this page's token is, in this game: a game link's, or an event link's where its
   * player is seated (seat.js); null for any other token. */
  me() {
    return seatedPlayer(this.who, this.game.id, this.state);
  }

  name(id) {
    const p = this.state && this.state.players ? this.state.players[id] : null;
    return p && p.name && p.name !== id ? `${p.name} (${id})` : String(id);
  }

  /** POST `body` to `path`, take the answer into the page; the form's buttons are off meanwhile. */
  async send(form, path, body, status, done) {
    const buttons = form ? [...form.querySelectorAll("button")] : [];
    buttons.forEach((b) => (b.disabled = true));
    say(status, "Sending…");
    try {
      const result = await api(gamePath(this.game.id, path), { method: "POST", body });
      if (result.state) this.show(result.state, result.version);
      await this.game.recorded(result);
      say(status, done(result));
    } catch (err) {
      say(status, describeError(err), true);
      if (err.status) this.game.catchUp();
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  render() {
    this.renderReports();
    this.renderCallJudge();
    if (this.isJudge()) this.renderPanel();
  }

  // ------------------------------------------------------------------ a player calls a judge

  /** A seated player (a game link, or an event link at its own table, issue 38) calls a judge
   * as their player; their open calls are listed until a judge rules. Judges have their panel. */
  renderCallJudge() {
    const me = this.me();
    const section = $("#call-judge");
    section.hidden = me === null || this.isJudge();
    if (section.hidden) return;
    const calls = (this.state && this.state.judging && this.state.judging.calls) || [];
    const mine = calls.filter((c) => c.open && c.called_by === me);
    $("#call-judge-mine").replaceChildren(
      ...mine.map((c) => h("li", { class: "unack-item", dataset: { call: c.call }, text: `Your call ${c.call} is open: ${c.question || "a judge is on the way"}.` })),
    );
  }

  callJudge(form) {
    const input = $("#call-judge-question");
    const question = input.value.trim();
    if (!question) {
      say("#call-judge-status", "Say what the judge is called for. Nothing was sent.", true);
      input.focus();
      return;
    }
    this.send(form, "/judge-calls", { question }, "#call-judge-status", (result) => {
      input.value = "";
      const calls = (result.state && result.state.judging && result.state.judging.calls) || [];
      const call = calls.filter((c) => c.called_by === this.me()).pop();
      return call ? `Judge call ${call.call} is open: a judge is on the way.` : "A judge is called.";
    });
  }

  // ------------------------------------------------------------------ reports to acknowledge

  renderReports() {
    const section = $("#unacknowledged");
    const reports = this.state && Array.isArray(this.state.unacknowledged) ? this.state.unacknowledged : [];
    const key = JSON.stringify([reports, this.me(), this.isJudge(), this.state && this.state.players ? Object.keys(this.state.players) : []]);
    // Shown while a report waits, and after this page answered one (its status stays readable).
    section.hidden = !reports.length && !$("#unack-status").textContent;
    if (key === this.drawn) return;
    this.drawn = key;
    const list = $("#unack-list");
    const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.id : "";
    list.replaceChildren(
      ...(reports.length ? reports.map((r) => this.reportItem(r)) : [h("li", { class: "hint", text: "Nothing is waiting." })]),
    );
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  reportItem(r) {
    const id = safeId(r.report);
    const players = Array.isArray(r.players) ? r.players : [];
    const me = this.me();
    const affected = me !== null && players.includes(me);
    const summaryId = `unack-summary-${id}`;
    const waiting = players.map((p) => this.name(p)).join(", ");
    const meta = [`Reported by ${this.name(r.reporter)}, for ${waiting || "no one"} to acknowledge (${r.report}).`];
    if (r.disputed) meta.push(`Disputed: judge call ${r.disputed}.`);
    if (me !== null && me === r.reporter) meta.push("Waiting for the other side.");
    const parts = [
      h("p", { class: "unack-summary", id: summaryId, text: r.summary || r.report }),
      h("p", { class: "unack-meta", text: meta.join(" ") }),
    ];
    const actions = [];
    if (affected || this.isJudge()) {
      actions.push(
        h("button", {
          type: "button",
          class: "primary",
          id: `unack-ack-${id}`,
          "aria-describedby": summaryId,
          text: "Acknowledge",
          onclick: (e) => this.acknowledge(r, e.currentTarget),
        }),
      );
    }
    if (affected && !r.disputed) actions.push(this.disputeForm(r, id, summaryId));
    if (actions.length) parts.push(h("div", { class: "unack-actions" }, actions));
    return h("li", { class: "unack-item" + (r.disputed ? " disputed" : ""), dataset: { report: r.report } }, parts);
  }

  disputeForm(r, id, summaryId) {
    const inputId = `unack-reason-${id}`;
    const input = h("input", {
      id: inputId,
      type: "text",
      name: "reason",
      autocomplete: "off",
      maxlength: "200",
      value: this.drafts.get(inputId) || "",
      oninput: (e) => this.drafts.set(inputId, e.currentTarget.value),
    });
    const form = h(
      "form",
      { class: "dispute-form", "aria-label": `Dispute ${r.report}`, novalidate: true },
      h("span", { class: "field" }, h("label", { for: inputId, text: "What is wrong with it (to dispute it)" }), input),
      h("button", { type: "submit", id: `unack-dispute-${id}`, "aria-describedby": summaryId, text: "Dispute" }),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const reason = input.value.trim();
      if (!reason) {
        say("#unack-status", `A dispute needs a reason: say what is wrong with ${r.report}. Nothing was sent.`, true);
        $("#unacknowledged").hidden = false;
        input.focus();
        return;
      }
      this.send(form, "/dispute", { report: r.report, reason }, "#unack-status", (result) => {
        this.drafts.delete(inputId);
        const call = this.openedCall(result, r.report);
        return `Disputed ${r.report}: ${call ? `judge call ${call} is open` : "a judge is called"}.`;
      });
    });
    return form;
  }

  /** The call a dispute opened, read from the state it answered with. */
  openedCall(result, report) {
    const calls = (result.state && result.state.judging && result.state.judging.calls) || [];
    const call = calls.filter((c) => c.report === report).pop();
    return call ? call.call : null;
  }

  acknowledge(r, button) {
    const item = button.closest("li");
    this.send(item, "/acknowledge", { report: r.report }, "#unack-status", () => `Acknowledged ${r.report}.`);
  }

  // ------------------------------------------------------------------ the judge panel

  wireForms() {
    $("#call-judge-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.callJudge(e.currentTarget);
    });
    const penalty = $("#penalty-form");
    penalty.querySelector("legend").after(h("p", { id: "penalty-from", class: "hint penalty-from", role: "status" }));
    penalty.addEventListener("change", () => {
      this.touched.penalty = true;
      this.unconfirm();
    });
    $("#time-form").addEventListener("change", () => (this.touched.time = true));
    window.addEventListener("hashchange", () => {
      const call = callInAddress();
      if (call) this.useCall(call, { scroll: true });
    });
    penalty.addEventListener("submit", (e) => {
      e.preventDefault();
      this.givePenalty(penalty);
    });
    const time = $("#time-form");
    time.addEventListener("submit", (e) => {
      e.preventDefault();
      this.extendTime(time);
    });
  }

  renderPanel() {
    const s = this.state;
    if (!s) return;
    const judging = s.judging || {};
    const calls = Array.isArray(judging.calls) ? judging.calls : [];
    fillOptions($("#penalty-player"), Object.keys(s.players || {}).map((id) => [id, this.name(id)]));
    const callOptions = calls.map((c) => [c.call, `${c.call}${c.open === false ? "" : " (open)"}`]);
    fillOptions($("#penalty-call"), callOptions, 1);
    fillOptions($("#time-call"), callOptions, 1);
    this.renderCalls(calls, judging.closed_call_count);
    this.renderRecords(judging);
    this.startFromCall(calls);
    if (this.scrollToCall) this.showCall(this.scrollToCall);
  }

  /** Set the forms the judge has not changed to the starting call (and its caller, a player). */
  startFromCall(calls) {
    const call = startingCall(calls, this.wantedCall);
    const from = $("#penalty-from");
    if (!call) {
      from.textContent = "";
      return;
    }
    const players = (this.state && this.state.players) || {};
    const isPlayer = Object.prototype.hasOwnProperty.call(players, call.called_by);
    if (!this.touched.penalty) {
      $("#penalty-call").value = call.call;
      if (isPlayer) $("#penalty-player").value = call.called_by;
      from.textContent = `From ${call.call}, called by ${this.name(call.called_by)}${call.open === false ? " (answered)" : ""}.`;
    }
    if (!this.touched.time) $("#time-call").value = call.call;
  }

  /** Start the forms from `call` (a button of an open call, or a new #call= address). */
  useCall(call, { scroll = false } = {}) {
    this.wantedCall = call;
    this.touched = { penalty: false, time: false };
    this.unconfirm();
    if (this.state) this.startFromCall((this.state.judging && this.state.judging.calls) || []);
    if (scroll) this.showCall(call);
  }

  /** Bring the call's ruling form into view, marked, once it is drawn. */
  showCall(call) {
    const form = [...document.querySelectorAll("#calls-open form.call")].find((f) => f.dataset.call === call);
    if (!form || $("#judge-panel").hidden) return;
    this.scrollToCall = null;
    for (const other of document.querySelectorAll("#calls-open form.call.targeted")) other.classList.remove("targeted");
    form.classList.add("targeted");
    form.scrollIntoView({ block: "center" });
  }

  renderCalls(calls, closedCount) {
    const open = calls.filter((c) => c.open !== false);
    const answered = calls.filter((c) => c.open === false);
    // The state carries only the latest answered calls; closed_call_count counts them all
    // (docs/api.md, State). An older server sends every call and no count.
    const answeredCount = Number.isInteger(closedCount) ? closedCount : answered.length;
    const earlier = answeredCount - answered.length;
    const box = $("#calls-open");
    const key = JSON.stringify(open);
    if (box.dataset.drawn !== key) {
      box.dataset.drawn = key;
      const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : "";
      box.replaceChildren(
        ...(open.length ? open.map((c) => this.callForm(c)) : [h("p", { class: "hint", text: "No open calls." })]),
      );
      if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    }
    $("#calls-answered-details").hidden = !answeredCount;
    $("#calls-answered-count").textContent = String(answeredCount);
    $("#calls-answered").replaceChildren(
      ...(earlier > 0 ? [h("li", { class: "hint", text: `${earlier} earlier answered calls are in the game's record, not shown here.` })] : []),
      ...answered.map((c) =>
        h("li", { dataset: { call: c.call } }, h("b", { text: c.call }), ` (${this.name(c.called_by)}): ${c.question} `, h("span", { class: "ruling", text: `Ruling: ${c.ruling}` })),
      ),
    );
  }

  callForm(c) {
    const id = safeId(c.call);
    const fieldId = `ruling-${id}`;
    const text = h("textarea", {
      id: fieldId,
      name: "ruling",
      rows: "2",
      maxlength: "200",
      oninput: (e) => this.drafts.set(fieldId, e.currentTarget.value),
    });
    text.value = this.drafts.get(fieldId) || "";
    const where = c.table !== null && c.table !== undefined ? `, table ${c.table}` : "";
    const form = h(
      "form",
      { class: "call judge-form", "aria-label": `Ruling on ${c.call}`, dataset: { call: c.call }, novalidate: true },
      h("p", { class: "call-head" }, h("b", { text: c.call }), ` called by ${this.name(c.called_by)}${where}${c.report ? `, disputing ${c.report}` : ""}`),
      h("p", { class: "call-question", text: c.question }),
      h("label", { for: fieldId, text: `Ruling on ${c.call}` }),
      text,
      h(
        "div",
        { class: "call-buttons" },
        h("button", { type: "submit", text: "Rule" }),
        h("button", {
          type: "button",
          class: "call-penalty",
          text: "Penalty for this call",
          "aria-label": `Penalty for ${c.call}`,
          onclick: () => {
            this.useCall(c.call);
            $("#penalty-form").scrollIntoView({ block: "center" });
            $("#penalty-section").focus(); // the player and the call are set: the infraction is next
          },
        }),
      ),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const ruling = text.value.trim();
      if (!ruling) {
        say("#calls-status", `The ruling on ${c.call} is empty. Nothing was sent.`, true);
        text.focus();
        return;
      }
      this.send(form, `/judge-calls/${encodeURIComponent(c.call)}/ruling`, { ruling }, "#calls-status", () => {
        this.drafts.delete(fieldId);
        return `Ruled on ${c.call}; the call is closed.`;
      });
    });
    return form;
  }

  renderRecords(judging) {
    const penalties = Array.isArray(judging.penalties) ? judging.penalties : [];
    $("#penalties").replaceChildren(
      ...(penalties.length
        ? penalties.map((p) =>
            h(
              "li",
              { dataset: { player: p.player, penalty: p.penalty } },
              h("b", { text: `${this.name(p.player)}: ${p.penalty}` }),
              `, IPG ${p.section} ${p.infraction || ""}`.trimEnd(),
              p.reason ? `: ${p.reason}` : "",
              p.call ? ` (${p.call})` : "",
            ),
          )
        : [h("li", { class: "hint", text: "None." })]),
    );
    const extensions = Array.isArray(judging.time_extensions) ? judging.time_extensions : [];
    const extra = Number(judging.extra_minutes) || 0;
    $("#extra-minutes").textContent = extra ? `${plural(extra, "extra minute")} in all.` : "No extra time.";
    $("#extensions").replaceChildren(
      ...extensions.map((t) => h("li", { text: `${plural(Number(t.minutes) || 0, "minute")}: ${t.reason}${t.call ? ` (${t.call})` : ""}` })),
    );
  }

  unconfirm() {
    if (!this.confirming) return;
    this.confirming = null;
    $("#penalty-submit").textContent = "Give the penalty";
    $("#penalty-submit").classList.remove("danger");
    say("#penalty-status", "");
  }

  givePenalty(form) {
    const player = $("#penalty-player").value;
    const section = $("#penalty-section").value;
    const penalty = $("#penalty-kind").value;
    if (!player) {
      say("#penalty-status", "Choose the player.", true);
      return;
    }
    const body = { player, section, penalty };
    const reason = $("#penalty-reason").value.trim();
    if (reason) body.reason = reason;
    if ($("#penalty-call").value) body.call = $("#penalty-call").value;
    const what = `${penalty} for ${this.name(player)}`;
    // A penalty that ends the game can't be backed up past (penalty_stands): a second press.
    const ends = GAME_ENDING.has(penalty) && this.state && this.state.status === "in_progress";
    const wish = JSON.stringify(body);
    if (ends && this.confirming !== wish) {
      this.confirming = wish;
      const submit = $("#penalty-submit");
      submit.textContent = `Confirm: ${what}`;
      submit.classList.add("danger");
      say("#penalty-status", `A ${penalty} ends the game, and no backup can go back past it. Press “Confirm: ${what}” to give it.`, true);
      submit.focus();
      return;
    }
    this.unconfirm();
    this.send(form, "/penalties", body, "#penalty-status", (result) => {
      $("#penalty-reason").value = "";
      this.touched.penalty = false; // the next penalty starts from the call again
      const over = ends && result.state && result.state.status === "finished" ? " The game is over." : "";
      return `Penalty given: ${what} (IPG ${section}).${over}`;
    });
  }

  extendTime(form) {
    const minutes = Number($("#time-minutes").value);
    const reason = $("#time-reason").value.trim();
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 60) {
      say("#time-status", "Minutes must be a whole number from 1 to 60.", true);
      $("#time-minutes").focus();
      return;
    }
    if (!reason) {
      say("#time-status", "A time extension needs a reason for the record.", true);
      $("#time-reason").focus();
      return;
    }
    const body = { minutes, reason };
    if ($("#time-call").value) body.call = $("#time-call").value;
    this.send(form, "/time-extensions", body, "#time-status", (result) => {
      $("#time-reason").value = "";
      this.touched.time = false;
      const extra = result.state && result.state.judging ? Number(result.state.judging.extra_minutes) || 0 : minutes;
      return `Time extended by ${plural(minutes, "minute")}; ${plural(extra, "extra minute")} in all.`;
    });
  }
}
