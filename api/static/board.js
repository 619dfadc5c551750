/* The board at one version, drawn from the state the server folded for it
 * (GET /v1/games/{id}?version=V): turn, players or teams, battlefield, stack.
 */

import { commandZone, commanderDamageMatrix, designationTags, gameDesignations } from "./commander.js";
import { $, h } from "./dom.js";
import { stepName, variantName, withNames } from "./labels.js";

/** Readable names for the ids in one state: "Alice (P1)", "Llanowar Elves (elves)". */
class Names {
  constructor(state) {
    this.players = state.players || {};
    this.permanents = state.battlefield || {};
  }

  static label(name, id) {
    return name && name !== id ? `${name} (${id})` : String(id ?? "");
  }

  player(id) {
    return Names.label(this.players[id] && this.players[id].name, id);
  }

  permanent(id) {
    return Names.label(this.permanents[id] && this.permanents[id].name, id);
  }

  /** A player, or a team in team variants (triggers are ordered by the active team). */
  side(id) {
    return id in this.players ? this.player(id) : `team ${id}`;
  }
}

const cardName = (card) => (!card ? "" : typeof card === "string" ? card : card.name || "");

function counterList(map, label) {
  const entries = Object.entries(map || {}).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return h(
    "ul",
    { class: "counters", "aria-label": label },
    entries.map(([kind, n]) =>
      h("li", { class: "counter", dataset: { kind, count: n } }, h("span", { class: "kind", text: kind }), " ", h("b", { text: n })),
    ),
  );
}

function stat(label, value, field, extraClass) {
  return h("div", { class: "stat " + (extraClass || "") }, h("dt", { text: label }), h("dd", { dataset: { field }, text: value }));
}

function zone(title, cards) {
  if (!cards.length) return null;
  const items = cards.map((c) => h("li", { title: c.type_line || "", text: cardName(c) || "?" }));
  return h("details", { class: "zone" }, h("summary", { text: `${title} (${cards.length})` }), h("ol", { class: "cards" }, items));
}

function playerCard(id, p, state, inTeam) {
  const turn = state.turn || {};
  const active = turn.active_player === id || (inTeam && turn.active_team && turn.active_team === p.team);
  const classes = ["player"];
  if (active) classes.push("active");
  if (p.lost) classes.push("lost");
  const graveyard = Array.isArray(p.graveyard) ? p.graveyard : [];
  const exile = Array.isArray(p.exile) ? p.exile : [];
  const library = Array.isArray(p.library) ? p.library : []; // judges and admins only
  const mana = Object.entries(p.mana_pool || {}).filter(([, n]) => n > 0);
  const titleId = "player-" + id.replace(/[^A-Za-z0-9_-]/g, "_");
  return h(
    "article",
    { class: classes.join(" "), dataset: { player: id }, "aria-labelledby": titleId },
    h(
      "h3",
      { id: titleId },
      p.name || id,
      " ",
      h("span", { class: "pid", text: p.name && p.name !== id ? id : "" }),
      active ? h("span", { class: "tag tag-active", text: "active" }) : null,
      p.lost ? h("span", { class: "tag tag-lost", text: "lost" + (p.loss_reason ? ": " + p.loss_reason : "") }) : null,
      designationTags(state, id, p),
    ),
    h(
      "dl",
      { class: "stats" },
      stat(inTeam ? "Life (team)" : "Life", p.life, "life", "life"),
      stat("Library", p.library_size, "library_size"),
      stat("Hand", p.hand_size, "hand_size"),
      stat("Graveyard", graveyard.length, "graveyard_size"),
    ),
    counterList(p.counters, `Counters on ${p.name || id}`),
    mana.length ? h("p", { class: "mana", text: "Mana pool: " + mana.map(([k, n]) => `${n} ${k}`).join(", ") }) : null,
    commandZone(p, `Command zone of ${p.name || id}`),
    zone("Graveyard", graveyard),
    zone("Exile", exile),
    zone("Known library, top first", library),
  );
}

function renderPlayers(state) {
  const root = $("#players");
  const players = state.players || {};
  const teams = state.teams || {};
  const teamIds = Object.keys(teams);
  if (!teamIds.length) {
    const matrix = commanderDamageMatrix(state);
    root.replaceChildren(
      ...[gameDesignations(state)].filter(Boolean),
      ...Object.entries(players).map(([id, p]) => playerCard(id, p, state, false)),
      ...(matrix ? [matrix] : []),
    );
    return;
  }
  const seen = new Set();
  const sections = teamIds.map((teamId) => {
    const team = teams[teamId];
    const members = (team.players || []).filter((id) => players[id]);
    members.forEach((id) => seen.add(id));
    const active = state.turn && state.turn.active_team === teamId;
    return h(
      "section",
      { class: "team" + (team.lost ? " lost" : "") + (active ? " active" : ""), dataset: { team: teamId }, "aria-label": `Team ${teamId}` },
      h(
        "h3",
        { class: "team-name" },
        `Team ${teamId}`,
        active ? h("span", { class: "tag tag-active", text: "active" }) : null,
        team.lost ? h("span", { class: "tag tag-lost", text: "lost" }) : null,
      ),
      h("dl", { class: "stats" }, team.life !== null && team.life !== undefined ? stat("Team life", team.life, "team_life", "life") : null),
      counterList(team.counters, `Counters on team ${teamId}`),
      h("div", { class: "team-players" }, members.map((id) => playerCard(id, players[id], state, true))),
    );
  });
  const others = Object.entries(players).filter(([id]) => !seen.has(id));
  root.replaceChildren(...[gameDesignations(state)].filter(Boolean), ...sections, ...others.map(([id, p]) => playerCard(id, p, state, false)));
}

function permanentCard(id, perm) {
  const card = perm.card || {};
  const pt = card.power !== undefined && card.power !== null ? `${card.power}/${card.toughness}` : "";
  const tags = [];
  if (perm.tapped) tags.push(h("span", { class: "tag tag-tapped", text: "tapped" }));
  if (perm.summoning_sick) tags.push(h("span", { class: "tag", text: "summoning sick", title: "CR 302.6" }));
  if (perm.token) tags.push(h("span", { class: "tag", text: "token" }));
  if (perm.damage) tags.push(h("span", { class: "tag tag-damage", text: `${perm.damage} damage` }));
  if (perm.owner && perm.owner !== perm.controller) tags.push(h("span", { class: "tag", text: `owner ${perm.owner}` }));
  return h(
    "li",
    { class: "permanent" + (perm.tapped ? " tapped" : ""), dataset: { permanent: id, tapped: perm.tapped ? "true" : "false" } },
    h("div", { class: "perm-name" }, h("b", { text: perm.name || cardName(card) || id }), " ", h("span", { class: "pid", text: id })),
    h("div", { class: "perm-type", text: [card.type_line, pt].filter(Boolean).join(" · ") }),
    tags.length ? h("div", { class: "tags" }, tags) : null,
    counterList(perm.counters, `Counters on ${perm.name || id}`),
  );
}

function renderBattlefield(state, names) {
  const byController = new Map();
  for (const id of Object.keys(state.players || {})) byController.set(id, []);
  for (const [id, perm] of Object.entries(state.battlefield || {})) {
    const key = perm.controller || "?";
    if (!byController.has(key)) byController.set(key, []);
    byController.get(key).push([id, perm]);
  }
  const groups = [];
  for (const [controller, perms] of byController) {
    if (!perms.length) continue;
    groups.push(
      h(
        "section",
        { class: "controller", dataset: { controller }, "aria-label": `Permanents controlled by ${names.player(controller)}` },
        h("h3", { text: names.player(controller) }),
        h("ul", { class: "permanents" }, perms.map(([id, perm]) => permanentCard(id, perm))),
      ),
    );
  }
  $("#battlefield").replaceChildren(...(groups.length ? groups : [h("p", { class: "empty", text: "No permanents." })]));
}

function stackObject(obj, isTop, names) {
  const needs = Array.isArray(obj.needs) ? obj.needs : [];
  return h(
    "li",
    { class: "stack-object", dataset: { id: obj.id, kind: obj.kind } },
    h(
      "div",
      { class: "stack-head" },
      isTop ? h("span", { class: "tag tag-top", text: "top" }) : null,
      h("span", { class: "tag", text: obj.kind }),
      h("b", { text: obj.id }),
      " · ",
      names.player(obj.controller),
      obj.source ? ` · source ${names.permanent(obj.source)}` : "",
    ),
    h("div", { class: "stack-desc", text: withNames(obj.description, names.players) }),
    needs.length ? h("div", { class: "needs" }, "Resolving needs: ", needs.map((n) => h("span", { class: "tag tag-need", text: n }))) : null,
  );
}

function renderStack(state, names) {
  const stack = Array.isArray(state.stack) ? state.stack : [];
  // The API lists the stack bottom first; people read it top first.
  const items = stack.map((obj, index) => stackObject(obj, index === stack.length - 1, names)).reverse();
  $("#stack").replaceChildren(...(items.length ? items : [h("li", { class: "empty", text: "The stack is empty." })]));

  const pending = $("#pending");
  const order = state.pending_order;
  if (order && Array.isArray(order.triggers) && order.triggers.length) {
    pending.hidden = false;
    pending.replaceChildren(
      h("p", {}, h("b", { text: "Triggers waiting to be ordered" }), ` by ${names.side(order.controller)} (order_triggers, first to resolve first):`),
      h("ul", {}, order.triggers.map((t) => h("li", {}, h("b", { text: t.id }), " ", withNames(t.description, names.players)))),
    );
  } else {
    pending.hidden = true;
    pending.replaceChildren();
  }
}

function renderTurn(state, version, names) {
  const turn = state.turn || {};
  const active = turn.active_team ? `team ${turn.active_team}` : names.player(turn.active_player);
  const parts = [
    h("span", { class: "turn-number", text: `Turn ${turn.number}` }),
    h("span", { text: stepName(turn.step) + " step" }),
    h("span", { text: `Active: ${active}` }),
  ];
  if (state.status === "finished") {
    const result = state.result || {};
    const winners = (result.winners || []).map((id) => names.player(id)).join(", ");
    const text = result.draw ? "Finished: a draw" : `Finished: ${winners || "no one"} won`;
    parts.push(h("span", { class: "status status-finished", text }));
  } else {
    parts.push(h("span", { class: "status status-in_progress", text: "In progress" }));
  }
  parts.push(h("span", { class: "shown-version", text: `at version ${version}` }));
  $("#turn-info").replaceChildren(...parts);
}

/** Draw the whole board for `state`, the game at `version`. */
export function renderBoard(state, version) {
  const names = new Names(state);
  renderTurn(state, version, names);
  renderPlayers(state);
  renderBattlefield(state, names);
  renderStack(state, names);
  $("#board").dataset.version = String(version);
}

/** The header line: tournament event, round, table, variant, rules edition. */
export function renderGameMeta(state) {
  const t = state.tournament || {};
  const parts = [];
  if (t.event) parts.push(t.event);
  if (t.round !== undefined && t.round !== null) parts.push(`Round ${t.round}`);
  if (t.table !== undefined && t.table !== null) parts.push(`Table ${t.table}`);
  // MTR 1.12 (REL) and 2.1 (a match's length), as the game was set up.
  if (t.rel) parts.push(`${t.rel.charAt(0).toUpperCase()}${t.rel.slice(1)} REL`);
  if (t.best_of > 1) parts.push(`best of ${t.best_of}`);
  parts.push(variantName(state.variant));
  if (state.rules_edition) parts.push(`rules of ${state.rules_edition}`);
  $("#game-meta").textContent = parts.filter(Boolean).join(" · ");
}
