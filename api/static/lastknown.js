/* The last answer the server gave to each read of the API, kept on this device (IndexedDB) per
 * token holder, so a page opened again with no network shows the last known state (docs/web.md,
 * Offline). Only reads are kept; the reports not yet sent are the queue's (queue.js).
 *
 * Answers older than a week are dropped when a page starts, and a token's answers when the token
 * is forgotten (the top bar's Forget token). A browser without IndexedDB (some
 * privacy modes) keeps nothing: the page then needs the network to open, as before.
 */

const DB_NAME = "mtg-ledger";
const STORE = "answers";
const KEEP_MS = 7 * 24 * 3600 * 1000;
let opening = null;

function database() {
  if (!opening) {
    opening = new Promise((resolve) => {
      let request;
      try {
        request = indexedDB.open(DB_NAME, 1);
      } catch {
        resolve(null);
        return;
      }
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    });
  }
  return opening;
}

function settled(request) {
  return new Promise((resolve) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
}

/** Whose answers these are: a short hash of the token (answers differ by role), never the token. */
export function holderKey(token) {
  if (!token) return "public";
  let hash = 0x811c9dc5; // FNV-1a: a partition key, not a secret
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return "t" + hash.toString(16).padStart(8, "0");
}

/** Keep `body` as the last answer to `key` (the holder and the path). */
export async function remember(key, body) {
  const db = await database();
  if (!db) return;
  try {
    await settled(db.transaction(STORE, "readwrite").objectStore(STORE).put({ at: Date.now(), body }, key));
  } catch {
    /* storage full or closed: the page works on, it just can't open offline */
  }
}

/** The last answer to `key`, as {at, body}, or null. */
export async function recall(key) {
  const db = await database();
  if (!db) return null;
  try {
    return (await settled(db.transaction(STORE, "readonly").objectStore(STORE).get(key))) || null;
  } catch {
    return null;
  }
}

/** Drop answers older than a week. */
export async function forgetOld(now = Date.now()) {
  const db = await database();
  if (!db) return;
  const cursor = db.transaction(STORE, "readwrite").objectStore(STORE).openCursor();
  cursor.onsuccess = () => {
    const at = cursor.result;
    if (!at) return;
    if (!at.value || now - at.value.at > KEEP_MS) at.delete();
    at.continue();
  };
}

/** Drop every answer kept for `holder` (a forgotten token: its answers leave the device too). */
export async function forgetHolder(holder) {
  const db = await database();
  if (!db) return;
  const prefix = holder + " ";
  const cursor = db.transaction(STORE, "readwrite").objectStore(STORE).openCursor();
  cursor.onsuccess = () => {
    const at = cursor.result;
    if (!at) return;
    if (String(at.key).startsWith(prefix)) at.delete();
    at.continue();
  };
}
