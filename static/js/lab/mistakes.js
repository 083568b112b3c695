/**
 * The bug lab's words and comparisons (SPEC.md §8), with no DOM: the three ways
 * the article says an engine goes wrong, the line each one changes next to the
 * right line, and which nodes' gradients part from the right engine's
 * (`correct_grad`) at a frame.
 *
 * Example (`a + a` with `assign`, last frame): partedNodes(trace, grads, final) ->
 *   [{node: 0, grad: 1, correct: 2}]  (a.grad is 1.0 where the right engine gives 2.0)
 */
import { stateAt } from "../passes/timeline.js";

/**
 * @typedef {"assign" | "append-first" | "no-sort"} Mistake
 * @typedef {{id: Mistake, title: string, wrong: string[], right: string[], lesson: string, harmless: string,
 *   topoHint?: (output: string) => string}} MistakeInfo
 * wrong/right: the lines that differ, as the code panel shows them when the server sends none;
 * harmless: what to say when a program's gradients come out right all the same;
 * topoHint: what the topo strip says of the order this engine made, given the output's name.
 */

/** @type {MistakeInfo[]} */
export const MISTAKES = [
  {
    id: "assign",
    title: "= instead of +=",
    wrong: ["child.grad = local * out.grad"],
    right: ["child.grad += local * out.grad"],
    lesson:
      "Each rule overwrites its child's gradient, so a value used twice keeps only its last contribution.",
    harmless:
      "On this program it gets every gradient right: the mistake shows only where a value is used twice.",
  },
  {
    id: "append-first",
    title: "append before the children",
    wrong: ["visited.add(v)", "topo.append(v)", "for child in v._prev:", "    build(child)"],
    right: ["visited.add(v)", "for child in v._prev:", "    build(child)", "topo.append(v)"],
    lesson:
      "A node lands in topo before its children, so walking topo backwards runs children before the gradient reaches them.",
    harmless:
      "On this program it gets every gradient right: with a single operation there is no order to get wrong.",
    topoHint: (output) =>
      `The mistake shows here: ${output} comes first and each value before what it was made from. ` +
      "The backward loop still walks this order from the right, so the rules run children first.",
  },
  {
    id: "no-sort",
    title: "no topological sort",
    wrong: ["visit(output)  # run _backward on first visit, depth first"],
    right: ["build(output)", "for node in reversed(topo):", "    node._backward()"],
    lesson:
      "A node reached by two paths runs its rule after the first path, before the second one's gradient arrives.",
    harmless:
      "On this program it gets every gradient right: it goes wrong only where a computed value (not a leaf) is used twice, like the expanded neuron's e.",
    topoHint: (output) =>
      `No sort ran. This is the order of the depth-first walk from ${output}, ` +
      "which runs each rule the first time it reaches the node, left to right.",
  },
];

export const MISTAKE_IDS = /** @type {Mistake[]} */ (MISTAKES.map((mistake) => mistake.id));

/**
 * A mistake's description, or null for the right engine (null, "", junk).
 * @param {unknown} id
 * @returns {MistakeInfo | null}
 */
export function mistakeInfo(id) {
  return MISTAKES.find((mistake) => mistake.id === id) ?? null;
}

/**
 * Whether two gradients differ by more than rounding: a mistaken engine may add the
 * same contributions in another order, which may change the last bit.
 * Example: differs(1, 2) -> true; differs(0.1 + 0.2, 0.3) -> false.
 * @param {number} a
 * @param {number} b
 */
export function differs(a, b) {
  return Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** @type {WeakMap<object, Array<Float64Array>>} */
const rightCache = new WeakMap();

/**
 * The right engine's gradient of every node in a pass, by node index (NaN where it
 * gives none): a mistaken trace of several passes gives each pass its own
 * (`passes[k].correct_grads`, SPEC §13), any other trace the nodes' `correct_grad`.
 * A node's `correct_grad` is that of the last pass that reaches it (docs/LAB.md): in a
 * trace of several passes without `correct_grads` (a program's own Value class, SPEC
 * §14), an earlier pass that reaches it has no right gradient to compare with (NaN).
 * Example: rightGrads({nodes: [{id: "n0", correct_grad: 2}]}) -> Float64Array [2]
 * @param {{nodes: Array<{id?: string, correct_grad?: number}>,
 *   edges?: Array<{source: string, target: string}>,
 *   passes?: Array<{topo?: string[], correct_grads?: Record<string, number>}>}} trace
 * @param {number} [pass]
 * @returns {Float64Array}
 */
export function rightGrads(trace, pass = 0) {
  let perPass = rightCache.get(trace);
  if (!perPass) {
    perPass = [];
    rightCache.set(trace, perPass);
  }
  const cached = perPass[pass];
  if (cached) return cached;
  const ofPass = trace.passes?.[pass]?.correct_grads;
  const lastPass = ofPass ? null : lastPassReaching(trace);
  const out = new Float64Array(trace.nodes.length);
  trace.nodes.forEach((node, i) => {
    const value = ofPass
      ? ofPass[node.id ?? ""]
      : (lastPass?.get(node.id ?? "") ?? pass) === pass
        ? node.correct_grad
        : undefined;
    out[i] = typeof value === "number" ? value : Number.NaN;
  });
  perPass[pass] = out;
  return out;
}

/**
 * Node id -> the last pass that reaches it (a node of its sort, or an operand of one: a
 * sort may list only the nodes with a rule), for a trace of several passes.
 * @param {{passes?: Array<{topo?: string[]}>, edges?: Array<{source: string, target: string}>}} trace
 * @returns {Map<string, number> | null}
 */
function lastPassReaching(trace) {
  const passes = trace.passes ?? [];
  if (passes.length < 2) return null;
  /** @type {Map<string, string[]>} */
  const operands = new Map();
  for (const { source, target } of trace.edges ?? []) {
    const list = operands.get(target);
    if (list) list.push(source);
    else operands.set(target, [source]);
  }
  /** @type {Map<string, number>} */
  const last = new Map();
  passes.forEach((entry, p) => {
    for (const id of entry.topo ?? []) {
      last.set(id, p);
      for (const child of operands.get(id) ?? []) last.set(child, p);
    }
  });
  return last;
}

/**
 * The frame whose gradients the engine left for frame k: a frame of the program's own
 * writes after a backward (`update`: `p.grad = 0` after a step) looks back to the last
 * backward frame of its pass, so emptying a gradient is not the engine's mistake (a pass
 * whose backward() wrote every gradient in its sort frame keeps frame k).
 * Example: frames build, sort, backward, update: engineFrame(frames, undefined, 3) -> 2.
 * @param {Array<{phase: string}>} frames
 * @param {ArrayLike<number> | undefined} framePass  each frame's pass (undefined: one pass)
 * @param {number} k
 */
export function engineFrame(frames, framePass, k) {
  if (frames[k]?.phase !== "update") return k;
  const pass = framePass?.[k] ?? 0;
  for (let j = k - 1; j >= 0 && (framePass?.[j] ?? 0) === pass; j--) {
    const phase = frames[j].phase;
    if (phase === "backward") return j;
    if (phase === "sort") return k;
  }
  return k;
}

/**
 * The last backward frame of each pass: where the engine has left every gradient of
 * that pass, before the program's own writes.
 * Example: frames build, sort, backward, backward, update: backwardEnds(frames) -> [3].
 * @param {Array<{phase: string}>} frames
 * @param {ArrayLike<number> | undefined} framePass
 * @returns {number[]}
 */
export function backwardEnds(frames, framePass) {
  const ends = [];
  for (let k = 0; k < frames.length; k++) {
    if (frames[k].phase !== "backward") continue;
    const next = frames[k + 1];
    const samePass = (framePass?.[k + 1] ?? 0) === (framePass?.[k] ?? 0);
    if (next && samePass && next.phase === "backward") continue;
    ends.push(k);
  }
  return ends;
}

/**
 * Nodes whose final gradient differs from the right engine's, as far as the player
 * has got: a node counts once its gradient is final at this frame, and is compared
 * with the right engine's gradient in the frame's pass.
 * @param {{nodes: Array<{id?: string, correct_grad?: number}>,
 *   passes?: Array<{correct_grads?: Record<string, number>}>}} trace
 * @param {ArrayLike<number>} grads  gradients at the frame, by node index
 * @param {ArrayLike<number>} final  1 where the gradient is final at the frame
 * @param {number} [pass]  the frame's pass (0 for a trace of one)
 * @returns {Array<{node: number, grad: number, correct: number}>}
 */
export function partedNodes(trace, grads, final, pass = 0) {
  const right = rightGrads(trace, pass);
  const parted = [];
  for (let i = 0; i < trace.nodes.length; i++) {
    const correct = right[i];
    if (Number.isNaN(correct) || !final[i]) continue;
    if (differs(grads[i], correct)) parted.push({ node: i, grad: grads[i], correct });
  }
  return parted;
}

/**
 * How many nodes end wrong, for the bug lab's summary line.
 * @param {{nodes: Array<{grad: number, correct_grad?: number}>}} trace
 */
export function countParted(trace) {
  return trace.nodes.filter(
    (node) => typeof node.correct_grad === "number" && differs(node.grad, node.correct_grad),
  ).length;
}

/**
 * How many nodes end with a gradient that parts from the right engine's, as the engine
 * left it: at the end of each pass's backward (the last pass that reaches a node decides),
 * not after the program's own writes (`p.grad = 0` after the last step empties them all).
 * Falls back to the nodes' final `grad` for a trace with no sort or backward frame.
 * @param {import("../passes/timeline.js").Timeline} timeline
 */
export function countPartedAtEnds(timeline) {
  const { trace } = timeline;
  /** @type {Map<number, boolean>} */
  const verdict = new Map();
  for (const k of backwardEnds(trace.frames, timeline.framePass)) {
    const state = stateAt(timeline, k);
    const right = rightGrads(trace, state.pass ?? 0);
    for (let i = 0; i < trace.nodes.length; i++)
      if (!Number.isNaN(right[i]) && state.final[i])
        verdict.set(i, differs(state.grads[i], right[i]));
  }
  if (verdict.size === 0) return countParted(trace);
  let parted = 0;
  for (const wrong of verdict.values()) if (wrong) parted++;
  return parted;
}

/**
 * The state whose gradients the engine left for this frame: itself, or for a frame of
 * the program's own writes after a backward, that backward's last frame.
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {import("../passes/timeline.js").FrameState} state
 */
export function engineState(timeline, state) {
  const k = engineFrame(timeline.trace.frames, timeline.framePass, state.index);
  return k === state.index ? state : stateAt(timeline, k);
}
