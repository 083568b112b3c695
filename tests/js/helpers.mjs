// Shared by the unit tests: the engine's golden traces, the same files the Python tests
// check (tests/engine/golden/, written by `python -m tests.engine.regenerate_golden`).
import { readFileSync } from "node:fs";

/** @param {string} name */
export function fixture(name) {
  return JSON.parse(readFileSync(new URL(`../engine/golden/${name}`, import.meta.url), "utf8"));
}

/** Node index by label, for readable assertions. */
export function byLabel(trace, label) {
  const index = trace.nodes.findIndex((node) => node.label === label);
  if (index < 0) throw new Error(`no node labelled ${label}`);
  return index;
}

/**
 * A long chain x -> x*1.5 -> ... with one backward contribution per frame, built
 * like the engine would, to exercise keyframes past KEYFRAME_INTERVAL.
 * @param {number} length
 */
export function chainTrace(length) {
  const nodes = [{ id: "n0", label: "x", name: "x", op: "", kind: "leaf", data: 1, grad: 0 }];
  const edges = [];
  const frames = [];
  for (let i = 1; i <= length; i++) {
    nodes.push({ id: `c${i}`, label: "", name: "1.5", op: "", kind: "const", data: 1.5, grad: 0 });
    nodes.push({
      id: `n${i}`,
      label: "",
      name: "the * node",
      op: "*",
      kind: "op",
      data: nodes[nodes.length - 2].data * 1.5,
      grad: 0,
    });
    edges.push({ source: `n${i - 1}`, target: `n${i}` }, { source: `c${i}`, target: `n${i}` });
    frames.push({ phase: "build", node: `n${i}`, text: `step ${i}` });
  }
  const topo = ["n0"];
  for (let i = 1; i <= length; i++) topo.push(`c${i}`, `n${i}`);
  frames.push({ phase: "sort", text: "sort" });
  const grad = new Map([[`n${length}`, 1]]);
  const dataOf = new Map(nodes.map((node) => [node.id, node.data]));
  for (const id of [...topo].reverse()) {
    const contributions = [];
    if (id.startsWith("n") && id !== "n0") {
      const i = Number(id.slice(1));
      const upstream = grad.get(id) ?? 0;
      for (const [to, local] of [
        [`n${i - 1}`, 1.5],
        [`c${i}`, dataOf.get(`n${i - 1}`)],
      ]) {
        const before = grad.get(to) ?? 0;
        const delta = local * upstream;
        grad.set(to, before + delta);
        contributions.push({ to, local, upstream, delta, before, after: before + delta });
      }
    }
    frames.push({ phase: "backward", node: id, text: `run ${id}`, contributions });
  }
  for (const node of nodes) node.grad = grad.get(node.id) ?? 0;
  return {
    schema: 1,
    source: "chain",
    granularity: "packed",
    nodes,
    edges,
    topo,
    output: `n${length}`,
    frames,
  };
}
