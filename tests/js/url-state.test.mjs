import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { readQuiz, readUrlState, writeUrlState } from "../../static/js/hosts/url-state.js";

describe("readUrlState", () => {
  it("reads source, granularity and a 0-based frame", () => {
    assert.deepEqual(readUrlState("?source=a%20%2B%20a&granularity=expanded&frame=15"), {
      source: "a + a",
      granularity: "expanded",
      frame: 15,
    });
  });
  it("falls back to packed and no frame for junk", () => {
    assert.deepEqual(readUrlState("?source=x&granularity=weird&frame=-2"), {
      source: "x",
      granularity: "packed",
      frame: null,
    });
    assert.deepEqual(readUrlState("frame=abc"), {
      source: null,
      granularity: "packed",
      frame: null,
    });
  });
});

describe("writeUrlState", () => {
  it("round-trips through readUrlState, newlines and symbols included", () => {
    const state = {
      source: "x = 2.0  # a & b\no = tanh(x) ** -1.5",
      granularity: "expanded",
      frame: 7,
    };
    assert.deepEqual(readUrlState(writeUrlState(state)), state);
  });
  it("names a bad granularity", () => {
    assert.throws(() => writeUrlState({ source: "", granularity: "fused", frame: 0 }), /"fused"/);
  });
});

describe("the quiz option", () => {
  it("is on for 1, true, yes and on, and off for anything else", () => {
    for (const on of ["?quiz=1", "?quiz=true", "?quiz=YES", "quiz=on", "?quiz=%201%20"])
      assert.equal(readQuiz(on), true, on);
    for (const off of ["", "?quiz=0", "?quiz=", "?quiz=no", "?quiz=1;alert(1)", "?Quiz=1"])
      assert.equal(readQuiz(off), false, off);
  });
  it("is written only when on, and read back", () => {
    const state = { source: "a = Value(3.0)", granularity: "packed", frame: 2 };
    assert.equal(new URLSearchParams(writeUrlState(state)).has("quiz"), false);
    assert.equal(readQuiz(writeUrlState({ ...state, quiz: true })), true);
    assert.deepEqual(readUrlState(writeUrlState({ ...state, quiz: true })), state);
  });
});
