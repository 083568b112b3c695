/**
 * The far view: every value in view as a box coloured by its role and every edge as
 * a hairline, painted on one canvas. Used when the graph is zoomed out too far to
 * read numbers or holds too many records in view for SVG (graph-camera.js's
 * levelOfDetail). A 20,000-value graph paints in a few milliseconds because nothing
 * here is a DOM node; the table of values below the graph carries the numbers.
 */

/** Fill colour (a CSS custom property of the theme) per role. */
const ROLE_COLOURS = /** @type {Record<string, string>} */ ({
  idle: "--edge",
  done: "--done",
  new: "--build",
  operand: "--build",
  active: "--active",
  receiving: "--active",
});

/**
 * @typedef {{
 *   layout: import("../layout/layout.js").Layout, bounds: Float64Array, edgeEnds: Float64Array,
 *   edgeParent: Int32Array, edgeChild: Int32Array, hidden: Uint8Array
 * }} FarScene
 * edgeEnds: x1, y1, x2, y2 per edge; hidden: values left out (folded)
 */

/**
 * The parts of a layout the far view needs, as typed arrays.
 * @param {import("../layout/layout.js").Layout} layout
 * @param {Float64Array} bounds  graph-culling.js's nodeBounds
 * @returns {FarScene}
 */
export function farScene(layout, bounds) {
  const count = layout.edges.length;
  const edgeEnds = new Float64Array(4 * count);
  const edgeParent = new Int32Array(count);
  const edgeChild = new Int32Array(count);
  layout.edges.forEach((edge, k) => {
    const first = edge.points[0];
    const last = edge.points[edge.points.length - 1];
    edgeEnds.set([first.x, first.y, last.x, last.y], 4 * k);
    edgeParent[k] = edge.parent;
    edgeChild[k] = edge.child;
  });
  return {
    layout,
    bounds,
    edgeEnds,
    edgeParent,
    edgeChild,
    hidden: new Uint8Array(layout.records.length),
  };
}

/**
 * Paint the far view of one frame.
 * @param {HTMLCanvasElement} canvas  sized by the caller to the view's box
 * @param {FarScene} scene
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {import("./view-transform.js").View} view
 * @param {import("./view-transform.js").Size} size  the box in CSS pixels
 * @param {Array<{left: number, top: number, right: number, bottom: number, label: string}>} folds
 */
export function drawFar(canvas, scene, state, view, size, folds = []) {
  const ratio = globalThis.devicePixelRatio || 1;
  const width = Math.round(size.width * ratio);
  const height = Math.round(size.height * ratio);
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  const context = canvas.getContext("2d");
  if (!context) return;
  const style = getComputedStyle(canvas);
  const colour = (/** @type {string} */ name) => style.getPropertyValue(name).trim() || "#888";
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, width, height);
  context.setTransform(ratio * view.k, 0, 0, ratio * view.k, ratio * view.x, ratio * view.y);
  const left = -view.x / view.k;
  const top = -view.y / view.k;
  const right = left + size.width / view.k;
  const bottom = top + size.height / view.k;
  const { bounds, edgeEnds, edgeParent, edgeChild, hidden } = scene;

  context.beginPath();
  for (let k = 0; k < edgeParent.length; k++) {
    const parent = edgeParent[k];
    const child = edgeChild[k];
    if (!state.visible[parent] || !state.visible[child] || hidden[parent] || hidden[child])
      continue;
    const x1 = edgeEnds[4 * k];
    const y1 = edgeEnds[4 * k + 1];
    const x2 = edgeEnds[4 * k + 2];
    const y2 = edgeEnds[4 * k + 3];
    if (
      Math.max(x1, x2) < left ||
      Math.min(x1, x2) > right ||
      Math.max(y1, y2) < top ||
      Math.min(y1, y2) > bottom
    )
      continue;
    context.moveTo(x1, y1);
    context.lineTo(x2, y2);
  }
  context.strokeStyle = colour("--edge");
  context.globalAlpha = 0.45;
  context.lineWidth = 1 / view.k;
  context.stroke();
  context.globalAlpha = 1;

  /** @type {Map<string, number[]>} */
  const byColour = new Map();
  for (let i = 0; i < hidden.length; i++) {
    if (!state.visible[i] || hidden[i]) continue;
    if (
      bounds[4 * i + 2] < left ||
      bounds[4 * i] > right ||
      bounds[4 * i + 3] < top ||
      bounds[4 * i + 1] > bottom
    )
      continue;
    const name = ROLE_COLOURS[state.roles[i]] ?? "--edge";
    const list = byColour.get(name);
    if (list) list.push(i);
    else byColour.set(name, [i]);
  }
  // At least one screen pixel each way, so a far view still shows every value.
  const minimum = 1.5 / view.k;
  for (const [name, list] of byColour) {
    context.beginPath();
    for (const i of list) {
      const w = Math.max(minimum, bounds[4 * i + 2] - bounds[4 * i]);
      const h = Math.max(minimum, bounds[4 * i + 3] - bounds[4 * i + 1]);
      context.rect(bounds[4 * i], bounds[4 * i + 1], w, h);
    }
    context.fillStyle = colour(name);
    context.fill();
  }

  context.lineWidth = 1.5 / view.k;
  context.strokeStyle = colour("--sort");
  for (const fold of folds)
    context.strokeRect(fold.left, fold.top, fold.right - fold.left, fold.bottom - fold.top);

  // The current value gets a ring of a fixed screen size: findable at any zoom.
  if (state.current >= 0 && !hidden[state.current]) {
    const i = state.current;
    const cx = (bounds[4 * i] + bounds[4 * i + 2]) / 2;
    const cy = (bounds[4 * i + 1] + bounds[4 * i + 3]) / 2;
    context.beginPath();
    context.arc(
      cx,
      cy,
      Math.max(12 / view.k, (bounds[4 * i + 2] - bounds[4 * i]) / 2 + 6 / view.k),
      0,
      2 * Math.PI,
    );
    context.lineWidth = 3 / view.k;
    context.strokeStyle = colour(state.phase === "backward" ? "--active" : "--build");
    context.stroke();
  }
}
