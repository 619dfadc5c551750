/* A quick undo of one's own last report (docs/web.md, Reporting; docs/judges.md).
 *
 * After a player's report is stored, a short-lived "Undo" is offered for it: it sends
 * POST /v1/games/{id}/undo {"actions": 1} with If-Match set to the version that report made,
 * as the player's token. The server takes it back only while it is still the game's last action,
 * within 30 seconds of being recorded, and while it waits for acknowledgement or affects only
 * the reporter; otherwise it refuses (403), and the refusal is shown beside the button. So the
 * button goes after 30 seconds, and as soon as anyone else's report moves the game on. Taps not
 * yet sent (still being grouped, taps.js) are simply dropped: nothing reached the server.
 */

import { api, describeError, gamePath } from "./api.js";
import { h } from "./dom.js";
import { newKey } from "./queue.js";

export const UNDO_MS = 30000;
const REFUSAL_MS = 8000;

export class QuickUndo {
  /** `game`: {id, recorded(answer)}; `onUndone(text)` tells the page; `dropGroup()` drops the
   * taps being grouped and says what they were (or null). */
  constructor(game, { onUndone, dropGroup, groupLabel }) {
    this.game = game;
    this.onUndone = onUndone;
    this.dropGroup = dropGroup;
    this.groupLabel = groupLabel;
    this.offer = null; // {label, version, until}
    this.error = "";
    this.busy = false;
    this.timer = 0;
    this.el = h("div", { id: "quick-undo", class: "quick-undo", role: "region", "aria-label": "Undo your last report", hidden: true });
  }

  /** One's own report was stored at `version`: offer its undo for 30 seconds. */
  offerFor(label, version) {
    this.offer = { label, version, until: Date.now() + UNDO_MS };
    this.error = "";
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), UNDO_MS);
    this.draw();
  }

  /** The game is now at `version`: someone else acted after our report, so it can't be undone. */
  seen(version) {
    if (this.offer && version > this.offer.version && !this.busy) this.clear();
  }

  clear() {
    clearTimeout(this.timer);
    this.offer = null;
    this.error = "";
    this.draw();
  }

  async undo() {
    const offer = this.offer;
    if (!offer || this.busy) return;
    this.busy = true;
    this.draw();
    try {
      const answer = await api(gamePath(this.game.id, "/undo"), {
        method: "POST",
        body: { actions: 1, reason: `Quick undo by the reporter: ${offer.label}` },
        headers: { "If-Match": `"${offer.version}"`, "Idempotency-Key": newKey() },
      });
      this.busy = false;
      this.clear();
      this.onUndone(`Undone: ${offer.label}.`);
      await this.game.recorded(answer);
    } catch (err) {
      this.busy = false;
      this.error = `Not undone: ${describeError(err)}`;
      this.draw();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.clear(), REFUSAL_MS);
    }
  }

  /** Draw the bar: the taps being grouped first (they can be dropped), else the stored report. */
  draw() {
    const group = this.groupLabel();
    const parts = [];
    if (group) {
      parts.push(
        h("p", { class: "undo-what", text: `Sending in a moment: ${group}.` }),
        h("button", { type: "button", class: "undo", dataset: { key: "undo.group" }, onclick: () => this.dropGroup() }, "Undo"),
      );
    } else if (this.offer) {
      parts.push(
        h("p", { class: "undo-what", text: `Recorded: ${this.offer.label}.` }),
        h("button", { type: "button", class: "undo", dataset: { key: "undo.last" }, disabled: this.busy, onclick: () => this.undo(), "aria-label": `Undo “${this.offer.label}”` }, this.busy ? "Undoing…" : "Undo"),
      );
    }
    if (this.error) parts.push(h("p", { class: "refusal", dataset: { refusalFor: "undo.last" }, text: this.error }));
    this.el.replaceChildren(...parts);
    this.el.hidden = !parts.length;
  }
}
