/* Unit tests of the page's modules, run in the browser suite's Chromium (tests/browser/
 * test_page_units.py serves this file beside the server's /static/ modules): pending totals,
 * tap grouping, the offline queue and the page's store. Results go to window.unitResults. */

import { aCounter, withNames } from "/static/labels.js";
import { forgetHolder, holderKey, recall, remember } from "/static/lastknown.js";
import { pendingEffects, pendingLife } from "/static/pending.js";
import { ReportQueue } from "/static/queue.js";
import { RANK, PageStore, rankOf } from "/static/store.js";
import { TapGroups, kindOf } from "/static/taps.js";

const tests = [];
/** Wait for `cond()` (the queue sends on its own once an entry is added), at most two seconds. */
async function until(cond, what) {
  const end = Date.now() + 2000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const test = (name, fn) => tests.push({ name, fn });
function equal(actual, expected, what = "") {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} expected ${e}, got ${a}`);
}

const STATE = {
  players: {
    P1: { name: "Ann", life: 20, team: null, counters: {} },
    P2: { name: "Bo", life: 20, team: null, counters: {} },
  },
  teams: {},
  battlefield: {
    moth: { name: "Moth", controller: "P1", owner: "P1", token: false, damage_effects: { infect: true, lifelink: false, commander_key: null } },
    link: { name: "Link", controller: "P1", owner: "P1", token: false, damage_effects: { infect: false, lifelink: true, commander_key: null } },
    cmdr: { name: "Ezuri", controller: "P2", owner: "P2", token: false, damage_effects: { infect: false, lifelink: false, commander_key: "P2:Ezuri" } },
    // No damage_effects (an older server): plain damage.
    bear: { name: "Bear", controller: "P2", owner: "P2", token: false, card: { oracle_text: "Infect" } },
  },
};

test("labels: a counter's article follows the kind's first sound", () => {
  equal(["energy", "experience", "oil", "poison", "rad", "+1/+1"].map(aCounter), [
    "an energy counter", "an experience counter", "an oil counter", "a poison counter", "a rad counter", "a +1/+1 counter",
  ]);
});

test("labels: server-written text names players, whole ids only", () => {
  const players = { P1: { name: "Alice" }, P10: { name: "Jo" }, P2: { name: "" }, "P1-b": { name: "Bea" } };
  equal(withNames("Rad counters (CR 728.1): P1 mills cards equal to their rad counters", players), "Rad counters (CR 728.1): Alice mills cards equal to their rad counters");
  equal(withNames("P10 and P1 and P1-b; P2 has no name; P1x stays", players), "Jo and Alice and Bea; P2 has no name; P1x stays");
  equal(withNames("", players), "");
  equal(withNames(undefined, players), "");
});

test("pending: life lost and gained add up per player", () => {
  const fx = pendingEffects(
    [
      { type: "lose_life", player: "P1", amount: 3 },
      { type: "gain_life", player: "P1", amount: 1 },
      { type: "lose_life", player: "P2", amount: 2 },
    ],
    STATE,
  );
  equal(pendingLife(fx, STATE, "P1"), -2, "P1");
  equal(pendingLife(fx, STATE, "P2"), -2, "P2");
});

test("pending: what a source's damage does is the server's damage_effects", () => {
  const fx = pendingEffects(
    [
      { type: "damage", target: { player: "P2" }, source: "moth", amount: 2 },
      { type: "damage", target: { player: "P2" }, source: "link", amount: 3 },
      { type: "damage", target: { player: "P1" }, source: "cmdr", amount: 4, combat: true },
      { type: "damage", target: { player: "P1" }, source: "cmdr", amount: 1 },
      { type: "damage", target: { player: "P1" }, source: "bear", amount: 1 },
      { type: "damage", target: { player: "P1" }, amount: 2, toxic: 1 },
    ],
    STATE,
  );
  equal(fx.get("P2").counters, { poison: 2 }, "infect: poison");
  equal(fx.get("P2").life, -3, "P2 life");
  equal(fx.get("P1").life, 3 - 4 - 1 - 1 - 2, "P1 life: lifelink gain, then the damage");
  equal(fx.get("P1").commander, { "P2:Ezuri": 4 }, "only combat damage of a commander counts");
  equal(fx.get("P1").counters, { poison: 1 }, "toxic");
});

test("pending: a team's shared life counts every teammate's reports", () => {
  const state = {
    players: { A: { life: 30, team: "T" }, B: { life: 30, team: "T" } },
    teams: { T: { players: ["A", "B"], life: 30 } },
    battlefield: {},
  };
  const fx = pendingEffects([{ type: "lose_life", player: "A", amount: 2 }, { type: "lose_life", player: "B", amount: 3 }], state);
  equal(pendingLife(fx, state, "A"), -5);
});

test("taps: one kind in a row is one report; another kind or a flush ends the group", () => {
  const queued = [];
  const groups = new TapGroups({ queue: (body, label, origin, taps) => queued.push([body, label, taps]), onChange: () => {}, wait: 60000 });
  const lose = { type: "lose_life", player: "P1", amount: 1 };
  groups.tap(lose, (n) => `lose ${n}`, "o", 5);
  groups.tap(lose, (n) => `lose ${n}`, "o", 5);
  groups.tap(lose, (n) => `lose ${n}`, "o", 5);
  equal(queued.length, 0, "nothing queued while grouping");
  equal(groups.bodies(), [{ ...lose, amount: 3 }], "the open group counts for the pending totals");
  groups.tap({ type: "gain_life", player: "P1", amount: 1 }, (n) => `gain ${n}`, "o", 5);
  equal(queued, [[{ ...lose, amount: 3 }, "lose 3", 3]], "another kind queues the group first");
  groups.flush();
  equal(queued.length, 2);
  groups.tap(lose, (n) => `lose ${n}`, "o", 5);
  equal(groups.cancel(), "lose 1", "cancel says what it dropped");
  equal(queued.length, 2, "a cancelled group is never queued");
  equal(kindOf({ ...lose, amount: 9 }), kindOf(lose), "the amount is not the kind");
  groups.stop();
});

test("queue: offline keeps the entry and its key across a reload; it is sent once when back", async () => {
  localStorage.clear();
  const sent = [];
  let online = false;
  const send = async (entry) => {
    sent.push(entry.key);
    if (!online) throw Object.assign(new Error("offline"), { status: 0 });
    return { version: entry.base + 1 };
  };
  const hooks = { onStored: async () => {}, onConflict: async () => null, onRefused: () => {}, onChange: () => {} };
  const first = new ReportQueue("g-unit", "P1", { send, ...hooks });
  const entry = first.add({ type: "lose_life", player: "P1", amount: 1 }, "Lose 1", 4, true);
  await until(() => sent.length === 1 && !first.sending, "the first try");
  equal(first.waiting, 1, "kept while offline");
  first.stop();
  // A reload: a new queue on the same storage finds the entry with the same key.
  const second = new ReportQueue("g-unit", "P1", { send, ...hooks });
  equal(second.entries.map((e) => e.key), [entry.key], "the key survives");
  online = true;
  await second.flush();
  equal(second.waiting, 0, "sent");
  equal([...new Set(sent)], [entry.key], "every attempt carried the one key");
  await second.flush();
  equal(sent.filter((k) => k === entry.key).length, sent.length, "nothing sent after it was stored");
  second.stop();
  localStorage.clear();
});

test("queue: a refusal drops the entry and says why; the next one goes on", async () => {
  localStorage.clear();
  const refused = [];
  const stored = [];
  const send = async (entry) => {
    if (entry.body.amount === 99) throw Object.assign(new Error("no"), { status: 422, code: "invalid_amount" });
    return { version: 7 };
  };
  const queue = new ReportQueue("g-unit2", "P1", {
    send, onStored: async (e) => stored.push(e.label), onConflict: async () => null,
    onRefused: (e, err) => refused.push([e.label, err.code]), onChange: () => {},
  });
  queue.add({ type: "lose_life", player: "P1", amount: 99 }, "bad", 1, true);
  queue.add({ type: "lose_life", player: "P1", amount: 1 }, "good", 1, true);
  await until(() => queue.waiting === 0 && !queue.sending, "the queue emptied");
  equal(refused, [["bad", "invalid_amount"]]);
  equal(stored, ["good"]);
  queue.stop();
  localStorage.clear();
});

test("store: subscribers hear the state and who; an older version never replaces a newer one", () => {
  const store = new PageStore();
  const seen = [];
  store.on("state", ({ version }) => seen.push(version));
  store.setState({ a: 1 }, 5);
  store.setState({ a: 0 }, 4);
  store.setState({ a: 2 }, 6);
  equal(seen, [5, 6]);
  const late = [];
  store.on("state", ({ version }) => late.push(version));
  equal(late, [6], "a late subscriber gets the current state at once");
  const who = [];
  store.on("who", (w) => who.push(w && w.role));
  store.setWho({ role: "judge" });
  equal(who, ["judge"]);
  equal([rankOf(null), rankOf({ role: "player" }), rankOf({ role: "nobody" })], [0, RANK.player, 0]);
});

test("lastknown: answers are kept per holder, never under the token itself, and forgotten", async () => {
  const alice = holderKey("alice-secret-token");
  equal(holderKey(null), "public");
  equal(alice.includes("alice"), false, "the key is a hash, not the token");
  equal(holderKey("alice-secret-token"), alice, "the same token, the same key");
  await remember(`${alice} /v1/whoami`, { role: "player" });
  await remember("public /v1/whoami", { role: "spectator" });
  equal((await recall(`${alice} /v1/whoami`)).body, { role: "player" });
  await forgetHolder(alice);
  let gone = false;
  const end = Date.now() + 2000;
  while (!gone && Date.now() < end) gone = (await recall(`${alice} /v1/whoami`)) === null;
  equal(gone, true, "forgotten");
  equal((await recall("public /v1/whoami")).body, { role: "spectator" }, "another holder's answers stay");
});

async function run() {
  const results = [];
  for (const { name, fn } of tests) {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (err) {
      results.push({ name, ok: false, error: String((err && err.stack) || err) });
    }
  }
  window.unitResults = results;
}

run();
