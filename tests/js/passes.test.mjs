import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  PASS_KEYFRAME_INTERVAL,
  callsNoBackward,
  isMultiPass,
  passSpans,
  passTimeline,
  valuesAt,
} from "../../static/js/passes/passes.js";
import { createTimeline, phaseSpans, stateAt } from "../../static/js/passes/timeline.js";
import { validateTrace } from "../../static/js/passes/trace.js";
import { fixture } from "./helpers.mjs";
import { forgotZeroGrad, optimizerSteps, recorder, tinyLayer } from "./multipass.mjs";

const idOf = (trace, label) => trace.nodes.find((node) => node.label === label).id;
const indexOf = (trace, label) => trace.nodes.findIndex((node) => node.label === label);

describe("two backward() calls without zero_grad (c = a*b + a)", () => {
  const trace = forgotZeroGrad();
  const timeline = createTimeline(trace);
  const a = indexOf(trace, "a");
  const b = indexOf(trace, "b");
  const c = indexOf(trace, "c");

  it("is a multi-pass trace of 7 + 5 frames", () => {
    assert.ok(isMultiPass(trace));
    assert.equal(timeline.frameCount, 12);
    assert.deepEqual(
      passSpans(timeline).map((s) => [s.pass, s.start, s.length]),
      [
        [0, 0, 7],
        [1, 7, 5],
      ],
    );
    assert.deepEqual(
      phaseSpans(timeline).map((s) => `${s.phase}:${s.length}`),
      ["build:2", "sort:1", "backward:4", "sort:1", "backward:4"],
    );
  });

  it("gives a.grad -2 after the first pass and -7 after the second, not -4", () => {
    assert.equal(stateAt(timeline, 6).grads[a], -2);
    assert.equal(stateAt(timeline, 11).grads[a], -7);
    assert.equal(stateAt(timeline, 11).grads[b], 6);
  });

  it("keeps the first pass's gradients when the second pass starts", () => {
    const seed = stateAt(timeline, 7);
    assert.equal(seed.pass, 1);
    assert.equal(seed.phase, "sort");
    assert.equal(seed.grads[a], -2);
    assert.equal(seed.grads[b], 2);
    assert.equal(seed.grads[c], 1);
  });

  it("shows the intermediate node accumulating to 2 in the second pass", () => {
    const ab = trace.nodes.findIndex((node) => node.op === "*");
    assert.equal(stateAt(timeline, 8).grads[ab], 2);
    assert.equal(stateAt(timeline, 8).roles[ab], "receiving");
  });

  it("shows every node of the second pass from its first frame, as that graph was built before", () => {
    const state = stateAt(timeline, 7);
    assert.ok(state.visible.every((v) => v === 1));
    assert.equal(state.sorted, true);
  });

  it("marks gradients final pass by pass", () => {
    assert.equal(stateAt(timeline, 6).final[a], 1);
    assert.equal(stateAt(timeline, 7).final[a], 0);
    assert.equal(stateAt(timeline, 10).final[a], 1);
  });

  it("numbers each pass's frames with its pass", () => {
    assert.deepEqual(
      [0, 6, 7, 11].map((k) => stateAt(timeline, k).pass),
      [0, 0, 1, 1],
    );
    assert.equal(stateAt(timeline, 0).passCount, 2);
  });
});

describe("an optimizer loop with zero_grad", () => {
  const trace = optimizerSteps();
  const timeline = createTimeline(trace);
  const w = indexOf(trace, "w");
  const losses = trace.nodes.flatMap((node, i) => (node.label === "loss" ? [i] : []));

  it("starts w at its first data, not the data it ends with", () => {
    assert.equal(trace.nodes[w].data, 0.64);
    assert.equal(stateAt(timeline, 0).data[w], 1);
  });

  it("moves w.data by -0.1 * grad in the update frame, before -> after", () => {
    const k = trace.frames.findIndex((f) => f.phase === "update" && f.changes[0].field === "data");
    const state = stateAt(timeline, k);
    assert.equal(state.phase, "update");
    assert.equal(state.line, 6);
    assert.deepEqual(
      state.changes.map((c) => [c.child, c.field, c.before, c.after]),
      [[w, "data", 1, 0.8]],
    );
    assert.equal(state.roles[w], "updated");
    assert.equal(stateAt(timeline, k - 1).data[w], 1);
    assert.equal(state.data[w], 0.8);
  });

  it("empties w.grad at zero_grad, so the second pass starts from 0", () => {
    const zeroes = trace.frames.flatMap((f, k) =>
      f.phase === "update" && f.changes[0].field === "grad" ? [k] : [],
    );
    assert.equal(zeroes.length, 2);
    assert.equal(stateAt(timeline, zeroes[1] - 1).grads[w], 2);
    assert.equal(stateAt(timeline, zeroes[1]).grads[w], 0);
    assert.equal(stateAt(timeline, timeline.frameCount - 1).grads[w], 1.6);
  });

  it("shows w at a zero_grad that comes before any build frame", () => {
    const r = recorder("w.grad = 0.0 first");
    const w = r.leaf("w", 1);
    r.update([[w, "grad", 0]], 1);
    const loss = r.mul(w, w, { label: "loss" });
    r.backward(loss);
    const t = createTimeline(r.trace());
    const state = stateAt(t, 0);
    assert.equal(state.phase, "update");
    assert.equal(state.visible[0], 1);
    assert.equal(state.visible[1], 0);
  });

  it("draws in each pass only that pass's loss, and w in both", () => {
    const first = stateAt(timeline, 0);
    const second = stateAt(timeline, timeline.frameCount - 1);
    assert.deepEqual(
      [first.visible[losses[0]], first.visible[losses[1]], first.visible[w]],
      [1, 0, 1],
    );
    assert.deepEqual(
      [second.visible[losses[0]], second.visible[losses[1]], second.visible[w]],
      [0, 1, 1],
    );
  });

  it("gives the per-pass views that pass's topo and output", () => {
    const view = passTimeline(timeline, 0);
    assert.equal(view.trace.output, trace.passes[0].output);
    assert.deepEqual(view.trace.topo, trace.passes[0].topo);
    assert.equal(passTimeline(timeline, 1).trace.output, trace.passes[1].output);
  });
});

describe("values across many frames", () => {
  it("replays from keyframes to the same numbers as from the start", () => {
    const trace = tinyLayer(12);
    const timeline = createTimeline(trace);
    assert.ok(timeline.frameCount > 3 * PASS_KEYFRAME_INTERVAL);
    const data = new Float64Array(trace.nodes.length);
    const grads = new Float64Array(trace.nodes.length);
    for (const [i, node] of trace.nodes.entries()) data[i] = node.data;
    // Replay by hand: the last value each frame leaves, field by field.
    const firstData = new Map();
    for (const f of trace.frames) {
      if (f.phase !== "update") continue;
      for (const c of f.changes)
        if (c.field === "data" && !firstData.has(c.node)) firstData.set(c.node, c.before);
    }
    for (const [i, node] of trace.nodes.entries())
      if (firstData.has(node.id)) data[i] = firstData.get(node.id);
    const at = new Map(trace.nodes.map((node, i) => [node.id, i]));
    trace.frames.forEach((f, k) => {
      if (f.phase === "sort") grads[at.get(trace.passes[f.pass].output)] = 1;
      if (f.phase === "backward") for (const c of f.contributions) grads[at.get(c.to)] = c.after;
      if (f.phase === "update")
        for (const c of f.changes) (c.field === "data" ? data : grads)[at.get(c.node)] = c.after;
      const values = valuesAt(timeline, k);
      assert.deepEqual([...values.data], [...data], `data at ${k}`);
      assert.deepEqual([...values.grads], [...grads], `grads at ${k}`);
    });
    trace.nodes.forEach((node, i) => {
      assert.equal(data[i], node.data, `final data of ${node.id}`);
      assert.equal(grads[i], node.grad, `final grad of ${node.id}`);
    });
  });
});

describe("traces that stay on the one-pass path", () => {
  it("plays a schema-2 trace with one pass and no updates exactly like schema 1", () => {
    const one = fixture("neuron.json");
    const two = {
      ...one,
      schema: 2,
      passes: [
        {
          output: one.output,
          topo: one.topo,
          data: one.nodes.find((n) => n.id === one.output).data,
        },
      ],
      frames: one.frames.map((f) => ({ ...f, pass: 0 })),
    };
    assert.equal(isMultiPass(two), false);
    const t1 = createTimeline(one);
    const t2 = createTimeline(two);
    for (const k of [0, 5, 10, 15])
      assert.deepEqual([...stateAt(t2, k).grads], [...stateAt(t1, k).grads]);
    assert.equal(t2.passes, undefined);
  });
});

describe("one pass of a program with call groups", () => {
  const layer = tinyLayer(1);
  const one = { ...layer, schema: 1, frames: layer.frames.filter((f) => f.phase !== "update") };

  it("takes the passes path so its calls can fold", () => {
    assert.ok(isMultiPass(one));
    const timeline = createTimeline(one);
    assert.equal(timeline.passes.length, 1);
    const last = stateAt(timeline, timeline.frameCount - 1);
    one.nodes.forEach((node, i) => {
      assert.equal(last.grads[i], node.grad, node.id);
    });
  });

  it("stays on the one-pass path without groups", () => {
    const flat = { ...one, nodes: one.nodes.map((node) => ({ ...node, group: "" })) };
    assert.equal(isMultiPass(flat), false);
    assert.equal(createTimeline(flat).passes, undefined);
  });

  it("still needs exactly one sort frame", () => {
    const twice = { ...one, frames: [...one.frames, { phase: "sort", text: "again", pass: 0 }] };
    assert.throws(() => validateTrace(twice), /exactly one sort frame/);
  });
});

describe("validating passes", () => {
  const base = () => forgotZeroGrad();
  it("names a frame whose pass goes back", () => {
    const trace = base();
    trace.frames[9].pass = 0;
    assert.throws(() => validateTrace(trace), /frames\[9\]\.pass must be a pass index/);
  });
  it("names a pass that is out of range", () => {
    const trace = base();
    trace.frames[11].pass = 2;
    assert.throws(() => validateTrace(trace), /frames\[11\]\.pass/);
  });
  it("names a pass without a sort frame", () => {
    const trace = base();
    trace.passes.push({ output: trace.output, topo: trace.topo, data: 0 });
    assert.throws(() => validateTrace(trace), /pass 2 has none/);
  });
  it("names a pass whose output is not a node", () => {
    const trace = base();
    trace.passes[0].output = "nope";
    assert.throws(() => validateTrace(trace), /passes\[0\]\.output must name a node/);
  });
  it("names a bad change in an update frame", () => {
    const trace = optimizerSteps();
    const k = trace.frames.findIndex((f) => f.phase === "update");
    for (const bad of [
      { node: "zz", field: "data", before: 1, after: 2 },
      { node: idOf(trace, "w"), field: "label", before: 1, after: 2 },
      { node: idOf(trace, "w"), field: "data", before: 1, after: "2" },
      null,
    ]) {
      const copy = structuredClone(trace);
      copy.frames[k].changes = [bad];
      assert.throws(() => validateTrace(copy), /changes\[0\] must be/);
    }
  });
  it("refuses update frames in a schema-1 trace", () => {
    const trace = fixture("neuron.json");
    trace.frames.push({ phase: "update", changes: [], text: "" });
    assert.throws(() => validateTrace(trace), /phase must be build, sort, backward, got "update"/);
  });
});

describe("the recorder the fixtures come from", () => {
  it("gives a lone leaf as output a place in its pass", () => {
    const r = recorder("x");
    const x = r.leaf("x", 3);
    r.backward(x);
    r.backward(x);
    const timeline = createTimeline(r.trace());
    assert.equal(stateAt(timeline, 0).visible[0], 1);
    assert.equal(stateAt(timeline, 3).grads[0], 1);
  });
});

describe("names pass by pass", () => {
  it("reads the engine's name, or the one a pass gives it (passes[p].names)", async () => {
    const { passNames } = await import("../../static/js/passes/pass-views.js");
    const { mlpTraining } = await import("./multipass.mjs");
    const trace = mlpTraining(2);
    const i = trace.nodes.findIndex((node) => node.label === "");
    const id = trace.nodes[i].id;
    trace.passes[0].names = { [id]: "0.4215" };
    const timeline = createTimeline(trace);
    assert.equal(passNames(timeline, 0)[i], "0.4215");
    assert.equal(passNames(timeline, 1)[i], trace.nodes[i].name);
  });
});

describe("one pass whose backward() writes the gradients itself (no rule runs)", () => {
  // c = a*b + a; `backward(self, bp=1.0)` adds bp to its own grad and recurses into its
  // parents: every write is the sort frame's, the only frame of the pass.
  const node = (id, label, op, data, grad) => {
    const kind = op ? "op" : "leaf";
    return { id, label, name: label || "a*b", op, kind, data, grad, group: "" };
  };
  const change = (node, before, after) => ({ node, field: "grad", before, after });
  const trace = {
    schema: 2,
    source: "(a program whose backward() writes the gradients itself)",
    granularity: "packed",
    nodes: [
      node("n0", "a", "", 2, -2),
      node("n1", "b", "", -3, 2),
      node("n2", "", "*", -6, 1),
      node("n3", "c", "+", -4, 1),
    ],
    edges: [
      { source: "n0", target: "n2" },
      { source: "n1", target: "n2" },
      { source: "n2", target: "n3" },
      { source: "n0", target: "n3" },
    ],
    topo: [],
    output: "n3",
    frames: [
      { phase: "build", node: "n2", text: "a*b = 2 × −3 = −6", line: 11, pass: 0 },
      { phase: "build", node: "n3", text: "c = a*b+a = −6 + 2 = −4", line: 8, pass: 0 },
      {
        phase: "sort",
        text: "c.backward() calls no node's rule: …",
        changes: [
          change("n3", 0, 1),
          change("n2", 0, 1),
          change("n0", 0, -3),
          change("n1", 0, 2),
          change("n0", -3, -2),
        ],
        node: "n3",
        pass: 0,
      },
    ],
    passes: [{ output: "n3", topo: [], data: -4, names: {} }],
  };

  it("is played by the multi-pass timeline, which replays the sort frame's writes", () => {
    assert.ok(isMultiPass(trace));
    const timeline = createTimeline(trace);
    assert.deepEqual([...stateAt(timeline, 1).grads], [0, 0, 0, 0]);
    assert.deepEqual([...stateAt(timeline, 2).grads], [-2, 2, 1, 1]);
  });

  it("without those writes a one-pass trace stays schema 1's player", () => {
    const seedOnly = structuredClone(trace);
    seedOnly.frames[2].changes = [change("n3", 0, 1)];
    assert.equal(isMultiPass(seedOnly), false);
  });

  it("shows a pass run by hand from the gradient its program gave the output, not 1", () => {
    // A walk by hand from c, whose program set c.grad = 2 (or never set it: 0).
    for (const given of [2, 0]) {
      const byHand = structuredClone(trace);
      byHand.frames[2].changes = [change("n3", given, given)];
      assert.ok(isMultiPass(byHand));
      assert.equal(stateAt(createTimeline(byHand), 2).grads[3], given);
    }
  });
});

describe("a backward() that sorts nothing and runs no rule (Grokking's Tensor)", () => {
  // y = a * b; y.backward() recurses into y's creators, writing each gradient itself:
  // its sort frame holds every write, and no frame runs a node's rule.
  const trace = /** @type {any} */ ({
    schema: 2,
    nodes: [
      { id: "n0", name: "a", label: "a", op: "", kind: "leaf", data: 2, grad: -3 },
      { id: "n1", name: "b", label: "b", op: "", kind: "leaf", data: -3, grad: 2 },
      { id: "n2", name: "y", label: "y", op: "*", kind: "op", data: -6, grad: 1 },
    ],
    edges: [
      { source: "n0", target: "n2" },
      { source: "n1", target: "n2" },
    ],
    topo: [],
    output: "n2",
    passes: [{ output: "n2", topo: [], data: -6 }],
    frames: [
      { phase: "build", node: "n2", text: "y = a*b", pass: 0 },
      {
        phase: "sort",
        node: "n2",
        text: "y.backward() writes the gradients itself",
        pass: 0,
        changes: [
          { node: "n2", field: "grad", before: 0, after: 1 },
          { node: "n0", field: "grad", before: 0, after: -3 },
          { node: "n1", field: "grad", before: 0, after: 2 },
        ],
      },
    ],
  });

  it("marks every gradient final at the sort frame, which wrote them all", () => {
    const timeline = createTimeline(trace);
    const state = stateAt(timeline, 1);
    assert.deepEqual([...state.final], [1, 1, 1]);
    assert.deepEqual([...stateAt(timeline, 0).final], [0, 0, 0]);
  });
});

describe("callsNoBackward: a program that calls no backward() and no node's rule", () => {
  const build = { phase: "build", node: "c", text: "", pass: 0 };
  const seed = (before, after) => ({
    phase: "sort",
    node: "d",
    text: "",
    pass: 0,
    changes: [{ node: "d", field: "grad", before, after }],
  });
  const update = { phase: "update", text: "", line: 9, pass: 0, changes: [] };

  it("is its pass of no rule: no order, no rule, the sort frame writing nothing", () => {
    const frames = [build, update, seed(1, 1)];
    assert.equal(callsNoBackward({ frames, topo: [], passes: [{ topo: [] }] }), true);
  });

  it("is not a backward() that writes every gradient in its sort frame, nor one that sorts", () => {
    const writes = { ...seed(0, 1), changes: [...seed(0, 1).changes, ...seed(0, 2).changes] };
    assert.equal(callsNoBackward({ frames: [build, writes], passes: [{ topo: [] }] }), false);
    const rule = { phase: "backward", node: "d", text: "", pass: 0, contributions: [] };
    assert.equal(
      callsNoBackward({ frames: [build, seed(0, 1), rule], passes: [{ topo: [] }] }),
      false,
    );
    assert.equal(
      callsNoBackward({ frames: [build, seed(1, 1)], passes: [{ topo: ["c", "d"] }] }),
      false,
    );
  });

  it("is not a backward() of the program's that runs no rule and writes nothing", () => {
    // A learner's backward() that sorts and forgets the seed and the rules: its pass has
    // its lines (`backward`), one sort frame writing nothing, no order; the program calls it.
    const lines = { line: 14, end_line: 23, call: null };
    const sort = { phase: "sort", node: "c", text: "", pass: 0 };
    const passes = [{ topo: [], backward: lines }];
    assert.equal(callsNoBackward({ frames: [build, sort], topo: [], passes }), false);
  });
});
