import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { carriedPass, opsThatWrote } from "../../static/js/lab/engine-check-view.js";

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
