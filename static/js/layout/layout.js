/**
 * Where everything goes, computed once per trace so nodes never jump between frames.
 * Left to right like the article's figures: each value is a record
 * `label | data | grad`; each operation is a small circle just left of its result;
 * edges run operand -> op circle -> result, one per operand use (so `a + a` has two).
 *
 * Small graphs use dagre (the best-looking layered layout we could vendor), with its
 * far detours drawn straight where nothing is in the way (straightenDetours) and its
 * size grown to every edge (growToEdges); big ones use layered-layout.js, because dagre
 * needs seconds there (bench/page_bench.py prints both). Pure: dagre is passed in, so this runs the same in a Worker, on
 * the main thread and in Node.
 */
import { formatValue } from "../player/format.js";
import { SIZES, labelIsName, opWidth, recordCells, visibleLabel } from "./layout-sizes.js";
import { layeredLayout } from "./layered-layout.js";
import { opGlyph } from "../passes/op-facts.js";
import { edgeBow, edgePolyline } from "../player/svg.js";

/** Above this many values, dagre is too slow to keep Run under a second. */
export const DAGRE_MAX_NODES = 150;

/**
 * @typedef {{x: number, y: number}} Point
 * @typedef {{
 *   width: number, height: number,
 *   records: Array<{x: number, y: number, width: number, labelWidth: number, valueWidth: number}>,
 *   ops: Array<Point | null>,
 *   edges: Array<{child: number, parent: number, points: Point[], repeat: number}>,
 *   results: Array<{node: number, points: Point[]}>,
 *   millis: number, engine?: string
 * }} Layout
 * @typedef {{nodes: Array<{label: string, op: string, opChars?: number, cluster?: number}>, edges: Array<{child: number, parent: number}>,
 *   order: number[], output: number, valueChars?: number}} LayoutInput
 * valueChars: the widest data or grad any frame shows, so value cells are no wider than needed
 * opChars: the length of the op's glyph as drawn (op-facts.js), for the room its shape takes
 * cluster: the value this one is drawn beside, kept together by the layout (a neuron's
 *   parameters beside its closed box, pass-graph.js); -1 or absent for none
 * An edge of a bundle between two layers (layerBundles) has its points through the
 *   bundle's junction, where its bundle's other edges pass too.
 */

/**
 * The plain, index-based graph a layout needs, from a trace.
 * @param {import("../passes/trace.js").Trace} trace
 * @returns {LayoutInput}
 */
export function layoutInput(trace) {
  const indexOf = new Map(trace.nodes.map((node, i) => [node.id, i]));
  const at = (/** @type {string} */ id) => /** @type {number} */ (indexOf.get(id));
  return {
    nodes: trace.nodes.map((node) => ({
      label: recordLabel(node),
      op: node.op,
      opChars: node.op ? opGlyph(trace.ops, node.op).length : 0,
    })),
    edges: trace.edges.map((edge) => ({ child: at(edge.source), parent: at(edge.target) })),
    order: trace.topo.map(at),
    output: at(trace.output),
    valueChars: layoutValueChars(trace),
  };
}

/**
 * layoutInput packed for the layout worker (layout-pack.js's packInput of it), made
 * straight from the trace without an object per value and edge.
 * @param {import("../passes/trace.js").Trace} trace
 * @returns {import("./layout-pack.js").PackedInput}
 */
export function packedLayoutInput(trace) {
  const size = trace.nodes.length;
  const indexOf = new Map();
  const labelChars = new Uint8Array(size);
  const hasOp = new Uint8Array(size);
  trace.nodes.forEach((node, i) => {
    indexOf.set(node.id, i);
    labelChars[i] = visibleLabel(recordLabel(node)).length;
    // 0: no op; else the glyph's length (at least 1), for the width of the op's shape.
    hasOp[i] = node.op ? Math.min(255, Math.max(1, opGlyph(trace.ops, node.op).length)) : 0;
  });
  const edges = new Int32Array(2 * trace.edges.length);
  trace.edges.forEach((edge, k) => {
    edges[2 * k] = indexOf.get(edge.source);
    edges[2 * k + 1] = indexOf.get(edge.target);
  });
  return {
    labelChars,
    hasOp,
    edges,
    order: Int32Array.from(trace.topo, (id) => indexOf.get(id)),
    output: indexOf.get(trace.output),
    valueChars: layoutValueChars(trace),
  };
}

/**
 * The value cells' width in characters: big graphs keep the default width unless a
 * number needs more, so another pass with other numbers has the same structure key
 * and reuses the layout.
 * @param {import("../passes/trace.js").Trace} trace
 */
function layoutValueChars(trace) {
  return trace.nodes.length > DAGRE_MAX_NODES
    ? Math.max(SIZES.valueCellChars, valueChars(trace))
    : valueChars(trace);
}

/** Value cells never get narrower than this: room for the `grad ✓` caption. */
const MIN_VALUE_CHARS = 6;

/**
 * The widest number a record will show at any frame: its data, and every gradient
 * a `+=` leaves behind. Example: the article's neuron -> 7 ("0.04289", e's gradient).
 * @param {import("../passes/trace.js").Trace} trace
 */
export function valueChars(trace) {
  let widest = MIN_VALUE_CHARS;
  for (const node of trace.nodes)
    widest = Math.max(widest, formatValue(node.data).length, formatValue(node.grad).length);
  for (const frame of trace.frames) {
    if (frame.phase !== "backward") continue;
    for (const c of frame.contributions) widest = Math.max(widest, formatValue(c.after).length);
  }
  return widest;
}

/**
 * The text in a record's label cell: the label, a constant's value, or for a leaf the
 * program keeps (a real program's parameter, named by its path) the path's last step.
 * Example: {label: "", kind: "const", data: -2} -> "−2"; {label: "", kind: "op"} -> "";
 * {label: "", kind: "leaf", name: "−0.5"} -> "" (a number, not a path ending in `5`);
 * {label: "loss", kind: "leaf", name: "0"} -> "" (the texts call it 0: labelIsName);
 * {label: "", kind: "leaf", name: "layers[0].neurons[1].w[2]"} -> "w[2]";
 * a closed box's, its path below the model: {label: "layers[1]", kind: "group",
 * name: "MLP.layers[1]"} -> "layers[1]" (folding.js's groupLabel)
 * @param {import("../passes/trace.js").TraceNode} node
 */
export function recordLabel(node) {
  // A closed box is not a value the texts name: its label is all that says which it is.
  if (node.kind === "group") return node.label;
  const name = node.name ?? "";
  if (node.label && labelIsName(node.label, name)) return node.label;
  if (node.kind === "const") return formatValue(node.data);
  // A name that is a number (its data, written with the trace's minus sign, `−0.5`) or
  // "the * node" is no path.
  const number = Number(name.replaceAll("\u2212", "-"));
  if (node.kind === "leaf" && /[.[]/.test(name) && Number.isNaN(number)) {
    return name.slice(name.lastIndexOf(".") + 1);
  }
  return "";
}

/** The fast layered layout's spacing (the worker uses it too). */
export const LAYERED_SPACING = Object.freeze({ nodesep: 14, ranksep: 34, margin: 24 });

/**
 * @param {LayoutInput} graph
 * @param {any} [dagre]  the dagre module; without it every graph uses the fast layout
 * @returns {Layout}
 */
export function layoutGraph(graph, dagre) {
  if (dagre && graph.nodes.length <= DAGRE_MAX_NODES)
    return { ...dagreLayout(dagre, graph), engine: "dagre" };
  return { ...layeredLayout(graph, LAYERED_SPACING), engine: "layered" };
}

/**
 * @param {any} dagre
 * @param {LayoutInput} graph
 * @returns {Layout}
 */
export function dagreLayout(dagre, graph) {
  const started = Date.now();
  const clustered = graph.nodes.some((node) => (node.cluster ?? -1) >= 0);
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: clustered });
  g.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 16, edgesep: 10, marginx: 12, marginy: 28 });
  g.setDefaultEdgeLabel(() => ({}));
  const diameter = 2 * SIZES.opRadius;
  graph.nodes.forEach((node, i) => {
    g.setNode(`r${i}`, {
      width: recordCells(node.label, graph.valueChars).width,
      height: SIZES.recordHeight,
    });
    if (node.op) {
      g.setNode(`o${i}`, { width: opWidth(node.opChars ?? 1), height: diameter });
      g.setEdge(`o${i}`, `r${i}`, { weight: 8, minlen: 1 }, "result");
    }
  });
  const bundles = clustered ? layerBundles(graph) : [];
  /** @type {Int32Array} per edge, the bundle it is drawn in, or -1 */
  const bundleOf = new Int32Array(graph.edges.length).fill(-1);
  bundles.forEach((bundle, b) => {
    g.setNode(`j${b}`, { width: 2, height: 2 });
    for (const child of bundle.sources)
      g.setEdge(`r${child}`, `j${b}`, { weight: bundle.targets.length, minlen: 1 }, "in");
    for (const parent of bundle.targets)
      g.setEdge(`j${b}`, `o${parent}`, { weight: bundle.sources.length, minlen: 1 }, "out");
    for (const k of bundle.edges) bundleOf[k] = b;
  });
  graph.edges.forEach((edge, k) => {
    if (bundleOf[k] < 0)
      g.setEdge(`r${edge.child}`, `o${edge.parent}`, { weight: 1, minlen: 1 }, `e${k}`);
  });
  if (clustered)
    graph.nodes.forEach((node, i) => {
      const cluster = node.cluster ?? -1;
      if (cluster < 0) return;
      g.setNode(`c${cluster}`, {});
      g.setParent(`r${i}`, `c${cluster}`);
      if (node.op) g.setParent(`o${i}`, `c${cluster}`);
    });
  dagre.layout(g);

  const records = graph.nodes.map((node, i) => {
    const { x, y } = g.node(`r${i}`);
    const cells = recordCells(node.label, graph.valueChars);
    return { x, y, width: cells.width, labelWidth: cells.label, valueWidth: cells.value };
  });
  const ops = graph.nodes.map((node, i) => (node.op ? pick(g.node(`o${i}`)) : null));
  const seen = new Map();
  const edges = graph.edges.map((edge, k) => {
    const pair = `${edge.child}>${edge.parent}`;
    const repeat = seen.get(pair) ?? 0;
    seen.set(pair, repeat + 1);
    const b = bundleOf[k];
    const points =
      b < 0
        ? g.edge({ v: `r${edge.child}`, w: `o${edge.parent}`, name: `e${k}` }).points.map(pick)
        : // Through the junction's centre (dagre ends edges on a node's border, where
          // each would meet it at its own point).
          [
            ...g.edge({ v: `r${edge.child}`, w: `j${b}`, name: "in" }).points.slice(0, -1),
            g.node(`j${b}`),
            ...g.edge({ v: `j${b}`, w: `o${edge.parent}`, name: "out" }).points.slice(1),
          ].map(pick);
    return { child: edge.child, parent: edge.parent, points, repeat };
  });
  // A value used twice by one op (`a + a`): dagre spaces the two routes a few pixels
  // apart, which the drawn bow (svg.js's edgeBow) then crossed. As in the layered
  // layout, each such edge runs between the two centres and the bow alone parts them.
  for (const [k, edge] of edges.entries()) {
    if (bundleOf[k] >= 0 || seen.get(`${edge.child}>${edge.parent}`) < 2) continue;
    const first = edge.points[0];
    const last = edge.points[edge.points.length - 1];
    // (An op node whose op the program names nowhere, `Value(a.data ** 2, (a, a))`, has
    // no op shape: the edge ends where dagre ended it.)
    const target = ops[edge.parent] ?? last;
    edge.points = [
      { x: first.x, y: records[edge.child].y },
      { x: last.x, y: target.y },
    ];
  }
  /** @type {Layout["results"]} */
  const results = [];
  graph.nodes.forEach((node, i) => {
    if (node.op)
      results.push({
        node: i,
        points: g.edge({ v: `o${i}`, w: `r${i}`, name: "result" }).points.map(pick),
      });
  });
  straightenDetours(graph, records, ops, edges, bundleOf);
  const { width, height } = g.graph();
  const layout = { width, height, records, ops, edges, results, millis: 0 };
  growToEdges(layout, { x: 12, y: 28 });
  return { ...layout, millis: Date.now() - started };
}

/** How far (layout units) a route may stray above or below both its ends unremarked. */
const DETOUR_SLACK = SIZES.recordHeight / 2;

/**
 * Each operand edge that strays far above or below both its ends is drawn within them
 * instead, from its record's right side to its op's left side: as one bend, else as a
 * steep step down (or up) at the column its route took between them, whichever crosses
 * no record and no op first; an edge with neither keeps its route. dagre gives every edge
 * a point in a rank of its own between the record and the op (its room for an edge
 * label: every minlen is doubled), and on a network's first pass it put such points
 * hundreds of units from both ends: the edge from `w[0]` into its `×`, one column to the
 * right, climbed out of the view and back (a two-layer MLP trained 3 steps).
 * @param {LayoutInput} graph
 * @param {Layout["records"]} records
 * @param {Layout["ops"]} ops
 * @param {Layout["edges"]} edges
 * @param {Int32Array} bundleOf  per edge, its bundle or -1 (bundled edges keep their junction)
 */
export function straightenDetours(graph, records, ops, edges, bundleOf) {
  /** @type {ReturnType<typeof layoutBoxes> | null} */
  let boxes = null;
  edges.forEach((edge, k) => {
    if (bundleOf[k] >= 0 || edge.repeat > 0 || edge.points.length < 3) return;
    const first = edge.points[0];
    const last = edge.points[edge.points.length - 1];
    const low = Math.min(first.y, last.y) - DETOUR_SLACK;
    const high = Math.max(first.y, last.y) + DETOUR_SLACK;
    const farthest = edge.points.reduce((a, b) =>
      Math.max(low - b.y, b.y - high) > Math.max(low - a.y, a.y - high) ? b : a,
    );
    const op = ops[edge.parent];
    if ((farthest.y >= low && farthest.y <= high) || !op) return;
    const child = records[edge.child];
    const start = { x: child.x + child.width / 2, y: child.y };
    const end = { x: op.x - opWidth(graph.nodes[edge.parent].opChars ?? 1) / 2, y: op.y };
    if (end.x <= start.x) return;
    const step = Math.min(4, (end.x - farthest.x) / 2, (farthest.x - start.x) / 2);
    const routes = [[start, end]];
    if (step > 0)
      routes.push([
        start,
        { x: farthest.x - step, y: start.y },
        { x: farthest.x + step, y: end.y },
        end,
      ]);
    boxes ??= layoutBoxes(graph, records, ops);
    const others = boxes.filter((box) => box.record !== edge.child && box.op !== edge.parent);
    const clear = routes.find((route) => !routeMeets(route, others));
    if (clear) edge.points = clear.map(pick);
  });
}

/**
 * The boxes of every record and op shape, with whose they are.
 * @param {LayoutInput} graph
 * @param {Layout["records"]} records
 * @param {Layout["ops"]} ops
 */
function layoutBoxes(graph, records, ops) {
  const h = SIZES.recordHeight / 2;
  const r = SIZES.opRadius;
  /** @type {Array<{x: number, y: number, right: number, bottom: number, record: number, op: number}>} */
  const boxes = [];
  records.forEach((box, i) => {
    const half = box.width / 2;
    boxes.push({
      x: box.x - half,
      y: box.y - h,
      right: box.x + half,
      bottom: box.y + h,
      record: i,
      op: -1,
    });
    const op = ops[i];
    if (!op) return;
    const w = opWidth(graph.nodes[i].opChars ?? 1) / 2;
    boxes.push({ x: op.x - w, y: op.y - r, right: op.x + w, bottom: op.y + r, record: -1, op: i });
  });
  return boxes;
}

/**
 * Whether the curve edgePath draws through these points meets one of the boxes.
 * @param {Point[]} points
 * @param {Array<{x: number, y: number, right: number, bottom: number}>} boxes
 */
function routeMeets(points, boxes) {
  const curve = edgePolyline(points, 0, 12);
  const left = Math.min(...points.map((p) => p.x));
  const right = Math.max(...points.map((p) => p.x));
  const top = Math.min(...points.map((p) => p.y));
  const bottom = Math.max(...points.map((p) => p.y));
  return boxes.some(
    (box) =>
      box.right + 2 > left &&
      box.x - 2 < right &&
      box.bottom + 2 > top &&
      box.y - 2 < bottom &&
      curve.some((p, j) => j > 0 && segmentMeetsBox(curve[j - 1], p, box)),
  );
}

/**
 * Whether the segment a-b meets the box (grown by 2 units), by Liang-Barsky clipping.
 * @param {Point} a
 * @param {Point} b
 * @param {{x: number, y: number, right: number, bottom: number}} box
 */
function segmentMeetsBox(a, b, box) {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - (box.x - 2)],
    [dx, box.right + 2 - a.x],
    [-dy, a.y - (box.y - 2)],
    [dy, box.bottom + 2 - a.y],
  ]) {
    if (p === 0) {
      if (q < 0) return false;
    } else if (p < 0) t0 = Math.max(t0, q / p);
    else t1 = Math.min(t1, q / p);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Grow a layout's size (and move everything in it) so that every edge as drawn lies
 * inside it, `margin` beyond the outermost. dagre measures its graph by the nodes alone,
 * so a route passing outside them went past the size that Fit and the view's clamp
 * frame: out of view.
 * @param {Layout} layout
 * @param {Point} margin
 */
export function growToEdges(layout, margin) {
  let left = 0;
  let top = 0;
  let right = layout.width;
  let bottom = layout.height;
  for (const edge of [...layout.edges, ...layout.results]) {
    const bow = "repeat" in edge ? Math.abs(edgeBow(edge.repeat)) : 0;
    for (const p of edge.points) {
      left = Math.min(left, p.x - margin.x);
      right = Math.max(right, p.x + margin.x);
      top = Math.min(top, p.y - bow - margin.y);
      bottom = Math.max(bottom, p.y + bow + margin.y);
    }
  }
  if (left === 0 && top === 0 && right === layout.width && bottom === layout.height) return;
  const move = (/** @type {Point} */ p) => {
    p.x -= left;
    p.y -= top;
  };
  layout.records.forEach(move);
  for (const op of layout.ops) if (op) move(op);
  for (const edge of [...layout.edges, ...layout.results]) edge.points.forEach(move);
  layout.width = right - left;
  layout.height = bottom - top;
}

/**
 * The edges between two layers of a network, to be drawn as one bundle: closed boxes
 * (a cluster's own value, pass-graph.js) fed by exactly the same values from outside
 * them, every one of those values into every box once. Each bundle's edges then run
 * through one junction between the layers (all of a layer's outputs merge there and
 * fan out to the next layer's neurons), and the next layer's parameters get the column
 * the junction sits in, so layers stand in columns. A set of edges that is not
 * complete in that way is never bundled: a bundle must not draw a connection the
 * program does not make.
 * Example: boxes 6 and 7 each fed once by values 0 and 1 (plus their own parameters) ->
 *   [{sources: [0, 1], targets: [6, 7], edges: [the four edges' indices]}]
 * @param {LayoutInput} graph
 * @returns {Array<{sources: number[], targets: number[], edges: number[]}>}
 */
export function layerBundles(graph) {
  const clusterOf = (/** @type {number} */ v) => graph.nodes[v].cluster ?? -1;
  /** @type {Map<number, {sources: number[], edges: number[], repeated: boolean}>} */
  const feeds = new Map();
  graph.edges.forEach((edge, k) => {
    const box = edge.parent;
    if (clusterOf(box) !== box || clusterOf(edge.child) === box) return;
    const feed = feeds.get(box) ?? { sources: [], edges: [], repeated: false };
    if (feed.sources.includes(edge.child)) feed.repeated = true;
    feed.sources.push(edge.child);
    feed.edges.push(k);
    feeds.set(box, feed);
  });
  /** @type {Map<string, {sources: number[], targets: number[], edges: number[]}>} */
  const byKey = new Map();
  for (const [box, feed] of feeds) {
    if (feed.repeated || feed.sources.length < 2) continue;
    const sources = [...feed.sources].sort((a, b) => a - b);
    const key = sources.join(",");
    const bundle = byKey.get(key) ?? { sources, targets: [], edges: [] };
    bundle.targets.push(box);
    bundle.edges.push(...feed.edges);
    byKey.set(key, bundle);
  }
  return [...byKey.values()].filter((bundle) => bundle.targets.length >= 2);
}

/** @param {Point} p */
const pick = (p) => ({ x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 });
