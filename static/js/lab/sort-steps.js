/**
 * The depth-first sort, step by step (SPEC.md §9): what the recursive `build(v)`
 * has on its call stack, in its `visited` set and in its `topo` list at each of
 * the trace's sort frames. Pure: the trace in, plain arrays out; no DOM.
 *
 * A sort-step frame is `{phase: "sort", step: "visit" | "skip" | "append" | "seed",
 * node, depth}`; the stack at a frame is the chain of `build` calls from the output
 * (depth 0) down to the call that frame happens in. A `skip` is a call that
 * returns at once, so it is on the stack only for its own frame.
 *
 * Example (`a + a`, output o): visit o 0, visit a 1, append a 1, skip a 1,
 * append o 0, seed ->
 *   step 3 (append a): stack [o, a], visited [o, a], topo [a]
 *   step 4 (skip a):   stack [o, a (skip)], visited [o, a], topo [a]
 *   step 6 (seed):     stack [], visited [o, a], topo [a, o]
 */

export const SORT_STEPS = /** @type {const} */ (["visit", "skip", "append", "seed"]);

/**
 * @typedef {"visit" | "skip" | "append" | "seed"} SortStep
 * @typedef {{
 *   step: SortStep, node: number, depth: number,
 *   stack: Array<{node: number, skip: boolean}>, visited: number[], topo: number[], position: number, count: number
 * }} SortStepState
 * node: the node index of this step (-1 for the seed); position: 0-based among the steps of
 * its sort, count: that sort's steps (a trace of several passes has a sort each, SPEC §13,
 * and each starts with nothing visited).
 */

/**
 * Whether a trace's sort is given step by step (`sort_steps: true`).
 * @param {{frames: Array<{phase: string, step?: unknown}>}} trace
 */
export function hasSortSteps(trace) {
  return trace.frames.some((frame) => frame.phase === "sort" && typeof frame.step === "string");
}

/**
 * A sort frame's step, node index and depth (-1 for the seed), and how to fail on it.
 * Throws a TypeError when the step is unknown, the node missing or the depth not whole.
 * @param {Record<string, unknown>} frame
 * @param {number} k  the frame's index
 * @param {Map<string, number>} indexOf  node id -> node index
 */
function readStep(frame, k, indexOf) {
  const fail = (/** @type {string} */ what) => {
    throw new TypeError(`trace.frames[${k}] ${what}, got ${JSON.stringify(frame)}`);
  };
  const step = /** @type {SortStep} */ (frame.step);
  if (!SORT_STEPS.includes(step)) fail("must have a step of visit, skip, append or seed");
  let node = -1;
  let depth = -1;
  if (step !== "seed") {
    node = indexOf.get(/** @type {string} */ (frame.node)) ?? fail("must name a node");
    depth = /** @type {number} */ (frame.depth);
    if (!Number.isInteger(depth) || depth < 0) fail("must have a depth of 0 or more");
  }
  return { step, node, depth, fail };
}

/**
 * Each step's sort end: the step after its sort's seed (or the last step).
 * @param {SortStep[]} steps
 */
function sortEnds(steps) {
  /** @type {number[]} */ const sortEnd = new Array(steps.length);
  for (let p = steps.length - 1, end = steps.length; p >= 0; p--) {
    if (steps[p] === "seed") end = p + 1;
    sortEnd[p] = end;
  }
  return sortEnd;
}

/**
 * Index a trace's sort steps once; `at(k)` then gives the state at frame k without
 * replaying the sort (a big graph has tens of thousands of steps). Throws a
 * TypeError naming the first step that does not fit: an unknown step, a missing
 * node, a call from a depth not on the stack, an append outside its own call.
 * @param {{nodes: Array<{id: string}>, frames: Array<Record<string, unknown>>}} trace
 */
export function createSortSteps(trace) {
  const indexOf = new Map(trace.nodes.map((node, i) => [node.id, i]));
  /** @type {number[]} */ const frameIndices = [];
  /** @type {Map<number, number>} */ const positionOf = new Map();
  // Per step: its kind, node and depth; how many visits and appends happened up to
  // it; and the call it happens in (a call is a visit or skip step; -1 for none).
  /** @type {SortStep[]} */ const steps = [];
  /** @type {number[]} */ const nodes = [];
  /** @type {number[]} */ const depths = [];
  /** @type {number[]} */ const visitCount = [];
  /** @type {number[]} */ const appendCount = [];
  /** @type {number[]} */ const callOf = [];
  /** @type {number[]} */ const callerOf = []; // per step that is a call: the step of its caller
  /** @type {number[]} */ const visitOrder = [];
  /** @type {number[]} */ const appendOrder = [];
  /** @type {number[]} */ let stack = []; // steps of the calls now running, outermost first
  // Per step: where its sort begins, among the steps, visits and appends (after a seed,
  // the next pass's sort starts afresh).
  /** @type {number[]} */ const sortStart = [];
  /** @type {number[]} */ const visitStart = [];
  /** @type {number[]} */ const appendStart = [];
  let base = { step: 0, visit: 0, append: 0 };
  trace.frames.forEach((frame, k) => {
    if (frame.phase !== "sort") return;
    const { step, node, depth, fail } = readStep(frame, k, indexOf);
    const p = steps.length;
    callerOf.push(-1);
    if (step === "seed") {
      stack = [];
      callOf.push(-1);
    } else if (step === "append") {
      if (depth >= stack.length || nodes[stack[depth]] !== node)
        fail("must append the node of a call on the stack");
      stack = stack.slice(0, depth + 1);
      appendOrder.push(node);
      callOf.push(stack[depth]);
    } else {
      if (depth > stack.length) fail("must be called from a call on the stack");
      stack = stack.slice(0, depth);
      callerOf[p] = depth > 0 ? stack[depth - 1] : -1;
      if (step === "visit") {
        visitOrder.push(node);
        stack.push(p);
      }
      callOf.push(p);
    }
    steps.push(step);
    nodes.push(node);
    depths.push(depth);
    visitCount.push(visitOrder.length);
    appendCount.push(appendOrder.length);
    sortStart.push(base.step);
    visitStart.push(base.visit);
    appendStart.push(base.append);
    if (step === "seed")
      base = { step: steps.length, visit: visitOrder.length, append: appendOrder.length };
    positionOf.set(k, p);
    frameIndices.push(k);
  });
  // Each sort's end: the step after its seed (or the last step).
  const sortEnd = sortEnds(steps);

  return {
    /** Frame indices of the sort steps, in order. */
    frames: frameIndices,
    count: steps.length,
    /**
     * The state at frame k, or null when k is not a sort step.
     * @param {number} k
     * @returns {SortStepState | null}
     */
    at(k) {
      const p = positionOf.get(k);
      if (p === undefined) return null;
      /** @type {Array<{node: number, skip: boolean}>} */
      const stackNow = [];
      for (let call = callOf[p]; call >= 0; call = callerOf[call])
        stackNow.push({ node: nodes[call], skip: steps[call] === "skip" });
      stackNow.reverse();
      return {
        step: steps[p],
        node: nodes[p],
        depth: depths[p],
        stack: stackNow,
        visited: visitOrder.slice(visitStart[p], visitCount[p]),
        topo: appendOrder.slice(appendStart[p], appendCount[p]),
        position: p - sortStart[p],
        count: sortEnd[p] - sortStart[p],
      };
    },
  };
}
