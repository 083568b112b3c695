import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { createSortSteps, hasSortSteps } from "../../static/js/sort-steps.js";
import { fixture } from "./helpers.mjs";
import { withMistake, withSortSteps } from "./lab-helpers.mjs";

const labels = (trace, indices) => indices.map((i) => trace.nodes[i].label || trace.nodes[i].id);

describe("createSortSteps", () => {
  const aPlusA = withSortSteps(fixture("a-plus-a.json"));
  const first = aPlusA.frames.findIndex((frame) => frame.phase === "sort");

  it("gives a + a six steps: visit b, visit a, append a, skip a, append b, seed", () => {
    const steps = createSortSteps(aPlusA);
    assert.equal(steps.count, 6);
    assert.deepEqual(steps.frames.map((k) => steps.at(k)?.step), ["visit", "visit", "append", "skip", "append", "seed"]);
    assert.equal(hasSortSteps(aPlusA), true);
    assert.equal(hasSortSteps(fixture("a-plus-a.json")), false);
  });

  it("puts a skipped call on the stack for its own frame only", () => {
    const steps = createSortSteps(aPlusA);
    const skip = steps.at(first + 3);
    assert.deepEqual(labels(aPlusA, skip.stack.map((entry) => entry.node)), ["b", "a"]);
    assert.deepEqual(skip.stack.map((entry) => entry.skip), [false, true]);
    const appendB = steps.at(first + 4);
    assert.deepEqual(labels(aPlusA, appendB.stack.map((entry) => entry.node)), ["b"]);
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
    assert.deepEqual(last.topo.map((i) => neuron.nodes[i].id), neuron.topo);
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
    assert.throws(() => createSortSteps(bad), /frames\[2\] must be called from a call on the stack/);
    const unknown = structuredClone(aPlusA);
    unknown.frames[first].step = "jump";
    assert.throws(() => createSortSteps(unknown), /must have a step of visit, skip, append or seed.*"jump"/);
    const stray = structuredClone(aPlusA);
    stray.frames[first + 2].node = "n1";
    stray.frames[first + 2].depth = 1;
    assert.throws(() => createSortSteps(stray), /must append the node of a call on the stack/);
    const nowhere = structuredClone(aPlusA);
    nowhere.frames[first].node = "missing";
    assert.throws(() => createSortSteps(nowhere), /must name a node/);
  });
});
