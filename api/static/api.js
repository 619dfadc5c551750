/* Calls to the server's v1 API (docs/api.md), with the tab's token in the Authorization header.
 * Failures become an ApiError carrying the server's problem+json fields.
 *
 * Each read's answer is kept on this device (lastknown.js); with no network a read is answered
 * from it, and the store says the page shows the last known state (store.connection).
 */

import { holderKey, recall, remember } from "./lastknown.js";
import { store } from "./store.js";
import { Token } from "./token.js";

export class ApiError extends Error {
  constructor(status, title, detail, code) {
    super(detail || title);
    this.name = "ApiError";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.code = code;
  }
}

export const enc = encodeURIComponent;

/** The address of a game's resource: gamePath("g1", "/events") is /v1/games/g1/events. */
export const gamePath = (gameId, rest = "") => `/v1/games/${enc(gameId)}${rest}`;

export function authHeaders(extra) {
  const headers = { Accept: "application/json", ...(extra || {}) };
  const token = Token.get();
  if (token) headers.Authorization = "Bearer " + token;
  return headers;
}

export async function problemOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (body && typeof body === "object" && !Array.isArray(body)) {
    return new ApiError(response.status, body.title || response.statusText, body.detail || "", body.code || "");
  }
  return new ApiError(response.status, response.statusText || "Error", `HTTP ${response.status}`, "");
}

/** Call the API; resolve to the parsed JSON (or the Response with raw), reject with ApiError. */
export async function api(path, { method = "GET", body, headers, signal, raw = false } = {}) {
  const init = { method, headers: authHeaders(headers), signal, cache: "no-store", credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const kept = method === "GET" && !raw ? holderKey(Token.get()) + " " + path : null;
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    if (err && err.name === "AbortError") throw err;
    const last = kept && (await recall(kept));
    if (last) {
      store.setConnection(true, last.at);
      return last.body;
    }
    throw new ApiError(0, "Network error", "the server could not be reached", "network");
  }
  if (!response.ok) throw await problemOf(response);
  if (!kept) return raw ? response : response.json();
  const answer = await response.json();
  store.setConnection(false);
  remember(kept, answer);
  return answer;
}

/** The server's detail, then status, title and code: what a person needs to act on an error. */
export function describeError(err) {
  if (!(err instanceof ApiError)) return String((err && err.message) || err);
  let text = err.detail || err.title;
  if (err.status) text += ` (${err.status} ${err.title}${err.code ? ", " + err.code : ""})`;
  if (err.status === 401) text += ". Enter a token at the top of the page, or open the page with #token=… after the address.";
  return text;
}
