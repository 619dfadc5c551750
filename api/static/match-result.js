/* The match result panel of a player's phone (issue 38; docs/tournaments.md, Players report their
 * results): the player's match, prefilled from the games the ledger recorded, reported in at most
 * two taps ("2-1", then Report), the opponent's report confirmed in one tap, or disputed.
 *
 *   import { mount } from "/static/match-result.js";
 *   const panel = mount(container, { tid, round, table });   // round and table are optional
 *   panel.refresh();   // read again now (it also polls every 5 s)
 *   panel.destroy();   // stop polling and empty the container
 *
 * Without round and table it shows the player's match of the latest round
 * (GET /v1/tournaments/{tid}/my_result); with them, that match's form (GET …/rounds/{r}/tables/
 * {t}/report). The tab's token must be the player's event link (or a game link of that match):
 * for any other token the container stays hidden. Scores are shown from the player's side:
 * "2-1" is two games won, one lost. Self-contained: it needs only api.js and dom.js.
 */

import { api, describeError, enc } from "./api.js";
import { h } from "./dom.js";

const POLL_MS = 5000;
const HIDE = new Set(["forbidden", "wrong_game", "unauthorized", "invalid_token", "unknown_player", "unknown_tournament"]);

const key = () => (globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** Every score a best-of-N match can end with, the player's wins first ("2-1" is 2 won, 1 lost). */
export function scoreChoices(bestOf) {
  const need = Math.floor(bestOf / 2) + 1;
  const out = [];
  for (let won = need; won >= 0; won -= 1) {
    for (let lost = 0; lost <= need; lost += 1) {
      if ((won === 0 && lost === 0) || (won === need && lost === need)) continue;
      out.push([won, lost]);
    }
  }
  return out;
}

export function mount(container, { tid, round = null, table = null } = {}) {
  const base = `/v1/tournaments/${enc(tid)}`;
  let view = null;
  let chosen = null;
  let draws = 0;
  let busy = false;
  let timer = null;
  let disputing = false;

  const title = h("h2", { id: "mr-title", text: "Your match" });
  const meta = h("p", { id: "mr-meta", class: "meta" });
  const state = h("p", { id: "mr-state", class: "mr-state", role: "status", "aria-live": "polite" });
  const body = h("div", { id: "mr-body" });
  const status = h("p", { id: "mr-status", class: "t-status", role: "status" });
  const panel = h("section", { id: "match-result", class: "panel mr-panel", "aria-labelledby": "mr-title" }, title, meta, state, body, status);
  container.hidden = true;
  container.replaceChildren(panel);

  const path = () => (view ? `${base}/rounds/${view.round}/tables/${view.table}/report` : `${base}/rounds/${round}/tables/${table}/report`);
  const me = () => view.you;
  const opponent = () => view.players.find((p) => p.player_id !== me()) || { player_id: "", name: "your opponent" };
  const mineFirst = (wins) => [wins[me()] || 0, wins[opponent().player_id] || 0];
  const scoreText = (won, lost, d) => `${won}-${lost}${d ? `-${d}` : ""}`;

  async function write(rest, bodyJson, done) {
    if (busy) return;
    busy = true;
    status.textContent = "Sending…";
    status.classList.remove("bad");
    try {
      view = await api(path() + rest, { method: "POST", body: bodyJson, headers: { "Idempotency-Key": key() } });
      status.textContent = done;
      disputing = false;
      render();
    } catch (err) {
      status.textContent = describeError(err);
      status.classList.add("bad");
      await refresh();
    } finally {
      busy = false;
    }
  }

  function reportForm() {
    const [pw, pl] = mineFirst(view.prefill.wins);
    if (chosen === null && pw + pl > 0) {
      chosen = [pw, pl];
      draws = view.prefill.draws;
    }
    const choices = scoreChoices(view.best_of || 3);
    const buttons = choices.map(([won, lost]) => {
      const on = chosen && chosen[0] === won && chosen[1] === lost;
      return h("button", {
        type: "button",
        class: `mr-score${on ? " primary" : ""}`,
        "aria-pressed": on ? "true" : "false",
        dataset: { score: `${won}-${lost}` },
        text: `${won}-${lost}`,
        onclick: () => {
          chosen = [won, lost];
          render();
        },
      });
    });
    const drawn = h(
      "label",
      { class: "mr-draws" },
      "Drawn games ",
      h("input", {
        id: "mr-draws",
        type: "number",
        min: "0",
        max: "3",
        inputmode: "numeric",
        value: String(draws),
        oninput: (e) => {
          draws = Math.max(0, Number.parseInt(e.target.value, 10) || 0);
        },
      }),
    );
    const hint = pw + pl + view.prefill.draws > 0 ? `The ledger's games say ${scoreText(pw, pl, view.prefill.draws)}.` : "Choose the score: your wins first.";
    const send = h("button", {
      id: "mr-report",
      type: "button",
      class: "primary mr-send",
      disabled: chosen ? null : true,
      text: chosen ? `Report ${scoreText(chosen[0], chosen[1], draws)}` : "Report",
      onclick: () => {
        if (!chosen) return;
        const wins = { [me()]: chosen[0], [opponent().player_id]: chosen[1] };
        write("", { wins, draws }, `Reported. ${opponent().name} confirms it.`);
      },
    });
    return [h("p", { class: "hint", text: hint }), h("div", { class: "t-buttons mr-scores", role: "group", "aria-label": "Score: your wins first" }, buttons), drawn, send];
  }

  function answerForm() {
    const [won, lost] = mineFirst(view.report.wins);
    const confirm = h("button", {
      id: "mr-confirm",
      type: "button",
      class: "primary mr-send",
      text: `Confirm ${scoreText(won, lost, view.report.draws)}`,
      onclick: () => write("/confirm", {}, "Confirmed: the result is recorded."),
    });
    const note = h("input", { id: "mr-note", type: "text", maxlength: "500", placeholder: "What happened (for the judge)" });
    const dispute = h("button", {
      id: "mr-dispute",
      type: "button",
      text: disputing ? "Send the dispute" : "Dispute",
      onclick: () => {
        if (!disputing) {
          disputing = true;
          render();
          return;
        }
        write("/dispute", note.value.trim() ? { note: note.value.trim() } : {}, "Disputed: a judge or the scorekeeper settles it.");
      },
    });
    return [h("div", { class: "t-buttons" }, confirm, dispute), disputing ? note : ""];
  }

  function render() {
    if (!view) return;
    container.hidden = false;
    const opp = opponent();
    meta.textContent = `Round ${view.round}, table ${view.table} · against ${opp.name}`;
    const parts = [];
    if (view.state === "final" && view.result) {
      const [won, lost] = mineFirst(view.result.wins);
      state.textContent = `Result recorded: ${scoreText(won, lost, view.result.draws)}.`;
    } else if (view.state === "disputed") {
      const [won, lost] = mineFirst(view.report.wins);
      state.textContent = `Disputed (${scoreText(won, lost, view.report.draws)}): the scorekeeper or a judge settles it.`;
    } else if (view.state === "pending") {
      const [won, lost] = mineFirst(view.report.wins);
      const text = scoreText(won, lost, view.report.draws);
      state.textContent = view.report.player === me() ? `You reported ${text}. Waiting for ${opp.name} to confirm.` : `${opp.name} reported ${text} for you (${won} won, ${lost} lost). Confirm it, or dispute it.`;
    } else {
      state.textContent = "Not reported yet.";
    }
    panel.dataset.state = view.state;
    if (view.can.includes("report")) parts.push(...reportForm());
    if (view.can.includes("confirm")) parts.push(...answerForm());
    body.replaceChildren(...parts);
  }

  let shown = "";
  let match = "";
  async function refresh() {
    try {
      const read = view || (round !== null && table !== null) ? path() : `${base}/my_result`;
      const next = await api(read);
      const print = JSON.stringify(next);
      view = next;
      if (print === shown) return; // a poll that changed nothing keeps what the player is typing
      shown = print;
      if (`${next.round}:${next.table}` !== match) {
        match = `${next.round}:${next.table}`;
        chosen = null;
        draws = 0;
        disputing = false;
      }
      render();
    } catch (err) {
      if (err && (err.status === 401 || err.status === 403 || HIDE.has(err.code))) {
        container.hidden = true;
        stop();
        return;
      }
      if (err && (err.code === "no_round_in_play" || err.code === "not_paired_this_round")) {
        container.hidden = false;
        state.textContent = err.code === "no_round_in_play" ? "The first round is not paired yet." : "You have no match this round.";
        return;
      }
      status.textContent = describeError(err);
      status.classList.add("bad");
    }
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
  }

  refresh();
  timer = setInterval(() => {
    if (!busy && !container.isConnected) stop();
    else if (!busy) {
      // Follow the player to the next round: read my_result again once this match is final.
      if (view && view.state === "final" && round === null) view = null;
      refresh();
    }
  }, POLL_MS);

  return {
    refresh,
    destroy() {
      stop();
      container.replaceChildren();
    },
  };
}
