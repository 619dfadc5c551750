/* Commander (CR 903) and the designations (the monarch, CR 725; the initiative and Undercity,
 * 726; day and night, 731; the city's blessing, 702.131) on the page.
 *
 * The board shows them read-only: each player's command zone with its commander tax, the
 * commander damage each player has taken as a matrix of the pod, and who holds what. A reporter
 * gets the matching controls in a player's panel. What they mean is the server's: the page only
 * reads the state (`command`, `commanders`, `commander_tax`, `commander_damage`, `monarch`,
 * `initiative`, `day_night`, `dungeon`, `city_blessing`) and sends the documented actions
 * (docs/api.md, Commander and Designations).
 */

import { h } from "./dom.js";

const cardName = (card) => (typeof card === "string" ? card : (card && card.name) || "?");

/** The key the server gives a commander: "OWNER:Commander Name" (CR 903.3). */
const commanderKey = (owner, name) => `${owner}:${name}`;

/** Every commander of the game, in seating order: {key, owner, name, label}. */
export function commandersOf(state) {
  const out = [];
  for (const [owner, p] of Object.entries(state.players || {})) {
    for (const name of p.commanders || []) {
      out.push({ key: commanderKey(owner, name), owner, name, label: `${p.name || owner}'s ${name}` });
    }
  }
  return out;
}

/** The permanents on the battlefield that are commanders (owner's commander, not a token). */
export function commanderPermanents(state) {
  const players = state.players || {};
  return Object.entries(state.battlefield || {})
    .filter(([, perm]) => !perm.token && (players[perm.owner]?.commanders || []).includes(perm.name))
    .map(([id, perm]) => ({ id, perm, key: commanderKey(perm.owner, perm.name) }));
}

export const isCommanderGame = (state) => state.variant === "commander" || commandersOf(state).length > 0;

/** Tags for what a player holds: monarch, initiative, the city's blessing, a dungeon room. */
export function designationTags(state, id, p) {
  const tags = [];
  if (state.monarch === id) tags.push(h("span", { class: "tag tag-designation", dataset: { designation: "monarch" }, text: "Monarch" }));
  if (state.initiative === id) tags.push(h("span", { class: "tag tag-designation", dataset: { designation: "initiative" }, text: "Initiative" }));
  if (p.city_blessing) tags.push(h("span", { class: "tag tag-designation", dataset: { designation: "city_blessing" }, text: "City's blessing" }));
  if (p.dungeon && p.dungeon.name) {
    tags.push(h("span", { class: "tag tag-dungeon", dataset: { designation: "dungeon" }, text: `${p.dungeon.name}: ${p.dungeon.room}` }));
  }
  return tags;
}

/** A player's command zone with the tax of each commander (CR 903.8), or null outside Commander. */
export function commandZone(p, label) {
  const commanders = p.commanders || [];
  const command = p.command || [];
  if (!commanders.length && !command.length) return null;
  const tax = p.commander_tax || {};
  return h(
    "div",
    { class: "command-zone", "aria-label": label },
    h("h4", { text: "Command zone" }),
    command.length
      ? h("ul", { class: "cards" }, command.map((c) => h("li", { dataset: { card: cardName(c) }, text: cardName(c) })))
      : h("p", { class: "hint", text: "empty" }),
    h(
      "p",
      { class: "commander-tax" },
      commanders.map((name, i) => [i ? "; " : "", `${name}: tax `, h("b", { dataset: { tax: name }, text: tax[name] ?? 0 })]),
    ),
  );
}

/** The pod's commander damage (CR 903.10a): a row per player damaged, a column per commander. */
export function commanderDamageMatrix(state) {
  const commanders = commandersOf(state);
  if (!commanders.length) return null;
  const players = Object.entries(state.players || {});
  return h(
    "table",
    { class: "commander-damage", "aria-label": "Commander damage taken (21 from one commander loses, CR 704.6c)" },
    h("caption", { text: "Commander damage taken" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), commanders.map((c) => h("th", { scope: "col", text: c.label })))),
    h(
      "tbody",
      {},
      players.map(([id, p]) =>
        h(
          "tr",
          { dataset: { player: id } },
          h("th", { scope: "row", text: p.name || id }),
          commanders.map((c) => {
            const n = (p.commander_damage || {})[c.key] || 0;
            return h("td", { dataset: { commander: c.key }, class: n >= 21 ? "lethal" : n ? "hit" : "", text: c.owner === id ? "—" : n });
          }),
        ),
      ),
    ),
  );
}

/** The game's designations: day or night, the monarch, the initiative. */
export function gameDesignations(state) {
  const name = (id) => (id && state.players?.[id] ? state.players[id].name || id : null);
  const parts = [];
  if (state.day_night) parts.push(`It is ${state.day_night}`);
  if (state.monarch) parts.push(`Monarch: ${name(state.monarch)}`);
  if (state.initiative) parts.push(`Initiative: ${name(state.initiative)}`);
  return parts.length ? h("p", { class: "designations", dataset: { field: "designations" }, text: parts.join(" · ") }) : null;
}

/** The controls of a reporter for one player: casting a commander from the command zone, putting
 * one back there, and the designations.
 * `ui`: {button(key, text, onclick, attrs), field(key, label, attrs), report(body, label, relative), value(key)}. */
export function commanderControls(state, id, p, ui) {
  const name = p.name || id;
  const k = (rest) => `p.${id}.cmd.${rest}`;
  const rows = [];
  const tax = p.commander_tax || {};
  for (const card of p.command || []) {
    const cname = cardName(card);
    rows.push(
      ui.button(k(`cast.${cname}`), `Cast ${cname} from the command zone (tax ${tax[cname] ?? 0})`, () =>
        ui.report({ type: "cast", player: id, card: cname, from: "command" }, `${name} casts ${cname} from the command zone`),
      ),
    );
  }
  // A commander card in its owner's graveyard or exile may go to the command zone (CR 903.9a).
  for (const zone of ["graveyard", "exile"]) {
    for (const card of p[zone] || []) {
      const cname = cardName(card);
      if (!(p.commanders || []).includes(cname)) continue;
      rows.push(
        ui.button(k(`home.${zone}.${cname}`), `Put ${cname} from the ${zone} into the command zone`, () =>
          ui.report({ type: "move", player: id, card: cname, from: zone, to: "command" }, `${cname} goes to the command zone`),
        ),
      );
    }
  }
  // Combat damage from a commander (CR 903.10a) is reported from the quick pad's grid (pad.js).
  const designate = (designation, text) =>
    ui.button(k(`designate.${designation}`), text, () => ui.report({ type: "designate", designation, player: id }, text));
  const give = [];
  if (state.monarch !== id) give.push(designate("monarch", `Make ${name} the monarch`));
  give.push(designate("initiative", state.initiative === id ? `${name} takes the initiative again (venture)` : `${name} takes the initiative`));
  if (!p.city_blessing) give.push(designate("city_blessing", `Give ${name} the city's blessing`));
  rows.push(h("div", { class: "row designate", role: "group", "aria-label": `Designations for ${name}` }, give));
  return h("div", { class: "commander-controls" }, rows);
}

/** Day and night for the whole game (CR 731): offered while it is neither, or to switch it. */
export function dayNightControls(state, ui) {
  const to = state.day_night === "day" ? ["night"] : state.day_night === "night" ? ["day"] : ["day", "night"];
  return h(
    "div",
    { class: "row", role: "group", "aria-label": "Day and night" },
    to.map((d) => ui.button(`flow.${d}`, `It becomes ${d}`, () => ui.report({ type: "designate", designation: d }, `It becomes ${d}`))),
  );
}
