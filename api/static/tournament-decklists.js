/* Decklists on the tournament pages (issue 42; docs/web.md, Decklists): three panels, each
 * reading and writing the decklist API (docs/api.md, Decklists) and nothing else.
 *
 * - playerDecklists: on the players' page with a player's event link: the player's own list,
 *   a text box to register it ("4 Lightning Bolt" lines, a "Sideboard" line), the deadline and
 *   the lock; anyone sees the lists once the scorekeeper publishes them.
 * - scorekeeperDecklists: the deadline, the lock, who has registered, a list entered for a
 *   player (a paper list), publication and the CSV export.
 * - floorDecklists: the judges' deck checks (tables picked at random or chosen, the outcome
 *   recorded on the table's game) and the cross-check's judge calls: a card a game's record
 *   showed that is not on its player's list, with the game version that showed it.
 *
 * A refused list shows the server's reasons (the problem's detail lists them all).
 */

import { api, enc } from "./api.js";
import { h, formatTime, plural } from "./dom.js";
import { download, say, send, statusLine, tPath } from "./tournament-shared.js";

const dPath = (tid, rest = "") => tPath(tid, `/decklists${rest}`);

function listView(d, id) {
  return h(
    "article",
    { class: "t-decklist", dataset: { player: d.player }, id },
    h("h3", { text: `${d.name}: ${d.main_count} cards${d.sideboard_count ? `, sideboard ${d.sideboard_count}` : ""}` }),
    h("pre", { class: "t-decklist-text", text: d.text }),
  );
}

function settingsText(v) {
  const bits = [v.deadline ? `Deadline: ${formatTime(v.deadline)}` : "No deadline", v.locked ? "submission locked" : "submission open"];
  if (v.published) bits.push("lists published");
  return bits.join(" · ");
}

/** The published lists (the public page): {el, load}. */
function publishedLists(tid) {
  const lists = h("div", { id: "t-published-lists" });
  const el = h(
    "section",
    { id: "t-published-decklists", class: "panel", "aria-labelledby": "t-published-title" },
    h("h2", { id: "t-published-title", text: "Decklists" }),
    lists,
  );
  let shown = false;
  const load = async () => {
    try {
      const view = await api(tPath(tid, "/public/decklists"));
      shown = view.published;
      lists.replaceChildren(...view.decklists.map((d) => listView(d)));
    } catch {
      shown = false;
    }
    return shown;
  };
  return { el, load };
}

/** The players' page: the caller's own list (with an event link) and the published lists. */
export function playerDecklists(tid) {
  const meta = h("p", { id: "t-my-decklist-meta", class: "meta" });
  const text = h("textarea", { id: "t-my-decklist-text", name: "decklist", rows: 10, spellcheck: "false", autocapitalize: "words" });
  const status = statusLine("t-my-decklist-status");
  const mine = h("div", { id: "t-my-decklist" });
  const form = h(
    "form",
    { id: "t-my-decklist-form", class: "t-form", "aria-label": "Register my decklist" },
    h("div", { class: "field t-wide" }, h("label", { for: "t-my-decklist-text", text: "My decklist: “4 Lightning Bolt” lines, then “Sideboard”" }), text),
    h("div", { class: "field buttons" }, h("button", { type: "submit", text: "Submit my decklist" })),
  );
  const own = h("section", { id: "t-decklist", class: "panel", "aria-labelledby": "t-decklist-title" }, h("h2", { id: "t-decklist-title", text: "My decklist" }), meta, form, status, mine);
  const published = publishedLists(tid);
  let me = null;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!me) return;
    const answer = await send(status, dPath(tid, `/${enc(me)}`), { text: text.value }, (d) => `Registered: ${d.main_count} cards, sideboard ${d.sideboard_count}.`);
    if (answer) await load();
  });
  // Only what is shown is in the page: no hidden controls (a spectator's page has none of these).
  const el = h("div", { id: "t-decklists-public" });
  const load = async () => {
    const isPublished = await published.load();
    let view = null;
    try {
      view = await api(dPath(tid));
    } catch {
      view = null; // no event link (a spectator): the published lists only
    }
    me = view ? view.me : null;
    const parts = [me ? own : null, isPublished ? published.el : null].filter(Boolean);
    if (parts.length !== el.children.length || parts.some((p, i) => el.children[i] !== p)) el.replaceChildren(...parts);
    if (!me) return;
    meta.textContent = settingsText(view);
    const list = view.decklists.find((d) => d.player === me);
    mine.replaceChildren(list ? listView(list, "t-my-decklist-registered") : h("p", { class: "hint", text: "No list registered yet." }));
    if (list && !text.value) text.value = list.text;
  };
  return { el, load };
}

/** The scorekeeper's page: deadline, lock, lists by player, publication, export. */
export function scorekeeperDecklists(tid) {
  const meta = h("p", { id: "t-decklists-meta", class: "meta" });
  const status = statusLine("t-decklists-status");
  const deadline = h("input", { id: "t-decklist-deadline", type: "datetime-local", name: "deadline" });
  const player = h("select", { id: "t-decklist-player", name: "player" });
  const text = h("textarea", { id: "t-decklist-text", name: "decklist", rows: 8, spellcheck: "false" });
  const lockButton = h("button", { type: "button", id: "t-decklist-lock", text: "Lock submission" });
  const scope = h("select", { id: "t-decklist-scope", name: "scope" }, h("option", { value: "all", text: "All lists" }), h("option", { value: "top_cut", text: "The top cut's" }));
  const rows = h("tbody");
  let view = null;

  const deadlineForm = h(
    "form",
    { class: "t-form", "aria-label": "Decklist deadline" },
    h("div", { class: "field" }, h("label", { for: "t-decklist-deadline", text: "Deadline" }), deadline),
    h("div", { class: "field buttons" }, h("button", { type: "submit", text: "Set the deadline" }), lockButton),
  );
  deadlineForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const at = deadline.value ? new Date(deadline.value).toISOString() : null;
    send(status, dPath(tid, "/deadline"), { deadline: at }, (v) => settingsText(v)).then(load);
  });
  lockButton.addEventListener("click", () => {
    send(status, dPath(tid, "/lock"), { locked: !(view && view.locked) }, (v) => settingsText(v)).then(load);
  });
  const entryForm = h(
    "form",
    { class: "t-form", "aria-label": "Enter a player's decklist" },
    h("div", { class: "field" }, h("label", { for: "t-decklist-player", text: "Whose list" }), player),
    h("div", { class: "field t-wide" }, h("label", { for: "t-decklist-text", text: "Decklist" }), text),
    h("div", { class: "field buttons" }, h("button", { type: "submit", text: "Register the list" })),
  );
  entryForm.addEventListener("submit", (e) => {
    e.preventDefault();
    send(status, dPath(tid, `/${enc(player.value)}`), { text: text.value }, (d) => `Registered ${d.name}'s list: ${d.main_count} cards.`).then((ok) => {
      if (ok) text.value = "";
      load();
    });
  });
  const publishForm = h(
    "form",
    { class: "t-form", "aria-label": "Publish the decklists" },
    h("div", { class: "field" }, h("label", { for: "t-decklist-scope", text: "Publish" }), scope),
    h("div", { class: "field buttons" }, h("button", { type: "submit", text: "Publish the lists" }), h("button", { type: "button", id: "t-decklists-csv", text: "Export CSV" })),
  );
  publishForm.addEventListener("submit", (e) => {
    e.preventDefault();
    send(status, dPath(tid, "/publish"), { scope: scope.value }, (v) => `Published ${plural(v.decklists.length, "list")}.`).then(load);
  });
  publishForm.querySelector("#t-decklists-csv").addEventListener("click", () => download(status, tPath(tid, "/decklists.csv"), `${tid}-decklists.csv`, "text/csv"));

  const el = h(
    "section",
    { id: "t-decklists", class: "panel", "aria-labelledby": "t-decklists-title" },
    h("h2", { id: "t-decklists-title", text: "Decklists" }),
    meta,
    deadlineForm,
    entryForm,
    status,
    h("table", { class: "t-standings", id: "t-decklists-table" }, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), h("th", { scope: "col", text: "List" }))), rows),
    publishForm,
  );
  const load = async () => {
    try {
      view = await api(dPath(tid));
    } catch {
      return;
    }
    meta.textContent = settingsText(view);
    lockButton.textContent = view.locked ? "Unlock submission" : "Lock submission";
    const roster = view.players.map((p) => p.player + "=" + p.name).join("\n");
    if (player.dataset.roster !== roster) {
      // Redrawn only when the roster changed: an open menu stays open across polls.
      const chosen = player.value;
      player.replaceChildren(...view.players.map((p) => h("option", { value: p.player, text: p.name })));
      player.dataset.roster = roster;
      if (chosen) player.value = chosen;
    }
    const byPlayer = new Map(view.decklists.map((d) => [d.player, d]));
    rows.replaceChildren(
      ...view.players.map((p) => {
        const d = byPlayer.get(p.player);
        return h("tr", { dataset: { player: p.player } }, h("th", { scope: "row", text: p.name }), h("td", { text: d ? `${d.main_count} + ${d.sideboard_count}` : "missing" }));
      }),
    );
  };
  return { el, load };
}

/** The floor view: deck checks and the cross-check's judge calls. */
export function floorDecklists(tid) {
  const status = statusLine("t-deck-check-status");
  const round = h("input", { id: "t-deck-check-round", type: "number", min: 1, name: "round", value: 1, class: "small" });
  const tables = h("input", { id: "t-deck-check-tables", name: "tables", inputmode: "numeric", placeholder: "1, 3" });
  const random = h("input", { id: "t-deck-check-random", type: "number", min: 1, name: "random", value: 1 });
  const picks = h("ol", { id: "t-deck-checks", class: "records" });
  const calls = h("ol", { id: "t-decklist-calls", class: "records" });
  const pickForm = h(
    "form",
    { class: "t-form", "aria-label": "Pick tables for deck checks" },
    h("div", { class: "field small" }, h("label", { for: "t-deck-check-round", text: "Round" }), round),
    h("div", { class: "field" }, h("label", { for: "t-deck-check-tables", text: "Tables (chosen)" }), tables),
    h("div", { class: "field small" }, h("label", { for: "t-deck-check-random", text: "How many at random" }), random),
    h("div", { class: "field buttons" }, h("button", { type: "submit", value: "chosen", text: "Check these tables" }), h("button", { type: "submit", value: "random", text: "Pick at random" })),
  );
  pickForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const how = e.submitter ? e.submitter.value : "chosen";
    const body = { round: Number(round.value) };
    if (how === "random") body.random = Number(random.value);
    else body.tables = tables.value.split(/[\s,]+/).filter(Boolean).map(Number);
    send(status, tPath(tid, "/deck-checks"), body, (p) => `Round ${p.round}: check ${p.tables.map((t) => `table ${t.table}`).join(", ")}.`).then(load);
  });

  function tableItem(t, pickRound) {
    const result = h("select", { name: "result", "aria-label": `Table ${t.table}: outcome` }, h("option", { value: "legal", text: "Legal: matches the list" }), h("option", { value: "problem", text: "Problem: see a judge's note" }));
    const line = statusLine(`t-deck-check-${pickRound}-${t.table}`);
    const record = h("form", { class: "t-form", "aria-label": `Record the deck check of table ${t.table}` }, result, h("button", { type: "submit", text: "Record the outcome" }), line);
    record.addEventListener("submit", (e) => {
      e.preventDefault();
      send(line, `/v1/games/${enc(t.game_id)}/deck-checks`, { players: t.players.map((p) => p.player), result: result.value }, () => "Recorded.").then(load);
    });
    const done = t.deck_checks.map((c) => `${c.result}`).join(", ");
    return h(
      "li",
      { dataset: { round: pickRound, table: t.table } },
      h("b", { text: `Round ${pickRound}, table ${t.table}: ` }),
      t.players.map((p) => `${p.name}${p.decklist ? "" : " (no list)"}`).join(" vs "),
      done ? h("span", { class: "status t-status-reported", text: `Checked: ${done}` }) : record,
    );
  }

  const el = h(
    "section",
    { id: "t-floor-decklists", class: "panel", "aria-labelledby": "t-floor-decklists-title" },
    h("h2", { id: "t-floor-decklists-title", text: "Decklists" }),
    h("h3", { text: "Judge calls: cards not on a player's list" }),
    calls,
    h("h3", { text: "Deck checks" }),
    pickForm,
    status,
    picks,
  );
  const load = async () => {
    try {
      const [checks, found] = await Promise.all([api(tPath(tid, "/deck-checks")), api(dPath(tid, "/mismatches"))]);
      picks.replaceChildren(...checks.picks.flatMap((p) => p.tables.map((t) => tableItem(t, p.round))));
      calls.replaceChildren(
        ...(found.mismatches.length
          ? found.mismatches.map((m) =>
              h(
                "li",
                { class: "t-decklist-call", dataset: { game: m.game_id, version: m.version } },
                h("b", { text: `Judge call · table ${m.table}, round ${m.round}: ` }),
                `${m.name}: ${m.card} (${m.what}) is not on their registered list. `,
                h("a", { href: `/games/${enc(m.game_id)}?version=${m.version}`, text: `Game version ${m.version}` }),
                // The real call it opened in the game (the judges' page lists it), or not yet.
                m.call ? ` · ${m.call} in the game.` : " · The call waits to be opened.",
              ),
            )
          : [h("li", { class: "hint", text: "None: every card played is on its player's list." })]),
      );
    } catch (err) {
      say(status, String(err.message || err), true);
    }
  };
  return { el, load };
}
