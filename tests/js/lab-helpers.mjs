// Small reference implementations of SPEC §8 and §9 for the bug-lab unit tests:
// they turn a golden (correct) trace into the trace a mistaken engine, or the
// step-by-step sort, would give. Local derivatives depend on data only, so the
// correct trace's `local`s serve every engine.

/** @param {any} trace */
function graphOf(trace) {
  const operands = new Map(trace.nodes.map((node) => [node.id, []]));
  for (const edge of trace.edges) operands.get(edge.target).push(edge.source);
  /** local derivative per (parent, operand position), from the correct trace's contributions */
  const locals = new Map();
  for (const frame of trace.frames) {
    if (frame.phase === "backward")
      locals.set(
        frame.node,
        frame.contributions.map((c) => c.local),
      );
  }
  return { operands, locals };
}

/**
 * The recursive build(v) as SPEC §9 frames; appendFirst puts the append before the children.
 * @param {any} trace
 * @param {{appendFirst?: boolean}} [options]
 */
export function sortStepFrames(trace, { appendFirst = false } = {}) {
  const { operands } = graphOf(trace);
  const visited = new Set();
  const frames = [];
  const topo = [];
  const build = (v, depth) => {
    if (visited.has(v)) {
      frames.push({ phase: "sort", step: "skip", node: v, depth, text: `skip ${v}` });
      return;
    }
    visited.add(v);
    frames.push({ phase: "sort", step: "visit", node: v, depth, text: `visit ${v}` });
    const append = () => {
      topo.push(v);
      frames.push({ phase: "sort", step: "append", node: v, depth, text: `append ${v}` });
    };
    if (appendFirst) append();
    for (const child of operands.get(v)) build(child, depth + 1);
    if (!appendFirst) append();
  };
  build(trace.output, 0);
  frames.push({ phase: "sort", step: "seed", text: "seed" });
  return { frames, topo };
}

/**
 * The trace with its one sort frame replaced by the steps.
 * @param {any} trace
 */
export function withSortSteps(trace) {
  const { frames } = sortStepFrames(trace, { appendFirst: trace.mistake === "append-first" });
  const at = trace.frames.findIndex((frame) => frame.phase === "sort");
  return {
    ...trace,
    frames: [...trace.frames.slice(0, at), ...frames, ...trace.frames.slice(at + 1)],
  };
}

/**
 * The trace the engine made wrong in one of SPEC §8's ways would give.
 * @param {any} trace  a correct trace
 * @param {"assign" | "append-first" | "no-sort"} mistake
 */
export function withMistake(trace, mistake) {
  const { operands, locals } = graphOf(trace);
  const grad = new Map(trace.nodes.map((node) => [node.id, 0]));
  grad.set(trace.output, 1);
  const backwardFrame = (id) => {
    const upstream = grad.get(id);
    const contributions = (operands.get(id) ?? []).map((to, i) => {
      const local = locals.get(id)[i];
      const delta = local * upstream;
      const before = grad.get(to);
      const after = mistake === "assign" ? delta : before + delta;
      grad.set(to, after);
      return { to, local, upstream, delta, before, after };
    });
    return { phase: "backward", node: id, text: `run ${id}`, contributions };
  };
  let order;
  let backward;
  if (mistake === "no-sort") {
    order = [];
    const seen = new Set();
    backward = [];
    const visit = (v) => {
      if (seen.has(v)) return;
      seen.add(v);
      order.push(v);
      backward.push(backwardFrame(v));
      for (const child of operands.get(v)) visit(child);
    };
    visit(trace.output);
  } else {
    order = sortStepFrames(trace, { appendFirst: mistake === "append-first" }).topo;
    backward = [...order].reverse().map(backwardFrame);
  }
  const at = trace.frames.findIndex((frame) => frame.phase === "sort");
  return {
    ...trace,
    mistake,
    topo: order,
    nodes: trace.nodes.map((node) => ({
      ...node,
      grad: grad.get(node.id),
      correct_grad: node.grad,
    })),
    frames: [...trace.frames.slice(0, at + 1), ...backward],
  };
}
