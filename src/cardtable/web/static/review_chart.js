// The review's chart: the estimated win chance of one seat after each of its
// decisions, over the whole match (the analysis' `win_chances`), drawn as a small SVG
// by this code (no library): a line, a dot per decision (larger and coloured for the
// marked ones), the rounds' borders, and a cursor at the step on the board.  A click
// on the chart moves the review to the nearest step.

import { svg } from "./util.js";

const H = 170;
const LEFT = 38;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 22;
const MARKED = new Set(["inaccuracy", "mistake", "blunder"]);

function text(x, y, words, cls) {
  const e = svg("text", { x, y, class: cls });
  e.textContent = words;
  return e;
}

/**
 * The chart of `analysis` for a match of `steps` moves: `at` is the step shown,
 * `pick(step)` is called with the step clicked, `title` is the chart's accessible name,
 * `pct(x)` formats a chance, `describe(decision)` says what a dot stands for.
 */
export function winChart(analysis, { steps, at, pick, title, pct, describe }) {
  const W = window.innerWidth < 600 ? 380 : 640; // a phone's chart is drawn narrower, not just smaller
  const x = (step) => LEFT + ((W - LEFT - RIGHT) * step) / Math.max(1, steps);
  const y = (chance) => TOP + (H - TOP - BOTTOM) * (1 - chance);
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "win-chart", role: "img", "aria-label": title });
  for (const level of [0, 0.5, 1]) {
    plot.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(level), y2: y(level), class: level === 0.5 ? "even" : "grid" }));
    plot.append(text(LEFT - 4, y(level) + 4, pct(level), "axis"));
  }
  const decisions = analysis.decisions;
  decisions.forEach((d, i) => {
    if (i && d.round !== decisions[i - 1].round) {
      const border = (x(decisions[i - 1].ply + 1) + x(d.ply + 1)) / 2;
      plot.append(svg("line", { x1: border, x2: border, y1: TOP, y2: H - BOTTOM, class: "round-border" }));
    }
  });
  plot.append(text(LEFT, H - 6, "0", "axis start"));
  plot.append(text(W - RIGHT, H - 6, String(steps), "axis end"));
  if (decisions.length) {
    plot.append(svg("polyline", { class: "line",
      points: decisions.map((d) => `${x(d.ply + 1).toFixed(1)},${y(d.win_played).toFixed(1)}`).join(" ") }));
  }
  for (const d of decisions) {
    const dot = svg("circle", { cx: x(d.ply + 1), cy: y(d.win_played), r: MARKED.has(d.category) ? 4.5 : 2,
      class: `dot mark-${d.category}`, "data-step": d.ply + 1 });
    const tip = svg("title");
    tip.textContent = describe(d);
    dot.append(tip);
    plot.append(dot);
  }
  plot.append(svg("line", { x1: x(at), x2: x(at), y1: TOP, y2: H - BOTTOM, class: "cursor", "data-step": at }));
  plot.addEventListener("click", (ev) => {
    const box = plot.getBoundingClientRect();
    const vx = ((ev.clientX - box.left) * W) / box.width;
    pick(Math.round(((vx - LEFT) * steps) / (W - LEFT - RIGHT)));
  });
  return plot;
}
