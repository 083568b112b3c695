import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { carryFrame } from "../../static/js/passes/frame-carry.js";
import { fixture } from "./helpers.mjs";
import { withMistake, withSortSteps } from "./lab-helpers.mjs";

describe("carryFrame", () => {
  const neuron = fixture("neuron.json");
  const stepped = withSortSteps(neuron);

  it("keeps build frames, starts the sort over and keeps the distance from the end", () => {
    assert.equal(carryFrame(neuron, 3, stepped), 3);
    assert.equal(carryFrame(neuron, 5, stepped), 5);
    assert.equal(carryFrame(neuron, 15, stepped), 35);
    assert.equal(carryFrame(stepped, 20, neuron), 5);
    assert.equal(carryFrame(stepped, 30, neuron), 10);
  });

  it("keeps the frame when only the engine changes", () => {
    const wrong = withMistake(neuron, "append-first");
    for (let k = 0; k < 16; k++) assert.equal(carryFrame(neuron, k, wrong), k);
  });

  it("opens at the start for a frame the old trace does not have", () => {
    assert.equal(carryFrame(neuron, 99, stepped), 0);
    assert.equal(carryFrame(neuron, -1, stepped), 0);
  });
});
