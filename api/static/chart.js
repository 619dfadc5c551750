/* Life and counters over the game: an SVG chart with one point per action (the state after its
 * last event), drawn from the server's state at those versions, so the page needs no copy of
 * what any event does. Drawn when its panel is opened, again after new events while it is open.
 * A table under the chart gives the same numbers to screen readers and keyboards.
 */

import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const MAX_POINTS = 150;
const REQUESTS = 4;
const W = 640;
const H = 240;
const PAD = { left: 36, right: 12, top: 10, bottom: 24 };
const COLOURS = ["#1f5fbf", "#b3261e", "#1d7a3a", "#8a5a00", "#6b3fa0", "#00838f", "#c2185b", "#455a64"];

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** The version each action ends at (the record's events in order), at most MAX_POINTS of them. */
export function actionEnds(events) {
  const ends = [];
  events.forEach((event, i) => {
    const next = events[i + 1];
    if (!next || next.action_id !== event.action_id) ends.push(event.version);
  });
  if (ends.length <= MAX_POINTS) return ends;
  const step = (ends.length - 1) / (MAX_POINTS - 1);
  return [...new Set(Array.from({ length: MAX_POINTS }, (_, i) => ends[Math.round(i * step)]))];
}

/** Series {label, values[]} from the states: each player's life, then each counter kind a player
 * has at some point (poison, rad, energy, …). */
export function seriesOf(states) {
  const players = new Map();
  for (const state of states) for (const [id, p] of Object.entries(state.players || {})) if (!players.has(id)) players.set(id, p.name || id);
  const series = [];
  for (const [id, name] of players) {
    series.push({ key: `${id}.life`, label: `${name}: life`, values: states.map((s) => (s.players[id] ? s.players[id].life : null)), dashed: false });
    const kinds = new Set();
    for (const s of states) for (const [kind, n] of Object.entries((s.players[id] && s.players[id].counters) || {})) if (n > 0) kinds.add(kind);
    for (const kind of [...kinds].sort()) {
      series.push({
        key: `${id}.${kind}`,
        label: `${name}: ${kind}`,
        values: states.map((s) => (s.players[id] ? (s.players[id].counters || {})[kind] || 0 : null)),
        dashed: true,
      });
    }
  }
  return series;
}

export class LifeChart {
  /** `root`: the chart's container; `source`: {events(), stateAt(v)}. */
  constructor(root, source) {
    this.root = root;
    this.source = source;
    this.generation = 0;
  }

  async draw() {
    const generation = ++this.generation;
    const versions = actionEnds(this.source.events());
    if (!versions.length) return;
    const states = new Array(versions.length);
    let next = 0;
    const worker = async () => {
      while (next < versions.length) {
        const i = next++;
        states[i] = await this.source.stateAt(versions[i]);
      }
    };
    try {
      await Promise.all(Array.from({ length: REQUESTS }, worker));
    } catch {
      this.root.replaceChildren(h("p", { class: "hint", text: "The chart could not be drawn: a state did not load." }));
      return;
    }
    if (generation !== this.generation) return;
    this.render(versions, states);
  }

  render(versions, states) {
    const series = seriesOf(states);
    const all = series.flatMap((s) => s.values).filter((v) => v !== null);
    const lo = Math.min(0, ...all);
    const hi = Math.max(1, ...all);
    const x = (i) => PAD.left + (versions.length === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (versions.length - 1));
    const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo || 1);
    const grid = [];
    const ticks = 4;
    for (let t = 0; t <= ticks; t += 1) {
      const value = Math.round(lo + ((hi - lo) * t) / ticks);
      grid.push(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(value), y2: y(value), class: "grid" }));
      grid.push(svg("text", { x: PAD.left - 4, y: y(value) + 4, "text-anchor": "end", class: "tick" }, value));
    }
    grid.push(svg("text", { x: PAD.left, y: H - 6, class: "tick" }, `v${versions[0]}`));
    grid.push(svg("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end", class: "tick" }, `v${versions[versions.length - 1]}`));
    const lines = series.map((s, i) => {
      const points = s.values.map((v, j) => (v === null ? null : `${x(j).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
      return svg("polyline", {
        points: points.join(" "),
        fill: "none",
        stroke: COLOURS[i % COLOURS.length],
        "stroke-width": s.dashed ? 1.5 : 2.5,
        "stroke-dasharray": s.dashed ? "5 3" : "none",
        "data-series": s.key,
      });
    });
    const summary = series.map((s) => `${s.label} ${s.values[0]} to ${s.values[s.values.length - 1]}`).join("; ");
    const chart = svg(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "chart-title chart-desc", class: "chart", preserveAspectRatio: "none" },
      svg("title", { id: "chart-title" }, "Life and counters over the game"),
      svg("desc", { id: "chart-desc" }, `One point per action, versions ${versions[0]} to ${versions[versions.length - 1]}: ${summary}.`),
      ...grid,
      ...lines,
    );
    const legend = h(
      "ul",
      { class: "chart-legend" },
      series.map((s, i) => h("li", {}, h("span", { class: "swatch" + (s.dashed ? " dashed" : ""), "aria-hidden": "true", dataset: { colour: i % COLOURS.length } }), s.label)),
    );
    const table = h(
      "details",
      { class: "chart-numbers" },
      h("summary", { text: "The numbers" }),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "games" },
          h("caption", { class: "visually-hidden", text: "Life and counters after each action" }),
          h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Version" }), series.map((s) => h("th", { scope: "col", text: s.label })))),
          h("tbody", {}, versions.map((v, j) => h("tr", {}, h("th", { scope: "row", text: v }), series.map((s) => h("td", { class: "num", text: s.values[j] ?? "" }))))),
        ),
      ),
    );
    this.root.replaceChildren(chart, legend, table);
  }
}
