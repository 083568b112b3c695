import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  MISTAKE_IDS,
  backwardEnds,
  countParted,
  differs,
  engineFrame,
  mistakeInfo,
  partedNodes,
  rightGrads,
} from "../../static/js/lab/mistakes.js";
import { createTimeline, stateAt } from "../../static/js/passes/timeline.js";
import { byLabel, fixture } from "./helpers.mjs";
import { withMistake, withSortSteps } from "./lab-helpers.mjs";

const lastState = (trace) => {
  const timeline = createTimeline(trace);
  return stateAt(timeline, timeline.frameCount - 1);
};

describe("partedNodes", () => {
  it("marks a + a with = : a.grad 1.0 where the right engine gives 2.0", () => {
    const trace = withMistake(fixture("a-plus-a.json"), "assign");
    const state = lastState(trace);
    assert.deepEqual(partedNodes(trace, state.grads, state.final), [
      { node: byLabel(trace, "a"), grad: 1, correct: 2 },
    ]);
    assert.equal(countParted(trace), 1);
  });

  it("marks every leaf of the neuron with append-first: each stays 0", () => {
    const trace = withMistake(fixture("neuron.json"), "append-first");
    const state = lastState(trace);
    const parted = partedNodes(trace, state.grads, state.final);
    for (const label of ["x1", "w1", "x2", "b"]) {
      const entry = parted.find((p) => p.node === byLabel(trace, label));
      assert.ok(entry, `${label} parts`);
      assert.equal(entry.grad, 0);
    }
    // w2's right gradient is 0 too, so it does not part.
    assert.equal(
      parted.some((p) => p.node === byLabel(trace, "w2")),
      false,
    );
  });

  it("marks nothing for the right engine or before a gradient is final", () => {
    const right = fixture("neuron.json");
    const state = lastState(right);
    assert.deepEqual(partedNodes(right, state.grads, state.final), []);
    const trace = withMistake(fixture("a-plus-a.json"), "assign");
    const timeline = createTimeline(trace);
    const seed = stateAt(timeline, timeline.sortFrame);
    assert.deepEqual(partedNodes(trace, seed.grads, seed.final), []);
  });

  it("finds the expanded neuron's no-sort damage below e, not at e", () => {
    const trace = withMistake(fixture("neuron-expanded.json"), "no-sort");
    const state = lastState(trace);
    const parted = partedNodes(trace, state.grads, state.final).map(
      (p) => trace.nodes[p.node].label,
    );
    assert.ok(parted.includes("x1") && parted.includes("w1"), `parted: ${parted}`);
    assert.equal(parted.includes("e"), false);
  });

  it("works with sort steps, whose seed starts the gradients", () => {
    const trace = withSortSteps(withMistake(fixture("a-plus-a.json"), "assign"));
    const state = lastState(trace);
    assert.equal(partedNodes(trace, state.grads, state.final).length, 1);
  });
});

describe("mistakeInfo", () => {
  it("knows the three mistakes and treats anything else as the right engine", () => {
    assert.deepEqual(MISTAKE_IDS, ["assign", "append-first", "no-sort"]);
    assert.match(mistakeInfo("assign").wrong[0], /grad = /);
    for (const junk of [null, "", "ASSIGN", "__proto__", "constructor", 3])
      assert.equal(mistakeInfo(junk), null);
  });

  it("says what the topo strip shows where the order itself is the mistake", () => {
    assert.equal(mistakeInfo("assign").topoHint, undefined);
    assert.match(mistakeInfo("append-first").topoHint("o"), /o comes first/);
    assert.match(mistakeInfo("no-sort").topoHint("o"), /No sort ran/);
  });

  it("ignores rounding in the last bits", () => {
    assert.equal(differs(0.1 + 0.2, 0.3), false);
    assert.equal(differs(1, 2), true);
  });
});

describe("rightGrads", () => {
  // A mistaken trace of two passes (SPEC §13): w's right gradient is 5 in pass 0 and
  // 4.6 in pass 1, y0 is only in pass 0; the nodes carry the last pass's.
  const trace = {
    nodes: [
      { id: "n0", correct_grad: 4.6 },
      { id: "n1", correct_grad: 1 },
      { id: "n2", correct_grad: 1 },
    ],
    passes: [{ correct_grads: { n0: 5, n1: 1 } }, { correct_grads: { n0: 4.6, n2: 1 } }],
  };

  it("gives each pass its own right gradients, NaN for nodes the pass does not reach", () => {
    assert.deepEqual([...rightGrads(trace, 0)], [5, 1, Number.NaN]);
    assert.deepEqual([...rightGrads(trace, 1)], [4.6, Number.NaN, 1]);
  });

  it("compares a frame of pass 0 with pass 0's right engine, not the last pass's", () => {
    const grads = [2, 1, 0];
    const final = [1, 1, 1];
    assert.deepEqual(partedNodes(trace, grads, final, 0), [{ node: 0, grad: 2, correct: 5 }]);
    assert.deepEqual(partedNodes(trace, [4.6, 1, 3], final, 1), [{ node: 2, grad: 3, correct: 1 }]);
  });

  it("falls back on the nodes' correct_grad for a trace without passes", () => {
    const one = { nodes: [{ id: "n0", correct_grad: 2 }, { id: "n1" }] };
    assert.deepEqual([...rightGrads(one)], [2, Number.NaN]);
  });
});

describe("engineFrame and backwardEnds", () => {
  const phases = (...names) => names.map((phase) => ({ phase }));

  it("looks from the program's writes after a backward back to its last frame", () => {
    const frames = phases("build", "sort", "backward", "backward", "update", "update");
    assert.equal(engineFrame(frames, undefined, 5), 3);
    assert.equal(engineFrame(frames, undefined, 2), 2);
    assert.deepEqual(backwardEnds(frames, undefined), [3]);
  });

  it("stays in its pass, and at a sort that wrote the gradients itself", () => {
    const frames = phases("sort", "backward", "update", "build", "sort", "update");
    const framePass = [0, 0, 1, 1, 1, 1];
    assert.equal(engineFrame(frames, framePass, 2), 2); // the next pass's zero_grad
    assert.equal(engineFrame(frames, framePass, 5), 5);
    assert.deepEqual(backwardEnds(frames, framePass), [1]);
    const twice = phases("backward", "backward", "backward");
    assert.deepEqual(backwardEnds(twice, [0, 1, 1]), [0, 2]);
  });

  it("counts the writes a backward() makes in its own loop as the engine's", () => {
    // `p.grad = g` inside backward() (lines 10-20) is an update frame of the engine's;
    // `p.grad = 0` on line 30 after it is the program's own.
    const frames = [
      { phase: "sort" },
      { phase: "backward" },
      { phase: "update", line: 15 },
      { phase: "update", line: 30 },
    ];
    const passes = [{ backward: { line: 10, end_line: 20 } }];
    assert.equal(engineFrame(frames, undefined, 2, passes), 2);
    assert.equal(engineFrame(frames, undefined, 3, passes), 2);
    assert.deepEqual(backwardEnds(frames, undefined, passes), [2]);
    assert.deepEqual(backwardEnds(frames, undefined), [1]);
  });
});

describe("rightGrads of several passes without correct_grads", () => {
  it("gives a node's correct_grad only in the last pass that reaches it", () => {
    const trace = {
      nodes: [
        { id: "w", correct_grad: 3 },
        { id: "a", correct_grad: 1 },
        { id: "b", correct_grad: 2 },
      ],
      edges: [
        { source: "w", target: "a" },
        { source: "w", target: "b" },
      ],
      passes: [{ topo: ["a"] }, { topo: ["b"] }],
    };
    assert.deepEqual([...rightGrads(trace, 0)], [Number.NaN, 1, Number.NaN]);
    assert.deepEqual([...rightGrads(trace, 1)], [3, Number.NaN, 2]);
  });
});
