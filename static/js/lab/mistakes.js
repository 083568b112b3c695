/**
 * The bug lab's words and comparisons (SPEC.md §8), with no DOM: the three ways
 * the article says an engine goes wrong, the line each one changes next to the
 * right line, and which nodes' gradients part from the right engine's
 * (`correct_grad`) at a frame.
 *
 * Example (`a + a` with `assign`, last frame): partedNodes(trace, grads, final) ->
 *   [{node: 0, grad: 1, correct: 2}]  (a.grad is 1.0 where the right engine gives 2.0)
 */

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
 * Example: rightGrads({nodes: [{id: "n0", correct_grad: 2}]}) -> Float64Array [2]
 * @param {{nodes: Array<{id?: string, correct_grad?: number}>,
 *   passes?: Array<{correct_grads?: Record<string, number>}>}} trace
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
  const out = new Float64Array(trace.nodes.length);
  trace.nodes.forEach((node, i) => {
    const value = ofPass ? ofPass[node.id ?? ""] : node.correct_grad;
    out[i] = typeof value === "number" ? value : Number.NaN;
  });
  perPass[pass] = out;
  return out;
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
