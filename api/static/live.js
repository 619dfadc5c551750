/* Live updates: new events of the game as they are recorded.
 *
 * The page reads GET /v1/games/{id}/events/stream (Server-Sent Events, `id:` = version) with
 * fetch() streaming, parsing the SSE format here: unlike EventSource it can send the
 * Authorization header (a token must never go into a URL), and it needs no listener per event
 * type, so an event type added on the server arrives like any other. Without streaming fetch it
 * asks for new events every two seconds instead. It reconnects after a network error, resuming
 * after the last version it has.
 */

import { ApiError, authHeaders, gamePath, problemOf } from "./api.js";

const POLL_MS = 2000;
const RECONNECT_MS = 2000;

/** One SSE message block ("id: 5\nevent: X\ndata: {...}") as {id, event, data}. */
export function parseSseBlock(block) {
  const out = { id: null, event: null, data: null };
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue; // a comment, e.g. the server's keep-alive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "id") out.id = value;
    else if (field === "event") out.event = value;
  }
  if (data.length) out.data = data.join("\n");
  return out;
}

function parseEvent(data) {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/**
 * Follow the game. `lastVersion()` is the newest version the page has; `onEvents(batch)` gets
 * each burst of new events (and returns a promise); `onStatus(text, cls)` sets the live badge;
 * `onFatal(err)` reports an error retrying cannot fix (401, 403, 404). Returns {stop()}.
 */
export function follow(gameId, { lastVersion, onEvents, onStatus, onFatal, pollEvents }) {
  if (window.ReadableStream && window.TextDecoderStream) {
    return followStream(gameId, { lastVersion, onEvents, onStatus, onFatal });
  }
  return followByPolling({ pollEvents, onEvents, onStatus, onFatal });
}

function followStream(gameId, { lastVersion, onEvents, onStatus, onFatal }) {
  let controller = null;
  let stopped = false;
  let timer = 0;

  const connect = async () => {
    clearTimeout(timer);
    if (stopped) return;
    if (navigator.onLine === false) {
      onStatus("Offline", "warn"); // never green while the device has no network
      return; // the "online" event connects again
    }
    if (controller) controller.abort();
    const mine = (controller = new AbortController());
    const after = lastVersion();
    try {
      const response = await fetch(gamePath(gameId, `/events/stream?after=${after}`), {
        headers: authHeaders({ Accept: "text/event-stream", "Last-Event-ID": String(after) }),
        signal: mine.signal,
        cache: "no-store",
      });
      if (!response.ok) throw await problemOf(response);
      onStatus("Live", "live");
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, "\n");
        const batch = [];
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const message = parseSseBlock(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          const event = message.data === null ? null : parseEvent(message.data);
          if (event) batch.push(event);
        }
        // Everything that arrived in one read is one burst: the board is drawn once for it.
        if (batch.length) await onEvents(batch);
      }
      if (!stopped) onStatus("Reconnecting…", "warn");
    } catch (err) {
      if (stopped || mine.signal.aborted || (err && err.name === "AbortError")) return;
      if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
        onFatal(err);
        onStatus("Not live", "");
        return;
      }
      onStatus(navigator.onLine === false ? "Offline" : "Reconnecting…", "warn");
    }
    if (!stopped && mine === controller) timer = setTimeout(connect, RECONNECT_MS);
  };
  // A connection that is open when the network goes can stay silent for a long time: drop it
  // at once and say so, and connect again as soon as the network is back.
  const offline = () => {
    clearTimeout(timer);
    if (controller) controller.abort();
    controller = null;
    onStatus("Offline", "warn");
  };
  const online = () => connect();
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  connect();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      if (controller) controller.abort();
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
    },
  };
}

function followByPolling({ pollEvents, onEvents, onStatus, onFatal }) {
  let stopped = false;
  let timer = 0;
  onStatus("Polling", "warn");
  const tick = async () => {
    if (stopped) return;
    try {
      const events = await pollEvents();
      if (events.length) await onEvents(events);
    } catch (err) {
      onFatal(err);
    }
    if (!stopped) timer = setTimeout(tick, POLL_MS);
  };
  timer = setTimeout(tick, POLL_MS);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
