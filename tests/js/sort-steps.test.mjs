import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { createSortSteps, hasSortSteps } from "../../static/js/lab/sort-steps.js";
import { createTimeline, phaseSpans, stateAt } from "../../static/js/passes/timeline.js";
import { validateTrace } from "../../static/js/passes/trace.js";
import { fixture } from "./helpers.mjs";
import { withMistake, withSortSteps } from "./lab-helpers.mjs";

const labels = (trace, indices) => indices.map((i) => trace.nodes[i].label || trace.nodes[i].id);

describe("createSortSteps", () => {
  const aPlusA = withSortSteps(fixture("a-plus-a.json"));
  const first = aPlusA.frames.findIndex((frame) => frame.phase === "sort");

  it("gives a + a six steps: visit b, visit a, append a, skip a, append b, seed", () => {
    const steps = createSortSteps(aPlusA);
    assert.equal(steps.count, 6);
    assert.deepEqual(
      steps.frames.map((k) => steps.at(k)?.step),
      ["visit", "visit", "append", "skip", "append", "seed"],
    );
    assert.equal(hasSortSteps(aPlusA), true);
    assert.equal(hasSortSteps(fixture("a-plus-a.json")), false);
  });

  it("puts a skipped call on the stack for its own frame only", () => {
    const steps = createSortSteps(aPlusA);
    const skip = steps.at(first + 3);
    assert.deepEqual(
      labels(
        aPlusA,
        skip.stack.map((entry) => entry.node),
      ),
      ["b", "a"],
    );
    assert.deepEqual(
      skip.stack.map((entry) => entry.skip),
      [false, true],
    );
    const appendB = steps.at(first + 4);
    assert.deepEqual(
      labels(
        aPlusA,
        appendB.stack.map((entry) => entry.node),
      ),
      ["b"],
    );
    assert.deepEqual(labels(aPlusA, appendB.topo), ["a", "b"]);
  });

  it("empties the stack at the seed with every node visited and appended", () => {
    const seed = createSortSteps(aPlusA).at(first + 5);
    assert.deepEqual(seed.stack, []);
    assert.deepEqual(labels(aPlusA, seed.visited), ["b", "a"]);
    assert.deepEqual(labels(aPlusA, seed.topo), ["a", "b"]);
  });

  it("grows and shrinks the neuron's stack with the depth of each call", () => {
    const neuron = withSortSteps(fixture("neuron.json"));
    const steps = createSortSteps(neuron);
    assert.equal(steps.count, 21);
    for (const k of steps.frames) {
      const state = steps.at(k);
      if (state.step === "seed") continue;
      const frame = neuron.frames[k];
      assert.equal(state.stack.length, frame.depth + 1, "the call of each step sits at its depth");
      assert.equal(neuron.nodes[state.stack.at(-1).node].id, frame.node);
    }
    const last = steps.at(steps.frames.at(-1));
    assert.deepEqual(
      last.topo.map((i) => neuron.nodes[i].id),
      neuron.topo,
    );
  });

  it("shows append-first's wrong order: the output is appended first", () => {
    const wrong = withSortSteps(withMistake(fixture("neuron.json"), "append-first"));
    const steps = createSortSteps(wrong);
    const second = steps.at(steps.frames[1]);
    assert.equal(second.step, "append");
    assert.deepEqual(labels(wrong, second.topo), ["o"]);
  });

  it("leaves frames that are not sort steps alone", () => {
    assert.equal(createSortSteps(aPlusA).at(0), null);
  });

  it("names a step that does not fit the recursion", () => {
    const bad = structuredClone(aPlusA);
    bad.frames[first + 1].depth = 5;
    assert.throws(
      () => createSortSteps(bad),
      /frames\[2\] must be called from a call on the stack/,
    );
    const unknown = structuredClone(aPlusA);
    unknown.frames[first].step = "jump";
    assert.throws(
      () => createSortSteps(unknown),
      /must have a step of visit, skip, append or seed.*"jump"/,
    );
    const stray = structuredClone(aPlusA);
    stray.frames[first + 2].node = "n1";
    stray.frames[first + 2].depth = 1;
    assert.throws(() => createSortSteps(stray), /must append the node of a call on the stack/);
    const nowhere = structuredClone(aPlusA);
    nowhere.frames[first].node = "missing";
    assert.throws(() => createSortSteps(nowhere), /must name a node/);
  });
});

describe("the timeline of a trace with sort steps", () => {
  const neuron = fixture("neuron.json");
  const stepped = withSortSteps(neuron);
  const timeline = createTimeline(stepped);

  it("spans 21 sort frames and seeds the gradient at the last of them", () => {
    assert.equal(timeline.frameCount, 36);
    assert.equal(timeline.sortFrame, 25);
    assert.deepEqual(
      phaseSpans(timeline).map((span) => [span.phase, span.start, span.length]),
      [
        ["build", 0, 5],
        ["sort", 5, 21],
        ["backward", 26, 10],
      ],
    );
  });

  it("keeps every gradient at 0 until the seed, and ends with the article's", () => {
    const output = stepped.nodes.findIndex((node) => node.id === stepped.output);
    assert.equal(stateAt(timeline, 24).grads[output], 0);
    assert.equal(stateAt(timeline, 24).sorted, false);
    assert.equal(stateAt(timeline, 25).grads[output], 1);
    const end = stateAt(timeline, 35);
    const plain = createTimeline(neuron);
    assert.deepEqual([...end.grads], [...stateAt(plain, 15).grads]);
  });

  it("makes the node of each step the current one", () => {
    const first = stateAt(timeline, 5);
    assert.equal(stepped.nodes[first.current].id, stepped.output);
    assert.equal(first.roles[first.current], "active");
    assert.equal(stateAt(timeline, 25).current, -1);
  });
});

describe("validateTrace with sort steps", () => {
  it("accepts one seed among the steps and refuses none or two", () => {
    const stepped = withSortSteps(fixture("a-plus-a.json"));
    assert.equal(validateTrace(stepped), stepped);
    const seedless = structuredClone(stepped);
    seedless.frames = seedless.frames.filter((frame) => frame.step !== "seed");
    assert.throws(() => validateTrace(seedless), /one seed among the sort steps, got 0/);
    const twice = structuredClone(stepped);
    twice.frames.splice(3, 0, { phase: "sort", step: "seed", text: "again" });
    assert.throws(() => validateTrace(twice), /got 2/);
  });

  it("refuses a step that names no node of the trace", () => {
    const stepped = withSortSteps(fixture("a-plus-a.json"));
    stepped.frames[1].node = "<img src=x>";
    assert.throws(() => validateTrace(stepped), /frames\[1\]\.node must name a node/);
  });
});

describe("createSortSteps on a trace of several passes (SPEC §13)", () => {
  // b = a + a sorted twice: each pass's sort starts with nothing visited.
  const sort = (pass) => [
    { phase: "sort", step: "visit", node: "n1", depth: 0, text: "", pass },
    { phase: "sort", step: "visit", node: "n0", depth: 1, text: "", pass },
    { phase: "sort", step: "append", node: "n0", depth: 1, text: "", pass },
    { phase: "sort", step: "skip", node: "n0", depth: 1, text: "", pass },
    { phase: "sort", step: "append", node: "n1", depth: 0, text: "", pass },
    { phase: "sort", step: "seed", node: "n1", text: "", pass },
  ];
  const trace = {
    nodes: [{ id: "n0" }, { id: "n1" }],
    frames: [...sort(0), { phase: "backward", node: "n1", pass: 0 }, ...sort(1)],
  };

  it("counts each pass's steps from its own first and keeps visited and topo per pass", () => {
    const steps = createSortSteps(trace);
    const second = steps.at(7);
    assert.equal(second?.position, 0);
    assert.equal(second?.count, 6);
    assert.deepEqual(second?.visited, [1]);
    assert.deepEqual(second?.topo, []);
    assert.deepEqual(steps.at(12)?.topo, [0, 1]);
    assert.equal(steps.at(12)?.position, 5);
    assert.equal(steps.at(4)?.position, 4);
  });
});
