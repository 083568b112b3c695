import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  fill,
  fromColumns,
  ordinal,
  readTrace,
  workedOut,
} from "../../static/js/passes/columns.js";

// The whole decoder is checked against the engine's traces by tests/app/test_columns.py;
// these are its small parts and what a frame's text does when it is read.
const SENTENCES = {
  built: "{own} = {numeric} = {data}",
  built_bare: "{own} = {data}",
  built_named: "{own} = {symbolic} = {numeric} = {data}",
  sorted_nodes:
    "Depth-first sort: {count} {nodes}, each after its children. Seed {output}.grad = 1, then walk the order backwards.",
  leaf_rule: "{own} is a {what}: its rule does nothing. grad = {grad}.",
  rule_ran: "{own} ({op}, grad {upstream}): {rule}. {steps}.",
  first_add: "{child}.grad += {local} × {upstream} → {after}",
  held_add:
    "{child}.grad += {local} × {upstream}; it held {before} already, sum {before} + {delta} = {after}",
  later_add: "{child}.grad += {local} × {upstream}; {nth} +=, sum {before} + {delta} = {after}",
};

/** `a = Value(3.0); b = a + a; b.backward()` as the engine encodes it. */
const A_PLUS_A = {
  encoding: "columns",
  version: 1,
  schema: 1,
  source: "a = Value(3.0)\nb = a + a\nb.backward()\n",
  granularity: "packed",
  nodes: {
    label: ["a", "b"],
    name: [null, null],
    op: ["", "+"],
    kind: [0, 2],
    data: [3, 6],
    grad: [2, 1],
  },
  edges: [0, 1, 0, 1],
  topo: [0, 1],
  output: 1,
  passes: [{ output: 1, topo: null, data: 6, names: {} }],
  ops: {},
  sentences: SENTENCES,
  rules: { "+": "pass the gradient on unchanged" },
  frames: {
    phase: "bskk",
    node: [1, -1, 1, 0],
    line: [2, -1, -1, -1],
    count: [-1, -1, 2, 0],
    to: [0, 0],
    local: [1, 1],
    symbolic: { 0: "a+a" },
  },
};

describe("the columns encoding", () => {
  it("fills a sentence's blanks", () =>
    assert.equal(fill("{a} and {b}", { a: "x", b: "{a}" }), "x and {a}"));
  it("writes ordinals as the engine does", () =>
    assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 111].map(ordinal), [
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "111th",
    ]));
  it("works an op out over its operands", () => {
    assert.equal(workedOut("*", ["2", "\u22123"]), "2 × \u22123");
    assert.equal(workedOut("**2", ["\u22123"]), "(\u22123)**2");
    assert.equal(workedOut("tanh", ["0.8814"]), "tanh(0.8814)");
    assert.equal(workedOut("+", ["1"]), "+(1)");
    // Another engine's own `-` and `/` of two operands, between them; of one, a call.
    assert.equal(workedOut("-", ["1.099", "2"]), "1.099 \u2212 2");
    assert.equal(workedOut("/", ["6", "4"]), "6 / 4");
    assert.equal(workedOut("-", ["3"]), "-(3)");
    assert.equal(workedOut("**", ["\u22121.5", "3"]), "(\u22121.5)**3");
  });
  it("gives back the numbers and texts left out", () => {
    const trace = fromColumns(structuredClone(A_PLUS_A));
    assert.deepEqual(trace.edges, [
      { source: "n0", target: "n1" },
      { source: "n0", target: "n1" },
    ]);
    assert.deepEqual(trace.frames[2].contributions[1], {
      to: "n0",
      local: 1,
      upstream: 1,
      delta: 1,
      before: 1,
      after: 2,
    });
    assert.deepEqual(
      trace.frames.map((f) => f.text),
      [
        "b = a+a = 3 + 3 = 6",
        "Depth-first sort: 2 nodes, each after its children. Seed b.grad = 1, then walk the order backwards.",
        "b (+, grad 1): pass the gradient on unchanged. a.grad += 1 × 1 → 1; a.grad += 1 × 1; 2nd +=, sum 1 + 1 = 2.",
        "a is a leaf: its rule does nothing. grad = 2.",
      ],
    );
  });
  it("writes a text only when it is read, and JSON has it", () => {
    const trace = fromColumns(structuredClone(A_PLUS_A));
    assert.equal(Object.keys(trace.frames[3]).includes("text"), false);
    assert.equal(
      JSON.parse(JSON.stringify(trace.frames[3])).text,
      "a is a leaf: its rule does nothing. grad = 2.",
    );
  });
  it("keeps a text the server sent", () => {
    const columns = structuredClone(A_PLUS_A);
    columns.frames.text = { 1: "Sorted." };
    assert.equal(fromColumns(columns).frames[1].text, "Sorted.");
  });
  it("passes a trace of schema 1 through", () => {
    const plain = { schema: 1, frames: [] };
    assert.equal(readTrace(plain), plain);
  });
});
