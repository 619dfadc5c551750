/* The service worker (served as /sw.js, the server putting CONFIG above this line: its version,
 * the content-named files of the pages and each page kind's address). docs/web.md, Offline.
 *
 * - install: keep this version's files that the browser has (the bundles and icons the page just
 *   loaded: no second download) and the page itself as each open tab has it;
 * - a page (a navigation): from the network, kept as its kind's page for next time; with no
 *   network, the kept page: every address of a kind is the same page, which reads its address;
 * - a file under /static/: a content-named one from the kept ones first (it never changes),
 *   another from this version's copy, else the network (and kept), else the previous version's;
 * - activate: the previous version's copies stay one more version, so a page kept before an
 *   update still finds its own files offline.
 * - anything else (the API, its event stream, writes) is not touched: the page keeps its own
 *   last answers (lastknown.js) and its queue (queue.js).
 */
/* global CONFIG */

const CACHE = `mtg-ledger-${CONFIG.version}`;
const PAGE_PATHS = /^\/(?:$|games\/[^/]+\/?$|tournaments\/?$|tournaments\/[^/]+(?:\/public|\/floor)?\/?$|judges\/?$)/;

const kindOf = (path) => (path.startsWith("/judges") ? "judges" : "main");
const shellKey = (kind) => new URL(CONFIG.shells[kind], self.location.origin).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Only those the browser has (the page that registered this worker just loaded them):
      // no second download; another page kind's files are kept when first asked for.
      await Promise.all(
        CONFIG.precache.map(async (url) => {
          try {
            const response = await fetch(url, { cache: "only-if-cached", mode: "same-origin" });
            if (response.ok) await cache.put(url, response);
          } catch {
            /* not loaded by this page */
          }
        }),
      );
      const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      await Promise.all(
        tabs.map(async (tab) => {
          const url = new URL(tab.url);
          if (url.origin !== self.location.origin || !PAGE_PATHS.test(url.pathname)) return;
          try {
            const response = await fetch(url.pathname + url.search, { cache: "force-cache" });
            if (response.ok) await cache.put(shellKey(kindOf(url.pathname)), response);
          } catch {
            /* kept at the next visit */
          }
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

// The previous version's files stay one more version: a page it kept (an open tab's, or one
// kept before this worker saw the new page) still finds its own script and style sheet offline.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const older = (await caches.keys()).filter((name) => name.startsWith("mtg-ledger-") && name !== CACHE);
      for (const name of older.slice(0, -1)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** This version's copy first, then the previous version's. */
async function kept(cache, request) {
  return (await cache.match(request)) || (await caches.match(request));
}

async function page(request, path) {
  const cache = await caches.open(CACHE);
  const key = shellKey(kindOf(path));
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const copy = await kept(cache, key);
    if (copy) return copy;
    throw err;
  }
}

const CONTENT_NAMED = /\/static\/[\w-]+\.[0-9a-f]{12}\.(?:js|css|png)$/;

/** A content-named file never changes: any version's copy is right. Any other file: this
 * version's copy, else the network, else (offline) the previous version's. */
async function file(request, path) {
  const cache = await caches.open(CACHE);
  const copy = CONTENT_NAMED.test(path) ? await kept(cache, request) : await cache.match(request);
  if (copy) return copy;
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (err) {
    const older = await caches.match(request);
    if (older) return older;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && PAGE_PATHS.test(url.pathname)) {
    event.respondWith(page(request, url.pathname));
  } else if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(file(request, url.pathname));
  }
});
