/* Naming a card, known to the catalog or not (docs/web.md, Reporting).
 *
 * The server takes a card as a catalog name or as an object {name, type_line} (docs/api.md,
 * Cards): a card the catalog doesn't know needs its type line, since whether it is a land, a
 * creature or an artifact is what the rules read (a rad trigger counts nonland cards, CR 728.1).
 * A card field asks the server's catalog (GET /v1/cards/{name}) as the name is typed and says
 * what it found; for a name it doesn't know it opens a type picker (land, creature, artifact,
 * enchantment, planeswalker, instant, sorcery, battle, or a whole type line typed out), and the
 * value sent is then the object. A refusal naming a card the catalog doesn't know opens the
 * picker too (`markUnknown`).
 */

import { api, enc } from "./api.js";
import { h } from "./dom.js";

/** The card types a type line is made of, in the order printed type lines use ("Enchantment
 * Artifact", "Artifact Land", "Land Creature"); the picker lists the common ones first. */
export const CARD_TYPES = ["Enchantment", "Artifact", "Land", "Creature", "Planeswalker", "Battle", "Instant", "Sorcery"];
const PICK_ORDER = ["Land", "Creature", "Artifact", "Enchantment", "Planeswalker", "Instant", "Sorcery", "Battle"];
const LOOKUP_MS = 350;

const safeId = (text) => String(text).replace(/[^A-Za-z0-9_-]/g, "_");
const found = new Map(); // name (case-folded) -> the catalog card, or null when it isn't there
const asked = new Map(); // name -> a promise of the lookup

/** What the catalog says of a name: the card, null (unknown) or undefined (not asked yet). */
export const catalogCard = (name) => found.get(String(name).trim().toLowerCase());

/** Remember that the catalog doesn't know `name` (the server said so in a refusal). */
export function markUnknown(name) {
  if (name) found.set(String(name).trim().toLowerCase(), null);
}

/** What the catalog says of `name`: the card, null (it doesn't know it) or undefined (no answer). */
export async function lookUpCard(name) {
  const trimmed = String(name).trim();
  return trimmed ? lookUp(trimmed) : undefined;
}

async function lookUp(name) {
  const key = name.toLowerCase();
  if (found.has(key)) return found.get(key);
  if (!asked.has(key)) {
    asked.set(
      key,
      api(`/v1/cards/${enc(name)}`)
        .then((card) => {
          found.set(key, card);
          return card;
        })
        .catch((err) => {
          if (err && err.code === "unknown_card") found.set(key, null);
          return err && err.code === "unknown_card" ? null : undefined; // offline: ask again later
        })
        .finally(() => asked.delete(key)),
    );
  }
  return asked.get(key);
}

/**
 * A card field under `key`: the name, what the catalog says of it, and the type picker.
 * Everything carries a `data-key` under `key`, so what was typed and picked survives a redraw.
 * `attrs`: extra attributes for the name's input (a class to collect several fields).
 */
export function cardPicker(key, label, attrs = {}) {
  const id = "r-" + safeId(key);
  const status = h("span", { class: "card-status hint", id: `${id}-status`, dataset: { cardStatus: key }, "aria-live": "polite" });
  const input = h("input", {
    id,
    type: "text",
    spellcheck: "false",
    autocomplete: "off",
    autocapitalize: "words",
    "aria-describedby": `${id}-status`,
    dataset: { key, cardName: key },
    ...attrs,
  });
  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => refreshPicker(picker, true), LOOKUP_MS);
  });
  input.addEventListener("change", () => refreshPicker(picker, true));
  const boxes = PICK_ORDER.map((type) => {
    const boxId = `${id}-t-${type}`;
    return h(
      "span",
      { class: "type-chip" },
      h("input", { type: "checkbox", id: boxId, value: type, dataset: { key: `${key}.t.${type}`, cardType: type } }),
      h("label", { for: boxId, text: type }),
    );
  });
  const lineId = `${id}-line`;
  const types = h(
    "details",
    { class: "type-picker", dataset: { key: `${key}.types` }, hidden: true },
    h("summary", { text: "Card type (a card the catalog doesn't know)" }),
    h(
      "fieldset",
      { class: "type-chips" },
      h("legend", { text: `Type of ${label.toLowerCase() === "card" ? "the card" : label}` }),
      boxes,
    ),
    h(
      "span",
      { class: "field" },
      h("label", { for: lineId, text: "Or the whole type line (e.g. Legendary Creature — Human Noble)" }),
      h("input", { id: lineId, type: "text", spellcheck: "false", autocomplete: "off", dataset: { key: `${key}.line`, cardLine: key } }),
    ),
  );
  const picker = h(
    "span",
    { class: "field card-picker", dataset: { picker: key } },
    h("label", { for: id, text: label }),
    input,
    status,
    types,
  );
  return picker;
}

/** The type line a picker's boxes and line field make, or "" when nothing was picked. */
function typeLineOf(picker) {
  const line = picker.querySelector("[data-card-line]");
  if (line && line.value.trim()) return line.value.trim();
  const picked = [...picker.querySelectorAll("input[data-card-type]:checked")].map((el) => el.value);
  return CARD_TYPES.filter((t) => picked.includes(t)).join(" ");
}

/** Say what the catalog knows of the typed name; `ask`: look it up if it wasn't yet. */
export async function refreshPicker(picker, ask = false) {
  const input = picker.querySelector("[data-card-name]");
  const status = picker.querySelector("[data-card-status]");
  const types = picker.querySelector("details.type-picker");
  const name = input.value.trim();
  const picked = Boolean(typeLineOf(picker));
  // The type picker is for a name the catalog doesn't know (or one given a type already): a
  // known name shows no picker, so nothing moves under the person's finger as they type it.
  const showTypes = (unknown) => {
    if (types) types.hidden = !(unknown || picked);
  };
  if (!name) {
    status.textContent = "";
    showTypes(false);
    return;
  }
  let card = catalogCard(name);
  showTypes(card === null);
  if (card === undefined && ask) card = await lookUp(name);
  if (input.value.trim() !== name) return; // typed on meanwhile
  showTypes(card === null);
  if (card) {
    status.textContent = `In the catalog: ${card.type_line || "no type line"}.`;
    status.classList.remove("warn-text");
  } else if (card === null) {
    status.textContent = typeLineOf(picker) ? `Not in the catalog: sent as ${typeLineOf(picker)}.` : "Not in the catalog: choose its type.";
    status.classList.add("warn-text");
    if (types && !types.open) types.open = true;
  } else {
    status.textContent = "";
  }
}

/** After a redraw put back what was typed: say again what the catalog knows (no new request). */
export function refreshPickers(root) {
  for (const picker of root.querySelectorAll("[data-picker]")) refreshPicker(picker, false);
}

/** The card a picker names: a name, {name, type_line}, or null when it is empty. */
export function pickedCard(picker) {
  const name = picker.querySelector("[data-card-name]").value.trim();
  if (!name) return null;
  const line = typeLineOf(picker);
  return line ? { name, type_line: line } : name;
}

/** The picker under `key` in `root`. */
export const pickerAt = (root, key) => root.querySelector(`[data-picker="${CSS.escape(key)}"]`);

/** The name a card value carries. */
export const cardLabel = (card) => (card && typeof card === "object" ? card.name : String(card || ""));
