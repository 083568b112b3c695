/**
 * The loss chart (SPEC.md §11, `[data-testid=loss-chart]`): each pass's output
 * `data` as a line of points, the current pass marked; a point is a button that
 * jumps to the start of its pass. Only a training loop's passes are charted
 * (loopRun): the backward() calls of a test file run unrelated graphs, and a line
 * through their outputs would read as a loss curve. The geometry is a pure function
 * (chartGeometry), the SVG a mount function with an idempotent update(state).
 */
import { formatValue } from "../player/format.js";
import { svg } from "../player/svg.js";

const WIDTH = 320;
const HEIGHT = 100;
const PAD = { left: 50, right: 12, top: 12, bottom: 22 };

/**
 * A name the program gave a value, where it keeps it (`loss`, `model.layers[0].out`):
 * not one the engine made of its expression or data (`3**2`, `the + node`).
 */
const KEPT_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*$/;

/**
 * Whether pass p is the next step of the loop pass p − 1 ran: it builds a new graph
 * (its output is another node) of the same size, and either the program changed some
 * data between them (an optimizer step) or both outputs bear the same name the program
 * gave them (a loop that makes its parameters anew each step, `w = Value(w.data - …)`,
 * or whose step changed nothing). A test file's tests each build their own graph:
 * no data changes between them, and their outputs are named apart or by their data.
 * @param {import("./timeline.js").Timeline} timeline  with passes
 * @param {string[]} names  node index -> name
 * @param {number} p  ≥ 1
 */
function continuesLoop(timeline, names, p) {
  const passes = /** @type {import("./passes.js").PassInfo[]} */ (timeline.passes);
  const before = passes[p - 1];
  const pass = passes[p];
  if (pass.output === before.output) return false;
  let size = 0;
  let sizeBefore = 0;
  for (let i = 0; i < pass.member.length; i++) {
    size += pass.member[i];
    sizeBefore += before.member[i];
  }
  if (size !== sizeBefore) return false;
  const frames = timeline.trace.frames;
  for (let k = Math.max(before.sortFrame, 0); k < pass.start; k++) {
    const frame = frames[k];
    if (frame.phase === "update" && frame.changes.some((change) => change.field === "data"))
      return true;
  }
  const name = names[pass.output];
  return name === names[before.output] && KEPT_NAME.test(name);
}

/**
 * The passes the chart plots, [first, last] inclusive: the longest run of passes that
 * are one loop's steps (the latest of equal runs), or null when no two are.
 * Example: a unittest file whose tests each call backward() -> null; the micrograd
 *   lecture's two single-neuron passes and then its 20 training steps -> [2, 21].
 * @param {import("./timeline.js").Timeline} timeline  with passes
 * @param {string[]} names
 * @returns {[number, number] | null}
 */
export function loopRun(timeline, names) {
  const count = timeline.passes?.length ?? 0;
  /** @type {[number, number] | null} */ let best = null;
  let first = 0;
  for (let p = 1; p <= count; p++) {
    if (p < count && continuesLoop(timeline, names, p)) continue;
    if (p - 1 > first && (!best || p - 1 - first >= best[1] - best[0])) best = [first, p - 1];
    first = p;
  }
  return best;
}

/**
 * Where each pass's value goes in a width × height box with the chart's padding,
 * plus the value range drawn. A flat series sits in the middle.
 * Example: chartGeometry([1, 0.64], 320, 120) -> points at x 50 and 308, the first
 *   at the top (y 12), the second at the bottom (y 78); range {low: 0.64, high: 1}.
 * @param {number[]} values
 * @param {number} [width]
 * @param {number} [height]
 */
export function chartGeometry(values, width = WIDTH, height = HEIGHT) {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const spanX = width - PAD.left - PAD.right;
  const spanY = height - PAD.top - PAD.bottom;
  const points = values.map((value, p) => ({
    x: PAD.left + (values.length === 1 ? spanX / 2 : (p * spanX) / (values.length - 1)),
    y: high === low ? PAD.top + spanY / 2 : PAD.top + ((high - value) * spanY) / (high - low),
    value,
  }));
  return { points, low, high, width, height, pad: PAD };
}

/**
 * @param {HTMLElement} container
 * @param {{values: number[], starts: number[], first?: number, outputName: string,
 *   onSeek: (frame: number) => void}} options
 *   values: the charted passes' output data; starts: their first frames; first: the
 *   first charted pass's index (0 unless the chart starts later)
 */
export function mountLossChart(container, { values, starts, first = 0, outputName, onSeek }) {
  const geometry = chartGeometry(values);
  const title = `${outputName} after each forward pass`;
  const chart = /** @type {SVGSVGElement} */ (
    svg("svg", {
      class: "loss-chart",
      "data-testid": "loss-chart",
      viewBox: `0 0 ${geometry.width} ${geometry.height}`,
      role: "group",
      "aria-label": `Chart: ${title}, pass ${first + 1} to ${first + values.length}`,
    })
  );
  const { pad } = geometry;
  const axis = svg("g", { class: "loss-axis", "aria-hidden": "true" }, chart);
  svg("line", { x1: pad.left, x2: pad.left, y1: pad.top, y2: geometry.height - pad.bottom }, axis);
  svg(
    "line",
    {
      x1: pad.left,
      x2: geometry.width - pad.right,
      y1: geometry.height - pad.bottom,
      y2: geometry.height - pad.bottom,
    },
    axis,
  );
  const label = (/** @type {string} */ text, /** @type {Record<string, number | string>} */ at) => {
    svg("text", at, axis).textContent = text;
  };
  label(formatValue(geometry.high), { x: pad.left - 8, y: pad.top + 4, "text-anchor": "end" });
  if (geometry.high !== geometry.low)
    label(formatValue(geometry.low), {
      x: pad.left - 8,
      y: geometry.height - pad.bottom,
      "text-anchor": "end",
    });
  label(`pass ${first + 1}`, { x: pad.left, y: geometry.height - 6, "text-anchor": "start" });
  if (values.length > 1)
    label(String(first + values.length), {
      x: geometry.width - pad.right,
      y: geometry.height - 6,
      "text-anchor": "end",
    });
  svg(
    "polyline",
    {
      class: "loss-line",
      "aria-hidden": "true",
      points: geometry.points.map((p) => `${p.x},${p.y}`).join(" "),
    },
    chart,
  );
  const marks = geometry.points.map((point, p) => {
    const mark = svg(
      "g",
      {
        class: "loss-point",
        "data-testid": "loss-point",
        tabindex: 0,
        role: "button",
        "data-pass": first + p,
        "aria-label": `Pass ${first + p + 1}: ${outputName} = ${formatValue(point.value)}. Go to this pass.`,
      },
      chart,
    );
    // The tooltip repeats the accessible name, so what is shown and what is read agree.
    svg("title", {}, mark).textContent = /** @type {string} */ (mark.getAttribute("aria-label"));
    svg("circle", { class: "loss-hit", cx: point.x, cy: point.y, r: 10 }, mark);
    svg(
      "circle",
      { class: "loss-dot", "data-testid": "loss-dot", cx: point.x, cy: point.y, r: 3.5 },
      mark,
    );
    const go = () => onSeek(starts[p]);
    mark.addEventListener("click", go);
    mark.addEventListener("keydown", (/** @type {Event} */ event) => {
      const key = /** @type {KeyboardEvent} */ (event).key;
      if (key !== "Enter" && key !== " ") return;
      event.preventDefault();
      event.stopPropagation();
      go();
    });
    return mark;
  });
  container.replaceChildren(chart);
  let shown = Number.NaN;

  /** @param {{pass?: number}} state */
  function update(state) {
    const pass = (state.pass ?? 0) - first;
    if (pass === shown) return;
    if (shown >= 0) marks[shown]?.removeAttribute("aria-current");
    marks[shown]?.classList.remove("is-current");
    shown = pass;
    marks[pass]?.classList.add("is-current");
    marks[pass]?.setAttribute("aria-current", "step");
    chart.setAttribute("data-current-pass", String(first + pass));
  }
  return { update };
}
