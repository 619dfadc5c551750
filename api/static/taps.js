/* Taps of one kind in quick succession become one report (docs/web.md, Reporting): three taps of
 * "Lose 1 life" within a moment of each other are sent as one loss of 3 life, not three.
 *
 * The grouping happens before anything is queued: the queue (queue.js) gives each entry its
 * Idempotency-Key when the entry is made and never changes what an entry says, so a report is
 * sent once, as it was queued. A group is queued when no tap of its kind came for `wait` ms, when
 * a tap of another kind or any other report comes (reports keep the order they were made in),
 * or when the page is hidden or left (so a tap is never lost to a closed tab).
 */

export const GROUP_MS = 1200;

/** The kind of a tap: its body without the amount (same type, player, target, kind, source). */
export function kindOf(body) {
  const rest = { ...body };
  delete rest.amount;
  return JSON.stringify(Object.keys(rest).sort().map((k) => [k, rest[k]]));
}

export class TapGroups {
  /** `queue(body, label, origin, taps)` queues a finished group; `onChange()` hears of any change. */
  constructor({ queue, onChange, wait = GROUP_MS }) {
    this.queueIt = queue;
    this.onChange = onChange;
    this.wait = wait;
    this.open = null; // {kind, body, label(n), origin, taps, base}
    this.timer = 0;
    this.onHide = () => this.flush();
    this.onVisibility = () => {
      if (document.visibilityState === "hidden") this.flush();
    };
    window.addEventListener("pagehide", this.onHide);
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  stop() {
    this.flush();
    window.removeEventListener("pagehide", this.onHide);
    document.removeEventListener("visibilitychange", this.onVisibility);
  }

  /** A tap: `body` has a numeric `amount`; `label(n)` says the report for a total of n. */
  tap(body, label, origin, base) {
    const kind = kindOf(body);
    if (this.open && this.open.kind !== kind) this.flush();
    if (this.open) {
      this.open.body = { ...this.open.body, amount: this.open.body.amount + body.amount };
      this.open.taps += 1;
      this.open.origin = origin;
      this.open.base = base;
    } else {
      this.open = { kind, body: { ...body }, label, origin, taps: 1, base };
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.wait);
    this.onChange();
  }

  /** Queue the open group now. */
  flush() {
    clearTimeout(this.timer);
    const group = this.open;
    if (!group) return;
    this.open = null;
    this.queueIt(group.body, group.label(group.body.amount), group.origin, group.taps, group.base);
    this.onChange();
  }

  /** Drop the open group: its taps are never sent. Returns what it would have reported. */
  cancel() {
    clearTimeout(this.timer);
    const group = this.open;
    this.open = null;
    if (group) this.onChange();
    return group ? group.label(group.body.amount) : null;
  }

  /** The open group's body, for the pending totals. */
  bodies() {
    return this.open ? [this.open.body] : [];
  }
}
