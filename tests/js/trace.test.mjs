import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { formatShort, nodeNames, symbolicName, validateTrace } from "../../static/js/trace.js";
import { fixture } from "./helpers.mjs";

describe("validateTrace", () => {
  it("accepts the engine's traces", () => {
    for (const name of ["neuron.json", "neuron-expanded.json", "a-plus-a.json"])
      validateTrace(fixture(name));
  });
  it("names the bad value", () => {
    assert.throws(() => validateTrace({ schema: 3 }), /trace\.schema must be 1 or 2, got 3/);
    const trace = fixture("neuron.json");
    trace.edges.push({ source: "n0", target: "nope" });
    assert.throws(() => validateTrace(trace), /edges\[9\] must join two nodes/);
  });
});

/** A trace of one program's nodes and edges only, enough for naming. */
function graph(nodes, edges) {
  return {
    nodes: nodes.map(([id, op, label = "", data = 1]) => ({
      id,
      op,
      label,
      data,
      kind: op ? "op" : label ? "leaf" : "const",
      grad: 0,
    })),
    edges: edges.flatMap(([target, ...sources]) => sources.map((source) => ({ source, target }))),
    topo: nodes.map(([id]) => id),
  };
}

describe("nodeNames", () => {
  it("names unlabelled nodes by the expression that made them", () => {
    const names = nodeNames(fixture("neuron.json"));
    assert.ok(names.includes("x1*w1"));
    assert.ok(names.includes("x1*w1+x2*w2+b"));
    assert.ok(names.includes("o"));
  });

  it("brackets a looser operand, as the engine's texts do", () => {
    const trace = fixture("neuron-expanded.json");
    const names = nodeNames(trace);
    assert.ok(names.includes("(x1*w1+x2*w2+b)*2"), names.join(" | "));
    assert.ok(!names.includes("x1*w1+x2*w2+b*2"));
    assert.ok(names.includes("den**-1"));
  });

  it("matches every name the engine writes at the start of a build frame", () => {
    for (const name of ["neuron.json", "neuron-expanded.json", "a-plus-a.json"]) {
      const trace = fixture(name);
      const names = nodeNames(trace);
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
  });

  it("names constants by their value to 4 significant digits", () => {
    const names = nodeNames(fixture("neuron-expanded.json"));
    assert.ok(names.includes("2") && names.includes("-1"));
  });

  it("brackets by precedence, and on the right at equal precedence", () => {
    const trace = graph(
      [
        ["a", "", "a"],
        ["b", "", "b"],
        ["c", "", "c"],
        ["s", "+"],
        ["p", "*"],
        ["q", "*"],
        ["r", "+"],
        ["t", "**2"],
        ["u", "tanh"],
        ["v", "exp"],
        ["w", "tanh"],
      ],
      [
        ["s", "a", "b"],
        ["p", "s", "c"],
        ["q", "c", "s"],
        ["r", "c", "s"],
        ["t", "p"],
        ["u", "s"],
        ["v", "a"],
        ["w", "v"],
      ],
    );
    const [, , , s, p, q, r, t, u, , w] = nodeNames(trace);
    assert.deepEqual(
      [s, p, q, r, t, u, w],
      ["a+b", "(a+b)*c", "c*(a+b)", "c+(a+b)", "((a+b)*c)**2", "tanh(a+b)", "tanh(exp(a))"],
    );
  });

  it("calls a node 'the + node' once its derived name is too long, and so its users too", () => {
    const trace = graph(
      [
        ["a", "", "alpha_long"],
        ["b", "", "beta_long"],
        ["c", "", "gamma_long"],
        ["s", "+"],
        ["t", "+"],
        ["u", "*"],
      ],
      [
        ["s", "a", "b"],
        ["t", "s", "c"],
        ["u", "t", "a"],
      ],
    );
    const names = nodeNames(trace);
    assert.equal(names[3], "alpha_long+beta_long");
    assert.equal(names[4], "the + node");
    assert.equal(names[5], "the * node");
  });
});

describe("symbolicName", () => {
  it("writes powers and functions around their operand", () => {
    assert.equal(symbolicName("**-1", [{ name: "den", precedence: 5 }]), "den**-1");
    assert.equal(symbolicName("**2", [{ name: "a**2", precedence: 3 }]), "(a**2)**2");
    assert.equal(symbolicName("exp", [{ name: "n*2", precedence: 2 }]), "exp(n*2)");
  });
});

describe("formatShort", () => {
  it("writes numbers like Python's :.4g", () => {
    const cases = [
      [6.8813735870195432, "6.881"],
      [2, "2"],
      [-1, "-1"],
      [0.5, "0.5"],
      [0.04289321881345, "0.04289"],
      [0.0001234, "0.0001234"],
      [1.5e-5, "1.5e-05"],
      [22026.4658, "2.203e+04"],
      [9.99996, "10"],
      [-0.903, "-0.903"],
      [0, "0"],
    ];
    for (const [x, text] of cases) assert.equal(formatShort(x), text, String(x));
  });
});
