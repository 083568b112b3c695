/**
 * State at frame k, computed from the trace alone, so any frame is reachable
 * instantly and in any order (scrubbing never replays an animation).
 *
 * Gradients only change in backward frames, and every `+=` in the trace carries the
 * child's gradient `after` it, so the gradients at frame k are the latest `after`
 * per child. Every `+=` is indexed once into typed arrays (frame -> first
 * contribution, child, after), and snapshots every `keyframeInterval` frames bound
 * the replay: at least KEYFRAME_INTERVAL, wider on big graphs so the snapshots stay
 * a few megabytes (20,000 values: 2,048 frames apart, 16 snapshots, a scrub replays
 * at most a few thousand array writes). Leaves out: anything about pixels, layout
 * or timing.
 *
 * Example (the article's neuron, 16 frames): stateAt(timeline, 5) is the sort frame,
 * every node visible, o's grad 1 and all others 0; stateAt(timeline, 15) has the
 * leaf grads x1 -1.5, w1 1, x2 0.5, w2 0, b 0.5. A gradient is `final` from the
 * frame its last parent runs (o's from the sort frame, x1's from frame 13, when
 * x1*w1 runs) to the end.
 */
import {
  createPassTimeline,
  indexContributions,
  isMultiPass,
  passSpans,
  passStateAt,
} from "./passes.js";
import { validateTrace } from "./trace.js";

export const KEYFRAME_INTERVAL = 64;

/**
 * @typedef {import("./trace.js").Trace} Trace
 * @typedef {{
 *   trace: Trace, size: number, frameCount: number, sortFrame: number,
 *   indexOf: Map<string, number>, operands: number[][], parents: number[][],
 *   appearFrame: Int32Array, backwardFrame: Int32Array, finalFrame: Int32Array, topoIndex: Int32Array,
 *   frameNode: Int32Array, phaseBounds: {build: number, sort: number, backward: number},
 *   keyframes: Map<number, Float64Array>, keyframeInterval: number,
 *   contributionStart: Int32Array, contributionChild: Int32Array, contributionAfter: Float64Array,
 *   passes?: import("./passes.js").PassInfo[], framePass?: Int32Array, initialData?: Float64Array,
 *   valueKeyframes?: Map<number, {data: Float64Array, grads: Float64Array}>
 * }} Timeline
 * contributionStart[k]..contributionStart[k + 1]: frame k's `+=`s in contributionChild/After
 * passes…valueKeyframes: only for traces with several passes or updates (passes.js)
 */

/**
 * Index a trace for fast stateAt calls.
 * @param {unknown} rawTrace
 * @returns {Timeline}
 */
export function createTimeline(rawTrace) {
  const trace = validateTrace(rawTrace);
  if (isMultiPass(trace)) return createPassTimeline(trace);
  const size = trace.nodes.length;
  const indexOf = new Map(trace.nodes.map((node, i) => [node.id, i]));
  /** @type {number[][]} */ const operands = trace.nodes.map(() => []);
  /** @type {number[][]} */ const parents = trace.nodes.map(() => []);
  for (const edge of trace.edges) {
    const child = /** @type {number} */ (indexOf.get(edge.source));
    const parent = /** @type {number} */ (indexOf.get(edge.target));
    operands[parent].push(child);
    parents[child].push(parent);
  }
  const frameCount = trace.frames.length;
  // With sort steps (SPEC §9) the sort spans many frames; gradients start at its seed.
  const sortStart = trace.frames.findIndex((frame) => frame.phase === "sort");
  const seedFrame = trace.frames.findIndex(
    (frame) => frame.phase === "sort" && "step" in frame && frame.step === "seed",
  );
  const sortFrame = seedFrame >= 0 ? seedFrame : sortStart;
  const appearFrame = new Int32Array(size).fill(sortStart);
  const backwardFrame = new Int32Array(size).fill(-1);
  const frameNode = new Int32Array(frameCount).fill(-1);
  trace.frames.forEach((frame, k) => {
    if (frame.phase === "sort") {
      if (frame.node !== undefined) frameNode[k] = /** @type {number} */ (indexOf.get(frame.node));
      return;
    }
    // Build and backward frames always name their node (updates live in passes.js).
    const node = /** @type {number} */ (indexOf.get(/** @type {string} */ (frame.node)));
    frameNode[k] = node;
    if (frame.phase === "build") {
      appearFrame[node] = Math.min(appearFrame[node], k);
      for (const child of operands[node]) appearFrame[child] = Math.min(appearFrame[child], k);
    } else {
      backwardFrame[node] = k;
    }
  });
  const topoIndex = new Int32Array(size).fill(-1);
  trace.topo.forEach((id, position) => {
    const node = indexOf.get(id);
    if (node !== undefined) topoIndex[node] = position;
  });
  // A gradient is final once every parent has run its rule (the sort guarantees
  // that happens before the node's own turn); the output's, once it is seeded.
  const finalFrame = new Int32Array(size).fill(frameCount);
  for (let i = 0; i < size; i++) {
    if (parents[i].length === 0) continue;
    let last = -1;
    for (const parent of parents[i]) last = Math.max(last, backwardFrame[parent]);
    if (last >= 0) finalFrame[i] = last;
  }
  const output = indexOf.get(trace.output);
  if (output !== undefined && sortFrame >= 0) finalFrame[output] = sortFrame;
  const phaseBounds = {
    build: sortStart,
    sort: sortFrame - sortStart + 1,
    backward: frameCount - sortFrame - 1,
  };
  const { contributionStart, contributionChild, contributionAfter } = indexContributions(
    trace.frames,
    indexOf,
  );
  /** @type {Timeline} */
  const timeline = {
    trace,
    size,
    frameCount,
    sortFrame,
    indexOf,
    operands,
    parents,
    appearFrame,
    backwardFrame,
    finalFrame,
    topoIndex,
    frameNode,
    phaseBounds,
    keyframes: new Map(),
    keyframeInterval: Math.max(
      KEYFRAME_INTERVAL,
      2 ** Math.ceil(Math.log2(Math.max(1, size / 10))),
    ),
    contributionStart,
    contributionChild,
    contributionAfter,
  };
  buildKeyframes(timeline);
  return timeline;
}

/** @param {Timeline} timeline */
function buildKeyframes(timeline) {
  const grads = new Float64Array(timeline.size);
  grads[/** @type {number} */ (timeline.indexOf.get(timeline.trace.output))] = 1;
  for (let k = timeline.sortFrame; k < timeline.frameCount; k++) {
    applyFrame(timeline, grads, k);
    if ((k - timeline.sortFrame) % timeline.keyframeInterval === 0)
      timeline.keyframes.set(k, grads.slice());
  }
}

/**
 * @param {Timeline} timeline
 * @param {Float64Array} grads
 * @param {number} k
 */
function applyFrame(timeline, grads, k) {
  const { contributionStart, contributionChild, contributionAfter } = timeline;
  for (let j = contributionStart[k]; j < contributionStart[k + 1]; j++)
    grads[contributionChild[j]] = contributionAfter[j];
}

/**
 * Gradients of every node (by node index) as they stand after frame k ran.
 * @param {Timeline} timeline
 * @param {number} k
 */
export function gradsAt(timeline, k) {
  if (k < timeline.sortFrame) return new Float64Array(timeline.size);
  const base = k - ((k - timeline.sortFrame) % timeline.keyframeInterval);
  const grads = /** @type {Float64Array} */ (timeline.keyframes.get(base)).slice();
  for (let j = base + 1; j <= k; j++) applyFrame(timeline, grads, j);
  return grads;
}

/**
 * Clamp any number (or junk) to a valid frame index.
 * Example: clampFrame(t16, 99) -> 15; clampFrame(t16, -3) -> 0; clampFrame(t16, NaN) -> 0.
 * @param {Timeline} timeline
 * @param {number} k
 */
export function clampFrame(timeline, k) {
  if (!Number.isFinite(k)) return 0;
  return Math.max(0, Math.min(timeline.frameCount - 1, Math.trunc(k)));
}

/**
 * @typedef {"hidden" | "new" | "operand" | "active" | "receiving" | "done" | "idle" | "updated"} NodeRole
 * @typedef {{
 *   index: number, frameCount: number, phase: "build" | "sort" | "backward" | "update", text: string,
 *   current: number, visible: Uint8Array, final: Uint8Array, grads: Float64Array, roles: NodeRole[],
 *   contributions: Array<import("./trace.js").Contribution & {child: number}>,
 *   sorted: boolean, line: number | null,
 *   pass?: number, passCount?: number, data?: Float64Array,
 *   changes?: Array<{node: string, field: "data" | "grad", before: number, after: number, child: number}>
 * }} FrameState
 * pass…changes: set for traces with several passes (passes.js); data = every node's data now
 */

/**
 * Everything a view needs to draw frame k.
 * @param {Timeline} timeline
 * @param {number} k  0-based frame index; clamped
 * @returns {FrameState}
 */
export function stateAt(timeline, k) {
  if (timeline.passes) return passStateAt(timeline, k);
  const index = clampFrame(timeline, k);
  const frame = timeline.trace.frames[index];
  const current = timeline.frameNode[index];
  const visible = new Uint8Array(timeline.size);
  const final = new Uint8Array(timeline.size);
  for (let i = 0; i < timeline.size; i++) {
    visible[i] = timeline.appearFrame[i] <= index ? 1 : 0;
    final[i] = timeline.finalFrame[i] <= index ? 1 : 0;
  }
  const contributions =
    frame.phase === "backward"
      ? frame.contributions.map((c) => ({
          ...c,
          child: /** @type {number} */ (timeline.indexOf.get(c.to)),
        }))
      : [];
  /** @type {NodeRole[]} */
  const roles = new Array(timeline.size);
  for (let i = 0; i < timeline.size; i++) {
    if (!visible[i]) roles[i] = "hidden";
    else if (final[i]) roles[i] = "done";
    else roles[i] = "idle";
  }
  if (frame.phase === "build") {
    for (const child of timeline.operands[current]) roles[child] = "operand";
    roles[current] = "new";
  } else if (frame.phase === "backward") {
    for (const c of contributions) roles[c.child] = "receiving";
    roles[current] = "active";
  } else if (current >= 0) {
    roles[current] = "active"; // the node a sort step calls build on
  }
  return {
    index,
    frameCount: timeline.frameCount,
    phase: frame.phase,
    text: frame.text,
    current,
    visible,
    final,
    grads: gradsAt(timeline, index),
    roles,
    contributions,
    sorted: index >= timeline.sortFrame,
    // A backward frame has a line where the program called the rule itself (by hand).
    line: frame.phase !== "sort" && typeof frame.line === "number" ? frame.line : null,
  };
}

/**
 * The first frame of each phase, for markers on the scrubber.
 * Example (neuron): [{phase: "build", start: 0, length: 5}, {phase: "sort", start: 5, length: 1},
 * {phase: "backward", start: 6, length: 10}]
 * @param {Timeline} timeline
 */
export function phaseSpans(timeline) {
  if (timeline.passes) return passSpans(timeline).flatMap((pass) => pass.phases);
  const { build, sort, backward } = timeline.phaseBounds;
  return [
    { phase: "build", start: 0, length: build },
    { phase: "sort", start: build, length: sort },
    { phase: "backward", start: build + sort, length: backward },
  ].filter((span) => span.length > 0);
}
