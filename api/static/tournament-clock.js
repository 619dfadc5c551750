/* The round clock on every tournament page: the time left counting down each second, paused or
 * ended, and at time the MTR 2.5 turns (the active player finishes the turn, then five more).
 *
 * The server answers the remaining seconds at the time of each read; the page counts down from
 * that answer with its own monotonic clock (performance.now), so a phone whose clock is wrong
 * still shows the right time left. A per-table extension adds its minutes to the round's time.
 */

import { h } from "./dom.js";

const TICK_MS = 1000;

/** "12:05", "0:09", and past time "-1:30". */
export function formatSeconds(total) {
  const sign = total < 0 ? "-" : "";
  const left = Math.abs(Math.trunc(total));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return hours ? `${sign}${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${sign}${minutes}:${seconds}`;
}

export class RoundClock {
  constructor() {
    this.clock = null;
    this.minutes = null;
    this.readAt = 0;
    this.listeners = [];
    this.time = h("p", { class: "t-clock-time", "aria-live": "off", dataset: { field: "remaining" } });
    this.state = h("p", { class: "t-clock-state", role: "status" });
    this.after = h("p", { class: "t-clock-after", hidden: true });
    this.el = h("div", { class: "t-clock" }, this.time, this.state, this.after);
    setInterval(() => this.tick(), TICK_MS);
  }

  /** The clock as the server last answered it (null: no round yet); `minutes`, the event's
   * round length, for a clock not started yet (it has no minutes of its own until it starts);
   * `complete`, whether every match of the round has its result (the round is over then). */
  update(clock, minutes = null, complete = false) {
    this.clock = clock || null;
    this.complete = Boolean(complete);
    this.minutes = clock && clock.minutes ? clock.minutes : minutes;
    this.readAt = performance.now();
    this.tick();
  }

  /** Seconds left now, counted on from the last answer; null before the start. */
  remaining() {
    const c = this.clock;
    if (!c || c.remaining_seconds === null || c.remaining_seconds === undefined) return null;
    const counted = c.state === "running" ? (performance.now() - this.readAt) / 1000 : 0;
    // The server truncates to whole seconds: the time left is half a second more on average.
    return Math.floor(c.remaining_seconds + 0.5 - counted);
  }

  /** Call `fn(remainingSeconds, clock)` at every tick (the per-table times follow it). */
  onTick(fn) {
    this.listeners.push(fn);
  }

  tick() {
    const c = this.clock;
    const left = this.remaining();
    this.el.dataset.state = c ? c.state : "none";
    if (!c) {
      this.time.textContent = "–";
      this.state.textContent = "No round is paired yet.";
      this.after.hidden = true;
    } else if (this.complete) {
      // Every result is in: the round is over, whatever its clock says (issue 38).
      this.time.textContent = "–";
      this.state.textContent = `Round ${c.round} is over: every result is in.`;
      this.after.hidden = true;
    } else if (c.state === "ended") {
      // Time was called: the time left is none, not the minutes the clock stopped at (issue 38).
      this.time.textContent = formatSeconds(0);
      const at = c.ends_at ? new Date(c.ends_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
      this.state.textContent = at ? `Round ${c.round}: time was called at ${at}.` : `Round ${c.round}: time is called.`;
      this.after.hidden = false;
      this.after.textContent = `Turns after time: ${c.turns_after_time ?? 5} (MTR 2.5)`;
    } else if (left === null) {
      this.time.textContent = this.minutes ? formatSeconds(this.minutes * 60) : "–";
      const length = this.minutes ? ` (${this.minutes} minutes)` : "";
      this.state.textContent = `Round ${c.round}: the clock has not started${length}.`;
      this.after.hidden = true;
    } else {
      this.time.textContent = formatSeconds(Math.max(left, 0));
      const over = left <= 0 || c.state === "ended";
      this.state.textContent = over
        ? `Round ${c.round}: time is called.`
        : c.state === "paused"
          ? `Round ${c.round}: paused.`
          : `Round ${c.round}: running, ends at ${new Date(Date.now() + left * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`;
      this.after.hidden = !over;
      this.after.textContent = `Turns after time: ${c.turns_after_time ?? 5} (MTR 2.5)`;
    }
    for (const fn of this.listeners) fn(left, c);
  }
}
