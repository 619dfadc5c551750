/* The record badge: the server's hash-chain check of the game (GET /v1/games/{id}/verify). */

import { api, describeError, gamePath } from "./api.js";
import { $, plural } from "./dom.js";

export function resetVerifyBadge() {
  const badge = $("#verify-badge");
  badge.textContent = "Checking the record…";
  badge.className = "badge";
}

/** Ask the server and show its answer; `isCurrent()` false drops an answer for an old load. */
export async function verify(gameId, isCurrent) {
  const badge = $("#verify-badge");
  try {
    const report = await api(gamePath(gameId, "/verify"));
    if (!isCurrent()) return;
    if (report.ok) {
      badge.textContent = `Record verified: ${plural(report.events, "event")}`;
      badge.className = "badge ok";
      badge.title = report.head ? `Hash chain head ${report.head}` : "";
    } else {
      badge.textContent = `Record altered: first bad version ${report.first_bad_version}`;
      badge.className = "badge bad";
      badge.title = "GET /verify found an event whose content or hash does not match";
    }
    badge.dataset.ok = String(Boolean(report.ok));
  } catch (err) {
    if (!isCurrent()) return;
    badge.textContent = "Record not checked";
    badge.className = "badge";
    badge.title = describeError(err);
  }
}
