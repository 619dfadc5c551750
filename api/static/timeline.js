/* The timeline beside the board: one line per event, grouped by turn and then by step as the
 * server groups them. Each line is the server's sentence; reverted events are struck through.
 * Clicking a line (or Enter on it) shows the game at that version.
 */

import { h } from "./dom.js";
import { stepName } from "./labels.js";

const placeKey = (place) => `${place.turn}|${place.step}`;

/** Who recorded it, and the cause and rule when the sentence does not already say them. */
function eventMeta(event, text) {
  const parts = [];
  const cause = event.data && typeof event.data.cause === "string" ? event.data.cause : "";
  if (cause && !text.includes(cause)) parts.push("cause: " + cause);
  if (event.rule && !text.includes(event.rule)) parts.push(event.rule);
  if (event.actor && event.actor.name) parts.push(`by ${event.actor.name} (${event.actor.role})`);
  return parts.join(" · ");
}

export class TimelineView {
  /** `root`: the timeline's element; `pick(version)`: show that version. */
  constructor(root, record, pick) {
    this.root = root;
    this.record = record;
    this.pick = pick;
    this.selected = 0;
    this.clear();
  }

  clear() {
    this.rows = new Map(); // version -> <li>
    this.keys = new Map(); // version -> the turn|step group it was drawn in
    this.run = null; // the group the next line goes into, while its place matches
    this.root.replaceChildren();
  }

  /** Bring the lines up to date with the record: new events, changed reverted flags, and a
   * redraw when the server placed an event in another turn or step than it was drawn in. */
  sync(changed = []) {
    const moved = [...this.keys].some(([v, key]) => key !== placeKey(this.record.place(v)));
    if (moved) {
      const focused = this.focusedVersion();
      const scroll = this.root.scrollTop;
      this.clear();
      this.appendFrom(1);
      this.root.scrollTop = scroll;
      if (focused) this.rows.get(focused)?.firstElementChild.focus();
      return;
    }
    for (const v of changed) {
      const row = this.rows.get(v);
      if (row) row.replaceWith(this.row(v));
    }
    this.appendFrom(this.rows.size + 1);
  }

  appendFrom(first) {
    for (let v = first; v <= this.record.head; v += 1) this.append(v);
  }

  focusedVersion() {
    const row = document.activeElement && document.activeElement.closest && document.activeElement.closest("#timeline li");
    return row ? Number(row.dataset.version) : 0;
  }

  append(version) {
    const place = this.record.place(version);
    const key = placeKey(place);
    if (!this.run || this.run.key !== key) {
      let turnSection = this.run && this.run.turn === place.turn ? this.run.turnSection : null;
      if (!turnSection) {
        turnSection = h("section", { class: "turn", dataset: { turn: place.turn } }, h("h3", { text: place.turn ? `Turn ${place.turn}` : "Events" }));
        this.root.append(turnSection);
      }
      const list = h("ol", { class: "events" });
      turnSection.append(h("section", { class: "step" }, place.step ? h("h4", { text: stepName(place.step) }) : null, list));
      this.run = { key, turn: place.turn, turnSection, list };
    }
    this.keys.set(version, key);
    this.run.list.append(this.row(version));
  }

  row(version) {
    const event = this.record.event(version);
    const text = this.record.text(version);
    const reverted = Boolean(event.reverted);
    const classes = ["event", "type-" + event.type];
    if (reverted) classes.push("reverted");
    if (version === this.selected) classes.push("current");
    if (version > this.selected) classes.push("future");
    const line = reverted ? h("del", { text }) : h("span", { text });
    const button = h(
      "button",
      {
        type: "button",
        class: "event-button",
        "aria-current": version === this.selected ? "step" : null,
        title: `Show the game at version ${version}`,
        onclick: () => this.pick(version),
      },
      h("span", { class: "version", text: "v" + version }),
      h("span", { class: "line" }, line, reverted ? h("span", { class: "visually-hidden", text: " (reverted)" }) : null),
      h("span", { class: "event-meta", text: eventMeta(event, text) }),
    );
    const row = h("li", { class: classes.join(" "), dataset: { version, type: event.type } }, button);
    this.rows.set(version, row);
    return row;
  }

  /** Mark the selected line and dim the ones after it, touching only the lines that change. */
  select(version) {
    const previous = this.selected;
    this.selected = version;
    // Nothing selected yet: every line was drawn as "after the shown version".
    const lo = previous ? Math.max(1, Math.min(previous, version)) : 1;
    const hi = previous ? Math.min(this.record.head, Math.max(previous, version)) : this.record.head;
    for (let v = lo; v <= hi; v += 1) {
      const row = this.rows.get(v);
      if (!row) continue;
      row.classList.toggle("future", v > version);
      row.classList.toggle("current", v === version);
      const button = row.firstElementChild;
      if (v === version) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
    const current = this.rows.get(version);
    if (current) this.scrollTo(current);
  }

  scrollTo(row) {
    const box = this.root;
    if (box.scrollHeight <= box.clientHeight) return; // not a scrolling box (phone layout)
    const rowTop = row.offsetTop - box.offsetTop;
    if (rowTop < box.scrollTop || rowTop + row.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = rowTop - box.clientHeight / 3;
    }
  }
}
