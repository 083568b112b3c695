import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { loopNote } from "../../static/js/player/code-panel.js";

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
