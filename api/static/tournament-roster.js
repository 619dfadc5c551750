/* The roster on the scorekeeper's page: register a player (after round 1 a late entry, who joins
 * with a loss for each round missed), import a roster file (CSV: name,wizards_id) and export it,
 * drop a player with the reason (on the record) or mark a no-show, and the players' list.
 */

import { api, describeError } from "./api.js";
import { h, plural } from "./dom.js";
import { publicBase } from "./qr-links.js";
import { download, PLAYER_STATUS, postCsv, say, send, statusLine, tPath } from "./tournament-shared.js";

export class Roster {
  constructor(tid, reload) {
    this.tid = tid;
    this.reload = reload;
    this.body = h("tbody");
    this.count = h("p", { class: "summary", role: "status" });

    const registerStatus = statusLine("t-register-status");
    const name = h("input", { id: "t-new-name", name: "name", type: "text", required: true, maxlength: 100, autocomplete: "off" });
    const wizards = h("input", { id: "t-new-wizards", name: "wizards_id", type: "text", maxlength: 40, autocomplete: "off", spellcheck: "false" });
    this.lateHint = h("p", { class: "hint", hidden: true });
    const registerButton = h("button", { type: "submit", text: "Register the player" });
    const register = h(
      "form",
      { id: "t-register", class: "t-form", "aria-label": "Register a player" },
      h("div", { class: "field" }, h("label", { for: "t-new-name", text: "Player's name" }), name),
      h("div", { class: "field" }, h("label", { for: "t-new-wizards", text: "Wizards account id (optional)" }), wizards),
      h("div", { class: "field buttons" }, registerButton),
    );
    this.registerForm = register;
    register.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = { name: name.value.trim() };
      if (!body.name) return say(registerStatus, "A player needs a name.", true);
      if (wizards.value.trim()) body.wizards_id = wizards.value.trim();
      const answer = await send(registerStatus, tPath(tid, "/players"), body, (p) => `Registered ${p.name}.`, registerButton);
      if (answer) register.reset();
      reload();
    });

    const importStatus = statusLine("t-import-status");
    const file = h("input", { id: "t-roster-file", type: "file", accept: ".csv,text/csv" });
    // Shown only while the server takes registrations (render); the export stays.
    this.importParts = [
      h("div", { class: "field" }, h("label", { for: "t-roster-file", text: "Roster file (CSV with the header name,wizards_id)" }), file),
      h("button", { type: "submit", text: "Import the roster" }),
    ];
    const importForm = h(
      "form",
      { id: "t-import", class: "t-form", "aria-label": "Import a roster file" },
      this.importParts[0],
      h(
        "div",
        { class: "field buttons" },
        this.importParts[1],
        h("button", {
          type: "button",
          text: "Roster (CSV)",
          onclick: () => download(importStatus, tPath(tid, "/players.csv"), `${tid}-players.csv`, "text/csv"),
        }),
      ),
    );
    importForm.addEventListener("submit", async (e) => {
      e.preventDefault();
      const chosen = file.files && file.files[0];
      if (!chosen) return say(importStatus, "Choose a roster file first.", true);
      say(importStatus, "Sending…");
      try {
        const answer = await postCsv(tPath(tid, "/players.csv"), await chosen.text());
        say(importStatus, `Registered ${plural(answer.registered, "player")} from ${chosen.name}.`);
        importForm.reset();
      } catch (err) {
        say(importStatus, describeError(err), true);
      }
      reload();
    });

    const dropStatus = statusLine("t-drop-status");
    this.dropPlayer = h("select", { id: "t-drop-player", name: "player", required: true });
    const reason = h("input", { id: "t-drop-reason", name: "reason", type: "text", maxlength: 200 });
    const dropForm = h(
      "form",
      { id: "t-drop", class: "t-form", "aria-label": "Drop a player" },
      h("div", { class: "field" }, h("label", { for: "t-drop-player", text: "Player" }), this.dropPlayer),
      h("div", { class: "field" }, h("label", { for: "t-drop-reason", text: "Why they drop (on the record)" }), reason),
      h(
        "div",
        { class: "field buttons" },
        h("button", { type: "submit", text: "Drop the player" }),
        h("button", { type: "button", id: "t-no-show", text: "Mark as a no-show", onclick: () => this.noShow(dropStatus) }),
      ),
    );
    dropForm.addEventListener("submit", async (e) => {
      e.preventDefault();
      const pid = this.dropPlayer.value;
      if (!pid) return say(dropStatus, "Choose the player who drops.", true);
      if (!reason.value.trim()) return say(dropStatus, "A drop needs its reason (it goes on the record).", true);
      const answer = await send(dropStatus, tPath(tid, `/players/${encodeURIComponent(pid)}/drop`), { reason: reason.value.trim() }, (p) => `${p.name} is dropped: ${p.drop_reason}.`);
      if (answer) reason.value = "";
      reload();
    });

    // A player's link for the whole event, with its QR code: shown once, here, never in a URL
    // the page asks for (the QR code's text goes in the body of POST /v1/qr).
    this.linkStatus = statusLine("t-link-status");
    this.linkBox = h("div", { id: "t-player-link", class: "t-link", hidden: true });

    this.el = h(
      "section",
      { id: "t-roster", class: "panel", "aria-labelledby": "t-roster-title" },
      h("h2", { id: "t-roster-title", text: "Roster" }),
      this.count,
      register,
      this.lateHint,
      registerStatus,
      importForm,
      importStatus,
      dropForm,
      dropStatus,
      this.linkBox,
      this.linkStatus,
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "t-players", id: "t-players" },
          h("caption", { class: "visually-hidden", text: "The registered players, in registration order" }),
          h("thead", {}, h("tr", {}, ["Player", "Link", "Wizards id", "Status"].map((c) => h("th", { scope: "col", text: c })))),
          this.body,
        ),
      ),
    );
  }

  async noShow(statusEl) {
    const pid = this.dropPlayer.value;
    if (!pid) return say(statusEl, "Choose the player who did not show up.", true);
    await send(statusEl, tPath(this.tid, `/players/${encodeURIComponent(pid)}/no_show`), {}, (p) => `${p.name} is marked as a no-show.`);
    this.reload();
  }

  async showLink(player) {
    say(this.linkStatus, `Making ${player.name}'s link…`);
    try {
      const link = await api(tPath(this.tid, `/players/${encodeURIComponent(player.player_id)}/link`), { method: "POST", body: {} });
      const url = (await publicBase()) + link.url; // MTG_LEDGER_PUBLIC_URL: the address phones reach
      const svg = await api("/v1/qr", { method: "POST", body: { text: url }, raw: true, headers: { Accept: "image/svg+xml" } });
      const img = h("img", { class: "qr", src: URL.createObjectURL(await svg.blob()), alt: `QR code of ${link.name}'s link`, width: 220, height: 220 });
      this.linkBox.replaceChildren(
        h("h3", { text: `${link.name}'s link for the whole event` }),
        img,
        h("input", { id: "t-link-url", type: "text", readonly: true, value: url, "aria-label": `${link.name}'s link` }),
        h("p", { class: "hint", text: "Give it to the player only: it opens their own page (their table, opponent and game) and acts as them in the games they are seated at, until they drop. A new link does not revoke an earlier one." }),
        h("button", { type: "button", text: "Close", onclick: () => this.hideLink() }),
      );
      this.linkBox.hidden = false;
      say(this.linkStatus, `${link.name}'s link is ready.`);
    } catch (err) {
      say(this.linkStatus, describeError(err), true);
    }
  }

  hideLink() {
    for (const img of this.linkBox.querySelectorAll("img")) URL.revokeObjectURL(img.src);
    this.linkBox.replaceChildren();
    this.linkBox.hidden = true;
    say(this.linkStatus, "");
  }

  render(view) {
    const players = view.players || [];
    const active = players.filter((p) => p.status === "active");
    this.count.textContent = `${plural(players.length, "player")}, ${active.length} active.`;
    const rounds = (view.rounds || []).length;
    // Only while the server takes a registration (view.actions): after the last Swiss round is
    // paired it refuses one, so neither the form nor the late-entry hint is shown (issue 38).
    const open = (view.actions || []).includes("register");
    this.registerForm.hidden = !open;
    for (const part of this.importParts) part.hidden = !open;
    this.lateHint.hidden = rounds === 0 || !open;
    this.lateHint.textContent = `Round ${rounds} is paired: a player registered now is a late entry, with a loss for each round missed.`;
    const kept = this.dropPlayer.value;
    this.dropPlayer.replaceChildren(
      h("option", { value: "", text: "Choose a player" }),
      ...active.map((p) => h("option", { value: p.player_id, text: p.name })),
    );
    if (active.some((p) => p.player_id === kept)) this.dropPlayer.value = kept;
    this.body.replaceChildren(
      ...players.map((p) =>
        h(
          "tr",
          { dataset: { player: p.player_id, status: p.status } },
          h("th", { scope: "row", text: p.name }),
          // The status stays the row's last cell (what the floor and the tests read).
          h(
            "td",
            {},
            h("button", {
              type: "button",
              class: "t-link-button",
              text: "Player link",
              "aria-label": `Player link for ${p.name}`,
              onclick: () => this.showLink(p),
            }),
          ),
          h("td", { text: p.wizards_id || "" }),
          h("td", { text: playerStatus(p) }),
        ),
      ),
    );
  }
}

function playerStatus(p) {
  let text = PLAYER_STATUS[p.status] || p.status;
  if (p.status === "dropped") {
    if (p.dropped_after) text += ` after round ${p.dropped_after}`;
    if (p.drop_reason) text += `: ${p.drop_reason}`;
  }
  if (p.late_entry_rounds) text += ` (late entry: ${plural(p.late_entry_rounds, "round")} missed)`;
  return text;
}
