/* The red error banner at the top of the page. */

import { describeError } from "./api.js";
import { $ } from "./dom.js";

export function showError(err, context) {
  if (err && err.name === "AbortError") return; // a request this page cancelled itself
  $("#error-text").textContent = (context ? context + ": " : "") + describeError(err);
  $("#error").hidden = false;
}

export function clearError() {
  $("#error").hidden = true;
  $("#error-text").textContent = "";
}
