/* What the game page's panels share (game-flow.js, judging.js, report.js, endgame.js): who the
 * token is and the latest state with its version, taken from the page's store (store.js), never
 * an older version over a newer one, and a render() of their own. A panel overrides
 * `whoChanged(who)` and `stateChanged(before)` for what it does beyond drawing again.
 */

import { rankOf } from "./store.js";

export class Panel {
  constructor() {
    this.who = null;
    this.state = null;
    this.version = 0;
  }

  /** Follow `store`: its "who" and (unless `state: false`, for the panel that publishes the
   * latest state) its "state". */
  follow(store, { state = true } = {}) {
    store.on("who", (who) => this.setWho(who));
    if (state) store.on("state", ({ state: latest, version }) => this.show(latest, version));
  }

  setWho(who) {
    this.who = who || null;
    this.whoChanged(this.who);
    this.render();
  }

  /** The latest state: draw again (an older version than the one drawn is ignored). */
  show(state, version) {
    if (!state || version < this.version) return;
    const before = this.state;
    this.state = state;
    this.version = version;
    this.stateChanged(before);
    this.render();
  }

  whoChanged() {}

  stateChanged() {}

  render() {}

  rank() {
    return rankOf(this.who);
  }
}
