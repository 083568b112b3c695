/**
 * The trace: the JSON seam between the engine and the page (SPEC.md §3).
 * This module describes its shape once, checks a trace before the player uses it,
 * and names nodes for people. It does no drawing and no fetching.
 *
 * @typedef {"leaf" | "const" | "op" | "group"} NodeKind  "group": a closed call the page draws (pass-graph.js), never in a trace
 * @typedef {{id: string, label: string, op: string, kind: NodeKind, data: number, grad: number, underflow?: true,
 *   correct_grad?: number, group?: string}} TraceNode  underflow: a float underflowed here (engine/underflow.py);
 *   correct_grad: with a `mistake` (SPEC §8), the gradient the correct engine gives
 * @typedef {{source: string, target: string}} TraceEdge  child -> parent, the way data flows
 * @typedef {{to: string, local: number, upstream: number, delta: number, before: number, after: number, underflow?: true}} Contribution
 * @typedef {{phase: "build", node: string, text: string, line?: number}} BuildFrame
 * @typedef {{phase: "sort", text: string, step?: "visit" | "skip" | "append" | "seed", node?: string, depth?: number}} SortFrame
 *   step, node, depth: only with `sort_steps` (SPEC §9; sort-steps.js)
 * @typedef {{phase: "backward", node: string, text: string, contributions: Contribution[]}} BackwardFrame
 * @typedef {{phase: "update", node?: undefined, text: string, line?: number,
 *   changes: Array<{node: string, field: "data" | "grad", before: number, after: number}>}} UpdateFrame
 * @typedef {BuildFrame | SortFrame | BackwardFrame | UpdateFrame} Frame
 * @typedef {{
 *   schema: 1 | 2, source: string, granularity: "packed" | "expanded",
 *   nodes: TraceNode[], edges: TraceEdge[], topo: string[], output: string, frames: Frame[],
 *   mistake?: "assign" | "append-first" | "no-sort" | null
 * }} Trace
 * schema 2 (SPEC §11) adds passes[], frames[].pass, update frames and nodes[].group: passes.js
 */

import { isMultiPass, validatePasses } from "./passes.js";

const PHASES = new Set(["build", "sort", "backward", "update"]);

/**
 * Throw a TypeError naming the first thing in `trace` the player cannot use.
 * Example: validateTrace({schema: 3}) throws "trace.schema must be 1 or 2, got 3".
 * @param {unknown} trace
 * @returns {Trace}
 */
export function validateTrace(trace) {
  const fail = (what, value) => {
    throw new TypeError(`trace${what}, got ${JSON.stringify(value)}`);
  };
  if (trace === null || typeof trace !== "object") fail(" must be an object", trace);
  const t = /** @type {Trace} */ (trace);
  if (t.schema !== 1 && t.schema !== 2) fail(".schema must be 1 or 2", t.schema);
  for (const key of ["nodes", "edges", "topo", "frames"]) {
    if (!Array.isArray(t[key])) fail(`.${key} must be an array`, t[key]);
  }
  const ids = new Set();
  t.nodes.forEach((node, i) => {
    if (typeof node.id !== "string" || ids.has(node.id))
      fail(`.nodes[${i}].id must be a unique string`, node.id);
    if (!Number.isFinite(node.data)) fail(`.nodes[${i}].data must be a finite number`, node.data);
    ids.add(node.id);
  });
  if (!ids.has(t.output)) fail(".output must name a node", t.output);
  t.edges.forEach((edge, i) => {
    if (!ids.has(edge.source) || !ids.has(edge.target))
      fail(`.edges[${i}] must join two nodes`, edge);
  });
  t.frames.forEach((frame, i) => {
    if (!PHASES.has(frame.phase) || (t.schema === 1 && frame.phase === "update")) {
      fail(
        `.frames[${i}].phase must be build, sort, backward${t.schema === 2 ? " or update" : ""}`,
        frame.phase,
      );
    }
    const named =
      frame.phase === "build" ||
      frame.phase === "backward" ||
      (frame.phase === "sort" && "node" in frame);
    if (named && !ids.has(frame.node)) fail(`.frames[${i}].node must name a node`, frame.node);
  });
  if (t.schema === 2) {
    validatePasses(t, ids, fail);
    return t;
  }
  // With `sort_steps` (SPEC §9) the sort is many frames, the last of them the seed.
  const sorts = t.frames.filter((f) => f.phase === "sort");
  const seeds = sorts.some((f) => "step" in f)
    ? sorts.filter((f) => "step" in f && f.step === "seed").length
    : sorts.length;
  if (seeds !== 1)
    fail(".frames must hold exactly one sort frame, or one seed among the sort steps", seeds);
  if (isMultiPass(t)) validatePasses(t, ids, fail); // one pass with call groups: folded by pass-graph.js
  return t;
}

/** Longest derived name before a node is called "the + node" instead (engine/narrate.py). */
export const MAX_DERIVED_NAME = 24;

/**
 * What to call each node in text, exactly as the engine's frame texts do
 * (engine/narrate.py `Names`; only `(a**2)**2` differs, where Python's grouping
 * needs the brackets the engine leaves out): its label; else a constant's value to 4 significant
 * digits; else the expression that made it from its operands' names, bracketed
 * only where precedence needs it (+ 1, * 2, **k 3, functions 4, names 5; an
 * operand is bracketed when it binds looser, or equally on the right). A derived
 * name longer than `maxChars`, or one whose operand has no short name, becomes
 * "the + node".
 * Example (the expanded neuron): "x1*w1", "x1*w1+x2*w2+b", "(x1*w1+x2*w2+b)*2",
 *   "e+-1", "den**-1", "num*den**-1"; the 2,000-node MLP's long sums -> "the + node".
 * @param {Trace} trace
 * @param {number} [maxChars]
 * @returns {string[]} names by node index
 */
export function nodeNames(trace, maxChars = MAX_DERIVED_NAME) {
  const indexOf = new Map(trace.nodes.map((node, i) => [node.id, i]));
  /** @type {number[][]} */ const operands = trace.nodes.map(() => []);
  for (const edge of trace.edges) {
    operands[/** @type {number} */ (indexOf.get(edge.target))].push(
      /** @type {number} */ (indexOf.get(edge.source)),
    );
  }
  /** @type {string[]} */ const names = new Array(trace.nodes.length);
  /** @type {boolean[]} */ const derived = new Array(trace.nodes.length).fill(false);
  /** @param {number} i */
  const nameOf = (i) => {
    if (names[i] !== undefined) return names[i];
    const node = trace.nodes[i];
    if (node.label) {
      names[i] = node.label;
      return names[i];
    }
    if (node.kind !== "op") {
      names[i] = formatShort(node.data);
      return names[i];
    }
    const symbolic = symbolicName(
      node.op,
      operands[i].map((j) => {
        const name = nameOf(j);
        return { name, precedence: fellBack(j) ? -1 : precedenceOf(trace.nodes[j]) };
      }),
    );
    derived[i] = symbolic !== null && symbolic.length <= maxChars;
    names[i] = derived[i] ? /** @type {string} */ (symbolic) : `the ${node.op} node`;
    return names[i];
  };
  const fellBack = (/** @type {number} */ j) =>
    trace.nodes[j].kind === "op" && !trace.nodes[j].label && !derived[j];
  // Children first (the topo order), so the recursion above stays one level deep.
  const topo = trace.topo.map((id) => indexOf.get(id)).filter((i) => i !== undefined);
  for (const i of topo) nameOf(/** @type {number} */ (i));
  for (let i = 0; i < names.length; i++) nameOf(i);
  return names;
}

/**
 * How tightly a node's name binds: + 1, * 2, **k 3, functions 4, labels and leaves 5.
 * @param {TraceNode} node
 */
export function precedenceOf(node) {
  if (node.label || node.kind !== "op") return 5;
  return opPrecedence(node.op);
}

/** @param {string} op */
const opPrecedence = (op) => (op === "+" ? 1 : op === "*" ? 2 : op.startsWith("**") ? 3 : 4);

/**
 * An op written over its operands' names, or null when an operand has no short name
 * (precedence -1). Example: symbolicName("*", [{name: "a+b", precedence: 1},
 * {name: "c", precedence: 5}]) -> "(a+b)*c"; symbolicName("tanh", [{name: "a+b", precedence: 1}]) -> "tanh(a+b)".
 * @param {string} op
 * @param {Array<{name: string, precedence: number}>} args
 */
export function symbolicName(op, args) {
  if (args.some((arg) => arg.precedence < 0)) return null;
  const outer = opPrecedence(op);
  if (outer === 4) return `${op}(${args.map((arg) => arg.name).join(", ")})`;
  const parts = args.map(({ name, precedence }, i) =>
    precedence < outer || (i > 0 && precedence === outer) ? `(${name})` : name,
  );
  // `**` groups to the right in Python, so a power's base is bracketed at equal precedence too.
  if (op.startsWith("**"))
    return args[0].precedence === outer ? `(${args[0].name})${op}` : `${parts[0]}${op}`;
  // A deduplicated `a + a` from a foreign graph has one operand.
  if (parts.length === 1) return `${op}(${args[0].name})`;
  return parts.join(op);
}

/**
 * A number as the engine's texts write it: Python's `f"{x:.4g}"`.
 * Example: 6.8813735870195432 -> "6.881"; 2 -> "2"; -1 -> "-1"; 0.0001234 -> "0.0001234";
 * 1.5e-5 -> "1.5e-05"; 22026.47 -> "2.203e+04".
 * @param {number} x
 */
export function formatShort(x) {
  if (x === 0 || !Number.isFinite(x)) return x === 0 ? "0" : String(x);
  const [mantissa, exponentText] = x.toExponential(3).split("e");
  const exponent = Number(exponentText);
  const trim = (/** @type {string} */ text) =>
    text.includes(".") ? text.replace(/\.?0+$/, "") : text;
  if (exponent < -4 || exponent >= 4) {
    return `${trim(mantissa)}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return trim(x.toFixed(3 - exponent));
}
