/* What the tournament pages share (tournament.js starts them): the API paths, the status lines
 * beside their buttons, writes, downloads, the polling and a few display names.
 */

import { api, ApiError, authHeaders, describeError, enc, problemOf } from "./api.js";
import { h } from "./dom.js";
import { newKey } from "./queue.js";

/** The address of a tournament's resource: tPath("T1", "/rounds") is /v1/tournaments/T1/rounds. */
export const tPath = (tid, rest = "") => `/v1/tournaments/${enc(tid)}${rest}`;

/** The page's own address for a tournament page: pageHref("T1", "public"). */
export const pageHref = (tid, page = "") => `/tournaments/${enc(tid)}${page ? "/" + page : ""}`;

/** A status line (role=status) beside the control it reports on; `bad` marks a refusal. */
export function statusLine(id) {
  return h("p", { id, class: "t-status", role: "status" });
}

export function say(el, text, bad = false) {
  el.textContent = text;
  el.classList.toggle("bad", bad);
}

// The writes on their way, by path and body: the same write asked for again before its answer
// (a double click, Enter and a click) is that one write, not a second (issue 38, item 12).
const inFlight = new Map();

/** Send one write with an Idempotency-Key of its own (the server stores it once, however often
 * it arrives); `button`, if given, is off until the answer. The refusal goes into `statusEl`
 * (the server's detail, status and code). */
export async function send(statusEl, path, body, done, button = null) {
  say(statusEl, "Sending…");
  const id = `${path} ${JSON.stringify(body)}`;
  let flight = inFlight.get(id);
  if (!flight) {
    flight = api(path, { method: "POST", body, headers: { "Idempotency-Key": newKey() } }).finally(() => inFlight.delete(id));
    inFlight.set(id, flight);
  }
  if (button) button.disabled = true;
  try {
    const answer = await flight;
    say(statusEl, done(answer));
    return answer;
  } catch (err) {
    say(statusEl, describeError(err), true);
    return null;
  } finally {
    if (button) button.disabled = false;
  }
}

/** Download a file the API serves (it needs the token's header, so no plain link). */
export async function download(statusEl, path, filename, accept) {
  say(statusEl, `Preparing ${filename}…`);
  try {
    const response = await api(path, { raw: true, headers: { Accept: accept } });
    const url = URL.createObjectURL(await response.blob());
    const link = h("a", { href: url, download: filename, class: "visually-hidden" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    say(statusEl, `Downloaded ${filename}.`);
  } catch (err) {
    say(statusEl, describeError(err), true);
  }
}

/** POST a text/csv body (the roster import); resolves to the JSON answer, rejects with ApiError. */
export async function postCsv(path, text) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: authHeaders({ "Content-Type": "text/csv" }),
      body: text,
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "Network error", "the server could not be reached", "network");
  }
  if (!response.ok) throw await problemOf(response);
  return response.json();
}

/** Call `load` now and every `ms` while the tab is shown; the clock ticks on its own meanwhile. */
export function poll(load, ms) {
  let timer = null;
  const tick = async () => {
    timer = null;
    if (!document.hidden) await load();
    timer = setTimeout(tick, ms);
  };
  tick();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer !== null) {
      clearTimeout(timer);
      tick();
    }
  });
}

/** What a view says, leaving out the seconds that change at every read (the clock counts those). */
export function fingerprint(view) {
  return JSON.stringify(view, (key, value) => (key === "remaining_seconds" ? undefined : value));
}

export const STATUS_NAMES = { pending: "Pending", reported: "Reported", extended: "Extended", featured: "Featured" };
export const PLAYER_STATUS = { active: "Active", dropped: "Dropped", no_show: "No-show" };

/** "Alice 2-1 Bob" (and draws) from a table's result keyed by player id. */
export function resultText(table) {
  const result = table.result;
  if (!result) return "";
  const parts = table.players.map((pid, i) => `${table.names[i]} ${result.wins[pid] ?? 0}`);
  let text = parts.join(" – ");
  if (result.draws) text += `, ${result.draws} drawn`;
  if (result.intentional_draw) text = "Intentional draw";
  return text;
}

/** The header every tournament page shows: its name and what kind of event it is. */
export function eventMeta(view) {
  const bits = [view.format, view.rel ? `${view.rel} REL` : "", view.kind === "commander" ? "Commander pods" : ""];
  if (view.best_of) bits.push(`best of ${view.best_of}`);
  if (view.rounds_planned) bits.push(`${view.rounds_planned} Swiss rounds`);
  // The public view's `top_cut` says whether this round is the cut; the scorekeeper's, its size.
  if (typeof view.top_cut === "number") bits.push(`top ${view.top_cut}`);
  return bits.filter(Boolean).join(" · ");
}

/** A player's name from the scorekeeper's view (their id only if the view does not know them). */
export function nameOf(view, pid) {
  const player = (view.players || []).find((p) => p.player_id === pid);
  return player ? player.name : pid;
}
