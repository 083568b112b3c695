import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { opName } from "../../static/js/graph/graph-scene.js";

describe("opName", () => {
  const op = /** @type {any} */ ({ kind: "op", label: "" });
  it("names an intermediate value by the engine's name", () =>
    assert.equal(opName(op, "x1*w1+x2*w2", 150), "x1*w1+x2*w2"));
  it("cuts a long name to the record's width", () =>
    assert.equal(opName(op, "x".repeat(40), 150), `${"x".repeat(19)}\u2026`));
  it("draws nothing for a label, a leaf or a value the engine could not name", () => {
    assert.equal(opName({ ...op, label: "o" }, "o", 150), "");
    assert.equal(opName({ ...op, kind: "leaf" }, "w", 150), "");
    assert.equal(opName(op, "the * node", 150), "");
  });
});
