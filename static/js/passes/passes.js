/**
 * Several backward passes (SPEC.md §11, `schema: 2`): the state at frame k of a
 * trace in which a program called `backward()` more than once and changed `.data`
 * or `.grad` between the calls. Pure, like timeline.js, whose Timeline and
 * FrameState shapes it fills in, so every view works on both.
 *
 * What changes across passes, and how this module knows it from the trace alone:
 * - data: `nodes[].data` is the value when the program ends; each `update` frame
 *   says what it changed (`before` -> `after`), so a node's first data is the
 *   `before` of its first data change, and data at frame k replays the changes.
 * - grad: starts at 0; a pass's sort frame seeds its output with 1 (micrograd
 *   assigns, it does not add); every `+=` leaves `after`; updates (`p.grad = 0`,
 *   `zero_grad()`) set it. Nothing else clears it, which is the article's warning.
 * - which nodes are drawn: the nodes of the current pass (those its sort reaches,
 *   plus any its build frames made), each once it has been built.
 * Leaves out: drawing, layout, folding (folding.js).
 *
 * Example (`c = a*b + a` with a=2, b=-3 and two `backward()` calls, 2 + 1 + 4 and
 * 1 + 4 frames): passStateAt(t, 6).grads[a] -> -2 (after pass 0),
 * passStateAt(t, 12).grads[a] -> -7 (c's `+=` and a*b's `+=` both add again).
 */

/** Frames between stored snapshots of every data and grad. */
export const PASS_KEYFRAME_INTERVAL = 64;

/**
 * @typedef {import("./trace.js").Trace} Trace
 * @typedef {import("./timeline.js").Timeline} Timeline
 * @typedef {import("./timeline.js").FrameState} FrameState
 * @typedef {{
 *   start: number, end: number, sortFrame: number, output: number, outputId: string, topoIds: string[],
 *   member: Uint8Array, topoIndex: Int32Array, backwardFrame: Int32Array, finalFrame: Int32Array, data: number
 * }} PassInfo
 *   start/end: its frames are [start, end); member: 1 for the nodes this pass draws
 */

/**
 * Whether a sort frame holds writes besides a seed of 1 (a backward() that writes the
 * gradients itself; a pass run by hand, whose output has the gradient the program gave
 * it): only the multi-pass timeline replays them.
 * @param {import("./trace.js").Frame} frame
 */
const sortWrites = (frame) =>
  frame.phase === "sort" &&
  Array.isArray(frame.changes) &&
  (frame.changes.length > 1 || frame.changes.some((change) => change.after !== 1));

/**
 * Whether a trace needs this module: several passes, values changed between them,
 * writes in a sort frame (`sortWrites`), or one pass of a program whose nodes carry
 * call groups (so pass-graph.js can fold them). A one-pass trace without these plays
 * exactly like `schema: 1`.
 * @param {Trace} trace
 */
export function isMultiPass(trace) {
  const passes = /** @type {any} */ (trace).passes;
  if (!Array.isArray(passes)) return false;
  if (
    trace.schema === 2 &&
    (passes.length > 1 ||
      trace.frames.some((frame) => frame.phase === "update" || sortWrites(frame)))
  )
    return true;
  return passes.length === 1 && hasGroups(trace);
}

/**
 * Whether the program calls no backward() and no node's rule (docs/TRACE.md's pass of no
 * rule: it works out the gradients itself, `a.grad = b.data * c.grad`, or never asks for
 * them): no rule ran, no pass has an order, and no sort frame writes a gradient (the
 * program's writes are the update frames before it). A backward() that writes every
 * gradient itself writes them in its sort frame, and a pass that names the program's own
 * backward() (`backward`, its lines) is one the program called, so neither is one of these.
 * Example: frames [update a.grad 0 → 2, sort (d.grad 1 → 1)], topo [] → true.
 * @param {Trace} trace
 */
export function callsNoBackward(trace) {
  const passes = trace.passes ?? [{ topo: trace.topo }];
  // (a pass with the lines of the program's own backward() is one it called, though that
  // backward() ran no rule and wrote nothing: a learner's that sorts and stops)
  if (passes.some((entry) => (entry.topo ?? []).length > 0 || entry.backward)) return false;
  return trace.frames.every(
    (frame) =>
      frame.phase !== "backward" &&
      (frame.phase !== "sort" ||
        (frame.changes ?? []).every((change) => change.before === change.after)),
  );
}

/**
 * Whether any node was made inside a call (SPEC §11 `group`).
 * @param {Trace} trace
 */
export function hasGroups(trace) {
  return trace.nodes.some(
    (node) =>
      typeof (/** @type {any} */ (node).group) === "string" &&
      /** @type {any} */ (node).group !== "",
  );
}

/**
 * Throw (through `fail`) on the first thing about passes the player cannot use.
 * Example: a frame with `pass: 3` in a two-pass trace -> "trace.frames[9].pass must be…".
 * @param {any} trace  a trace whose nodes, edges and frames are already checked
 * @param {Set<string>} ids
 * @param {(what: string, value: unknown) => never} fail
 */
export function validatePasses(trace, ids, fail) {
  const { passes, frames } = trace;
  if (!Array.isArray(passes) || passes.length === 0)
    fail(".passes must be a non-empty array", passes);
  passes.forEach((/** @type {any} */ pass, /** @type {number} */ p) => {
    if (pass === null || typeof pass !== "object" || !ids.has(pass.output))
      fail(`.passes[${p}].output must name a node`, pass?.output);
    if (
      !Array.isArray(pass.topo) ||
      !pass.topo.every((/** @type {unknown} */ id) => ids.has(/** @type {string} */ (id)))
    ) {
      fail(`.passes[${p}].topo must list nodes`, pass.topo);
    }
  });
  let previous = 0;
  const sorts = new Array(passes.length).fill(0);
  frames.forEach((/** @type {any} */ frame, /** @type {number} */ k) => {
    const pass = frame.pass ?? 0;
    if (!Number.isInteger(pass) || pass < previous || pass >= passes.length) {
      fail(`.frames[${k}].pass must be a pass index, never going back`, frame.pass);
    }
    previous = pass;
    if (frame.phase === "sort") sorts[pass] += 1;
    if (frame.phase !== "update") return;
    if (!Array.isArray(frame.changes))
      fail(`.frames[${k}].changes must be an array`, frame.changes);
    frame.changes.forEach((/** @type {any} */ change, /** @type {number} */ j) => {
      const ok =
        change &&
        ids.has(change.node) &&
        (change.field === "data" || change.field === "grad") &&
        Number.isFinite(change.before) &&
        Number.isFinite(change.after);
      if (!ok)
        fail(
          `.frames[${k}].changes[${j}] must be {node, field: "data"|"grad", before, after}`,
          change,
        );
    });
  });
  const missing = sorts.indexOf(0);
  if (missing >= 0)
    fail(`.frames must hold a sort frame in every pass; pass ${missing} has none`, passes.length);
}

/**
 * Index a multi-pass trace for fast passStateAt calls: the global parts every view
 * knows from timeline.js, plus `passes` (one PassInfo each) and `framePass`.
 * @param {Trace} trace  validated
 * @returns {Timeline}
 */
export function createPassTimeline(trace) {
  const anyTrace = /** @type {any} */ (trace);
  const size = trace.nodes.length;
  const frameCount = trace.frames.length;
  const indexOf = new Map(trace.nodes.map((node, i) => [node.id, i]));
  const at = (/** @type {string} */ id) => /** @type {number} */ (indexOf.get(id));
  /** @type {number[][]} */ const operands = trace.nodes.map(() => []);
  /** @type {number[][]} */ const parents = trace.nodes.map(() => []);
  for (const edge of trace.edges) {
    operands[at(edge.target)].push(at(edge.source));
    parents[at(edge.source)].push(at(edge.target));
  }
  const { framePass, frameNode, appearFrame } = indexFrames(trace, indexOf, operands);
  /** @type {PassInfo[]} */
  const passes = anyTrace.passes.map((/** @type {any} */ pass, /** @type {number} */ p) =>
    describePass(trace, framePass, operands, parents, indexOf, pass, p),
  );
  // A node no build frame shows (a lone leaf as output) appears with its pass's sort.
  for (let i = 0; i < size; i++) {
    if (appearFrame[i] < frameCount) continue;
    const first = passes.find((pass) => pass.member[i]);
    if (first) appearFrame[i] = first.sortFrame;
  }
  const last = passes[passes.length - 1];
  const initialData = firstData(trace, indexOf);
  let sortCount = 0;
  for (const frame of trace.frames) if (frame.phase === "sort") sortCount++;
  // The `+=` index timeline.js keeps, for any view that reads it; values replay from valueKeyframes here.
  const { contributionStart, contributionChild, contributionAfter } = indexContributions(
    trace.frames,
    indexOf,
  );
  /** @type {Timeline} */
  const timeline = {
    trace,
    size,
    frameCount,
    sortFrame: last.sortFrame,
    indexOf,
    operands,
    parents,
    appearFrame,
    backwardFrame: last.backwardFrame,
    finalFrame: last.finalFrame,
    topoIndex: last.topoIndex,
    frameNode,
    phaseBounds: {
      build: last.sortFrame,
      sort: sortCount,
      backward: frameCount - last.sortFrame - 1,
    },
    keyframes: new Map(),
    keyframeInterval: PASS_KEYFRAME_INTERVAL,
    contributionStart,
    contributionChild,
    contributionAfter,
    passes,
    framePass,
    initialData,
    valueKeyframes: new Map(),
  };
  buildValueKeyframes(timeline);
  return timeline;
}

/**
 * Per frame its pass and the node it shows (-1 for none), and per node the first
 * frame that draws it (frameCount if none).
 * @param {Trace} trace
 * @param {Map<string, number>} indexOf
 * @param {number[][]} operands
 */
function indexFrames(trace, indexOf, operands) {
  const frameCount = trace.frames.length;
  const at = (/** @type {string} */ id) => /** @type {number} */ (indexOf.get(id));
  const framePass = new Int32Array(frameCount);
  const frameNode = new Int32Array(frameCount).fill(-1);
  const appearFrame = new Int32Array(trace.nodes.length).fill(frameCount);
  trace.frames.forEach((frame, k) => {
    framePass[k] = /** @type {any} */ (frame).pass ?? 0;
    if (frame.phase === "build" || frame.phase === "backward") frameNode[k] = at(frame.node);
    else if (frame.phase === "update") frameNode[k] = firstChanged(frame, indexOf);
    // A value an update changes exists by then, even if no build frame has shown it yet
    // (the engine emits a pass's build frames when backward() runs, after a zero_grad).
    if (frame.phase === "update") {
      for (const change of /** @type {any} */ (frame).changes)
        appearFrame[at(change.node)] = Math.min(appearFrame[at(change.node)], k);
    }
    if (frame.phase !== "build") return;
    const node = at(frame.node);
    appearFrame[node] = Math.min(appearFrame[node], k);
    for (const child of operands[node]) appearFrame[child] = Math.min(appearFrame[child], k);
  });
  return { framePass, frameNode, appearFrame };
}

/**
 * One pass's PassInfo: its frames, the nodes it draws, and when their gradients run
 * and are final.
 * @param {Trace} trace
 * @param {Int32Array} framePass
 * @param {number[][]} operands
 * @param {number[][]} parents
 * @param {Map<string, number>} indexOf
 * @param {any} pass  trace.passes[p]
 * @param {number} p
 * @returns {PassInfo}
 */
function describePass(trace, framePass, operands, parents, indexOf, pass, p) {
  const size = trace.nodes.length;
  const frameCount = trace.frames.length;
  const at = (/** @type {string} */ id) => /** @type {number} */ (indexOf.get(id));
  let start = framePass.indexOf(p);
  if (start < 0) start = frameCount;
  let end = start;
  while (end < frameCount && framePass[end] === p) end++;
  let sortFrame = -1;
  for (let k = start; k < end; k++) if (trace.frames[k].phase === "sort") sortFrame = k;
  const member = new Uint8Array(size);
  const topoIndex = new Int32Array(size).fill(-1);
  pass.topo.forEach((/** @type {string} */ id, /** @type {number} */ position) => {
    member[at(id)] = 1;
    topoIndex[at(id)] = position;
  });
  // The operands of the nodes it sorts are the pass's too: a sort that lists only the
  // nodes with a rule (`if v.backward_fn is not None`) leaves the leaves out of it, and a
  // second backward() on a graph already built has no build frame to bring them in.
  for (const id of pass.topo) for (const child of operands[at(id)]) member[child] = 1;
  if (pass.topo.length === 0) {
    // No sort (a backward() that recurses into each operand): the pass draws everything
    // its output reaches, whose gradients its recursion wrote.
    const stack = [at(pass.output)];
    for (let i = stack.pop(); i !== undefined; i = stack.pop()) {
      member[i] = 1;
      for (const child of operands[i]) if (!member[child]) stack.push(child);
    }
  }
  const backwardFrame = new Int32Array(size).fill(-1);
  for (let k = start; k < end; k++) {
    const frame = trace.frames[k];
    if (frame.phase === "backward") backwardFrame[at(frame.node)] = k;
    if (frame.phase !== "build") continue;
    member[at(frame.node)] = 1;
    for (const child of operands[at(frame.node)]) member[child] = 1;
  }
  return {
    start,
    end,
    sortFrame,
    output: at(pass.output),
    outputId: pass.output,
    topoIds: pass.topo,
    member,
    topoIndex,
    backwardFrame,
    finalFrame: finalFrames(
      parents,
      member,
      backwardFrame,
      at(pass.output),
      sortFrame,
      frameCount,
      pass.topo.length === 0,
    ),
    data: Number.isFinite(pass.data) ? pass.data : trace.nodes[at(pass.output)].data,
  };
}

/**
 * Every node's data before the program changed it: its first data change's `before`,
 * else its data at the end.
 * @param {Trace} trace
 * @param {Map<string, number>} indexOf
 */
function firstData(trace, indexOf) {
  const at = (/** @type {string} */ id) => /** @type {number} */ (indexOf.get(id));
  const initialData = new Float64Array(trace.nodes.map((node) => node.data));
  const changed = new Uint8Array(trace.nodes.length);
  for (const frame of trace.frames) {
    if (frame.phase !== "update") continue;
    for (const change of /** @type {any} */ (frame).changes) {
      const i = at(change.node);
      if (change.field === "data" && !changed[i]) {
        changed[i] = 1;
        initialData[i] = change.before;
      }
    }
  }
  return initialData;
}

/**
 * @param {any} frame  an update frame
 * @param {Map<string, number>} indexOf
 */
function firstChanged(frame, indexOf) {
  const change = frame.changes[0];
  return change ? /** @type {number} */ (indexOf.get(change.node)) : -1;
}

/**
 * Per pass: the frame from which a node's gradient is final in that pass (its last
 * parent in the pass has run; the output's from the seed); frameCount if never.
 * @param {number[][]} parents
 * @param {Uint8Array} member
 * @param {Int32Array} backwardFrame
 * @param {number} output
 * @param {number} sortFrame
 * @param {number} frameCount
 * @param {boolean} noSort  the pass has no topo (its backward() sorts nothing)
 */
function finalFrames(parents, member, backwardFrame, output, sortFrame, frameCount, noSort) {
  const finalFrame = new Int32Array(member.length).fill(frameCount);
  for (let i = 0; i < member.length; i++) {
    if (!member[i]) continue;
    let last = -1;
    let any = false;
    for (const parent of parents[i]) {
      if (!member[parent]) continue;
      any = true;
      last = Math.max(last, backwardFrame[parent]);
    }
    if (any && last >= 0) finalFrame[i] = last;
  }
  if (sortFrame >= 0) finalFrame[output] = sortFrame;
  // A backward() that runs no node's rule and sorts nothing writes every gradient at
  // its sort frame (Grokking's Tensor, recursing into its creators): final there, where
  // none was ever marked final but the output's.
  if (sortFrame >= 0 && noSort && !backwardFrame.some((k) => k >= 0))
    for (let i = 0; i < member.length; i++) if (member[i]) finalFrame[i] = sortFrame;
  return finalFrame;
}

/**
 * Apply frame k's effect on data and grads.
 * @param {Timeline} timeline
 * @param {Float64Array} data
 * @param {Float64Array} grads
 * @param {number} k
 */
function applyFrame(timeline, data, grads, k) {
  const frame = /** @type {any} */ (timeline.trace.frames[k]);
  const at = (/** @type {string} */ id) => /** @type {number} */ (timeline.indexOf.get(id));
  if (frame.phase === "sort" && (frame.step === undefined || frame.step === "seed")) {
    grads[
      /** @type {PassInfo[]} */ (timeline.passes)[
        /** @type {Int32Array} */ (timeline.framePass)[k]
      ].output
    ] = 1;
    // The program's own writes there: its seed, a zeroing, or (a backward() that runs no
    // node's rule) every gradient it wrote itself.
    for (const change of frame.changes ?? []) grads[at(change.node)] = change.after;
  } else if (frame.phase === "backward") {
    for (const c of frame.contributions) grads[at(c.to)] = c.after;
  } else if (frame.phase === "update") {
    for (const change of frame.changes)
      (change.field === "data" ? data : grads)[at(change.node)] = change.after;
  }
}

/** @param {Timeline} timeline */
function buildValueKeyframes(timeline) {
  const data = /** @type {Float64Array} */ (timeline.initialData).slice();
  const grads = new Float64Array(timeline.size);
  for (let k = 0; k < timeline.frameCount; k++) {
    applyFrame(timeline, data, grads, k);
    if (k % PASS_KEYFRAME_INTERVAL === 0)
      timeline.valueKeyframes?.set(k, { data: data.slice(), grads: grads.slice() });
  }
}

/**
 * Every node's data and grad (by node index) as they stand after frame k ran.
 * @param {Timeline} timeline  from createPassTimeline
 * @param {number} k  a valid frame index
 */
export function valuesAt(timeline, k) {
  const base = k - (k % PASS_KEYFRAME_INTERVAL);
  const stored = /** @type {{data: Float64Array, grads: Float64Array}} */ (
    timeline.valueKeyframes?.get(base)
  );
  const data = stored.data.slice();
  const grads = stored.grads.slice();
  for (let j = base + 1; j <= k; j++) applyFrame(timeline, data, grads, j);
  return { data, grads };
}

/**
 * Everything a view needs to draw frame k of a multi-pass trace: timeline.js's
 * FrameState plus `pass`, `passCount`, `data` (every node's data now) and, on
 * update frames, `changes` (with `child` = node index).
 * @param {Timeline} timeline  from createPassTimeline
 * @param {number} k  0-based frame index; clamped
 * @returns {FrameState}
 */
export function passStateAt(timeline, k) {
  const index = Number.isFinite(k)
    ? Math.max(0, Math.min(timeline.frameCount - 1, Math.trunc(k)))
    : 0;
  const frame = /** @type {any} */ (timeline.trace.frames[index]);
  const passes = /** @type {PassInfo[]} */ (timeline.passes);
  const p = /** @type {Int32Array} */ (timeline.framePass)[index];
  const pass = passes[p];
  const current = timeline.frameNode[index];
  const size = timeline.size;
  const visible = new Uint8Array(size);
  const final = new Uint8Array(size);
  /** @type {import("./timeline.js").NodeRole[]} */
  const roles = new Array(size);
  for (let i = 0; i < size; i++) {
    visible[i] = pass.member[i] && timeline.appearFrame[i] <= index ? 1 : 0;
    final[i] = visible[i] && pass.finalFrame[i] <= index ? 1 : 0;
    roles[i] = !visible[i] ? "hidden" : final[i] ? "done" : "idle";
  }
  const at = (/** @type {string} */ id) => /** @type {number} */ (timeline.indexOf.get(id));
  const contributions =
    frame.phase === "backward"
      ? frame.contributions.map((/** @type {any} */ c) => ({ ...c, child: at(c.to) }))
      : [];
  const changes =
    frame.phase === "update"
      ? frame.changes.map((/** @type {any} */ c) => ({ ...c, child: at(c.node) }))
      : [];
  if (frame.phase === "build") {
    for (const child of timeline.operands[current]) roles[child] = "operand";
    roles[current] = "new";
  } else if (frame.phase === "backward") {
    for (const c of contributions) roles[c.child] = "receiving";
    roles[current] = "active";
  } else if (frame.phase === "update") {
    for (const c of changes) if (visible[c.child]) roles[c.child] = "updated";
  }
  const { data, grads } = valuesAt(timeline, index);
  return {
    index,
    frameCount: timeline.frameCount,
    phase: frame.phase,
    text: typeof frame.text === "string" ? frame.text : "",
    current,
    visible,
    final,
    grads,
    roles,
    contributions,
    sorted: pass.sortFrame >= 0 && index >= pass.sortFrame,
    line:
      // A backward frame has a line where the program called the rule itself (by hand).
      frame.phase !== "sort" && typeof frame.line === "number" ? frame.line : null,
    pass: p,
    passCount: passes.length,
    data,
    changes,
  };
}

/**
 * Runs of frames in one phase, pass by pass, for the scrubber's bar and the pass
 * navigator. Example (the two-pass `c = a*b + a`): [{pass: 0, start: 0, length: 7,
 * phases: [{phase: "build", start: 0, length: 2}, {phase: "sort", start: 2, length: 1},
 * {phase: "backward", start: 3, length: 4}]}, {pass: 1, start: 7, length: 5, phases: […]}]
 * @param {Timeline} timeline  from createPassTimeline
 */
export function passSpans(timeline) {
  const frames = timeline.trace.frames;
  return /** @type {PassInfo[]} */ (timeline.passes).map((pass, p) => {
    /** @type {Array<{phase: string, start: number, length: number, pass: number, passStart: boolean}>} */
    const phases = [];
    for (let k = pass.start; k < pass.end; k++) {
      const run = phases[phases.length - 1];
      if (run && run.phase === frames[k].phase) run.length += 1;
      else
        phases.push({
          phase: frames[k].phase,
          start: k,
          length: 1,
          pass: p,
          passStart: k === pass.start,
        });
    }
    return { pass: p, start: pass.start, length: pass.end - pass.start, phases };
  });
}

/**
 * The Timeline as the per-pass views (topo strip, code panel, table) should see it
 * in pass p: that pass's topo, output, backward frames and final frames.
 * A one-pass timeline is returned as it is.
 * @param {Timeline} timeline
 * @param {number} p
 * @returns {Timeline}
 */
export function passTimeline(timeline, p) {
  const pass = timeline.passes?.[p];
  if (!pass) return timeline;
  return {
    ...timeline,
    trace: { ...timeline.trace, topo: pass.topoIds, output: pass.outputId },
    sortFrame: pass.sortFrame,
    topoIndex: pass.topoIndex,
    backwardFrame: pass.backwardFrame,
    finalFrame: pass.finalFrame,
  };
}

/**
 * Every `+=` of a trace indexed once into typed arrays: frame k's contributions are
 * entries contributionStart[k] .. contributionStart[k + 1] of contributionChild (the
 * receiving node's index) and contributionAfter (its gradient after the `+=`).
 * @param {import("./trace.js").Frame[]} frames
 * @param {Map<string, number>} indexOf  node id -> index
 */
export function indexContributions(frames, indexOf) {
  const contributionStart = new Int32Array(frames.length + 1);
  frames.forEach((frame, k) => {
    contributionStart[k + 1] =
      contributionStart[k] + (frame.phase === "backward" ? frame.contributions.length : 0);
  });
  const contributionChild = new Int32Array(contributionStart[frames.length]);
  const contributionAfter = new Float64Array(contributionStart[frames.length]);
  frames.forEach((frame, k) => {
    if (frame.phase !== "backward") return;
    frame.contributions.forEach((c, j) => {
      contributionChild[contributionStart[k] + j] = /** @type {number} */ (indexOf.get(c.to));
      contributionAfter[contributionStart[k] + j] = c.after;
    });
  });
  return { contributionStart, contributionChild, contributionAfter };
}
