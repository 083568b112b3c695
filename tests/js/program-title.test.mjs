import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { TITLE_MAX_CHARS, programTitle } from "../../static/js/hosts/program-title.js";

describe("programTitle", () => {
  it("is the first line of code, after comments and blank lines", () => {
    assert.equal(programTitle("# a neuron\n\n  x = 2.0\ny = x * 3"), "backprop-animator: x = 2.0");
    assert.equal(programTitle("# hi\r\n\r\nx = 1"), "backprop-animator: x = 1");
  });
  it("is the bare name when there is no code", () => {
    assert.equal(programTitle("# hi\n\n"), "backprop-animator");
    assert.equal(programTitle(""), "backprop-animator");
  });
  it("cuts a long line to its limit, ending in an ellipsis", () => {
    const title = programTitle(`y = ${"x + ".repeat(40)}x`);
    assert.ok(title.endsWith("…"));
    assert.equal(title.length, "backprop-animator: ".length + TITLE_MAX_CHARS);
  });
});
