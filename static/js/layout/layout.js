/**
 * Where everything goes, computed once per trace so nodes never jump between frames.
 * Left to right like the article's figures: each value is a record
 * `label | data | grad`; each operation is a small circle just left of its result;
 * edges run operand -> op circle -> result, one per operand use (so `a + a` has two).
 *
 * Small graphs use dagre (the best-looking layered layout we could vendor); big
 * ones use layered-layout.js, because dagre needs seconds there (bench/page_bench.py
 * prints both). Pure: dagre is passed in, so this runs the same in a Worker, on
 * the main thread and in Node.
 */
import { formatValue } from "../player/format.js";
import { SIZES, labelIsName, opWidth, recordCells, visibleLabel } from "./layout-sizes.js";
import { layeredLayout } from "./layered-layout.js";
import { opGlyph } from "../passes/op-facts.js";

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
 * {label: "", kind: "leaf", name: "layers[0].neurons[1].w[2]"} -> "w[2]"
 * @param {import("../passes/trace.js").TraceNode} node
 */
export function recordLabel(node) {
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
  const { width, height } = g.graph();
  return { width, height, records, ops, edges, results, millis: Date.now() - started };
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
