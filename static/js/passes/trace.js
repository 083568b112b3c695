/**
 * The trace: the JSON seam between the engine and the page (SPEC.md §3).
 * This module describes its shape once, checks a trace before the player uses it,
 * and reads the names the engine gives nodes. It does no drawing and no fetching.
 *
 * @typedef {"leaf" | "const" | "op" | "group"} NodeKind  "group": a closed call the page draws (pass-graph.js), never in a trace
 * @typedef {{id: string, label: string, name: string, op: string, kind: NodeKind, data: number, grad: number,
 *   underflow?: true, correct_grad?: number, reference?: "numeric", group?: string,
 *   rule?: {line: number, end_line: number}, requires_grad?: false}} TraceNode
 *   name: what the engine's texts call it;
 *   underflow: a float underflowed here (engine/trace/underflow.py);
 *   rule: a program's own Value class: the lines of this node's own `_backward`;
 *   correct_grad: with a `mistake` (SPEC §8), and on a program's own Value class (§14),
 *     the gradient the correct engine gives; reference "numeric": its op was differentiated
 *     numerically; requires_grad false: it needs no gradient and the learner's rules left its
 *     share out, so the right engine computes none (no correct_grad)
 * @typedef {{source: string, target: string}} TraceEdge  child -> parent, the way data flows
 * @typedef {{to: string, local: number | null, upstream: number, delta: number, before: number, after: number,
 *   underflow?: true, write?: "+=" | "-=" | "=", line?: number, subtracts?: true}} Contribution
 *   local: null only for a program's own class where the factor cannot be read off its code;
 *   write, line: a program's own class (SPEC §14), what the learner's statement did and where
 *   (a `-=`'s local is minus the factor it subtracts: delta = local × upstream all the same;
 *   the API says it `"+="` with `subtracts`, SPEC §14's two writes, and validateTrace makes
 *   it the page's `"-="`, as the columns encoding's `-` is)
 * @typedef {{op: string, line: number | null, verdict: "right" | "wrong" | "unchecked",
 *   first: {frame: number, node: string, child: string, learner: number, correct: number, merged?: string,
 *     kept_on?: string} | null}} RuleVerdict
 *   merged: the node child was merged with by a set of operands; kept_on: the operand holding node's rule
 * @typedef {{rules: RuleVerdict[],
 *   sort: {verdict: "right" | "wrong", first: {frame: number, node: string, consumer: string | null, pass?: number, line?: number | null} | null},
 *   accumulation: {verdict: "right" | "wrong", first: {frame: number, node: string, child: string, lost: number} | null},
 *   grad?: string}} EngineCheck  grad: the gradient's attribute where the class keeps it under another name
 * @typedef {{node: string, field: "data" | "grad", before: number, after: number}} Change
 *   one write to a node's `.data` or `.grad`: an update frame's, or a pass's seed
 * @typedef {{phase: "build", node: string, text: string, line?: number, pass?: number, prints?: string[]}} BuildFrame
 * @typedef {{phase: "sort", text: string, step?: "visit" | "skip" | "append" | "seed", node?: string, depth?: number,
 *   changes?: Change[], pass?: number, prints?: string[]}} SortFrame
 *   step, node, depth: only with `sort_steps` (SPEC §9; sort-steps.js); node: also a real program's
 *   seed, the pass's output; changes: schema 2, the seed as a change of the output's grad
 * @typedef {{phase: "backward", node: string, text: string, contributions: Contribution[], pass?: number,
 *   line?: number, prints?: string[]}} BackwardFrame  line: a rule the program called by hand
 * @typedef {{phase: "update", node?: undefined, text: string, line: number, changes: Change[], pass?: number,
 *   prints?: string[]}} UpdateFrame
 *   node: never there (so the page reads `frame.node` on any Frame);
 *   pass, prints: every frame of a real program (SPEC §11), its 0-based pass and the lines
 *   printed since the previous frame (only when there are some)
 * @typedef {BuildFrame | SortFrame | BackwardFrame | UpdateFrame} Frame
 * @typedef {{output: string, topo: string[], data: number, names: Record<string, string>,
 *   correct_grads?: Record<string, number>,
 *   backward?: {line: number, end_line: number, call: number | null}}} TracePass  one
 *   backward() call (SPEC §11); names: the nodes this pass's texts call otherwise;
 *   correct_grads: with a `mistake`; backward: the program's own backward() (its lines,
 *   and the line that calls the nodes' rules) where its own class ran the pass
 * @typedef {{
 *   schema: 1 | 2, source: string, granularity: "packed" | "expanded",
 *   nodes: TraceNode[], edges: TraceEdge[], topo: string[], output: string, frames: Frame[],
 *   mistake?: "assign" | "append-first" | "no-sort" | null, ops?: import("./op-facts.js").OpTable,
 *   passes: TracePass[], engine_check?: EngineCheck
 * }} Trace  ops: the engine's facts about each primitive the nodes use (op-facts.js);
 *   passes: one per backward() call (exactly one in schema 1);
 *   engine_check: a program's own Value class checked against a right engine (SPEC §14)
 * schema 2 (SPEC §11), several passes and update frames, is played by passes.js.
 * The engine's own description of these shapes is engine/trace/format.py;
 * tests/app/test_trace_format.py checks these typedefs against it.
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
  // A trace is checked once: the layout starts on it before the timeline indexes it.
  if (trace !== null && typeof trace === "object" && validated.has(trace))
    return /** @type {Trace} */ (trace);
  const checked = checkTrace(trace);
  validated.add(checked);
  return checked;
}

/** The traces validateTrace has passed (a trace is not changed once it is played). */
const validated = new WeakSet();

/**
 * @param {unknown} trace
 * @returns {Trace}
 */
function checkTrace(trace) {
  /**
   * @param {string} what
   * @param {unknown} value
   * @returns {never}
   */
  const fail = (what, value) => {
    throw new TypeError(`trace${what}, got ${JSON.stringify(value)}`);
  };
  if (trace === null || typeof trace !== "object") fail(" must be an object", trace);
  const t = /** @type {Trace} */ (trace);
  if (t.schema !== 1 && t.schema !== 2) fail(".schema must be 1 or 2", t.schema);
  const fields = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (t));
  for (const key of ["nodes", "edges", "topo", "frames"]) {
    if (!Array.isArray(fields[key])) fail(`.${key} must be an array`, fields[key]);
  }
  const ids = new Set();
  t.nodes.forEach((node, i) => {
    if (typeof node.id !== "string" || ids.has(node.id))
      fail(`.nodes[${i}].id must be a unique string`, node.id);
    if (!Number.isFinite(node.data)) fail(`.nodes[${i}].data must be a finite number`, node.data);
    if (typeof node.name !== "string") fail(`.nodes[${i}].name must be a string`, node.name);
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
    if (frame.phase === "backward" && Array.isArray(frame.contributions)) {
      for (const c of frame.contributions) {
        // The API's `-=` (a `+=` that subtracts, SPEC §14) is the page's `-=`.
        if (c?.subtracts === true && c.write === "+=") c.write = "-=";
      }
    }
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

/**
 * What to call each node in text: the name the engine gives it (`nodes[].name`, the
 * one its frame texts use: engine/trace/narrate.py `Names`). The page makes no names of its own.
 * Example (the expanded neuron): "x1*w1", "2*(x1*w1+x2*w2+b)", "e", "num", "den**-1".
 * @param {Trace} trace
 * @returns {string[]} names by node index
 */
export const nodeNames = (trace) => trace.nodes.map((node) => node.name);
