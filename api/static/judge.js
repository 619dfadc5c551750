/* The judge panel: undo (back up, MIPG 1.4), a note on the record, the NDJSON export.
 *
 * The server decides what an undo takes back: "The last action" sends {"actions": 1} and
 * "Back to the shown version" sends {"to_version": V}; which events end up reverted is read from
 * the server's answer, never worked out here. Every request carries If-Match with the latest
 * version this page has, so the server refuses (409) if someone acted in the meantime.
 */

import { api, describeError, gamePath } from "./api.js";
import { $, h } from "./dom.js";

function status(text, isError) {
  const out = $("#judge-status");
  out.textContent = text;
  out.classList.toggle("error-text", Boolean(isError));
}

/**
 * `game`: {id, head(), selected(), recorded(result)}; `recorded` takes an action's answer (its
 * events and state) into the page and shows the new latest version.
 */
export function initJudge(game) {
  async function submit(form, path, body, done) {
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    status("Sending…");
    try {
      const result = await api(path, { method: "POST", body, headers: { "If-Match": `"${game.head()}"` } });
      await game.recorded(result);
      done(result);
    } catch (err) {
      status(describeError(err), true);
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  const undoForm = $("#undo-form");
  undoForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const reason = $("#undo-reason").value.trim();
    if (!reason) {
      status("An undo needs a reason for the record.", true);
      $("#undo-reason").focus();
      return;
    }
    const toShown = $("#undo-to").checked && game.selected() < game.head();
    const body = toShown ? { to_version: game.selected(), reason } : { actions: 1, reason };
    submit(undoForm, gamePath(game.id, "/undo"), body, (result) => {
      $("#undo-reason").value = "";
      $("#undo-last").checked = true;
      status(`Undone: the game is at version ${result.version}.`);
    });
  });

  const noteForm = $("#note-form");
  noteForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("#note-text").value.trim();
    if (!text) {
      status("The note is empty.", true);
      return;
    }
    submit(noteForm, gamePath(game.id, "/actions"), { type: "note", text }, (result) => {
      $("#note-text").value = "";
      status(`Note added at version ${result.version}.`);
    });
  });

  $("#export-button").addEventListener("click", () => exportRecord(game.id));
}

/** Update the "Back to the shown version" choice for the version on screen. */
export function showUndoTarget(selected, head) {
  $("#undo-to-version").textContent = String(selected);
  const to = $("#undo-to");
  to.disabled = selected >= head; // at the latest version there is nothing to go back over
  if (to.disabled && to.checked) $("#undo-last").checked = true;
}

async function exportRecord(gameId) {
  const button = $("#export-button");
  button.disabled = true;
  status("Preparing the export…");
  try {
    const response = await api(gamePath(gameId, "/export"), { raw: true, headers: { Accept: "application/x-ndjson" } });
    const url = URL.createObjectURL(await response.blob());
    const link = h("a", { href: url, download: `${gameId}.ndjson`, class: "visually-hidden" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    status(`Exported ${gameId}.ndjson.`);
  } catch (err) {
    status(describeError(err), true);
  } finally {
    button.disabled = false;
  }
}
