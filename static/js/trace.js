/**
 * The trace: the JSON seam between the engine and the page (SPEC.md §3).
 * This module describes its shape once, checks a trace before the player uses it,
 * and names nodes for people. It does no drawing and no fetching.
 *
 * @typedef {"leaf" | "const" | "op"} NodeKind
 * @typedef {{id: string, label: string, op: string, kind: NodeKind, data: number, grad: number}} TraceNode
 * @typedef {{source: string, target: string}} TraceEdge  child -> parent, the way data flows
 * @typedef {{to: string, local: number, upstream: number, delta: number, before: number, after: number}} Contribution
 * @typedef {{phase: "build", node: string, text: string, line?: number}} BuildFrame
 * @typedef {{phase: "sort", text: string}} SortFrame
 * @typedef {{phase: "backward", node: string, text: string, contributions: Contribution[]}} BackwardFrame
 * @typedef {BuildFrame | SortFrame | BackwardFrame} Frame
 * @typedef {{
 *   schema: 1, source: string, granularity: "packed" | "expanded",
 *   nodes: TraceNode[], edges: TraceEdge[], topo: string[], output: string, frames: Frame[]
 * }} Trace
 */

const PHASES = new Set(["build", "sort", "backward"]);

/**
 * Throw a TypeError naming the first thing in `trace` the player cannot use.
 * Example: validateTrace({schema: 2}) throws "trace.schema must be 1, got 2".
 * @param {unknown} trace
 * @returns {Trace}
 */
export function validateTrace(trace) {
  const fail = (what, value) => {
    throw new TypeError(`trace${what}, got ${JSON.stringify(value)}`);
  };
  if (trace === null || typeof trace !== "object") fail(" must be an object", trace);
  const t = /** @type {Trace} */ (trace);
  if (t.schema !== 1) fail(".schema must be 1", t.schema);
  for (const key of ["nodes", "edges", "topo", "frames"]) {
    if (!Array.isArray(t[key])) fail(`.${key} must be an array`, t[key]);
  }
  const ids = new Set();
  t.nodes.forEach((node, i) => {
    if (typeof node.id !== "string" || ids.has(node.id)) fail(`.nodes[${i}].id must be a unique string`, node.id);
    if (!Number.isFinite(node.data)) fail(`.nodes[${i}].data must be a finite number`, node.data);
    ids.add(node.id);
  });
  if (!ids.has(t.output)) fail(".output must name a node", t.output);
  t.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target)) fail(`.edges[${i}] must join two nodes`, edge);
  });
  t.frames.forEach((frame, i) => {
    if (!PHASES.has(frame.phase)) fail(`.frames[${i}].phase must be build, sort or backward`, frame.phase);
    if (frame.phase !== "sort" && !ids.has(frame.node)) fail(`.frames[${i}].node must name a node`, frame.node);
  });
  if (t.frames.filter((f) => f.phase === "sort").length !== 1) {
    fail(".frames must hold exactly one sort frame", t.frames.length);
  }
  return t;
}

/**
 * What to call each node in text: its label; else a constant's value; else the
 * expression that made it from its operands' names, cut at `maxChars`.
 * Example (the article's neuron with only leaves and o named):
 *   x1 * w1 -> "x1*w1", then "x1*w1+x2*w2", tanh(n) -> "tanh(…)" once too long.
 * @param {Trace} trace
 * @param {number} [maxChars]
 * @returns {string[]} names by node index
 */
export function nodeNames(trace, maxChars = 24) {
  const indexOf = new Map(trace.nodes.map((node, i) => [node.id, i]));
  /** @type {number[][]} */ const operands = trace.nodes.map(() => []);
  for (const edge of trace.edges) {
    operands[/** @type {number} */ (indexOf.get(edge.target))].push(/** @type {number} */ (indexOf.get(edge.source)));
  }
  /** @type {string[]} */ const names = new Array(trace.nodes.length);
  const topo = trace.topo.map((id) => /** @type {number} */ (indexOf.get(id)));
  const order = topo.length === trace.nodes.length ? topo : trace.nodes.map((_, i) => i);
  for (const i of order) {
    const node = trace.nodes[i];
    const args = operands[i].map((j) => names[j] ?? `#${trace.nodes[j].id}`);
    let name;
    if (node.label) name = node.label;
    else if (node.kind === "const") name = String(node.data);
    else if (node.kind !== "op") name = `#${node.id}`;
    else if (node.op === "+" || node.op === "*") name = args.join(node.op);
    else if (node.op.startsWith("**")) name = `${wrap(args[0])}${node.op}`;
    else name = `${node.op}(${args.join(", ")})`;
    names[i] = !node.label && name.length > maxChars ? `${node.op}#${node.id}` : name;
  }
  return names;
}

/** @param {string} text */
const wrap = (text) => (/^[\w.]+$/.test(text) ? text : `(${text})`);
