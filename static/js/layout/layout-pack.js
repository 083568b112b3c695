/**
 * A layout as a handful of typed arrays, and back: how a layout crosses from the
 * worker (transferred, not copied: structured cloning 20,000 records and 33,000
 * edges as objects costs a quarter of a second) and what the layout cache keeps.
 * Also the structure key that says when two graphs can share one layout.
 *
 * Example: unpackLayout(packLayout(layout)) deep-equals layout (points rounded as
 * the layouts round them); structureKey(input) is the same for the same program
 * with other numbers.
 */

import { visibleLabel } from "./layout-sizes.js";

/**
 * @typedef {{
 *   width: number, height: number, millis: number, engine?: string,
 *   records: Float64Array, ops: Float64Array,
 *   edgeIndex: Int32Array, pointStart: Int32Array, points: Float64Array,
 *   resultNode: Int32Array, resultStart: Int32Array, resultPoints: Float64Array
 * }} PackedLayout
 * records: x, y, width, labelWidth, valueWidth per node; ops: x, y per node (NaN: no op);
 * edgeIndex: child, parent, repeat per edge; pointStart[k]..pointStart[k + 1]: edge k's
 * points as x, y pairs (results likewise)
 */

/**
 * @param {import("./layout.js").Layout} layout
 * @returns {PackedLayout}
 */
export function packLayout(layout) {
  const n = layout.records.length;
  const records = new Float64Array(5 * n);
  const ops = new Float64Array(2 * n).fill(NaN);
  // Element by element: `set([...])` would make a small array per record and edge.
  layout.records.forEach((r, i) => {
    records[5 * i] = r.x;
    records[5 * i + 1] = r.y;
    records[5 * i + 2] = r.width;
    records[5 * i + 3] = r.labelWidth;
    records[5 * i + 4] = r.valueWidth;
  });
  layout.ops.forEach((op, i) => {
    if (!op) return;
    ops[2 * i] = op.x;
    ops[2 * i + 1] = op.y;
  });
  const edgeIndex = new Int32Array(3 * layout.edges.length);
  layout.edges.forEach((e, k) => {
    edgeIndex[3 * k] = e.child;
    edgeIndex[3 * k + 1] = e.parent;
    edgeIndex[3 * k + 2] = e.repeat;
  });
  const [pointStart, points] = packPoints(layout.edges.map((e) => e.points));
  const [resultStart, resultPoints] = packPoints(layout.results.map((r) => r.points));
  return {
    width: layout.width,
    height: layout.height,
    millis: layout.millis,
    engine: layout.engine,
    records,
    ops,
    edgeIndex,
    pointStart,
    points,
    resultNode: Int32Array.from(layout.results, (r) => r.node),
    resultStart,
    resultPoints,
  };
}

/**
 * @param {PackedLayout} packed
 * @returns {import("./layout.js").Layout}
 */
export function unpackLayout(packed) {
  const n = packed.records.length / 5;
  const { records: r, ops: o, edgeIndex } = packed;
  const records = Array.from({ length: n }, (_, i) => ({
    x: r[5 * i],
    y: r[5 * i + 1],
    width: r[5 * i + 2],
    labelWidth: r[5 * i + 3],
    valueWidth: r[5 * i + 4],
  }));
  const ops = Array.from({ length: n }, (_, i) =>
    Number.isNaN(o[2 * i]) ? null : { x: o[2 * i], y: o[2 * i + 1] },
  );
  const edges = Array.from({ length: edgeIndex.length / 3 }, (_, k) => ({
    child: edgeIndex[3 * k],
    parent: edgeIndex[3 * k + 1],
    repeat: edgeIndex[3 * k + 2],
    points: unpackPoints(packed.pointStart, packed.points, k),
  }));
  const results = Array.from(packed.resultNode, (node, k) => ({
    node,
    points: unpackPoints(packed.resultStart, packed.resultPoints, k),
  }));
  const layout = {
    width: packed.width,
    height: packed.height,
    records,
    ops,
    edges,
    results,
    millis: packed.millis,
  };
  return packed.engine === undefined ? layout : { ...layout, engine: packed.engine };
}

/** The buffers a packed layout can hand over to another thread. @param {PackedLayout} packed */
export function transferables(packed) {
  return [
    packed.records,
    packed.ops,
    packed.edgeIndex,
    packed.pointStart,
    packed.points,
    packed.resultNode,
    packed.resultStart,
    packed.resultPoints,
  ].map((array) => array.buffer);
}

/**
 * @typedef {{
 *   labelChars: Uint8Array, hasOp: Uint8Array, edges: Int32Array, order: Int32Array,
 *   output: number, valueChars?: number, clusters?: Int32Array
 * }} PackedInput
 * labelChars: each label's length as drawn (visibleLabel); hasOp: 0 for no op, else the
 * length of its glyph (the width of its shape); edges: child, parent per edge;
 * clusters: per value the value (a closed box) it is drawn beside, or -1
 */

/**
 * A layout input as typed arrays, for the trip to the layout worker: a layout sees
 * label widths and whether a value has an op, not the text, so the lengths are
 * enough, and typed arrays are transferred where 20,000 node objects would be
 * structured-cloned (about a tenth of a second each way).
 * @param {import("./layout.js").LayoutInput} input
 * @returns {PackedInput}
 */
export function packInput(input) {
  const n = input.nodes.length;
  const labelChars = new Uint8Array(n);
  const hasOp = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    labelChars[i] = visibleLabel(input.nodes[i].label).length;
    const { op, opChars = 1 } = input.nodes[i];
    hasOp[i] = op ? Math.min(255, Math.max(1, opChars)) : 0;
  }
  const edges = new Int32Array(2 * input.edges.length);
  input.edges.forEach((edge, k) => {
    edges[2 * k] = edge.child;
    edges[2 * k + 1] = edge.parent;
  });
  return {
    labelChars,
    hasOp,
    edges,
    order: Int32Array.from(input.order),
    output: input.output,
    ...(input.valueChars === undefined ? {} : { valueChars: input.valueChars }),
    ...(input.nodes.some((node) => (node.cluster ?? -1) >= 0)
      ? { clusters: Int32Array.from(input.nodes, (node) => node.cluster ?? -1) }
      : {}),
  };
}

/**
 * The input a layout needs back from `packInput`: labels of the drawn length (the
 * text is a placeholder), ops as "op" or "". Lays out exactly as the original input.
 * @param {PackedInput} packed
 * @returns {import("./layout.js").LayoutInput}
 */
export function unpackInput(packed) {
  const nodes = Array.from(packed.labelChars, (chars, i) => ({
    label: PLACEHOLDER.slice(0, chars),
    op: packed.hasOp[i] ? "op" : "",
    opChars: packed.hasOp[i],
    ...(packed.clusters ? { cluster: packed.clusters[i] } : {}),
  }));
  const edges = Array.from({ length: packed.edges.length / 2 }, (_, k) => ({
    child: packed.edges[2 * k],
    parent: packed.edges[2 * k + 1],
  }));
  return {
    nodes,
    edges,
    order: Array.from(packed.order),
    output: packed.output,
    ...(packed.valueChars === undefined ? {} : { valueChars: packed.valueChars }),
  };
}

/** Long enough for any drawn label (visibleLabel cuts at SIZES.maxLabelChars). */
const PLACEHOLDER = "x".repeat(64);

/**
 * A short key for everything a layout depends on, from the packed input: the length
 * of each label as drawn (the layout sees widths, not text), which values have an op,
 * edges, the topo order, the output and the widest number. Numbers themselves do not
 * count, so another pass or the same program with new inputs reuses the layout; nor
 * do op names (`+` and `*` are drawn in the same circle). (53-bit hash, cyrb53.)
 * @param {PackedInput} input
 */
export function structureKey(input) {
  const size = input.labelChars.length;
  let h1 = 0xdeadbeef ^ size;
  let h2 = 0x41c6ce57 ^ (input.edges.length / 2);
  const mix = (/** @type {number} */ value) => {
    h1 = Math.imul(h1 ^ value, 2654435761);
    h2 = Math.imul(h2 ^ value, 1597334677);
  };
  for (let i = 0; i < size; i++) mix(input.labelChars[i] + 256 * input.hasOp[i]);
  for (const v of input.edges) mix(v);
  for (const v of input.order) mix(v);
  mix(input.output);
  mix(input.valueChars ?? -1);
  if (input.clusters) for (const v of input.clusters) mix(v);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${size}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

/**
 * @param {Array<Array<{x: number, y: number}>>} lists
 * @returns {[Int32Array, Float64Array]}
 */
function packPoints(lists) {
  const start = new Int32Array(lists.length + 1);
  lists.forEach((list, k) => {
    start[k + 1] = start[k] + list.length;
  });
  const xy = new Float64Array(2 * start[lists.length]);
  lists.forEach((list, k) => {
    list.forEach((p, j) => {
      xy[2 * (start[k] + j)] = p.x;
      xy[2 * (start[k] + j) + 1] = p.y;
    });
  });
  return [start, xy];
}

/**
 * @param {Int32Array} start
 * @param {Float64Array} xy
 * @param {number} k
 */
function unpackPoints(start, xy, k) {
  const points = [];
  for (let j = start[k]; j < start[k + 1]; j++) points.push({ x: xy[2 * j], y: xy[2 * j + 1] });
  return points;
}
