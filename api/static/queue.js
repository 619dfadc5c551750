/* The reports a device made and has not yet seen stored: kept in localStorage (per game and per
 * token holder), sent one at a time in the order they were made, each exactly once.
 *
 * - Each entry gets its Idempotency-Key when it is tapped and keeps it for good: a retry after a
 *   lost answer is answered from the server's record, never stored twice.
 * - Each entry carries If-Match: the version the person was looking at when they tapped. When an
 *   earlier report of this same queue is stored, the entries made on top of it move on with it
 *   (they were made knowing it); another device's report never moves them.
 * - No network (or a 5xx): the entry stays first in line and is tried again when the browser is
 *   back online, or a few seconds later.
 * - 409 version_conflict: someone else reported first. The page is brought up to date and told
 *   what changed; a report that adds to or takes from what is there (life, counters, damage,
 *   draw, mill) is then sent on top of it, anything else waits for the person to send it again
 *   or drop it.
 * - Any other refusal (4xx): the server stored nothing; the entry is dropped and the reason shown.
 * - Several tabs of one browser share the queue: every change reads the stored list again first,
 *   so no tab writes over another's taps, and a tab sending an entry another tab is sending gets
 *   the same key (the server answers one of them, then replays that answer to the other).
 */

const RETRY_MS = 3000;
const MAX_CONFLICTS = 3; // a report that meets a 409 this often waits for the person
const STORE_PREFIX = "mtg-ledger.queue.";

/** An Idempotency-Key: random, made once per tap (getRandomValues also works over plain http). */
export function newKey() {
  if (window.crypto && typeof crypto.randomUUID === "function" && window.isSecureContext) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return "k-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The stored entries, or null when this browser keeps no storage (the queue then lives in
 * memory only, while the page stays open). */
function load(storeKey) {
  let text;
  try {
    text = localStorage.getItem(storeKey);
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text || "[]");
    return Array.isArray(value) ? value.filter((e) => e && e.key && e.body) : [];
  } catch {
    return [];
  }
}

export class ReportQueue {
  /**
   * `send(entry)` posts one entry and resolves to the server's answer (rejects with ApiError);
   * `onStored(entry, answer)`, `onConflict(entry, err)` (returns a promise of "resend" or
   * "hold"), `onRefused(entry, err)` and `onChange(queue)` tell the page.
   */
  constructor(gameId, who, { send, onStored, onConflict, onRefused, onChange }) {
    this.storeKey = STORE_PREFIX + gameId + "." + who;
    this.entries = load(this.storeKey) || [];
    this.send = send;
    this.onStored = onStored;
    this.onConflict = onConflict;
    this.onRefused = onRefused;
    this.onChange = onChange;
    this.sending = false;
    this.offline = false;
    this.timer = 0;
    this.stopped = false;
    this.onOnline = () => this.flush();
    this.onStorage = (e) => {
      if (e.key !== this.storeKey) return;
      this.entries = load(this.storeKey) || this.entries;
      this.onChange(this);
      this.flush();
    };
    window.addEventListener("online", this.onOnline);
    window.addEventListener("storage", this.onStorage);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("storage", this.onStorage);
  }

  /** Change the stored list: read it again, change it, write it back. */
  update(change) {
    this.entries = load(this.storeKey) || this.entries;
    change(this.entries);
    this.save();
  }

  save() {
    try {
      localStorage.setItem(this.storeKey, JSON.stringify(this.entries));
    } catch {
      /* storage full or disabled: the queue still works while the page stays open */
    }
    this.onChange(this);
  }

  /** Queue a report made while looking at version `base`; `relative`: it adds to or takes from
   * what is there, so another device's report before it does not change what it means.
   * `origin`: the `data-key` of the control that made it (a refusal is shown beside it, even
   * after a reload); `taps`: how many taps were grouped into it (taps.js). The entry's body is
   * final here: its key is fixed now and it is sent as it is. */
  add(body, label, base, relative, { origin = null, taps = 1 } = {}) {
    const entry = {
      key: newKey(), body, label, base, relative: Boolean(relative), held: null, conflicts: 0,
      at: new Date().toISOString(), origin, taps,
    };
    this.update((entries) => entries.push(entry));
    this.flush();
    return entry;
  }

  get waiting() {
    return this.entries.length;
  }

  /** The bodies not yet stored (the one being sent included), oldest first. */
  bodies() {
    return this.entries.map((e) => e.body);
  }

  /** Drop a held entry (the person decided not to send it). */
  drop(key) {
    this.update((entries) => {
      const i = entries.findIndex((e) => e.key === key);
      if (i >= 0) entries.splice(i, 1);
    });
    this.flush();
  }

  /** Send a held entry on top of version `base` after all. */
  release(key, base) {
    this.update((entries) => {
      const entry = entries.find((e) => e.key === key);
      if (!entry) return;
      entry.held = null;
      entry.conflicts = 0;
      entry.base = base;
    });
    this.flush();
  }

  retryLater() {
    clearTimeout(this.timer);
    if (!this.stopped) this.timer = setTimeout(() => this.flush(), RETRY_MS);
  }

  async flush() {
    if (this.sending || this.stopped) return;
    this.sending = true;
    try {
      for (;;) {
        this.entries = load(this.storeKey) || this.entries; // another tab may have sent or added some
        if (!this.entries.length || this.stopped) break;
        const entry = this.entries[0];
        if (entry.held) break; // waiting for the person to decide
        let answer;
        try {
          answer = await this.send(entry);
        } catch (err) {
          const busy = err && err.status === 409 && err.code === "idempotency_in_progress"; // another tab
          if (err && (err.status === 0 || err.status >= 500 || busy)) {
            this.offline = true;
            this.onChange(this);
            this.retryLater();
            return;
          }
          if (err && err.status === 409 && err.code === "version_conflict") {
            const decision = await this.onConflict(entry, err);
            const conflicts = (entry.conflicts || 0) + 1;
            this.update((entries) => {
              const stored = entries.find((e) => e.key === entry.key);
              if (!stored) return;
              stored.conflicts = conflicts;
              if (decision && decision.resend && conflicts < MAX_CONFLICTS) stored.base = decision.base;
              else stored.held = { detail: err.detail || "", changes: (decision && decision.changes) || [] };
            });
            continue;
          }
          this.update((entries) => {
            const i = entries.findIndex((e) => e.key === entry.key);
            if (i >= 0) entries.splice(i, 1);
          });
          this.onRefused(entry, err);
          continue;
        }
        this.offline = false;
        this.update((entries) => {
          const i = entries.findIndex((e) => e.key === entry.key);
          if (i >= 0) entries.splice(i, 1);
          // The entries made on top of the version this one was sent on were made knowing it.
          for (const later of entries) if (later.base === entry.base) later.base = answer.version;
        });
        await this.onStored(entry, answer);
      }
    } finally {
      this.sending = false;
    }
  }
}
