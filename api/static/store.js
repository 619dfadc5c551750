/* The page's one state store (docs/web.md, How the page is built): an EventTarget holding what
 * the panels draw from, so none keeps its own copy or passes it along by hand:
 *
 * - `who`: the token's holder (GET /v1/whoami: role, player_id, ...), "who" event;
 * - `state` and `version`: the game's latest state the page has, "state" event;
 * - `connection`: {offline, at}: whether the last answers came from this device's copy (the
 *   network was gone) and from when, "connection" event.
 *
 * A panel subscribes with `on(name, fn)`, which also calls `fn` at once when there is a value.
 */

/** The role table, once: what each role may do is the server's; the page only orders them to
 * leave out controls the server would refuse. */
export const RANK = { spectator: 0, player: 1, scorekeeper: 2, judge: 3, head_judge: 4, admin: 5 };

/** The rank of a whoami answer (null: the public). */
export const rankOf = (who) => (who ? RANK[who.role] ?? 0 : 0);

export class PageStore extends EventTarget {
  constructor() {
    super();
    this.who = null;
    this.whoKnown = false;
    this.state = null;
    this.version = 0;
    this.connection = { offline: false, at: null };
  }

  setWho(who) {
    this.who = who || null;
    this.whoKnown = true;
    this.dispatchEvent(new CustomEvent("who", { detail: this.who }));
  }

  /** The latest state (never an older version over a newer one). */
  setState(state, version) {
    if (!state || version < this.version) return;
    this.state = state;
    this.version = version;
    this.dispatchEvent(new CustomEvent("state", { detail: { state, version } }));
  }

  setConnection(offline, at = null) {
    if (this.connection.offline === offline && this.connection.at === at) return;
    this.connection = { offline, at };
    this.dispatchEvent(new CustomEvent("connection", { detail: this.connection }));
  }

  /** Call `fn(detail)` on each `name` event, and now when the store has a value. */
  on(name, fn) {
    this.addEventListener(name, (e) => fn(e.detail));
    if (name === "who" && this.whoKnown) fn(this.who);
    if (name === "state" && this.state) fn({ state: this.state, version: this.version });
    if (name === "connection") fn(this.connection);
  }

  /** Forget the game (another token: states differ by role). */
  reset() {
    this.state = null;
    this.version = 0;
    this.whoKnown = false;
  }
}

/** The store of this page. */
export const store = new PageStore();
