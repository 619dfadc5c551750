/* The timeline beside the board: one entry per action, grouped by turn and then by step as the
 * server groups them, the events the action caused (triggers, state-based actions, the steps of
 * an advance) folded under it. Each line is the server's sentence; reverted events are struck
 * through. Clicking a line (or Enter on it) shows the game at that version. The timeline can be
 * filtered by player and by event type; a filter shows every matching event, unfolded.
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
    this.folds = new Map(); // entry version -> {versions: [caused versions], row: <li> toggle, open}
    this.foldOf = new Map(); // caused version -> entry version
    this.last = null; // {version, action, key} of the line drawn last
    this.root.replaceChildren();
  }

  /** Show only the events `keep(event)` accepts (null: every event, folded by action). */
  filter(keep) {
    this.keep = keep;
    for (const v of this.rows.keys()) this.showRow(v);
    for (const entry of this.folds.keys()) this.showFold(entry);
  }

  open(entry) {
    const fold = this.folds.get(entry);
    return Boolean(fold && (fold.open || fold.versions.includes(this.selected)));
  }

  showRow(version) {
    const row = this.rows.get(version);
    if (!row) return;
    const event = this.record.event(version);
    const entry = this.foldOf.get(version);
    const visible = this.keep ? this.keep(event) : entry === undefined || this.open(entry);
    row.hidden = !visible;
  }

  showFold(entry) {
    const fold = this.folds.get(entry);
    if (!fold) return;
    const open = this.open(entry);
    fold.row.hidden = Boolean(this.keep);
    const toggle = fold.row.firstElementChild;
    toggle.setAttribute("aria-expanded", String(open));
    const n = fold.versions.length;
    toggle.textContent = `${open ? "Hide" : "Show"} the ${n === 1 ? "event" : n + " events"} it caused`;
    for (const v of fold.versions) this.showRow(v);
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
      if (!row) continue;
      const fresh = this.row(v);
      if (this.foldOf.has(v)) {
        fresh.classList.add("caused");
        fresh.dataset.entry = String(this.foldOf.get(v));
      }
      row.replaceWith(fresh);
      this.showRow(v);
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
    const event = this.record.event(version);
    const row = this.row(version);
    const last = this.last;
    if (last && event.action_id && last.action === event.action_id && last.key === key) {
      // Caused by the same action as the line before, in the same step: folded under its entry.
      const entry = this.foldOf.get(last.version) ?? last.version;
      let fold = this.folds.get(entry);
      if (!fold) {
        const toggle = h("button", { type: "button", class: "fold-toggle", "aria-expanded": "false" });
        const foldRow = h("li", { class: "fold", dataset: { entry } }, toggle);
        fold = { versions: [], row: foldRow, open: false };
        toggle.addEventListener("click", () => {
          fold.open = !this.open(entry);
          if (!fold.open && fold.versions.includes(this.selected)) fold.open = true; // the shown event stays in view
          this.showFold(entry);
        });
        this.folds.set(entry, fold);
        this.rows.get(entry).after(foldRow);
      }
      fold.versions.push(version);
      this.foldOf.set(version, entry);
      fold.row.firstElementChild.setAttribute("aria-controls", fold.versions.map((v) => `event-${v}`).join(" "));
      row.classList.add("caused");
      row.dataset.entry = String(entry);
      this.run.list.append(row);
      this.showFold(entry);
    } else {
      this.run.list.append(row);
      this.showRow(version);
    }
    this.last = { version, action: event.action_id, key };
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
    const row = h("li", { id: `event-${version}`, class: classes.join(" "), dataset: { version, type: event.type } }, button);
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
    // The folds holding the previous and the new shown event open and close with it.
    for (const v of [previous, version]) {
      const entry = this.foldOf.get(v);
      if (entry !== undefined) this.showFold(entry);
    }
    const current = this.rows.get(version);
    if (current && !current.hidden) this.scrollTo(current);
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
