/* The first screen of a reporter (docs/web.md, Reporting): every player's total in a row of
 * tiles, this token's own player first, and the quick pad for the player whose tile is picked.
 *
 * Taps, as life-counter apps count them: "−1" is one tap; "I lose N" is two ("Lose…", then N on
 * the number pad, 1 to 20; more is typed); "N commander damage from X" is two from the grid
 * (the commander, then N). A player reports for themselves, and on an opponent what a player may
 * report about another (damage, poison counters, a commander's combat damage): those wait for
 * the opponent's acknowledgement (docs/judges.md). Taps of one kind in a row are grouped into
 * one report (taps.js); the tiles show where the totals go once this device's reports arrive
 * (pending.js).
 */

import { commanderPermanents, commandersOf, isCommanderGame } from "./commander.js";
import { h } from "./dom.js";
import { pendingLife } from "./pending.js";

const KEYS = Array.from({ length: 20 }, (_, i) => i + 1);

const counterWord = (kind, n) => `${n} ${kind} counter${n === 1 ? "" : "s"}`;

function counterSheet(kind) {
  return {
    title: (s) => `How many ${kind} counters does ${s.name} get?`,
    key: (s, n) => `${s.name} gets ${counterWord(kind, n)}`,
    body: (s, n) => ({ type: "add_counters", target: { player: s.player }, kind, amount: n }),
    label: (s) => (n) => `${s.name} gets ${counterWord(kind, n)}`,
  };
}

/** The player counters a tile shows under the total, with their marks. */
const TILE_COUNTERS = [
  ["poison", "☠"],
  ["rad", "☢"],
];

/** What the sheet (the number pad) reports, by its kind. */
const SHEETS = {
  lose: {
    title: (s) => `Lose how much life? (${s.name})`,
    key: (s, n) => `Lose ${n} life`,
    body: (s, n) => ({ type: "lose_life", player: s.player, amount: n }),
    label: (s) => (n) => `${s.name} loses ${n} life`,
  },
  gain: {
    title: (s) => `Gain how much life? (${s.name})`,
    key: (s, n) => `Gain ${n} life`,
    body: (s, n) => ({ type: "gain_life", player: s.player, amount: n }),
    label: (s) => (n) => `${s.name} gains ${n} life`,
  },
  damage: {
    title: (s) => `How much damage to ${s.name}?`,
    key: (s, n) => `Deal ${n} damage to ${s.name}`,
    body: (s, n) => ({ type: "damage", target: { player: s.player }, amount: n }),
    label: (s) => (n) => `${n} damage to ${s.name}`,
  },
  // A player's counters (poison, CR 104.3d; rad, CR 728): "opponent gets 2 rad counters" is
  // three taps, as on a life-counter app: the opponent's tile, "Rad…", then 2.
  poison: counterSheet("poison"),
  rad: counterSheet("rad"),
  commander: {
    title: (s) => `Combat damage from ${s.sourceName} to ${s.name}`,
    key: (s, n) => `${n} commander damage from ${s.sourceName} to ${s.name}`,
    body: (s, n) => ({ type: "damage", target: { player: s.player }, source: s.source, amount: n, combat: true }),
    label: (s) => (n) => `${s.sourceName} deals ${n} combat damage to ${s.name}`,
  },
};

/** The row of tiles: each player's life (and what is pending), poison and commander damage. */
export function tally(r, effects) {
  const s = r.state;
  const commander = isCommanderGame(s);
  const tiles = r.playerOrder().map(([id, p]) => {
    const name = p.name || id;
    const pending = pendingLife(effects, s, id);
    const fx = effects.get(id) || { counters: {}, commander: {} };
    const worst = Object.entries(p.commander_damage || {}).reduce((m, [k, n]) => Math.max(m, n + (fx.commander[k] || 0)), 0);
    const extra = [];
    const words = [`${name}: ${p.life} life`];
    if (pending) words.push(`${p.life + pending} once this device's reports arrive`);
    // Poison and rad counters (and where this device's unsent reports take them) under the total.
    for (const [kind, mark] of TILE_COUNTERS) {
      const now = (p.counters || {})[kind] || 0;
      const after = Math.max(0, now + (fx.counters[kind] || 0));
      if (!now && !after) continue;
      const text = after !== now ? `${mark} ${now} → ${after} ${kind}` : `${mark} ${now} ${kind}`;
      extra.push(h("span", { class: `tile-counter tile-${kind}`, dataset: { field: kind }, text }));
      words.push(`${after} ${kind}`);
    }
    if (commander && worst) extra.push(h("span", { class: "tile-cmdr", text: `⚔ ${worst}` }));
    const active = s.turn && (s.turn.active_player === id || (s.turn.active_team && p.team === s.turn.active_team));
    if (commander && worst) words.push(`${worst} commander damage from one commander`);
    if (p.lost) words.push("lost");
    const selected = r.selected === id;
    return h(
      "button",
      {
        type: "button",
        class: "tile" + (r.isMe(id) ? " me" : "") + (selected ? " selected" : "") + (p.lost ? " lost" : "") + (active ? " active" : ""),
        dataset: { key: `tally.${id}`, player: id },
        "aria-pressed": selected ? "true" : "false",
        "aria-label": words.join(", "),
        onclick: () => r.select(id),
      },
      h("span", { class: "tile-name" }, h("span", { text: name }), r.isMe(id) ? h("span", { class: "tile-you", text: " (you)" }) : null),
      h(
        "span",
        { class: "tile-life" },
        h("b", { dataset: { field: "life" }, text: p.life }),
        pending ? h("span", { class: "tile-pending", dataset: { field: "pending-life" } }, ` → ${p.life + pending} `, h("small", { text: "(pending)" })) : null,
      ),
      extra.length ? h("span", { class: "tile-extra" }, extra) : null,
    );
  });
  // Four or more: the own tile takes two rows beside the opponents' (a pod fits one screen).
  const layout = tiles.length >= 4 ? " many four" : tiles.length > 2 ? " many" : "";
  return h("div", { class: "tally" + layout, role: "group", "aria-label": "Life totals: pick a player to report for" }, tiles);
}

/** The quick pad for the picked player. */
export function quickPad(r) {
  const s = r.state;
  const id = r.selected;
  const p = s.players[id];
  if (!p) return null;
  const name = p.name || id;
  const finished = s.status === "finished";
  const k = (rest) => `quick.${id}.${rest}`;
  const own = r.controls(id); // the token's own player, or any for a scorekeeper or judge
  const onOpponent = !own && r.who.role === "player" && !finished && !p.lost && r.myPlayer();
  const parts = [h("h3", { class: "quick-title", text: own ? `Report for ${name}` : `Report on ${name}` })];
  if (finished) parts.push(h("p", { class: "hint", text: "The game is over." }));
  else if (p.lost) parts.push(h("p", { class: "hint", text: `${name} has lost.` }));
  const tap = (key, text, body, label, aria, cls) =>
    r.button(key, text, () => r.tap(body, label, key), { "aria-label": aria, class: cls });
  const opener = (key, text, sheet, aria, cls) =>
    r.button(
      key,
      text,
      () => {
        r.sheet = r.sheet && r.sheet.key === key ? null : { ...sheet, key, player: id, name };
        r.render();
        if (r.sheet) r.focusKey(`sheet.${r.sheet.kind}.1`);
      },
      { "aria-label": aria, "aria-expanded": r.sheet && r.sheet.key === key ? "true" : "false", class: cls },
    );
  if (own && !finished && !p.lost) {
    parts.push(
      h(
        "div",
        { class: "quick-row life-keys" },
        tap(k("lose1"), "−1", { type: "lose_life", player: id, amount: 1 }, (n) => `${name} loses ${n} life`, "Lose 1 life", "lose big"),
        tap(k("gain1"), "+1", { type: "gain_life", player: id, amount: 1 }, (n) => `${name} gains ${n} life`, "Gain 1 life", "gain big"),
        opener(k("lose"), "Lose…", { kind: "lose" }, `Lose life: how much? (${name})`, "lose"),
        opener(k("gain"), "Gain…", { kind: "gain" }, `Gain life: how much? (${name})`, "gain"),
      ),
      counterRow(k, opener, name),
    );
  } else if (onOpponent) {
    parts.push(
      h("p", { class: "hint", text: `What you report on ${name} waits for ${name} to acknowledge it.` }),
      h(
        "div",
        { class: "quick-row" },
        tap(k("dmg1"), "1 damage", { type: "damage", target: { player: id }, amount: 1 }, (n) => `${n} damage to ${name}`, `Deal 1 damage to ${name}`, "lose"),
        opener(k("dmg"), "Damage…", { kind: "damage" }, `Deal damage to ${name}: how much?`, "lose"),
        tap(
          k("poison1"),
          "+1 poison",
          { type: "add_counters", target: { player: id }, kind: "poison", amount: 1 },
          (n) => `${name} gets ${n} poison counter${n === 1 ? "" : "s"}`,
          `Give ${name} a poison counter`,
          "",
        ),
      ),
      counterRow(k, opener, name),
    );
  }
  if (r.sheet && r.sheet.player === id) parts.push(sheet(r, r.sheet));
  if (isCommanderGame(s) && !finished && !p.lost && (own || onOpponent)) parts.push(commanderGrid(r, id, name, own));
  return h("section", { class: "quick", dataset: { player: id }, "aria-label": `Quick report: ${name}` }, parts);
}

/** "Poison…" and "Rad…": each opens the number pad for that many counters on the player. */
function counterRow(k, opener, name) {
  return h(
    "div",
    { class: "quick-row counter-keys" },
    opener(k("poison"), "Poison…", { kind: "poison" }, `Poison counters for ${name}: how many?`, "poison-key"),
    opener(k("rad"), "Rad…", { kind: "rad" }, `Rad counters for ${name}: how many?`, "rad-key"),
  );
}

/** The number pad: 1 to 20, one tap each, and any other amount typed. */
function sheet(r, open) {
  const spec = SHEETS[open.kind];
  const title = spec.title(open);
  const send = (n) => {
    r.sheet = null;
    r.tap(spec.body(open, n), spec.label(open), open.key);
    r.focusKey(open.key);
  };
  const other = `sheet.${open.kind}.other`;
  return h(
    "div",
    { class: "sheet", role: "group", "aria-label": title, dataset: { sheet: open.kind } },
    h("p", { class: "sheet-title", text: title }),
    h(
      "div",
      { class: "keys" },
      KEYS.map((n) => r.button(`sheet.${open.kind}.${n}`, String(n), () => send(n), { class: "pad-key", "aria-label": spec.key(open, n) })),
    ),
    h(
      "form",
      {
        class: "quick-row other",
        onsubmit: (e) => {
          e.preventDefault();
          const n = Number.parseInt(document.querySelector(`#report [data-key="${CSS.escape(other)}"]`).value, 10);
          if (Number.isFinite(n) && n > 0) send(n);
        },
      },
      r.field(other, "Other amount", { type: "number", min: "1", inputmode: "numeric", class: "amount" }),
      h("button", { type: "submit", dataset: { key: `${other}.go` } }, "Send"),
      r.button(`sheet.${open.kind}.close`, "Close", () => {
        r.sheet = null;
        r.render();
        r.focusKey(open.key);
      }),
    ),
  );
}

/**
 * Commander damage (CR 903.10a) to `id` as a grid: a cell per commander that could deal it
 * (another player's; for a player token reporting on an opponent, its own), with what it dealt so
 * far out of 21 (CR 704.6c). A cell opens the number pad for that commander.
 */
function commanderGrid(r, id, name, own) {
  const s = r.state;
  const onBoard = new Map(commanderPermanents(s).map((c) => [c.key, c]));
  const mine = r.myPlayer();
  const sources = commandersOf(s).filter((c) => c.owner !== id && (own || c.owner === mine));
  if (!sources.length) return null;
  const taken = s.players[id].commander_damage || {};
  const cells = sources.map((c) => {
    const perm = onBoard.get(c.key);
    const n = taken[c.key] || 0;
    const key = `quick.${id}.cmd.${c.key}`;
    const text = [h("span", { class: "cell-name", text: c.name.split(",")[0] }), h("span", { class: "cell-owner", text: s.players[c.owner].name || c.owner }), h("b", { class: "cell-n", text: `${n}/21` })];
    if (!perm) {
      return h("button", { type: "button", class: "cell", disabled: true, dataset: { key, commander: c.key }, "aria-label": `${c.label}: ${n} commander damage to ${name}; not on the battlefield` }, text);
    }
    return r.button(
      key,
      text,
      () => {
        r.sheet = r.sheet && r.sheet.key === key ? null : { kind: "commander", key, player: id, name, source: perm.id, sourceName: c.name };
        r.render();
        if (r.sheet) r.focusKey("sheet.commander.1");
      },
      {
        class: "cell" + (n >= 21 ? " lethal" : n ? " hit" : ""),
        dataset: { commander: c.key },
        "aria-label": `Commander damage from ${c.name} (${s.players[c.owner].name || c.owner}) to ${name}: ${n} so far`,
        "aria-expanded": r.sheet && r.sheet.key === key ? "true" : "false",
      },
    );
  });
  return h(
    "div",
    { class: "cmd-grid", role: "group", "aria-label": `Commander damage to ${name}` },
    h("p", { class: "sheet-title", text: `Commander damage to ${name} (21 from one loses)` }),
    h("div", { class: "cells" }, cells),
  );
}
