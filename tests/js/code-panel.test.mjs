import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { leafNote, loopNote } from "../../static/js/player/code-panel.js";
import { passCall, passName } from "../../static/js/player/rule-text.js";

/** A pass whose own backward() is on lines 25–36, with no line found calling the rules. */
const trace = /** @type {any} */ ({
  passes: [{ backward: { line: 25, end_line: 36, call: null } }],
});
const frame = (/** @type {number[]} */ lines) =>
  /** @type {any} */ ({ pass: 0, contributions: lines.map((line) => ({ line })) });

describe("loopNote: who wrote a frame's gradients, where no line calls the rule", () => {
  it("says the rule wrote them where every write is outside backward()", () => {
    // A rule under `rule`, run by `n.rule()`: said to be the loop's own writes.
    assert.equal(
      loopNote(trace, frame([20, 21])),
      "its loop runs each node's rule, which writes the gradients",
    );
  });
  it("says the loop wrote them where backward()'s own lines write", () => {
    // microgpt: `child.grad += local_grad * v.grad` in backward()'s loop.
    assert.equal(loopNote(trace, frame([31, 31])), "its loop writes the gradients");
    assert.equal(loopNote(trace, frame([20, 31])), "its loop writes the gradients");
  });
});

describe("leafNote: a leaf's backward frame names the program's own rule and gradient", () => {
  const source = [
    "class Node:",
    "    def __init__(self, value):",
    "        self.value = value",
    "        self.backwards_grad = 0.0",
    "        self.rule = lambda: None",
  ];
  const own = /** @type {any} */ ({ engine_check: { grad: "backwards_grad", rules: [] } });
  it("names a rule kept under `rule`, and the gradient's own attribute", () => {
    // It said "its _backward does nothing. Its grad is final." of `self.rule = lambda: None`.
    const leaf = /** @type {any} */ ({ kind: "leaf", rule: { line: 5, end_line: 5 } });
    assert.equal(
      leafNote(own, leaf, "a", source),
      "a is a leaf: its rule does nothing. Its backwards_grad is final.",
    );
    const renamed = source.map((line) => line.replace("self.rule", "self.backward_fn"));
    assert.equal(
      leafNote(own, leaf, "a", renamed),
      "a is a leaf: its backward_fn does nothing. Its backwards_grad is final.",
    );
  });
  it("says _backward for the engine's own Value, and no name it cannot read", () => {
    const constant = /** @type {any} */ ({ kind: "const" });
    assert.equal(
      leafNote(/** @type {any} */ ({}), constant, "2", []),
      "2 is a constant: its _backward does nothing. Its grad is final.",
    );
    const unread = /** @type {any} */ ({ kind: "leaf", rule: { line: 3, end_line: 3 } });
    assert.equal(
      leafNote(own, unread, "a", source),
      "a is a leaf: its rule does nothing. Its backwards_grad is final.",
    );
  });
});

describe("passName: the program's own function a pass runs", () => {
  const lines = [
    "def compute_gradients(out):",
    "    out.grad = 1",
    "class V:",
    "    def backward(self):",
  ];
  const at = (/** @type {number} */ line) =>
    /** @type {any} */ ({ passes: [{ backward: { line, end_line: line + 1, call: null } }] });
  it("reads the name off the def line", () => {
    assert.equal(passName(at(1), lines), "compute_gradients");
    assert.equal(passName(at(4), lines), "backward");
  });
  it("is backward where no def is found", () => {
    assert.equal(passName(at(2), lines), "backward");
    assert.equal(passName(/** @type {any} */ ({ passes: [{}] }), lines), "backward");
  });
});

describe("passCall: the call that ran a pass, as the program wrote it", () => {
  const lines = [
    "def compute_gradients(out):",
    "    out.grad = 1",
    "class V:",
    "    def backprop(self):",
  ];
  const at = (/** @type {number} */ line) =>
    /** @type {any} */ ({ passes: [{ backward: { line, end_line: line + 1, call: null } }] });
  it("is a function given the output, or a method of the output's class", () => {
    // The topo panel said "y.backward() runs no rule per node" of compute_gradients(y).
    assert.equal(passCall(at(1), lines, "y"), "compute_gradients(y)");
    assert.equal(passCall(at(4), lines, "y"), "y.backprop()");
    assert.equal(passCall(at(4), lines, "a+b"), "(a+b).backprop()");
  });
  it("is output.backward() where no def is found", () => {
    assert.equal(passCall(/** @type {any} */ ({ passes: [{}] }), lines, "y"), "y.backward()");
  });
});
