/* The top bar's token form, shared by every page module (main.js, judges.js): says in one line
 * whether a token is in use and whose (the store's whoami answer, once the page has it), takes a
 * pasted one, forgets it after a confirmation (a phone's token is its player's link: a stray tap
 * must not drop it), and closes the error banner.
 */

import { clearError } from "./banner.js";
import { $ } from "./dom.js";
import { forgetHolder, holderKey } from "./lastknown.js";
import { store } from "./store.js";
import { Token } from "./token.js";

export function showTokenState() {
  const has = Token.get() !== null;
  const who = store.who;
  const whose = has && who ? `: ${who.name} (${who.role.replace(/_/g, " ")})` : "";
  const state = $("#token-state");
  state.textContent = has ? `Token in use${whose}, this tab only` : "No token: reading as the public";
  state.title = state.textContent;
  $("#token-clear").hidden = !has;
  $("#token-confirm").hidden = true;
  document.body.classList.toggle("has-token", has);
}

store.addEventListener("who", () => showTokenState());

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
    $("#token-clear").hidden = true;
    $("#token-confirm").hidden = false;
    $("#token-keep").focus();
  });
  $("#token-keep").addEventListener("click", () => {
    showTokenState();
    $("#token-clear").focus();
  });
  $("#token-forget").addEventListener("click", () => {
    forgetHolder(holderKey(Token.get())); // what the server said to this token leaves the device
    Token.clear();
    store.setWho(null);
    showTokenState();
    reload();
  });
  $("#error-close").addEventListener("click", clearError);
}
