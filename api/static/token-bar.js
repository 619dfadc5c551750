/* The top bar's token form, shared by every page module (main.js, judges.js): shows whether a
 * token is in use, takes a pasted one or forgets it, and closes the error banner.
 */

import { clearError } from "./banner.js";
import { $ } from "./dom.js";
import { Token } from "./token.js";

export function showTokenState() {
  const has = Token.get() !== null;
  $("#token-state").textContent = has ? "Token in use (this tab only)" : "No token: reading as the public";
  $("#token-clear").hidden = !has;
  document.body.classList.toggle("has-token", has);
}

/** The token form; `reload()` asks the server again with the new token (or none). */
export function initToken(reload) {
  $("#token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("#token-input");
    const value = input.value.trim();
    input.value = "";
    if (!value) return;
    Token.set(value);
    showTokenState();
    clearError();
    reload();
  });
  $("#token-clear").addEventListener("click", () => {
    Token.clear();
    showTokenState();
    reload();
  });
  $("#error-close").addEventListener("click", clearError);
}
