import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { EDITOR_ROWS, editorRows, frameAddress } from "../../static/js/hosts/page-controller.js";

describe("editorRows", () => {
  it("fits the program's lines within the embed's bounds", () => {
    assert.equal(editorRows("a = 1"), EDITOR_ROWS.min);
    assert.equal(editorRows("a\nb\nc\nd\ne"), 5);
    assert.equal(editorRows("x\n".repeat(40)), EDITOR_ROWS.max);
  });
});

describe("frameAddress", () => {
  it("changes only the frame, keeping the program, the quiz and every other option", () => {
    assert.equal(
      frameAddress("?source=a%2Bb&frame=2&quiz=1&theme=dark", 7),
      "?source=a%2Bb&frame=7&quiz=1&theme=dark",
    );
  });
  it("adds the frame when the address has none", () => {
    assert.equal(frameAddress("?source=a", 0), "?source=a&frame=0");
  });
});
