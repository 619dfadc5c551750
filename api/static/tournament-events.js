/* The scorekeeper's events at /tournaments (docs/web.md, Events): the events list, newest first
 * by pages (GET /v1/tournaments), and the form that creates an event with every field of
 * POST /v1/tournaments. A refusal is the server's problem+json, shown beside the button with its
 * code, and the field it names is marked. A scorekeeper's link (`token create --link`) opens here.
 */

import { api, describeError } from "./api.js";
import { clearError, showError } from "./banner.js";
import { h, plural } from "./dom.js";
import { pageHref, say, send, statusLine } from "./tournament-shared.js";

const PAGE = 50;
const STAGES = {
  registration: "Registration",
  swiss: "Swiss rounds",
  swiss_finished: "Swiss over, top cut next",
  top_cut: "Top cut",
  finished: "Finished",
};
// The refusal codes of POST /v1/tournaments (docs/api.md) and the field each one is about.
const FIELD_OF_CODE = {
  invalid_tournament_id: "t-new-id",
  tournament_already_created: "t-new-id",
  invalid_rel: "t-new-rel",
  invalid_kind: "t-new-kind",
  invalid_rounds: "t-new-rounds",
  invalid_round_length: "t-new-minutes",
  invalid_top_cut: "t-new-top-cut",
  invalid_best_of: "t-new-best-of",
  invalid_points: "t-new-win",
};
// A body the server refuses before the rules (invalid_field) quotes its field in the detail:
// "tournament: 'rounds' input should be greater than or equal to 1, got 0".
const FIELD_OF_NAME = {
  id: "t-new-id",
  name: "t-new-name",
  format: "t-new-format",
  rel: "t-new-rel",
  kind: "t-new-kind",
  rounds: "t-new-rounds",
  round_minutes: "t-new-minutes",
  top_cut: "t-new-top-cut",
  best_of: "t-new-best-of",
  points: "t-new-win",
  "points.win": "t-new-win",
  "points.draw": "t-new-draw",
};

/** The id of the form's field a refusal is about (its code, or the field its detail quotes). */
export function fieldOfRefusal(text) {
  const code = (/, ([a-z_]+)\)$/.exec(text) || [])[1];
  const quoted = (/'([a-z_.]+)'/.exec(text) || [])[1];
  return FIELD_OF_CODE[code] || FIELD_OF_NAME[quoted] || null;
}

function field(id, label, control, hint = null) {
  const hintId = hint ? `${id}-hint` : null;
  if (hintId) control.setAttribute("aria-describedby", hintId);
  return h("div", { class: "field" }, h("label", { for: id, text: label }), control, hint ? h("p", { class: "hint", id: hintId, text: hint }) : "");
}

function select(id, name, options, value) {
  const el = h("select", { id, name }, options.map(([v, text]) => h("option", { value: v, text })));
  el.value = value;
  return el;
}

const number = (id, name, value, min, max) => h("input", { id, name, type: "number", inputmode: "numeric", min, max, step: 1, value });

/** The body of POST /v1/tournaments from the form: blank optional fields are left out. */
export function createBody(form) {
  const get = (name) => form.elements[name].value.trim();
  const body = { id: get("id"), name: get("name"), format: get("format"), rel: get("rel"), kind: get("kind") };
  const asNumber = (text) => (/^-?\d+$/.test(text) ? Number(text) : text);
  if (get("rounds")) body.rounds = asNumber(get("rounds"));
  if (get("round_minutes")) body.round_minutes = asNumber(get("round_minutes"));
  if (get("top_cut")) body.top_cut = Number(get("top_cut"));
  body.best_of = Number(get("best_of"));
  body.points = { win: asNumber(get("win")), draw: asNumber(get("draw")) };
  return body;
}

export function initEvents() {
  const root = document.getElementById("tournament-view");
  root.hidden = false;
  root.dataset.page = "events";
  document.body.classList.add("tournament-events");
  document.title = "Events · MTG Ledger";

  const status = statusLine("t-create-status");
  const createButton = h("button", { type: "submit", class: "primary", text: "Create the event" });
  const kind = select("t-new-kind", "kind", [["two_player", "Two-player matches"], ["commander", "Commander pods"]], "two_player");
  const topCut = select("t-new-top-cut", "top_cut", [["", "None"], ["8", "Top 8"], ["4", "Top 4"], ["2", "Top 2 (a final)"]], "");
  const bestOf = select("t-new-best-of", "best_of", [["1", "Best of one"], ["3", "Best of three"], ["5", "Best of five"]], "3");
  const form = h(
    "form",
    { id: "t-create", class: "t-form t-create", "aria-label": "Create an event", novalidate: true, autocomplete: "off" },
    field("t-new-id", "Event id", h("input", { id: "t-new-id", name: "id", type: "text", required: true, maxlength: 200, spellcheck: "false" }), "In the event's address and its games' ids: letters, digits, - and _."),
    field("t-new-name", "Name", h("input", { id: "t-new-name", name: "name", type: "text", required: true, maxlength: 200 })),
    field("t-new-format", "Format", h("input", { id: "t-new-format", name: "format", type: "text", required: true, maxlength: 200, list: "t-formats" })),
    h("datalist", { id: "t-formats" }, ["Standard", "Pioneer", "Modern", "Legacy", "Vintage", "Pauper", "Sealed", "Booster Draft", "Commander"].map((f) => h("option", { value: f }))),
    field(
      "t-new-rel",
      "Rules Enforcement Level (MTR 1.12)",
      select("t-new-rel", "rel", [["casual", "Casual"], ["regular", "Regular"], ["competitive", "Competitive"], ["professional", "Professional"]], "casual"),
    ),
    field("t-new-kind", "Kind", kind),
    field("t-new-rounds", "Swiss rounds", number("t-new-rounds", "rounds", "", 1, 20), "Blank: set by the player count when round 1 is paired (MTR Appendix E)."),
    field("t-new-minutes", "Minutes a round", number("t-new-minutes", "round_minutes", "50", 1, 600)),
    field("t-new-top-cut", "Top cut", topCut),
    field("t-new-best-of", "Matches (MTR 2.1)", bestOf),
    h(
      "fieldset",
      { class: "t-points" },
      h("legend", { text: "Match points" }),
      field("t-new-win", "A win", number("t-new-win", "win", "3", 0, 100)),
      field("t-new-draw", "A draw", number("t-new-draw", "draw", "1", 0, 100)),
    ),
    h("div", { class: "field buttons" }, createButton),
    status,
  );
  // Pods play one game and have no top cut (the server refuses both): the page says so first.
  kind.addEventListener("change", () => {
    const pods = kind.value === "commander";
    topCut.disabled = pods;
    bestOf.disabled = pods;
    if (pods) topCut.value = "";
  });
  // An edit answers the refusal: its mark and message go until the next try.
  form.addEventListener("input", (e) => {
    e.target.removeAttribute("aria-invalid");
    if (status.classList.contains("bad")) say(status, "");
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    const body = createBody(form);

    const created = await send(status, "/v1/tournaments", body, (t) => `Created ${t.name}.`, createButton);
    if (created) {
      location.assign(pageHref(created.id));
      return;
    }
    const named = fieldOfRefusal(status.textContent);
    const bad = named && document.getElementById(named);
    if (bad) {
      bad.setAttribute("aria-invalid", "true");
      bad.setAttribute("aria-errormessage", "t-create-status");
      bad.focus();
    }
  });

  const listStatus = h("p", { id: "t-events-summary", class: "summary", role: "status" });
  const body = h("tbody");
  const more = h("button", { type: "button", id: "t-events-more", text: "More events", hidden: true });
  let next = null;
  let count = 0;
  const row = (t) =>
    h(
      "tr",
      { dataset: { event: t.id } },
      h("th", { scope: "row" }, h("a", { href: pageHref(t.id), text: t.name || t.id }), h("span", { class: "hint", text: ` ${t.id}` })),
      h("td", { text: t.format }),
      h("td", { class: "num", text: t.players }),
      h("td", { class: "num", text: t.round || "–" }),
      h("td", { text: STAGES[t.stage] || t.stage }),
      h("td", { text: t.champion || "" }),
      h("td", {}, h("a", { href: pageHref(t.id, "public"), text: "Players' page" })),
    );
  async function load(after = null) {
    try {
      const path = `/v1/tournaments?limit=${PAGE}` + (after ? `&after=${encodeURIComponent(after)}` : "");
      const page = await api(path);
      clearError();
      if (!after) {
        body.replaceChildren();
        count = 0;
      }
      body.append(...page.tournaments.map(row));
      count += page.tournaments.length;
      next = page.next;
      more.hidden = !next;
      listStatus.textContent = count ? `${plural(count, "event")}${next ? " (more below)" : ""}.` : "No events yet: create the first one.";
    } catch (err) {
      listStatus.textContent = describeError(err);
      showError(err, "Loading the events");
    }
  }
  more.addEventListener("click", () => load(next));

  root.replaceChildren(
    h("div", { class: "t-head" }, h("h1", { id: "t-title", text: "Events" }), h("p", { class: "meta", text: "Create an event, or open one to run it." })),
    h(
      "div",
      { class: "t-layout" },
      h(
        "section",
        { id: "t-events", class: "panel t-main", "aria-labelledby": "t-events-title" },
        h("h2", { id: "t-events-title", text: "The events" }),
        listStatus,
        h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { id: "t-events-table", class: "t-events" },
            h("caption", { class: "visually-hidden", text: "The events, newest first" }),
            h("thead", {}, h("tr", {}, ["Event", "Format", "Players", "Round", "Stage", "Champion", "Players' page"].map((c) => h("th", { scope: "col", text: c })))),
            body,
          ),
        ),
        more,
      ),
      h("section", { id: "t-new", class: "panel t-side", "aria-labelledby": "t-new-title" }, h("h2", { id: "t-new-title", text: "Create an event" }), form),
    ),
  );
  say(status, "");
  load();
  return () => load();
}
