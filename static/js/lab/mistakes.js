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
 * Whether two gradients differ by more than SPEC §14's agreement, 1e-6 relative, the
 * check's own for its rows: a mistaken engine may add the same contributions in another
 * order (the last bits), and an engine whose rules are difference quotients (a learner's
 * `(f(a + h) − f(a)) / h`, right within 1e-6) leaves gradients a little off the right
 * engine's; neither is a wrong gradient (the page outlined 42 of them, "yet 42 gradients
 * differ", where every row was right).
 * Example: differs(1, 2) -> true; differs(0.1 + 0.2, 0.3) -> false.
 * @param {number} a
 * @param {number} b
 */
export function differs(a, b) {
  return Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
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
 * sort may list only the nodes with a rule; a pass with no sort, everything its output
 * reaches), for a trace of several passes.
 * @param {{passes?: Array<{topo?: string[], output?: string}>, edges?: Array<{source: string, target: string}>}} trace
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
    if (entry.topo?.length || entry.output === undefined) return;
    // No sort (a backward() that recurses into each operand): what its output reaches.
    const stack = [entry.output];
    const seen = new Set(stack);
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      last.set(id, p);
      for (const child of operands.get(id) ?? [])
        if (!seen.has(child)) {
          seen.add(child);
          stack.push(child);
        }
    }
  });
  return last;
}

/**
 * @typedef {{phase: string, line?: number | null}} PhaseFrame
 * @typedef {Array<{backward?: {line: number, end_line: number}}> | undefined} BackwardSpans
 */

/**
 * Whether frame k is the engine writing gradients: a backward frame, or the program's
 * own writes made inside its class's backward() (`p.grad = g` in its loop, no rule).
 * @param {PhaseFrame[]} frames
 * @param {ArrayLike<number> | undefined} framePass
 * @param {BackwardSpans} passes
 * @param {number} k
 */
function engineWrites(frames, framePass, passes, k) {
  const frame = frames[k];
  if (frame?.phase === "backward") return true;
  if (frame?.phase !== "update" || typeof frame.line !== "number") return false;
  const span = passes?.[framePass?.[k] ?? 0]?.backward;
  return Boolean(span && frame.line >= span.line && frame.line <= span.end_line);
}

/**
 * The frame whose gradients the engine left for frame k: a frame of the program's own
 * writes after a backward (`update`: `p.grad = 0` after a step) looks back to the last
 * frame of its pass where the engine wrote, so emptying a gradient is not the engine's
 * mistake (a pass whose backward() wrote every gradient in its sort frame keeps frame k).
 * Example: frames build, sort, backward, update: engineFrame(frames, undefined, 3) -> 2.
 * @param {PhaseFrame[]} frames
 * @param {ArrayLike<number> | undefined} framePass  each frame's pass (undefined: one pass)
 * @param {number} k
 * @param {BackwardSpans} [passes]  the trace's passes, with the lines of their backward()
 */
export function engineFrame(frames, framePass, k, passes) {
  if (frames[k]?.phase !== "update" || engineWrites(frames, framePass, passes, k)) return k;
  const pass = framePass?.[k] ?? 0;
  for (let j = k - 1; j >= 0 && (framePass?.[j] ?? 0) === pass; j--) {
    if (engineWrites(frames, framePass, passes, j)) return j;
    if (frames[j].phase === "sort") return k;
  }
  return k;
}

/**
 * The last frame of each run of the engine's writes (backward frames, and writes inside
 * the class's backward()): where it has left every gradient of that pass, before the
 * program's own writes.
 * Example: frames build, sort, backward, backward, update: backwardEnds(frames) -> [3].
 * @param {PhaseFrame[]} frames
 * @param {ArrayLike<number> | undefined} framePass
 * @param {BackwardSpans} [passes]
 * @returns {number[]}
 */
export function backwardEnds(frames, framePass, passes) {
  const ends = [];
  for (let k = 0; k < frames.length; k++) {
    if (!engineWrites(frames, framePass, passes, k)) continue;
    const samePass = (framePass?.[k + 1] ?? 0) === (framePass?.[k] ?? 0);
    if (k + 1 < frames.length && samePass && engineWrites(frames, framePass, passes, k + 1))
      continue;
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
 * How many nodes end with a gradient that parts from the right engine's (`correct_grad`,
 * the last pass that reaches the node), as the engine left it: a gradient the program
 * writes itself after the last backward (`p.grad = 0` after its last step) is compared as
 * it was before that write, not as the program left it.
 * @param {import("../passes/timeline.js").Timeline} timeline
 */
export function countPartedAtEnds(timeline) {
  const { trace } = timeline;
  const frames =
    /** @type {Array<PhaseFrame & {changes?: Array<{node: string, field: string, before: number}>}>} */ (
      trace.frames
    );
  const ends = backwardEnds(frames, timeline.framePass, trace.passes);
  /** @type {Map<string, number>} */
  const leftBy = new Map();
  for (let k = (ends.at(-1) ?? frames.length) + 1; k < frames.length; k++) {
    if (frames[k].phase !== "update") continue;
    for (const change of frames[k].changes ?? [])
      if (change.field === "grad" && !leftBy.has(change.node))
        leftBy.set(change.node, change.before);
  }
  return trace.nodes.filter(
    (node) =>
      typeof node.correct_grad === "number" &&
      differs(leftBy.get(node.id) ?? node.grad, node.correct_grad),
  ).length;
}

/**
 * The state whose gradients the engine left for this frame: itself, or for a frame of
 * the program's own writes after a backward, that backward's last frame.
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {import("../passes/timeline.js").FrameState} state
 */
export function engineState(timeline, state) {
  const k = engineFrame(
    timeline.trace.frames,
    timeline.framePass,
    state.index,
    timeline.trace.passes,
  );
  return k === state.index ? state : stateAt(timeline, k);
}

/** @type {WeakMap<object, Int32Array>} */
const loopEndCache = new WeakMap();

/**
 * Per pass, where backward() writes the gradients itself rather than in each node's rule
 * (a loop's `p.grad = g` with what a rule returned, a recursion's `self.grad += bp`: the
 * seed frame writes more than the output, or update frames inside the class's backward()
 * write a gradient): the last frame of those writes, from which every gradient of the
 * pass is as it ends; -1 for a pass whose rules write them (a gradient is final once its
 * consumers' rules have run, `FrameState.final`).
 * Example: frames build, sort (seed n1, then n0 = 3), update: loopEnds(timeline) -> [1].
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @returns {Int32Array}
 */
export function loopEnds(timeline) {
  const cached = loopEndCache.get(timeline);
  if (cached) return cached;
  const { trace, framePass } = timeline;
  const frames =
    /** @type {Array<PhaseFrame & {changes?: Array<{node: string, field: string}>}>} */ (
      trace.frames
    );
  const count = Math.max(1, trace.passes?.length ?? 1);
  const written = new Uint8Array(count);
  const last = new Int32Array(count).fill(-1);
  for (let k = 0; k < frames.length; k++) {
    const frame = frames[k];
    const p = framePass?.[k] ?? 0;
    if (frame.phase === "sort" || frame.phase === "backward") {
      last[p] = k;
      const output = trace.passes?.[p]?.output ?? trace.output;
      if (frame.phase === "sort" && frame.changes?.some((c) => c.node !== output)) written[p] = 1;
    } else if (
      frame.phase === "update" &&
      frame.changes?.some((c) => c.field === "grad") &&
      engineWrites(frames, framePass, trace.passes, k)
    ) {
      last[p] = k;
      written[p] = 1;
    }
  }
  const ends = new Int32Array(count).fill(-1);
  for (let p = 0; p < count; p++) if (written[p]) ends[p] = last[p];
  loopEndCache.set(timeline, ends);
  lastRuleCache.set(timeline, last);
  return ends;
}

/** @type {WeakMap<object, Int32Array>} */
const lastRuleCache = new WeakMap();

/**
 * Per pass, its last sort or backward frame (-1 for a pass with none): from there the
 * pass has run every rule it runs, so every gradient is as the pass leaves it, a node's
 * whose consumers' rules never ran too (a sort that left them out: their gradients
 * never become final the usual way, `FrameState.final`).
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @returns {Int32Array}
 */
function lastRuleFrames(timeline) {
  loopEnds(timeline);
  return /** @type {Int32Array} */ (lastRuleCache.get(timeline));
}

/**
 * The nodes outlined on the graph at a state: those whose gradient, as the engine left it
 * for this frame (`engineState`), parts from the right engine's in the frame's pass, once
 * it is final (in a pass whose backward() writes the gradients itself, from the last of
 * those writes: `loopEnds`; in any pass, from its last rule on, `lastRuleFrames`).
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {import("../passes/timeline.js").FrameState} state
 * @returns {Array<{node: number, grad: number, correct: number}>}
 */
export function partedAt(timeline, state) {
  const left = engineState(timeline, state);
  const pass = left.pass ?? 0;
  const end = loopEnds(timeline)[pass] ?? -1;
  const last = lastRuleFrames(timeline)[pass] ?? -1;
  // After the pass's last rule, every gradient is as the pass leaves it.
  const ended = last >= 0 && left.index >= last;
  const final =
    end < 0
      ? ended
        ? left.visible
        : left.final
      : left.index >= end
        ? left.visible
        : new Uint8Array(left.visible.length);
  return partedNodes(timeline.trace, left.grads, final, pass).filter(
    (entry) => state.visible[entry.node],
  );
}

/**
 * The nodes that end wrong, each outlined at the end of the last pass that reaches it
 * (`partedAt` there), with that pass: what Check your engine's summary counts, so that it
 * counts the outlines the graph shows at the end of each pass and nothing else.
 * Example (one pass, `a + a` whose rule writes `=`): partedAtEnds(timeline) ->
 *   [{node: 0, grad: 1, correct: 2, pass: 0}]
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @returns {Array<{node: number, grad: number, correct: number, pass: number}>}
 */
export function partedAtEnds(timeline) {
  const lastFrames = timeline.passes
    ? timeline.passes.filter((pass) => pass.end > pass.start).map((pass) => pass.end - 1)
    : [timeline.frameCount - 1];
  /** @type {Map<number, {node: number, grad: number, correct: number, pass: number}>} */
  const found = new Map();
  for (const k of lastFrames) {
    const state = stateAt(timeline, k);
    for (const entry of partedAt(timeline, state))
      found.set(entry.node, { ...entry, pass: state.pass ?? 0 });
  }
  return [...found.values()].sort((a, b) => a.node - b.node);
}
