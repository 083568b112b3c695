import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { nodeNames, validateTrace } from "../../static/js/trace.js";
import { fixture } from "./helpers.mjs";

describe("validateTrace", () => {
  it("accepts the engine's traces", () => {
    for (const name of ["neuron.json", "neuron-expanded.json", "a-plus-a.json"]) validateTrace(fixture(name));
  });
  it("names the bad value", () => {
    assert.throws(() => validateTrace({ schema: 2 }), /trace\.schema must be 1, got 2/);
    const trace = fixture("neuron.json");
    trace.edges.push({ source: "n0", target: "nope" });
    assert.throws(() => validateTrace(trace), /edges\[9\] must join two nodes/);
  });
});

describe("nodeNames", () => {
  it("names unlabelled nodes by the expression that made them", () => {
    const trace = fixture("neuron.json");
    const names = nodeNames(trace);
    assert.ok(names.includes("x1*w1"));
    assert.ok(names.includes("x1*w1+x2*w2+b"));
    assert.ok(names.includes("o"));
  });
  it("names constants by their value", () => {
    const names = nodeNames(fixture("neuron-expanded.json"));
    assert.ok(names.includes("2") && names.includes("-1"));
  });
});
