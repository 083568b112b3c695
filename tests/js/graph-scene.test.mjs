import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { edgeLook, labelFit, opName } from "../../static/js/graph/graph-scene.js";

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
  it("names a partial sum whose label the texts do not use (`loss = loss + d*d`)", () =>
    assert.equal(opName({ ...op, label: "loss" }, "0+d*d", 150), "0+d*d"));
});

describe("edgeLook", () => {
  // Value 2 is a closed call's box, drawn from its first value on; value 0 is an operand
  // of the box made at that frame, value 1 one made later.
  const state = /** @type {any} */ ({
    visible: Uint8Array.of(1, 0, 1),
    current: 2,
    phase: "build",
  });
  it("draws the edge from a drawn operand into the new value as flowing forward", () =>
    assert.equal(edgeLook(state, 2, 0), "forward"));
  it("hides an edge whose operand is not drawn yet: it would hang from nothing", () =>
    assert.equal(edgeLook(state, 2, 1), "hidden"));
  it("hides an edge into a value not drawn yet", () =>
    assert.equal(edgeLook({ ...state, visible: Uint8Array.of(1, 1, 0) }, 2, 0), "hidden"));
});

describe("labelFit", () => {
  it("leaves a short label as it is", () => assert.equal(labelFit(2, 28.6), null));
  it("squeezes a long one inside its cell, clear of both sides", () => {
    // The layout's cell for 20 characters: 20 x 7.3 + 2 x 7 = 160 px.
    assert.equal(labelFit(20, 160), 150);
  });
});
