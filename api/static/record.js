/* A game's record as the server tells it: every event (version 1..head, no gaps) and, for each
 * version, where in the game it stands (turn and step).
 *
 * Nothing here works out what an event means. The server sends each event's `sentence` and
 * `reverted` flag, and its timeline (GET /v1/games/{id}/timeline) groups the events by turn and
 * step; after an undo it is the server's answer that says which events are now reverted.
 */

import { api, gamePath } from "./api.js";

const EVENT_PAGE = 1000;

/** The text of an event's line: the server's sentence, else (an older server) its type name. */
export function sentenceOf(event, fallback) {
  if (typeof event.sentence === "string" && event.sentence) return event.sentence;
  if (typeof fallback === "string" && fallback) return fallback;
  return String(event.type || "event");
}

export class GameRecord {
  constructor(gameId) {
    this.gameId = gameId;
    this.events = []; // index = version - 1
    this.places = new Map(); // version -> {turn, step}, from the server's timeline
    this.texts = new Map(); // version -> the timeline's line, for events that came without a sentence
    this.ends = new Map(); // version -> whether it ends its action, from the timeline's `ends_action`
  }

  get head() {
    return this.events.length;
  }

  event(version) {
    return this.events[version - 1] || null;
  }

  /** Add events in version order; returns how many were new. Stops at a gap (the caller fills it). */
  add(events) {
    let added = 0;
    for (const event of events) {
      if (!event || typeof event.version !== "number") continue;
      if (event.version <= this.head) continue; // already known: a stream may resend
      if (event.version !== this.head + 1) break;
      this.events.push({ ...event, reverted: Boolean(event.reverted) });
      added += 1;
    }
    return added;
  }

  text(version) {
    const event = this.event(version);
    return event ? sentenceOf(event, this.texts.get(version)) : "";
  }

  /** Where the game stood once this version's event happened; an event the timeline has not
   * placed yet stays with the last one it placed. */
  place(version) {
    for (let v = version; v >= 1; v -= 1) {
      const known = this.places.get(v);
      if (known) return known;
    }
    return { turn: 0, step: "" };
  }

  /** Whether version v is the last version of its action (a backup may go back to it). The
   * server's timeline says so (`ends_action`); an event it has not placed yet ends its action
   * when the next one belongs to another action (the events' `action_id`), and the latest
   * version always does (an action is stored whole). */
  endsAction(v) {
    if (v < 1 || v > this.head) return false;
    if (v === this.head) return true;
    const known = this.ends.get(v);
    if (typeof known === "boolean") return known;
    const here = this.event(v).action_id;
    const next = this.event(v + 1).action_id;
    return !here || !next || here !== next;
  }

  /** The end of the action that version v belongs to (v itself when it ends one). */
  actionEnd(v) {
    for (let u = Math.max(1, v); u < this.head; u += 1) if (this.endsAction(u)) return u;
    return this.head;
  }

  /** The end of the next action after the one version v is in, or of the one before it. */
  actionStep(v, direction) {
    if (direction > 0) return this.actionEnd(Math.min(this.head, this.actionEnd(v) + 1));
    for (let u = Math.min(v, this.head) - 1; u >= 1; u -= 1) if (this.endsAction(u)) return u;
    return 1;
  }

  /** The versions where a turn starts, ascending (for the turn-by-turn seek keys). */
  turnStarts() {
    const starts = [];
    let turn = null;
    for (let v = 1; v <= this.head; v += 1) {
      const here = this.place(v).turn;
      if (here !== turn) starts.push(v);
      turn = here;
    }
    return starts;
  }

  /** Take in the server's timeline; returns the versions whose reverted flag it changed. */
  applyTimeline(groups) {
    const changed = [];
    for (const group of Array.isArray(groups) ? groups : []) {
      const place = { turn: group.turn, step: group.step || "" };
      for (const line of group.lines || []) {
        this.places.set(line.version, place);
        if (typeof line.text === "string") this.texts.set(line.version, line.text);
        if (typeof line.ends_action === "boolean") this.ends.set(line.version, line.ends_action);
        const event = this.event(line.version);
        if (event && typeof line.reverted === "boolean" && event.reverted !== line.reverted) {
          event.reverted = line.reverted;
          changed.push(line.version);
        }
      }
    }
    return changed;
  }

  /** Every event after `after`, page by page; `isCurrent()` false drops a stale answer. */
  async fetchEventsAfter(after, isCurrent) {
    const out = [];
    let cursor = after;
    for (;;) {
      const page = await api(gamePath(this.gameId, `/events?after=${cursor}&limit=${EVENT_PAGE}`));
      if (!isCurrent()) return [];
      const events = Array.isArray(page.events) ? page.events : [];
      out.push(...events);
      const next = page.next_after;
      if (next === null || next === undefined || !events.length || next <= cursor) break;
      cursor = next;
    }
    return out;
  }

  /** Every page of the timeline (1,000 events a page); a group cut by a page joins up again. */
  async fetchTimeline() {
    const groups = [];
    let after = 0;
    for (;;) {
      const answer = await api(gamePath(this.gameId, after ? `/timeline?after=${after}` : "/timeline"));
      for (const group of answer.timeline || []) {
        const last = groups[groups.length - 1];
        if (last && last.turn === group.turn && last.step === group.step) last.lines.push(...group.lines);
        else groups.push(group);
      }
      const next = answer.next_after;
      if (next === null || next === undefined || next <= after) return groups;
      after = next;
    }
  }
}
