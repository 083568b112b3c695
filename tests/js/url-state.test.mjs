import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { readUrlState, writeUrlState } from "../../static/js/url-state.js";

describe("readUrlState", () => {
  it("reads source, granularity and a 0-based frame", () => {
    assert.deepEqual(readUrlState("?source=a%20%2B%20a&granularity=expanded&frame=15"), {
      source: "a + a", granularity: "expanded", frame: 15,
    });
  });
  it("falls back to packed and no frame for junk", () => {
    assert.deepEqual(readUrlState("?source=x&granularity=weird&frame=-2"), { source: "x", granularity: "packed", frame: null });
    assert.deepEqual(readUrlState("frame=abc"), { source: null, granularity: "packed", frame: null });
  });
});

describe("writeUrlState", () => {
  it("round-trips through readUrlState, newlines and symbols included", () => {
    const state = { source: "x = 2.0  # a & b\no = tanh(x) ** -1.5", granularity: "expanded", frame: 7 };
    assert.deepEqual(readUrlState(writeUrlState(state)), state);
  });
  it("names a bad granularity", () => {
    assert.throws(() => writeUrlState({ source: "", granularity: "fused", frame: 0 }), /"fused"/);
  });
});
