/**
 * The gradient check's log–log plot (SPEC.md §7): error of the difference quotient
 * against h, one line per leaf; the V the article describes. Plain SVG drawn at the
 * container's own width (so text stays readable on a phone), coloured with the
 * player's theme tokens, and each leaf also told apart by its marker shape and a
 * legend. The numbers come from gradcheck.js's plotData.
 *
 * Why not Observable Plot: it ships as a UMD bundle (≈210 kB) over the whole of d3
 * (≈280 kB), not as a self-contained ES module, so it would need globals and its
 * own loading path in the page and in standalone exports, for one chart of a few
 * dozen points whose axes are whole decades.
 */
import { decadeLabel, plotData } from "./gradcheck.js";
import { svg } from "../player/svg.js";

/** Series past this many are left out of the plot (the table lists them all). */
export const MOST_SERIES = 6;
const SHAPES = ["circle", "square", "triangle", "diamond", "cross", "bar"];
const MARGIN = { top: 14, right: 14, bottom: 44, left: 58 };
/** The least distance between two x labels' centres: a label's width and a gap. */
const MIN_X_LABEL_SPACING = 48;

/**
 * A marker of a given shape centred at 0,0.
 * @param {string} shape
 * @param {SVGElement} parent
 */
function marker(shape, parent) {
  const r = 4.2;
  if (shape === "circle") return svg("circle", { r }, parent);
  if (shape === "square") return svg("rect", { x: -r, y: -r, width: 2 * r, height: 2 * r }, parent);
  if (shape === "triangle")
    return svg("path", { d: `M0,${-r - 1}L${r + 1},${r}L${-r - 1},${r}Z` }, parent);
  if (shape === "diamond")
    return svg("path", { d: `M0,${-r - 1}L${r + 1},0L0,${r + 1}L${-r - 1},0Z` }, parent);
  if (shape === "cross")
    return svg(
      "path",
      { d: `M${-r},${-r}L${r},${r}M${-r},${r}L${r},${-r}`, class: "is-stroke" },
      parent,
    );
  return svg("path", { d: `M${-r - 1},0L${r + 1},0`, class: "is-stroke" }, parent);
}

/**
 * @typedef {{
 *   width: number, height: number, inner: {width: number, height: number},
 *   sx: (x: number) => number, sy: (y: number) => number
 * }} PlotFrame  the plot's size and its scales from log10 values to pixels
 */

/**
 * The plot's size at a container width, and its scales.
 * @param {import("./gradcheck.js").PlotData} data
 * @param {number} clientWidth  the container's width, 0 when not laid out
 * @returns {PlotFrame}
 */
function plotFrame(data, clientWidth) {
  const width = Math.max(280, Math.min(720, clientWidth || 560));
  const height = Math.round(Math.max(220, Math.min(320, width * 0.62)));
  const inner = {
    width: width - MARGIN.left - MARGIN.right,
    height: height - MARGIN.top - MARGIN.bottom,
  };
  const sx = (/** @type {number} */ x) =>
    MARGIN.left + ((x - data.x[0]) / (data.x[1] - data.x[0])) * inner.width;
  const sy = (/** @type {number} */ y) =>
    MARGIN.top + (1 - (y - data.y[0]) / (data.y[1] - data.y[0])) * inner.height;
  return { width, height, inner, sx, sy };
}

/**
 * The grid, tick labels, exact-zero floor, frame and axis titles.
 * @param {SVGElement} root
 * @param {import("./gradcheck.js").PlotData} data
 * @param {PlotFrame} frame
 */
function drawAxes(root, data, { height, inner, sx, sy }) {
  const grid = svg("g", { class: "plot-grid" }, root);
  // On a phone the decades stand some 40 px apart and their labels ("1e−14", about 33 px)
  // ran into one another: then every other decade is labelled; each keeps its grid line.
  // The labels sit 18 px under the frame, clear of "0 (exact)" on its bottom edge.
  const spacing = data.xTicks.length > 1 ? sx(data.xTicks[1]) - sx(data.xTicks[0]) : Infinity;
  const labelEvery = spacing < MIN_X_LABEL_SPACING ? 2 : 1;
  for (const [index, t] of data.xTicks.entries()) {
    svg("line", { x1: sx(t), x2: sx(t), y1: MARGIN.top, y2: MARGIN.top + inner.height }, grid);
    if (index % labelEvery !== 0) continue;
    svg(
      "text",
      { class: "plot-tick", x: sx(t), y: MARGIN.top + inner.height + 18, "text-anchor": "middle" },
      root,
    ).textContent = decadeLabel(t);
  }
  for (const t of data.yTicks) {
    svg("line", { x1: MARGIN.left, x2: MARGIN.left + inner.width, y1: sy(t), y2: sy(t) }, grid);
    const text = t === data.floor ? "0 (exact)" : decadeLabel(t);
    svg(
      "text",
      { class: "plot-tick", x: MARGIN.left - 6, y: sy(t), dy: "0.32em", "text-anchor": "end" },
      root,
    ).textContent = text;
  }
  if (data.floor !== null && !data.yTicks.includes(data.floor)) {
    svg(
      "text",
      {
        class: "plot-tick",
        x: MARGIN.left - 6,
        y: sy(data.floor),
        dy: "0.32em",
        "text-anchor": "end",
      },
      root,
    ).textContent = "0 (exact)";
  }
  if (data.floor !== null) {
    svg(
      "line",
      {
        class: "plot-floor",
        x1: MARGIN.left,
        x2: MARGIN.left + inner.width,
        y1: sy(data.floor),
        y2: sy(data.floor),
      },
      root,
    );
  }
  svg(
    "rect",
    {
      class: "plot-frame",
      x: MARGIN.left,
      y: MARGIN.top,
      width: inner.width,
      height: inner.height,
    },
    root,
  );
  svg(
    "text",
    {
      class: "plot-axis",
      x: MARGIN.left + inner.width / 2,
      y: height - 8,
      "text-anchor": "middle",
    },
    root,
  ).textContent = "step h (log scale)";
  svg(
    "text",
    {
      class: "plot-axis",
      transform: `translate(14,${MARGIN.top + inner.height / 2}) rotate(-90)`,
      "text-anchor": "middle",
    },
    root,
  ).textContent = "error (log scale)";
}

/**
 * One leaf's line, markers and the ring on the h the table shows.
 * @param {SVGElement} root
 * @param {import("./gradcheck.js").CheckSummary} summary
 * @param {import("./gradcheck.js").PlotData["series"][number]} series
 * @param {number} s  the series' index, which picks its colour and marker
 * @param {PlotFrame} frame
 */
function drawSeries(root, summary, series, s, { sx, sy }) {
  const group = svg("g", { class: `plot-series series-${s}`, "data-label": series.label }, root);
  const path = series.points
    .map((p, i) => `${i ? "L" : "M"}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`)
    .join("");
  if (path) svg("path", { class: "plot-line", d: path }, group);
  for (const p of series.points) {
    const point = svg(
      "g",
      {
        class: p.zero ? "plot-point is-zero" : "plot-point",
        "data-testid": "plot-point",
        transform: `translate(${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)})`,
      },
      group,
    );
    marker(SHAPES[s % SHAPES.length], point);
    svg("title", {}, point).textContent =
      `${series.label}: h = ${p.row.h}, numeric ${p.row.numeric}, error ${p.row.error}`;
  }
  if (summary.best) {
    const best = series.points.find((p) => p.row === summary.best || p.row.h === summary.best?.h);
    if (best) svg("circle", { class: "plot-best", r: 8.5, cx: sx(best.x), cy: sy(best.y) }, group);
  }
}

/**
 * The legend: each plotted leaf's marker and name.
 * @param {import("./gradcheck.js").CheckSummary[]} shown
 */
function buildLegend(shown) {
  const legend = document.createElement("ul");
  legend.className = "plot-legend";
  shown.forEach((summary, s) => {
    const item = document.createElement("li");
    const key = svg("svg", {
      class: `plot-key series-${s}`,
      viewBox: "-8 -8 16 16",
      width: 16,
      height: 16,
      "aria-hidden": "true",
    });
    marker(SHAPES[s % SHAPES.length], svg("g", { class: "plot-point" }, key));
    item.append(key, ` ${summary.name || summary.label || summary.node}`);
    legend.append(item);
  });
  return legend;
}

/**
 * The note under the plot: what was left out, and what the ring means.
 * @param {number} plotted
 * @param {number} total
 */
function buildNote(plotted, total) {
  const notes = [];
  if (total > plotted)
    notes.push(`The first ${plotted} of ${total} leaves are plotted; the table lists all.`);
  notes.push("A ring marks the h the table shows.");
  const note = document.createElement("p");
  note.className = "plot-note";
  note.textContent = notes.join(" ");
  return note;
}

/**
 * Draw the plot into `container`, replacing what was there.
 * @param {HTMLElement} container
 * @param {import("./gradcheck.js").CheckSummary[]} summaries
 * @param {{scheme?: string}} [options]
 */
export function drawGradcheckPlot(container, summaries, { scheme = "forward" } = {}) {
  const shown = summaries.slice(0, MOST_SERIES);
  const data = plotData(shown);
  const frame = plotFrame(data, container.clientWidth);
  const { width, height } = frame;
  const names = shown.map((summary) => summary.name || summary.label || summary.node).join(", ");
  const root = /** @type {SVGSVGElement} */ (
    svg("svg", {
      class: "gradcheck-svg",
      "data-testid": "gradcheck-plot",
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: "img",
      "aria-label":
        `Log–log plot of the ${scheme} difference's error against h for ${names}. ` +
        "The error falls as h shrinks, then rises again once rounding eats the digits. The table gives the numbers.",
    })
  );

  drawAxes(root, data, frame);
  shown.forEach((summary, s) => {
    drawSeries(root, summary, data.series[s], s, frame);
  });
  container.replaceChildren(root, buildLegend(shown), buildNote(shown.length, summaries.length));
}
