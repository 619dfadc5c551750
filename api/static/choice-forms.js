/* The forms for the choices a report needs (docs/web.md, Reporting): what resolving the top of
 * the stack needs (its `needs`), and activating an ability (which one, its costs, its targets).
 *
 * What a form offers is filtered by what the choice needs, read from the state the server sends:
 * - a stack object's `needs`; for cards, how many (`card_count`) and what may stand in for them
 *   (`alternatives`: the rad trigger's unnamed mill, counted by `nonland_count`, CR 728.1); its
 *   targets are read from its `description`, in the card's words, which are the Oracle text's
 *   ("target player", "any target", "up to two target creature cards from your graveyard",
 *   CR 115.1);
 * - a permanent's abilities are read from its card as the board shows it (the state doesn't list
 *   them): the mana abilities of its basic land types first (CR 305.6), then
 *   each activated ability of its Oracle text ("cost: effect", CR 602.1a), which is the order
 *   the server counts them in. The cost names what is sacrificed ("Sacrifice an artifact": only
 *   the artifacts are offered), the life paid and the counters removed (CR 118, 602.2b).
 * The server still checks every choice and names a wrong one in its refusal.
 */

import { cardPicker, pickedCard, pickerAt } from "./card-picker.js";
import { h } from "./dom.js";
import { withNames } from "./labels.js";

const safeId = (text) => String(text).replace(/[^A-Za-z0-9_-]/g, "_");
const NUMBERS = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const BASIC_LAND_MANA = { Forest: "G", Island: "U", Mountain: "R", Plains: "W", Swamp: "B" };
const counterWord = (kind, n) => `${n} ${kind} counter${n === 1 ? "" : "s"}`;
const typesOf = (card) => (card && card.type_line ? card.type_line.split("//")[0].split("—")[0].split(/\s+/).filter(Boolean) : []);
const subtypesOf = (card) => {
  const line = card && card.type_line ? card.type_line.split("//")[0] : "";
  const parts = line.split("—");
  return parts.length > 1 ? parts[1].split(/\s+/).filter(Boolean) : [];
};
export const isType = (card, type) => typesOf(card).includes(type);

/** Reminder text in parentheses has no game function (CR 207.2a). */
const withoutReminders = (text) => String(text || "").replace(/\([^)]*\)/g, "").trim();

// ------------------------------------------------------------------ reading the card's words

/** What a text's "target" asks for: {kind, least, most}, or null when it names no target. */
export function targetSpec(text) {
  const t = withoutReminders(text).toLowerCase();
  if (!t.includes("target")) return null;
  const m = /(up to )?(\b(?:a|an|one|two|three|four|five|\d+)\b )?(?:other )?target ([a-z ]+?)(?:[.,;:]|$| gets| gains| to | from | you | with | and | deals| loses| can't)/.exec(t);
  const any = t.includes("any target");
  const words = m ? m[3].trim() : "";
  let count = 1;
  if (m && m[2]) count = NUMBERS[m[2].trim()] || Number.parseInt(m[2], 10) || 1;
  const least = m && m[1] ? 0 : count;
  if (any) return { kind: "any", least: 1, most: 1 };
  if (/^creature cards? (?:in|from) your graveyard/.test(words + " ") || /target creature cards? (?:in|from) your graveyard/.test(t))
    return { kind: "creature_card_in_your_graveyard", least, most: count };
  // "target artifact or enchantment", "target creature or planeswalker", "target player or
  // planeswalker": the leading words joined by "or" (CR 115.1 names what may be chosen).
  const lead = [];
  for (const word of words.split(/,? (?:and\/or|or) |, | /)) {
    const w = word.replace(/s$/, "");
    if (!["player", "opponent", "creature", "artifact", "enchantment", "land", "planeswalker", "battle", "permanent", "nonland"].includes(w)) break;
    lead.push(w);
  }
  if (lead[0] === "nonland") return { kind: "nonland_permanent", least, most: count };
  if (lead.length === 1 && ["player", "opponent", "creature"].includes(lead[0])) return { kind: lead[0], least, most: count };
  if (lead.length) return { kind: "types", types: lead, least, most: count };
  return { kind: "unknown", least, most: count };
}

/** The activated abilities of a permanent, in the server's order: [{text, cost}]. */
export function abilitiesOf(perm) {
  const card = perm.card || {};
  const out = [];
  for (const type of [...subtypesOf(card)].sort()) {
    if (BASIC_LAND_MANA[type]) out.push({ text: `{T}: Add {${BASIC_LAND_MANA[type]}}.`, cost: "{T}" });
  }
  for (const raw of String(card.oracle_text || "").split("\n")) {
    const line = withoutReminders(raw);
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const cost = line.slice(0, colon);
    // A cost holds no quoted ability and no trigger word; "Landfall — Whenever…" is a trigger.
    if (cost.includes('"') || cost.includes("—") || /^(when|whenever|at)\b/i.test(cost)) continue;
    out.push({ text: line, cost });
  }
  return out;
}

/** What an ability's cost asks the reporter to name (CR 118, 602.2b). */
export function costOf(costText, perm) {
  const cost = String(costText || "");
  const lower = cost.toLowerCase();
  const out = { tap: /\{T\}/.test(cost), untap: /\{Q\}/.test(cost), x: /\{X\}/.test(cost), sacrifice: null, life: 0, remove: null };
  const life = /pay (\d+) life/.exec(lower);
  if (life) out.life = Number(life[1]);
  const remove = /remove (a|an|one|two|three|four|five|six|\d+) ([a-z0-9+/-]+) counters? from/.exec(lower);
  if (remove) out.remove = { kind: remove[2], amount: NUMBERS[remove[1]] || Number(remove[1]) || 1 };
  const name = String((perm && perm.name) || "").toLowerCase();
  const sac = /sacrifice (a|an|one|two|three|\d+|another|this [a-z]+|it)\b ?([a-z ]*)/.exec(lower);
  if (sac) {
    const what = sac[1];
    if (what.startsWith("this") || what === "it") out.sacrifice = { self: true };
    else {
      const another = what === "another";
      const rest = sac[2].replace(/^(another|other) /, "").trim();
      const type = (rest.split(/\s+/)[0] || "permanent").replace(/s$/, "");
      out.sacrifice = { self: false, another, count: another ? 1 : NUMBERS[what] || Number(what) || 1, type };
    }
  } else if (name && lower.includes(`sacrifice ${name}`)) {
    out.sacrifice = { self: true };
  }
  return out;
}

/** Whether a permanent may be sacrificed for `sacrifice` ({type, another}) of `source`. */
function sacrificeFits(sacrifice, source, [id, perm]) {
  if (!sacrifice) return true;
  if (sacrifice.another && id === source) return false;
  const type = sacrifice.type || "permanent";
  if (type === "permanent") return true;
  const word = type.charAt(0).toUpperCase() + type.slice(1);
  return isType(perm.card || { type_line: "" }, word) || (perm.card || {}).type_line === undefined;
}

// ------------------------------------------------------------------ choosing targets

/** The candidates for a target spec: [{value: {player|permanent|card: id}, text}]. */
export function candidates(state, controller, spec, names) {
  const players = Object.entries(state.players || {}).filter(([, p]) => !p.lost);
  const perms = Object.entries(state.battlefield || {});
  const player = ([id, p]) => ({ value: { player: id }, text: p.name || id });
  const permanent = ([id, p]) => ({ value: { permanent: id }, text: `${p.name} (${id})` });
  const kind = spec ? spec.kind : "unknown";
  const isA = (type) => ([, p]) => isType(p.card, type);
  switch (kind) {
    case "player":
      return players.map(player);
    case "opponent":
      return players.filter(([id]) => id !== controller && state.players[id].team !== (state.players[controller] || {}).team).map(player);
    case "creature":
      return perms.filter(isA("Creature")).map(permanent);
    case "any":
      return [...players.map(player), ...perms.filter(([, p]) => ["Creature", "Planeswalker", "Battle"].some((t) => isType(p.card, t))).map(permanent)];
    case "creature_card_in_your_graveyard": {
      const grave = ((state.players[controller] || {}).graveyard || []).filter((c) => isType(c, "Creature"));
      return grave.map((c, i) => ({ value: { card: c.name }, text: `${c.name} (in ${names(controller)}'s graveyard)`, index: i }));
    }
    case "nonland_permanent":
      return perms.filter(([, p]) => !isType(p.card, "Land")).map(permanent);
    case "types": {
      const types = spec.types || [];
      const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
      const fits = ([, p]) => types.includes("permanent") || types.some((t) => isType(p.card, cap(t)));
      const who = types.includes("player") ? players : types.includes("opponent") ? players.filter(([pid]) => pid !== controller) : [];
      return [...who.map(player), ...perms.filter(fits).map(permanent)];
    }
    default:
      return [...players.map(player), ...perms.map(permanent)];
  }
}

const specWords = (spec) => {
  if (!spec || spec.kind === "unknown") return "Choose the targets";
  const what = {
    player: "player",
    opponent: "opponent",
    creature: "creature",
    any: "target (a creature, player, planeswalker or battle)",
    creature_card_in_your_graveyard: "creature card in the graveyard",
    nonland_permanent: "nonland permanent",
    types: (spec.types || []).join(" or "),
  }[spec.kind] || spec.kind;
  if (spec.least === spec.most) return spec.most === 1 ? `Choose the target ${what}` : `Choose ${spec.most} target ${what}s`;
  return `Choose ${spec.least ? `${spec.least} to ` : "up to "}${spec.most} target ${what}${spec.most === 1 ? "" : "s"}`;
};

/** A fieldset of the legal targets: radios for one, check boxes for several. */
export function targetsField(key, state, controller, spec, names) {
  const list = candidates(state, controller, spec, names);
  const one = spec && spec.most === 1;
  const inputs = list.map((c, i) => {
    const id = `r-${safeId(key)}-${i}`;
    return h(
      "div",
      { class: one ? "radio" : "check" },
      h("input", {
        type: one ? "radio" : "checkbox",
        name: one ? `r-${safeId(key)}` : null,
        id,
        class: `target-${safeId(key)}`,
        dataset: { key: `${key}.${i}.${JSON.stringify(c.value)}`, target: JSON.stringify(c.value) },
      }),
      h("label", { for: id, text: c.text }),
    );
  });
  return h(
    "fieldset",
    { class: "picks", dataset: { targetKind: spec ? spec.kind : "unknown" } },
    h("legend", { text: specWords(spec) }),
    inputs.length ? inputs : h("p", { class: "hint", text: "Nothing here can be chosen." }),
  );
}

export function targetsValue(root, key) {
  return [...root.querySelectorAll(`input.target-${CSS.escape(safeId(key))}:checked`)].map((el) => JSON.parse(el.dataset.target));
}

// ------------------------------------------------------------------ resolving the top of the stack

/** How many cards a "cards" choice names, and whether they may go unnamed: the server says so
 * (`card_count`, and `alternatives` {"cards": ["nonland_count"]} for the rad trigger); a server
 * that doesn't is read as the rules say (the rad trigger mills its controller's rad count). */
export function millOf(state, top) {
  const p = state.players[top.controller] || {};
  if (Number.isInteger(top.card_count)) {
    const instead = (top.alternatives && top.alternatives.cards) || [];
    return { count: top.card_count, unnamed: instead.includes("nonland_count"), player: top.controller };
  }
  const radiation = top.kind === "trigger" && (top.source === null || top.source === undefined);
  if (radiation) {
    const rad = (p.counters || {}).rad || 0;
    const size = Number.isInteger(p.library_size) ? p.library_size : rad;
    return { count: Math.max(0, Math.min(rad, size)), unnamed: true, player: top.controller };
  }
  return { count: 0, unnamed: false, player: top.controller };
}

/**
 * The form for the top of the stack. `r`: the reporter (state, names, report, button, field,
 * render). Sends `resolve` with the choices its `needs` ask for.
 */
export function resolveForm(r, top, mine) {
  const state = r.state;
  const needs = Array.isArray(top.needs) ? top.needs : [];
  const label = `Resolve ${top.id}`;
  const root = () => document.querySelector("#report");
  const mill = millOf(state, top);
  const naming = needs.includes("cards") || needs.includes("nonland_count");
  const fields = [];
  if (mine) for (const need of needs) if (need !== "nonland_count" || !needs.includes("cards")) fields.push(needField(r, top, need, mill));
  const submit = (e) => {
    e.preventDefault();
    const choices = {};
    for (const need of mine ? needs : []) {
      const value = needValue(r, top, need, root());
      if (value !== undefined) choices[need === "nonland_count" ? "cards" : need] = value;
    }
    const body = Object.keys(choices).length ? { type: "resolve", choices } : { type: "resolve" };
    r.report(body, label + (needs.length ? ` (${needs.join(", ")})` : ""), false, "resolve.submit");
  };
  const canSubmit = !needs.length || mine;
  // The unnamed rad mill is answered by its keys; its submit button then goes with the names.
  const onlyNames = mine && naming && mill.unnamed && mill.count > 0 && needs.every((n) => n === "cards" || n === "nonland_count");
  const submitButton = h(
    "button",
    { type: "submit", class: "primary", dataset: { key: "resolve.submit" } },
    needs.length ? (needs.includes("proliferate") ? "Proliferate and resolve" : naming && mill.unnamed ? "Resolve with these cards" : "Resolve with these choices") : `Resolve ${top.id}`,
  );
  if (onlyNames) fields[fields.length - 1].querySelector("details.name-cards").append(submitButton);
  return h(
    "form",
    { class: "choice", "aria-label": "Resolve the top of the stack", onsubmit: submit },
    h("p", { class: "stack-top" }, h("b", { text: `Top of the stack: ${top.id}` }), ` (${top.kind}, ${r.names(top.controller)}): `, withNames(top.description, r.state.players)),
    fields,
    onlyNames ? null : canSubmit ? submitButton : h("p", { class: "hint", text: `Its controller (${r.names(top.controller)}) makes its choices.` }),
  );
}

function needField(r, top, need, mill) {
  const s = r.state;
  const key = `need.${top.id}.${need}`;
  if (need === "proliferate") {
    const withCounters = (c) => Object.values(c || {}).some((n) => n > 0);
    const players = Object.entries(s.players).filter(([, p]) => withCounters(p.counters));
    const perms = Object.entries(s.battlefield || {}).filter(([, p]) => withCounters(p.counters));
    const box = (kind, id, text) =>
      h(
        "div",
        { class: "check" },
        h("input", { type: "checkbox", id: `r-${safeId(key)}-${kind}-${safeId(id)}`, dataset: { key: `${key}.${kind}.${id}`, kind, id }, class: `pick-${safeId(key)}` }),
        h("label", { for: `r-${safeId(key)}-${kind}-${safeId(id)}`, text }),
      );
    const counters = (c) => Object.entries(c || {}).filter(([, n]) => n > 0).map(([k, n]) => counterWord(k, n)).join(", ");
    return h(
      "fieldset",
      { class: "picks" },
      h("legend", { text: "Proliferate: choose any players and permanents with counters" }),
      players.map(([id, p]) => box("player", id, `${p.name || id} (${counters(p.counters)})`)),
      perms.map(([id, p]) => box("permanent", id, `${p.name} (${id}): ${counters(p.counters)}`)),
      !players.length && !perms.length ? h("p", { class: "hint", text: "Nothing has a counter: choose nothing." }) : null,
    );
  }
  if (need === "targets") {
    const spec = targetSpec(top.description);
    return targetsField(key, s, top.controller, spec, (id) => r.names(id));
  }
  if (need === "may") {
    const radio = (value, text) =>
      h(
        "div",
        { class: "radio" },
        h("input", { type: "radio", name: `r-${safeId(key)}`, id: `r-${safeId(key)}-${value}`, value, dataset: { key: `${key}.${value}` } }),
        h("label", { for: `r-${safeId(key)}-${value}`, text }),
      );
    return h("fieldset", {}, h("legend", { text: `“You may”: does ${r.names(top.controller)} do it?` }), radio("yes", "Yes"), radio("no", "No"));
  }
  if (need === "cards" || need === "nonland_count") return millField(r, top, key, mill);
  if (need === "x") return r.field(key, "X", { type: "number", min: "0", inputmode: "numeric", required: true });
  return r.field(key, need === "mode" ? "Mode" : need, { type: "text", required: true, spellcheck: "false" });
}

/**
 * The cards a mill or reveal takes: as many card fields as the server needs, the known ones
 * (a judge sees a known library) filled in. For the rad trigger with an unknown library the
 * table may leave them unnamed: then it says how many of them were nonland, one tap each
 * (contract: `choices.nonland_count`; life loss and rad removal use it, CR 728.1).
 */
function millField(r, top, key, mill) {
  const s = r.state;
  const p = s.players[mill.player] || {};
  const known = Array.isArray(p.library) ? p.library : [];
  const count = mill.count || 0;
  const who = r.names(mill.player);
  const parts = [];
  if (mill.unnamed && count > 0) {
    parts.push(
      h(
        "div",
        { class: "nonland", role: "group", "aria-label": `How many of the ${count} cards ${who} milled were nonland` },
        h("p", { class: "nonland-q", text: `${who} mills ${count} card${count === 1 ? "" : "s"} unnamed. How many were nonland?` }),
        h(
          "div",
          { class: "keys" },
          Array.from({ length: count + 1 }, (_, k) =>
            r.button(
              `${key}.nonland.${k}`,
              String(k),
              () => r.report({ type: "resolve", choices: { nonland_count: k } }, `Resolve ${top.id}: ${count} milled, ${k} nonland`, false, `${key}.nonland.${k}`),
              { class: "pad-key", "aria-label": `${k} nonland: resolve` },
            ),
          ),
        ),
      ),
    );
  }
  const fields = [];
  const have = Math.max(count || 1, (r.extraCards && r.extraCards[key]) || 0);
  for (let i = 0; i < have; i += 1) {
    const picker = cardPicker(`${key}.${i}`, `Card ${i + 1}`, { class: `card-${safeId(key)}` });
    if (known[i] && known[i].name) picker.querySelector("input").value = known[i].name;
    fields.push(picker);
  }
  const named = h(
    "fieldset",
    { class: "cards-field" },
    h("legend", { text: count ? `The ${count} card${count === 1 ? "" : "s"} revealed (milled), top first` : "The cards revealed, top first" }),
    fields,
    count
      ? null
      : r.button(`${key}.more`, "Add another card", () => {
          r.extraCards = { ...(r.extraCards || {}), [key]: have + 1 };
          r.render();
          r.focusKey(`${key}.${have}`);
        }),
  );
  if (!mill.unnamed || !count) return h("div", { class: "mill-choice" }, named);
  return h(
    "div",
    { class: "mill-choice" },
    parts,
    h("details", { class: "name-cards", dataset: { key: `${key}.named` } }, h("summary", { text: "Name the cards instead" }), named),
  );
}

function needValue(r, top, need, root) {
  const key = `need.${top.id}.${need}`;
  if (need === "proliferate") {
    return [...root.querySelectorAll(`input.pick-${CSS.escape(safeId(key))}:checked`)].map((el) => ({ [el.dataset.kind]: el.dataset.id }));
  }
  if (need === "targets") return targetsValue(root, key);
  if (need === "may") {
    const picked = root.querySelector(`input[name="r-${CSS.escape(safeId(key))}"]:checked`);
    return picked ? picked.value === "yes" : undefined;
  }
  if (need === "cards" || need === "nonland_count") return cardsValue(root, key);
  const input = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (!input || input.value === "") return undefined;
  return need === "x" ? Number(input.value) : input.value;
}

/** The cards named in the pickers under `key` (names, or {name, type_line}). */
export function cardsValue(root, key) {
  return [...root.querySelectorAll(`input.card-${CSS.escape(safeId(key))}`)]
    .map((input) => pickedCard(pickerAt(root, input.dataset.key)))
    .filter(Boolean);
}

// ------------------------------------------------------------------ activating an ability

/**
 * Activate an ability of a permanent: each ability by its text (a radio each), and for the one
 * chosen only the costs and targets it has: the permanents its sacrifice may take, X, the life
 * it pays. A card whose abilities the page can't read gets the number and every cost field.
 */
export function activateForm(r, id, pid, perm, label) {
  const k = (rest) => `perm.${pid}.act.${rest}`;
  const root = () => document.querySelector("#report");
  const val = (rest) => root().querySelector(`[data-key="${CSS.escape(k(rest))}"]`);
  const abilities = abilitiesOf(perm);
  // The ability picked (kept across redraws: the costs shown follow it).
  const picked = abilities.length ? Math.min(r.abilityPicks[pid] || 0, abilities.length - 1) : -1;
  const chosen = () => {
    if (!abilities.length) return Math.max(0, (Number.parseInt(val("n").value, 10) || 1) - 1);
    const picked = root().querySelector(`input[name="r-${CSS.escape(safeId(k("ab")))}"]:checked`);
    return picked ? Number(picked.value) : 0;
  };
  const mine = Object.entries(r.state.battlefield || {}).filter(([, p]) => p.controller === id);
  const parts = [];
  if (abilities.length) {
    parts.push(
      h(
        "fieldset",
        { class: "abilities" },
        h("legend", { text: `Which ability of ${perm.name}` }),
        abilities.map((a, i) => {
          const boxId = `r-${safeId(k("ab"))}-${i}`;
          return h(
            "div",
            { class: "radio ability" },
            h("input", {
              type: "radio", name: `r-${safeId(k("ab"))}`, id: boxId, value: String(i), checked: i === picked,
              onchange: () => {
                r.abilityPicks[pid] = i;
                r.render();
              },
            }),
            h("label", { for: boxId, text: a.text }),
          );
        }),
      ),
    );
  } else {
    parts.push(
      h(
        "div",
        { class: "row" },
        r.field(k("n"), "Ability number (1 is the first)", { type: "number", min: "1", value: "1", inputmode: "numeric", class: "amount" }),
        h("p", { class: "hint", text: "The server doesn't know this card's abilities: name its costs." }),
      ),
    );
  }
  const ability = picked >= 0 ? abilities[picked] : null;
  const cost = ability ? costOf(ability.cost, perm) : { tap: false, untap: false, x: true, sacrifice: { type: "permanent" }, life: 0, remove: null, free: true };
  const spec = ability ? targetSpec(ability.text.slice(ability.text.indexOf(":") + 1)) : null;
  const row = [];
  if (cost.x || !ability) row.push(r.field(k("x"), "X", { type: "number", min: "0", inputmode: "numeric", class: "amount" }));
  if (!ability) row.push(r.field(k("life"), "Pay life (optional)", { type: "number", min: "1", inputmode: "numeric", class: "amount" }));
  if (!ability) {
    const tapId = `r-${safeId(k("tap"))}`;
    row.push(h("span", { class: "check" }, h("input", { type: "checkbox", id: tapId, dataset: { key: k("tap") } }), h("label", { for: tapId, text: "{T} in the cost (tap it)" })));
  }
  if (row.length) parts.push(h("div", { class: "row" }, row));
  if (cost.sacrifice && !cost.sacrifice.self) {
    const fits = mine.filter((entry) => sacrificeFits(cost.sacrifice, pid, entry));
    const what = cost.sacrifice.type && cost.sacrifice.type !== "permanent" ? `${cost.sacrifice.count > 1 ? cost.sacrifice.count + " " : "an "}${cost.sacrifice.type}${cost.sacrifice.count > 1 ? "s" : ""}` : "";
    parts.push(
      h(
        "fieldset",
        { class: "picks" },
        h("legend", { text: what ? `Sacrifice ${what} as a cost` : "Sacrifice as a cost" }),
        fits.length
          ? fits.map(([other, p]) => {
              const boxId = `r-${safeId(k("sac." + other))}`;
              return h(
                "div",
                { class: "check" },
                h("input", { type: "checkbox", id: boxId, dataset: { key: k("sac." + other), id: other }, class: `sac-${safeId(pid)}` }),
                h("label", { for: boxId, text: `${p.name} (${other})` }),
              );
            })
          : h("p", { class: "hint", text: `${r.names(id)} controls nothing that can be sacrificed for it.` }),
      ),
    );
  }
  if (spec) parts.push(targetsField(k("targets"), r.state, id, spec, (who) => r.names(who)));
  const describe = [];
  if (cost.tap) describe.push("taps it");
  if (cost.life) describe.push(`pays ${cost.life} life`);
  if (cost.remove) describe.push(`removes ${counterWord(cost.remove.kind, cost.remove.amount)}`);
  if (cost.sacrifice && cost.sacrifice.self) describe.push("sacrifices it");
  if (describe.length) parts.push(h("p", { class: "hint", text: `The cost ${describe.join(", ")}.` }));
  return h(
    "details",
    { class: "activate", dataset: { key: k("open") } },
    h("summary", { text: `Activate ${label}…` }),
    parts,
    r.button(
      k("go"),
      `Activate ${label}`,
      () => {
        const index = chosen();
        const body = { type: "activate", player: id, permanent: pid, ability: index };
        const x = val("x");
        if (x && x.value !== "") body.x = Number(x.value);
        const costs = {};
        const sacrificed = [...root().querySelectorAll(`input.sac-${CSS.escape(safeId(pid))}:checked`)].map((el) => el.dataset.id);
        if (cost.sacrifice && cost.sacrifice.self) costs.sacrifice = [pid];
        else if (sacrificed.length) costs.sacrifice = sacrificed;
        if (cost.life) costs.pay_life = cost.life;
        const life = val("life");
        if (life && life.value !== "") costs.pay_life = Math.max(1, Number.parseInt(life.value, 10) || 1);
        const tap = val("tap");
        // The server reads {T}, {Q} and counters from the cards it automates and from these
        // fields for the others (docs/api.md, activate).
        if (cost.tap || (tap && tap.checked)) costs.tap = true;
        if (cost.untap) costs.untap = true;
        if (cost.remove) costs.remove_counters = { [cost.remove.kind]: cost.remove.amount };
        if (Object.keys(costs).length) body.costs = costs;
        if (spec) body.targets = targetsValue(root(), k("targets"));
        const what = sacrificed.length ? ` (sacrificing ${sacrificed.map((s) => r.names(s)).join(", ")})` : "";
        r.report(body, `Activate ${label}${what}`, false, k("go"));
      },
      { class: "primary" },
    ),
  );
}
