import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { nodeNames, validateTrace } from "../../static/js/passes/trace.js";
import { fixture } from "./helpers.mjs";

describe("validateTrace", () => {
  it("accepts the engine's traces", () => {
    for (const name of ["neuron.json", "neuron-expanded.json", "a-plus-a.json"])
      validateTrace(fixture(name));
  });
  it("reads the API's -= (a += that subtracts, SPEC §14's two writes) as the page's -=", () => {
    const trace = fixture("neuron.json");
    const frame = trace.frames.find((f) => f.phase === "backward" && f.contributions.length > 1);
    Object.assign(frame.contributions[0], { write: "+=", line: 3, subtracts: true });
    Object.assign(frame.contributions[1], { write: "+=", line: 4 });
    const checked = validateTrace(trace);
    const [first, second] = checked.frames[trace.frames.indexOf(frame)].contributions;
    assert.equal(first.write, "-=");
    assert.equal(second.write, "+=");
  });

  it("names the bad value", () => {
    assert.throws(() => validateTrace({ schema: 3 }), /trace\.schema must be 1 or 2, got 3/);
    const trace = fixture("neuron.json");
    trace.edges.push({ source: "n0", target: "nope" });
    assert.throws(() => validateTrace(trace), /edges\[9\] must join two nodes/);
  });
});

describe("nodeNames", () => {
  it("reads the engine's names, the ones its frame texts use", () => {
    for (const name of ["neuron.json", "neuron-expanded.json", "a-plus-a.json"]) {
      const trace = fixture(name);
      const names = nodeNames(trace);
      assert.deepEqual(
        names,
        trace.nodes.map((node) => node.name),
      );
      trace.frames
        .filter((f) => f.phase === "build")
        .forEach((frame) => {
          const i = trace.nodes.findIndex((node) => node.id === frame.node);
          assert.ok(
            frame.text.startsWith(`${names[i]} = `),
            `${name}: ${names[i]} vs ${frame.text}`,
          );
        });
    }
    assert.ok(nodeNames(fixture("neuron-expanded.json")).includes("2*(x1*w1+x2*w2+b)"));
  });

  it("makes no names of its own: a trace without them is refused", () => {
    const trace = fixture("neuron.json");
    delete trace.nodes[2].name;
    assert.throws(() => validateTrace(trace), /nodes\[2\]\.name must be a string/);
  });
});

describe("validateTrace, once per trace (issue 24)", () => {
  it("checks a trace the first time and trusts it after: the layout and the timeline share it", () => {
    const trace = fixture("neuron.json");
    assert.equal(validateTrace(trace), trace);
    trace.frames = "not frames"; // a trace is not changed once played; this shows it is not re-read
    assert.equal(validateTrace(trace), trace);
    assert.throws(() => validateTrace({ ...trace }), /frames/);
  });
});
