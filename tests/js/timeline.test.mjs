import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  KEYFRAME_INTERVAL,
  clampFrame,
  createTimeline,
  gradsAt,
  phaseSpans,
  stateAt,
} from "../../static/js/passes/timeline.js";
import { byLabel, chainTrace, fixture } from "./helpers.mjs";

const close = (actual, expected, message) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${message}: ${actual} != ${expected}`);

describe("the article's tanh neuron", () => {
  const trace = fixture("neuron.json");
  const timeline = createTimeline(trace);

  it("has 5 build frames, one sort frame and 10 backward frames", () => {
    assert.equal(timeline.frameCount, 16);
    assert.deepEqual(
      phaseSpans(timeline).map((s) => [s.phase, s.start, s.length]),
      [
        ["build", 0, 5],
        ["sort", 5, 1],
        ["backward", 6, 10],
      ],
    );
  });

  it("reveals only the first product and its operands at frame 0", () => {
    const state = stateAt(timeline, 0);
    const visible = trace.nodes
      .filter((_, i) => state.visible[i])
      .map((node) => node.label)
      .sort();
    assert.deepEqual(visible, ["", "w1", "x1"].sort());
    assert.equal(state.roles[byLabel(trace, "x1")], "operand");
  });

  it("seeds only the output's gradient at the sort frame", () => {
    const state = stateAt(timeline, 5);
    assert.equal(state.phase, "sort");
    assert.ok(state.visible.every((v) => v === 1));
    trace.nodes.forEach((node, i) => {
      assert.equal(state.grads[i], node.label === "o" ? 1 : 0, node.label);
    });
  });

  it("marks a gradient final once its last parent has run", () => {
    assert.equal(stateAt(timeline, 4).final[byLabel(trace, "o")], 0);
    assert.equal(stateAt(timeline, 5).final[byLabel(trace, "o")], 1);
    assert.equal(stateAt(timeline, 7).final[byLabel(trace, "b")], 1);
    assert.equal(stateAt(timeline, 12).final[byLabel(trace, "x1")], 0);
    assert.equal(stateAt(timeline, 13).final[byLabel(trace, "x1")], 1);
    assert.ok(stateAt(timeline, 15).final.every((f) => f === 1));
  });

  it("has each node's gradient final before its own rule runs", () => {
    trace.nodes.forEach((_, i) => {
      assert.ok(timeline.finalFrame[i] < timeline.backwardFrame[i], trace.nodes[i].label);
    });
  });

  it("ends with the article's leaf gradients", () => {
    const state = stateAt(timeline, 15);
    const expected = { x1: -1.5, w1: 1.0, x2: 0.5, w2: 0.0, b: 0.5 };
    for (const [label, grad] of Object.entries(expected))
      close(state.grads[byLabel(trace, label)], grad, label);
  });

  it("ends with every node's final gradient exactly", () => {
    const state = stateAt(timeline, 15);
    trace.nodes.forEach((node, i) => {
      assert.equal(state.grads[i], node.grad, node.label);
    });
  });

  it("marks nodes whose gradient is final as done", () => {
    const state = stateAt(timeline, 9);
    assert.equal(state.roles[byLabel(trace, "o")], "done");
    assert.equal(
      state.roles[byLabel(trace, "b")],
      "done",
      "b is final before its own (empty) rule runs",
    );
    assert.equal(state.roles[byLabel(trace, "x1")], "idle");
    assert.equal(state.roles[state.current], "active");
  });
});

describe("the expanded neuron", () => {
  const trace = fixture("neuron-expanded.json");
  const timeline = createTimeline(trace);

  it("has 29 frames and the same leaf gradients", () => {
    assert.equal(timeline.frameCount, 29);
    const state = stateAt(timeline, 28);
    for (const [label, grad] of Object.entries({ x1: -1.5, w1: 1.0, x2: 0.5, w2: 0.0, b: 0.5 })) {
      close(state.grads[byLabel(trace, label)], grad, label);
    }
  });

  it("accumulates e's two contributions into a running sum", () => {
    const e = byLabel(trace, "e");
    const frames = trace.frames
      .map((frame, k) => ({ frame, k }))
      .filter(
        ({ frame }) =>
          frame.phase === "backward" && frame.contributions.some((c) => c.to === trace.nodes[e].id),
      );
    assert.equal(frames.length, 2);
    const [first, second] = frames.map(({ k }) => stateAt(timeline, k).grads[e]);
    assert.ok(Math.abs(first - -0.1036) < 1e-4, String(first));
    assert.ok(Math.abs(second - 0.0429) < 1e-4, String(second));
    const receiving = stateAt(timeline, frames[1].k).contributions.find((c) => c.child === e);
    assert.ok(
      Math.abs(receiving.before - -0.1036) < 1e-4 && Math.abs(receiving.delta - 0.1464) < 1e-4,
    );
  });
});

describe("a + a", () => {
  it("gives a two contributions in one frame and grad 2", () => {
    const trace = fixture("a-plus-a.json");
    const timeline = createTimeline(trace);
    const a = byLabel(trace, "a");
    const last = stateAt(timeline, timeline.frameCount - 1);
    assert.equal(last.grads[a], 2);
    assert.equal(trace.edges.filter((edge) => edge.source === trace.nodes[a].id).length, 2);
  });
});

for (const length of [3 * KEYFRAME_INTERVAL + 5, 600]) {
  describe(`keyframes of a ${length}-step chain`, () => {
    const trace = chainTrace(length);
    const timeline = createTimeline(trace);

    it("are spaced wider on bigger graphs, never closer than KEYFRAME_INTERVAL", () => {
      assert.ok(timeline.keyframeInterval >= KEYFRAME_INTERVAL);
      if (length === 600) assert.ok(timeline.keyframeInterval > KEYFRAME_INTERVAL);
    });

    it("agree with replaying every frame from the start, at every frame", () => {
      const replay = new Map();
      for (let k = 0; k < timeline.frameCount; k++) {
        const frame = trace.frames[k];
        if (frame.phase === "sort") replay.set(trace.output, 1);
        if (frame.phase === "backward")
          for (const c of frame.contributions) replay.set(c.to, c.after);
        const grads = gradsAt(timeline, k);
        trace.nodes.forEach((node, i) => {
          assert.equal(grads[i], replay.get(node.id) ?? 0, `frame ${k} node ${node.id}`);
        });
      }
    });

    it("give the same state in any order of visits", () => {
      const forward = [...Array(timeline.frameCount).keys()].map((k) => stateAt(timeline, k).grads);
      for (const k of [400, 3, 199, 0, 250, 64, 65, 130, 1500, 1203, 1790]) {
        const k2 = clampFrame(timeline, k);
        assert.deepEqual(stateAt(timeline, k2).grads, forward[k2]);
      }
    });
  });
}

describe("clampFrame", () => {
  const timeline = createTimeline(fixture("neuron.json"));
  for (const [input, expected] of [
    [99, 15],
    [-3, 0],
    [NaN, 0],
    [4.7, 4],
    [Infinity, 0],
  ]) {
    it(`clamps ${input} to ${expected}`, () => assert.equal(clampFrame(timeline, input), expected));
  }
});
