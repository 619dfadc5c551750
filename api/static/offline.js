/* The page offline (docs/web.md, Offline): the service worker that keeps the page and its files
 * (/sw.js), the home-screen icon's page (the manifest's start), and the note under the top bar
 * saying that the page shows the last known state while the device has no network.
 */

import { $, formatTime } from "./dom.js";
import { forgetOld } from "./lastknown.js";
import { store } from "./store.js";

const PAGE = /^\/(?:games\/[^/]+|tournaments\/[^/]+(?:\/public|\/floor)?|judges)\/?$/;

/** Register the service worker (browsers allow one only over https or on localhost). */
function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    /* the page works without it; it just won't open offline */
  });
}

/** A phone adding the page to its home screen opens this page from there. */
function manifestStart() {
  const link = document.querySelector('link[rel="manifest"]');
  if (link && PAGE.test(location.pathname)) link.href = "/manifest.webmanifest?start=" + encodeURIComponent(location.pathname);
}

function showNote() {
  const note = $("#offline-note");
  if (!note) return;
  const { offline, at } = store.connection;
  const gone = offline || navigator.onLine === false;
  note.hidden = !gone;
  document.body.classList.toggle("offline", gone);
  if (!gone) return;
  const when = at ? ` (from ${formatTime(new Date(at).toISOString())})` : "";
  note.textContent = `Offline: showing the last known state${when}. Reports are kept and sent once the network is back.`;
}

export function initOffline() {
  registerWorker();
  forgetOld(); // answers older than a week leave the device
  manifestStart();
  store.on("connection", showNote);
  window.addEventListener("offline", showNote);
  window.addEventListener("online", () => {
    store.setConnection(false);
    showNote();
  });
}
