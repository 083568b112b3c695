import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { OWN_SORT_NOTE, ownSortNote } from "../../static/js/lab/lab-controls.js";

const check = { rules: [], sort: { verdict: "right", first: null } };

describe("ownSortNote: what 'sort step by step' says beside a program's own class", () => {
  it("is none for the engine's own Value", () => {
    assert.equal(ownSortNote(/** @type {any} */ ({ source: "", passes: [{}] })), null);
  });
  it("says the program's own backward() sorts", () => {
    const trace = /** @type {any} */ ({
      source: "class V:\n    def backward(self):\n        pass",
      passes: [{ backward: { line: 2, end_line: 3, call: null } }],
      engine_check: check,
    });
    assert.equal(ownSortNote(trace), OWN_SORT_NOTE);
  });
  it("names a pass's function of another name", () => {
    const trace = /** @type {any} */ ({
      source: "def compute_gradients(out):\n    out.grad = 1",
      passes: [{ backward: { line: 1, end_line: 2, call: null } }],
      engine_check: check,
    });
    assert.match(ownSortNote(trace) ?? "", /^Your own compute_gradients\(\) sorts here: /);
  });
  it("says no backward() sorts where the program has none", () => {
    // A chain rule by hand: the note said "Your own backward() sorts here".
    const trace = /** @type {any} */ ({
      source: "c.grad = 1.0\na.grad = b.data * c.grad",
      passes: [{ backward: null }],
      engine_check: check,
    });
    const note = ownSortNote(trace) ?? "";
    assert.doesNotMatch(note, /backward\(\) sorts here/);
    assert.match(note, /^Your program calls no backward\(\) of its own/);
  });
});
