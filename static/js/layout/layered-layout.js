/**
 * A fast layered layout for big graphs, where dagre takes seconds (measured on a
 * 1,962-node MLP: dagre 3.1.3 ≈ 4 s in Node, this ≈ 40 ms). Same output shape as
 * dagre's path in layout.js, with less polish: no dummy nodes for long edges and
 * a few barycentre sweeps instead of full crossing minimisation.
 *
 * Steps: rank every value by its longest path to the output (so a leaf sits just
 * left of its first use, the output at the right); order each column by the
 * depth-first order, then by the mean position of neighbours, sweeping both ways;
 * place each node as near that mean as the spacing allows (the average of a
 * top-down and a bottom-up packing keeps order and spacing).
 */
import { unpackLayout, packInput } from "./layout-pack.js";
import { SIZES, opWidth, recordCells, topoBadgeWidth } from "./layout-sizes.js";

const SWEEPS = 8;
/** Layout units kept between a record's topo badge and its op's shape. */
const BADGE_CLEARANCE = 3;

/**
 * @param {{nodes: Array<{label: string, op: string}>, edges: Array<{child: number, parent: number}>,
 *   order: number[], output: number, valueChars?: number}} graph  order: node indices children-first (the topo order)
 * @param {{nodesep: number, ranksep: number, margin: number}} spacing
 * @returns {import("./layout.js").Layout}
 */
export function layeredLayout(graph, spacing) {
  return unpackLayout(layeredLayoutPacked(packInput(graph), spacing));
}

/**
 * The same layout from a packed input to a packed layout (layout-pack.js), all in typed
 * arrays: the layout worker's path, which makes no object per node or edge (at 20,000
 * values those objects and their garbage were most of the layout's time).
 * @param {import("./layout-pack.js").PackedInput} input
 * @param {{nodesep: number, ranksep: number, margin: number}} spacing
 * @returns {import("./layout-pack.js").PackedLayout}
 */
export function layeredLayoutPacked(input, spacing) {
  const started = Date.now();
  const size = input.labelChars.length;
  const edgeCount = input.edges.length / 2;
  const { edges, order } = input;
  const near = adjacency(edges, size);
  const rank = rankNodes(order, near);
  let maxRank = 0;
  for (let v = 0; v < size; v++) maxRank = Math.max(maxRank, rank[v]);
  const { layerStart, layerNodes } = columns(order, rank, maxRank);
  const y = orderColumns(near, layerStart, layerNodes, SIZES.recordHeight + spacing.nodesep);

  let top = Infinity;
  for (let v = 0; v < size; v++) top = Math.min(top, y[v]);
  // Widths by label length (labels are at most SIZES.maxLabelChars when drawn).
  const cellsByChars = Array.from({ length: 256 }, (_, chars) =>
    recordCells("x".repeat(Math.min(chars, SIZES.maxLabelChars)), input.valueChars),
  );
  const columnWidth = new Float64Array(maxRank + 1).fill(-Infinity);
  for (let v = 0; v < size; v++)
    if (rank[v] >= 0)
      columnWidth[rank[v]] = Math.max(
        columnWidth[rank[v]],
        cellsByChars[input.labelChars[v]].width,
      );
  // Each column's widest op shape (a circle, or a pill for tanh, sigmoid…), and the gap
  // between an op and its record: at least half the spacing, and room for the widest topo
  // badge the graph can show (on the record's top-left corner, level with the op's top).
  const opRoom = new Float64Array(maxRank + 1).fill(2 * SIZES.opRadius);
  for (let v = 0; v < size; v++)
    if (rank[v] >= 0 && input.hasOp[v])
      opRoom[rank[v]] = Math.max(opRoom[rank[v]], opWidth(input.hasOp[v]));
  const opGap = Math.max(spacing.ranksep / 2, topoBadgeWidth(size) / 2 + BADGE_CLEARANCE);
  const columnRight = new Float64Array(maxRank + 1);
  let x = spacing.margin;
  for (let r = maxRank; r >= 0; r--) {
    x += spacing.ranksep / 2 + opRoom[r] + opGap + columnWidth[r];
    columnRight[r] = x;
    x += spacing.ranksep;
  }
  const records = new Float64Array(5 * size);
  const ops = new Float64Array(2 * size).fill(NaN);
  let bottom = -Infinity;
  let opCount = 0;
  for (let v = 0; v < size; v++) {
    const cells = cellsByChars[input.labelChars[v]];
    const rx = columnRight[rank[v]] - cells.width / 2;
    const ry = y[v] - top + spacing.margin + SIZES.recordHeight / 2;
    records[5 * v] = rx;
    records[5 * v + 1] = ry;
    records[5 * v + 2] = cells.width;
    records[5 * v + 3] = cells.label;
    records[5 * v + 4] = cells.value;
    bottom = Math.max(bottom, ry);
    if (!input.hasOp[v]) continue;
    opCount++;
    ops[2 * v] = rx - cells.width / 2 - opGap - opWidth(input.hasOp[v]) / 2;
    ops[2 * v + 1] = ry;
  }
  return {
    width: x + spacing.margin,
    height: bottom + SIZES.recordHeight / 2 + spacing.margin,
    millis: Date.now() - started,
    records,
    ops,
    ...edgeRoutes(edges, edgeCount, size, records, ops, input.hasOp),
    ...resultRoutes(input.hasOp, size, opCount, records, ops),
  };
}

/**
 * Each node's operands and parents, in edge order (compressed rows): node v's operands
 * are operands[operandStart[v]..operandStart[v + 1]], its parents likewise.
 * @param {Int32Array} edges  child, parent per edge
 * @param {number} size  the number of nodes
 */
function adjacency(edges, size) {
  const edgeCount = edges.length / 2;
  const operandStart = new Int32Array(size + 1);
  const parentStart = new Int32Array(size + 1);
  for (let k = 0; k < edgeCount; k++) {
    operandStart[edges[2 * k + 1] + 1]++;
    parentStart[edges[2 * k] + 1]++;
  }
  for (let v = 0; v < size; v++) {
    operandStart[v + 1] += operandStart[v];
    parentStart[v + 1] += parentStart[v];
  }
  const operands = new Int32Array(edgeCount);
  const parents = new Int32Array(edgeCount);
  const operandFill = operandStart.slice(0, size);
  const parentFill = parentStart.slice(0, size);
  for (let k = 0; k < edgeCount; k++) {
    const child = edges[2 * k];
    const parent = edges[2 * k + 1];
    operands[operandFill[parent]++] = child;
    parents[parentFill[child]++] = parent;
  }
  return { operandStart, parentStart, operands, parents };
}

/**
 * Every node's longest path to the output (-1 for a node `order` leaves out).
 * @param {Int32Array} order  children first
 * @param {ReturnType<typeof adjacency>} near
 */
function rankNodes(order, { parentStart, parents }) {
  const rank = new Int32Array(parentStart.length - 1).fill(-1);
  // Parents come after children in `order`, so walking it backwards ranks every
  // parent before any of its children.
  for (let i = order.length - 1; i >= 0; i--) {
    const v = order[i];
    let r = 0;
    for (let j = parentStart[v]; j < parentStart[v + 1]; j++) r = Math.max(r, rank[parents[j]] + 1);
    rank[v] = r;
  }
  return rank;
}

/**
 * The columns, each in `order`'s order: layer r is layerNodes[layerStart[r]..layerStart[r + 1]].
 * @param {Int32Array} order
 * @param {Int32Array} rank
 * @param {number} maxRank
 */
function columns(order, rank, maxRank) {
  const layerStart = new Int32Array(maxRank + 2);
  for (const v of order) layerStart[rank[v] + 1]++;
  for (let r = 0; r <= maxRank; r++) layerStart[r + 1] += layerStart[r];
  const layerNodes = new Int32Array(layerStart[maxRank + 1]);
  const layerFill = layerStart.slice(0, maxRank + 1);
  for (const v of order) layerNodes[layerFill[rank[v]]++] = v;
  return { layerStart, layerNodes };
}

/**
 * Every node's y: stacked in column order, then SWEEPS barycentre sweeps, both ways in
 * turn, each column sorted by its neighbours' mean and placed as near it as `step` allows.
 * @param {ReturnType<typeof adjacency>} near
 * @param {Int32Array} layerStart
 * @param {Int32Array} layerNodes
 * @param {number} step  the least distance between two nodes' centres in a column
 */
function orderColumns(near, layerStart, layerNodes, step) {
  const { operandStart, parentStart, operands, parents } = near;
  const maxRank = layerStart.length - 2;
  const y = new Float64Array(parentStart.length - 1);
  let widest = 0;
  for (let r = 0; r <= maxRank; r++) {
    widest = Math.max(widest, layerStart[r + 1] - layerStart[r]);
    for (let i = layerStart[r]; i < layerStart[r + 1]; i++)
      y[layerNodes[i]] = (i - layerStart[r]) * step;
  }
  const target = new Float64Array(y.length);
  const scratch = new Int32Array(widest);
  const down = new Float64Array(widest);
  const up = new Float64Array(widest);
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const towardLeaves = sweep % 2 === 0;
    const nearStart = towardLeaves ? parentStart : operandStart;
    const nearNodes = towardLeaves ? parents : operands;
    for (let j = 0; j <= maxRank; j++) {
      const r = towardLeaves ? j : maxRank - j;
      const layer = layerNodes.subarray(layerStart[r], layerStart[r + 1]);
      for (const v of layer) {
        const from = nearStart[v];
        const to = nearStart[v + 1];
        if (from === to) target[v] = y[v];
        else {
          let sum = 0;
          for (let k = from; k < to; k++) sum += y[nearNodes[k]];
          target[v] = sum / (to - from);
        }
      }
      sortByTarget(layer, target, scratch);
      placeInto(layer, target, y, step, down, up);
    }
  }
  return y;
}

/**
 * Each edge's route, from its child's record to its parent's op, and which repeat of
 * its pair it is (`a + a` has two edges from a).
 * @param {Int32Array} edges  child, parent per edge
 * @param {number} edgeCount
 * @param {number} size  the number of nodes
 * @param {Float64Array} records
 * @param {Float64Array} ops
 * @param {Uint8Array} hasOp  per node, its op's glyph length (0: none)
 */
function edgeRoutes(edges, edgeCount, size, records, ops, hasOp) {
  const edgeIndex = new Int32Array(3 * edgeCount);
  const pointStart = new Int32Array(edgeCount + 1);
  const points = new Float64Array(4 * edgeCount);
  const seen = new Map();
  for (let k = 0; k < edgeCount; k++) {
    const child = edges[2 * k];
    const parent = edges[2 * k + 1];
    const pair = child * size + parent;
    const repeat = seen.get(pair) ?? 0;
    seen.set(pair, repeat + 1);
    edgeIndex[3 * k] = child;
    edgeIndex[3 * k + 1] = parent;
    edgeIndex[3 * k + 2] = repeat;
    pointStart[k + 1] = 2 * (k + 1);
    points[4 * k] = records[5 * child] + records[5 * child + 2] / 2;
    points[4 * k + 1] = records[5 * child + 1];
    points[4 * k + 2] = ops[2 * parent] - opWidth(hasOp[parent]) / 2;
    points[4 * k + 3] = ops[2 * parent + 1];
  }
  return { edgeIndex, pointStart, points };
}

/**
 * The short line from each op to the record of the value it makes.
 * @param {Uint8Array} hasOp
 * @param {number} size  the number of nodes
 * @param {number} opCount  how many nodes have an op
 * @param {Float64Array} records
 * @param {Float64Array} ops
 */
function resultRoutes(hasOp, size, opCount, records, ops) {
  const resultNode = new Int32Array(opCount);
  const resultStart = new Int32Array(opCount + 1);
  const resultPoints = new Float64Array(4 * opCount);
  let k = 0;
  for (let v = 0; v < size; v++) {
    if (!hasOp[v]) continue;
    resultNode[k] = v;
    resultStart[k + 1] = 2 * (k + 1);
    resultPoints[4 * k] = ops[2 * v] + opWidth(hasOp[v]) / 2;
    resultPoints[4 * k + 1] = ops[2 * v + 1];
    resultPoints[4 * k + 2] = records[5 * v] - records[5 * v + 2] / 2;
    resultPoints[4 * k + 3] = ops[2 * v + 1];
    k++;
  }
  return { resultNode, resultStart, resultPoints };
}

/**
 * Sort a column by target, stably (ties keep their order), as
 * `layer.sort((a, b) => target[a] - target[b])` does but without a call per
 * comparison: a bottom-up merge sort, several times faster on the 20,000-value
 * graphs whose columns are sorted 8 times each. Example: layer [0, 1, 2] with
 * targets [5, 1, 5] -> [1, 0, 2].
 * @param {number[] | Int32Array} layer  node indices, sorted in place
 * @param {Float64Array} target
 * @param {Int32Array} scratch  at least as long as layer
 */
export function sortByTarget(layer, target, scratch) {
  const n = layer.length;
  /** @type {Int32Array} */ let from = Int32Array.from(layer);
  let to = scratch.subarray(0, n);
  for (let width = 1; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right)
        to[k++] = target[from[j]] < target[from[i]] ? from[j++] : from[i++];
      while (i < middle) to[k++] = from[i++];
      while (j < right) to[k++] = from[j++];
    }
    [from, to] = [to, from];
  }
  for (let i = 0; i < n; i++) layer[i] = from[i];
}

/**
 * Put a column's nodes (already sorted by target) as close to their targets as a
 * minimum gap allows. Example: targets [0, 0, 100] with step 40 -> [-20, 20, 100].
 * @param {number[]} layer
 * @param {Float64Array} target
 * @param {Float64Array} y
 * @param {number} step
 */
export function place(layer, target, y, step) {
  placeInto(layer, target, y, step, new Float64Array(layer.length), new Float64Array(layer.length));
}

/**
 * `place` with its two work arrays given (at least as long as layer), so the sweeps
 * allocate nothing per column.
 * @param {number[] | Int32Array} layer
 * @param {Float64Array} target
 * @param {Float64Array} y
 * @param {number} step
 * @param {Float64Array} down
 * @param {Float64Array} up
 */
function placeInto(layer, target, y, step, down, up) {
  const n = layer.length;
  if (n === 0) return;
  for (let i = 0; i < n; i++)
    down[i] = i === 0 ? target[layer[0]] : Math.max(target[layer[i]], down[i - 1] + step);
  for (let i = n - 1; i >= 0; i--)
    up[i] = i === n - 1 ? target[layer[n - 1]] : Math.min(target[layer[i]], up[i + 1] - step);
  for (let i = 0; i < n; i++) y[layer[i]] = (down[i] + up[i]) / 2;
}
