/* The judges' page's view (judges.js starts it): the open calls, newest first, each a link to
 * its game with the call preselected; a filter by event; asked again every few seconds.
 */

import { describeError, enc } from "./api.js";
import { formatTime, h, plural } from "./dom.js";
import { callHref, openCalls, waited, whereText } from "./judges-calls.js";

const POLL_MS = 4000;
export const TITLE = "Judge calls";

export class JudgesPage {
  constructor(root) {
    this.event = new URLSearchParams(location.search).get("event") || "";
    this.seen = null; // the calls shown last (game/call keys), to mark the new ones
    this.drawn = "";
    this.timer = null;
    this.generation = 0;
    this.title = h("h1", { id: "judges-title", text: TITLE });
    this.meta = h("p", { class: "meta", id: "judges-meta" });
    this.crumb = h("nav", { class: "crumb", "aria-label": "Breadcrumb" }, h("a", { href: "/", text: "Games" }));
    this.eventInput = h("input", { id: "judges-event", name: "event", type: "text", spellcheck: "false", value: this.event, autocomplete: "off" });
    const form = h(
      "form",
      { id: "judges-filter", class: "judges-filter", "aria-label": "Which event's calls", role: "search" },
      h("div", { class: "field" }, h("label", { for: "judges-event", text: "Event (empty: every table of the server)" }), this.eventInput),
      h(
        "div",
        { class: "field buttons" },
        h("button", { type: "submit", text: "Show" }),
        h("button", { type: "button", id: "judges-all", text: "Every event", onclick: () => this.setEvent("") }),
      ),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.setEvent(this.eventInput.value.trim());
    });
    this.status = h("p", { id: "judges-status", class: "judges-status", role: "status" });
    this.warning = h("p", { id: "judges-warning", class: "judges-warning", role: "alert", hidden: true });
    this.list = h("ol", { id: "judges-calls", class: "judges-calls", "aria-labelledby": "judges-title" });
    root.replaceChildren(h("div", { class: "judges-head" }, this.crumb, this.title, this.meta), form, this.status, this.warning, this.list);
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.load();
    });
    this.showEvent();
  }

  setEvent(event) {
    this.event = event;
    this.eventInput.value = event;
    this.seen = null;
    this.drawn = "";
    const url = event ? `/judges?event=${enc(event)}` : "/judges";
    history.replaceState(null, "", url + location.hash);
    this.showEvent();
    this.load();
  }

  showEvent() {
    const floor = this.event ? h("a", { href: `/tournaments/${enc(this.event)}/floor`, text: `${this.event}: floor view` }) : null;
    this.crumb.replaceChildren(h("a", { href: "/", text: "Games" }), floor ? " / " : "", floor || "");
    this.meta.textContent = this.event ? `Open calls of ${this.event}, newest first` : "Open calls of every table, newest first";
  }

  /** Ask the server now, and again in POLL_MS while the tab is shown. */
  async load() {
    clearTimeout(this.timer);
    const generation = ++this.generation;
    try {
      const answer = await openCalls(this.event);
      if (generation !== this.generation) return;
      this.render(answer);
    } catch (err) {
      if (generation !== this.generation) return;
      this.refused(err);
    } finally {
      if (generation === this.generation && !document.hidden) this.timer = setTimeout(() => this.load(), POLL_MS);
    }
  }

  refused(err) {
    this.status.textContent = describeError(err) + (err.status === 403 ? " The judges' page needs a judge's, a scorekeeper's or an admin's token." : "");
    this.status.classList.add("error-text");
  }

  render(answer) {
    const calls = Array.isArray(answer.calls) ? answer.calls : [];
    const now = Date.now();
    const keys = calls.map((c) => `${c.game_id}\u0000${c.call}`);
    const fresh = this.seen === null ? new Set() : new Set(keys.filter((k) => !this.seen.has(k)));
    this.seen = new Set(keys);
    const more = answer.total > calls.length ? ` (the newest ${calls.length} shown)` : "";
    this.status.classList.remove("error-text");
    this.status.textContent = calls.length
      ? `${plural(answer.total, "open call")}${more}. Checked at ${new Date(now).toLocaleTimeString()}.`
      : `No open calls. Checked at ${new Date(now).toLocaleTimeString()}; the page checks every few seconds.`;
    const stopped = typeof answer.read_model === "string" && answer.read_model.startsWith("stopped");
    this.warning.hidden = !stopped;
    this.warning.textContent = stopped ? `The server's list of open calls has stopped following the games (${answer.read_model}); calls made since are missing. Tell the organiser.` : "";
    document.title = `${calls.length ? `(${answer.total}) ` : ""}${TITLE}${this.event ? ` · ${this.event}` : ""} · MTG Ledger`;
    // Redrawn only when what it shows changes (the waiting times change every minute).
    const drawn = JSON.stringify([calls, calls.map((c) => waited(c.opened_at, now)), [...fresh]]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    const focused = document.activeElement && this.list.contains(document.activeElement) ? document.activeElement.id : "";
    this.list.replaceChildren(
      ...(calls.length ? calls.map((c, i) => this.item(c, fresh.has(keys[i]), now)) : [h("li", { class: "hint judges-none", text: "No judge call is waiting." })]),
    );
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  item(c, isNew, now) {
    const id = `judges-open-${String(c.game_id).replace(/[^A-Za-z0-9_-]/g, "_")}-${String(c.call).replace(/[^A-Za-z0-9_-]/g, "_")}`;
    const where = whereText(c);
    const players = Array.isArray(c.players) && c.players.length ? c.players.join(" vs ") : "";
    return h(
      "li",
      { class: "judges-call" + (isNew ? " new" : ""), dataset: { game: c.game_id, call: c.call } },
      h(
        "p",
        { class: "judges-place" },
        h("b", { class: "judges-table", text: c.table !== null && c.table !== undefined ? `Table ${c.table}` : "No table" }),
        where ? h("span", { class: "judges-where", text: where }) : "",
        h("time", { class: "judges-age", datetime: c.opened_at, title: formatTime(c.opened_at), text: waited(c.opened_at, now) }),
      ),
      h("p", { class: "judges-question" }, h("b", { class: "judges-caller", text: c.caller }), " asks: ", h("span", { text: c.question })),
      h(
        "p",
        { class: "judges-game hint" },
        players ? `${players} · ` : "",
        `game ${c.game_id}, ${c.call}`,
        c.report ? ` · disputes ${c.report}` : "",
      ),
      h("a", { class: "judges-go", id, href: callHref(c.game_id, c.call), text: `Answer ${c.call} at ${c.table !== null && c.table !== undefined ? `table ${c.table}` : "the game"}` }),
    );
  }
}
