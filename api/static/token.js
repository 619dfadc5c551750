/* The API token of this browser tab.
 *
 * It comes from the address fragment (#token=..., which browsers never send to the server) or
 * the token form, lives in sessionStorage (gone when the tab closes) and only ever travels in the
 * Authorization header. It is never put in a URL or logged.
 */

const TOKEN_KEY = "mtg-ledger.token";
let memoryToken = null; // when sessionStorage is unavailable (privacy modes)

export const Token = {
  get() {
    try {
      return sessionStorage.getItem(TOKEN_KEY) || null;
    } catch {
      return memoryToken;
    }
  },
  set(value) {
    memoryToken = value;
    try {
      sessionStorage.setItem(TOKEN_KEY, value);
    } catch {
      /* kept in memory only */
    }
  },
  clear() {
    memoryToken = null;
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      /* nothing stored */
    }
  },
};

/** Move `#token=...` from the address bar into sessionStorage, keeping any other fragment. */
export function takeTokenFromFragment() {
  if (!location.hash || location.hash.length < 2) return;
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("token")) return;
  const value = (params.get("token") || "").trim();
  params.delete("token");
  if (value) Token.set(value);
  const rest = params.toString();
  history.replaceState(history.state, "", location.pathname + location.search + (rest ? "#" + rest : ""));
}
