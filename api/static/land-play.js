/* Playing a land (CR 305.1): `play_land` moves the card from the hand to the battlefield as the
 * turn's land play, so the hand shrinks by one and the server counts the play (one a turn,
 * CR 305.2; a main phase of one's own turn with an empty stack). "Put onto the battlefield"
 * (`enter`) is for a card put there by an effect: it leaves the hand as it was.
 *
 * One tap for a basic land (the catalog knows them); any other land is named in a card field,
 * with its type when the catalog doesn't know it (card-picker.js).
 */

import { cardLabel, cardPicker, pickedCard, pickerAt } from "./card-picker.js";
import { $, h } from "./dom.js";

const BASICS = ["Plains", "Island", "Swamp", "Mountain", "Forest"];

/** The "Play a land" controls for player `id`; `r`: the reporter (button, report). */
export function landControls(r, id, name, played) {
  const k = (rest) => `p.${id}.land.${rest}`;
  const play = (card) => r.report({ type: "play_land", player: id, card }, `${name} plays ${cardLabel(card)}`);
  return h(
    "details",
    { class: "land-play", dataset: { key: k("open") } },
    h("summary", { text: played ? `Play a land (${name} has played one this turn)` : "Play a land" }),
    h(
      "div",
      { class: "row land-basics", role: "group", "aria-label": `${name} plays a basic land` },
      BASICS.map((land) => r.button(k(land), land, () => play(land), { "aria-label": `${name} plays ${land}` })),
    ),
    h(
      "div",
      { class: "row" },
      cardPicker(k("card"), "Another land"),
      r.button(k("other"), "Play it", () => {
        const card = pickedCard(pickerAt($("#report"), k("card")));
        if (card) play(card);
      }, { "aria-label": `${name} plays that land from the hand` }),
    ),
  );
}
