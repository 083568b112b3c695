import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  carriedPass,
  clearingMethod,
  measuredOps,
  opsThatWrote,
  replacedRows,
} from "../../static/js/lab/engine-check-view.js";

/** A backward frame of pass `pass` adding into `to`, whose gradient was `before`. */
const add = (pass, to, before, delta = 1) => ({
  phase: "backward",
  node: "out",
  text: "",
  pass,
  contributions: [{ to, local: 1, upstream: delta, delta, before, after: before + delta }],
});

describe("carriedPass: a pass that starts from an earlier pass's gradients", () => {
  it("finds the loop that never sets its gradients back to 0", () => {
    const frames = [add(0, "w", 0), add(0, "w", 1), add(1, "w", 2), add(1, "w", 3)];
    assert.equal(carriedPass({ frames }), 1);
  });

  it("is -1 where each pass starts from 0, however often a value is added into", () => {
    // w.grad = 0 between the passes (an update frame), then 0 → 1 → 2 again.
    const update = { phase: "update", pass: 1, changes: [], line: 5 };
    const frames = [add(0, "w", 0), add(0, "w", 1), update, add(1, "w", 0), add(1, "w", 1)];
    assert.equal(carriedPass({ frames }), -1);
    assert.equal(carriedPass({ frames: [add(0, "w", 0), add(0, "w", 1)] }), -1);
  });
});

describe("opsThatWrote: the check's rows some rule wrote a gradient of", () => {
  it("names a power's row as the check does: **k, ^k and a worded pow k", () => {
    // A wrong forward (`self.data * k` under `f'pow {k}'`) leaves the `pow` row unchecked:
    // its rules wrote, so the row and summary must not say backward() writes them itself.
    const nodes = ["pow 2", "^3", "**-1", "Pow(0.5)", "tanh", "power", "pow 2x"].map((op, i) => ({
      id: `n${i}`,
      op,
    }));
    const frames = nodes.map((node) => ({ ...add(0, "a", 0), node: node.id }));
    frames.push({ ...add(0, "a", 0), node: "n4", contributions: [] });
    const rows = opsThatWrote({ nodes, frames });
    assert.deepEqual([...rows].sort(), ["**", "Pow", "^", "pow", "pow 2x", "power", "tanh"]);
  });
});

describe("measuredOps: the rows whose right derivatives were measured", () => {
  it("names an op no table knows by its row, and no op a table knows", () => {
    // A learner's `cube` and a `pow 3` worded power, both measured by re-runs of their own
    // code: their rows say "checked numerically", not as if a table knew them.
    const trace = {
      nodes: [
        { id: "n0", op: "" },
        { id: "n1", op: "*" },
        { id: "n2", op: "cube", reference: "numeric" },
        { id: "n3", op: "pow 3", reference: "numeric" },
      ],
    };
    assert.deepEqual([...measuredOps(trace)].sort(), ["cube", "pow"]);
  });
});

describe("replacedRows: an op whose rule another op's method replaced", () => {
  it("names the product whose rule a sum's method overwrote, by the product's row", () => {
    // `other._backward = _backward` in `__add__`: the `+` row is wrong, kept on n3, a `*`.
    const trace = {
      nodes: [
        { id: "n3", op: "*" },
        { id: "n4", op: "+" },
        { id: "n5", op: "**2" },
      ],
    };
    const plus = {
      op: "+",
      line: 18,
      verdict: "wrong",
      first: { frame: 3, node: "n4", child: "n2", learner: 0, correct: 1, kept_on: "n3" },
    };
    const check = { rules: [{ op: "*", line: 15, verdict: "unchecked", first: null }, plus] };
    assert.deepEqual([...replacedRows(check, trace)], [["*", { holder: "n3", by: plus }]]);
  });

  it("names none where the rule was kept on a leaf or on a node of the same op", () => {
    const trace = {
      nodes: [
        { id: "a", op: "" },
        { id: "m", op: "*" },
      ],
    };
    const first = { frame: 3, node: "m", child: "a", learner: 0, correct: 1 };
    const onLeaf = { op: "*", line: 9, verdict: "wrong", first: { ...first, kept_on: "a" } };
    const onSame = { op: "*", line: 9, verdict: "wrong", first: { ...first, kept_on: "m" } };
    assert.equal(replacedRows({ rules: [onLeaf] }, trace).size, 0);
    assert.equal(replacedRows({ rules: [onSame] }, trace).size, 0);
  });
});

describe("clearingMethod: the program's own name for setting gradients back to 0", () => {
  it("names DeZero's cleargrad and micrograd's zero_grad as the program defines them", () => {
    const dezero = "class Variable:\n    def cleargrad(self):\n        self.grad = None\n";
    assert.equal(clearingMethod(dezero), "cleargrad");
    assert.equal(
      clearingMethod("class Module:\n    def zero_grad(self):\n        pass\n"),
      "zero_grad",
    );
    assert.equal(clearingMethod("def cleargrads(self): pass"), "cleargrads");
  });

  it("is zero_grad where the program defines no such method, or only calls one", () => {
    assert.equal(clearingMethod(""), "zero_grad");
    assert.equal(clearingMethod("x.cleargrad()\nmy_cleargrad = 1\n"), "zero_grad");
  });
});
