import assert from "node:assert/strict";
import { test } from "node:test";
import {
  caretPad,
  placeText,
  sourceLines,
  sourceOffset,
  utf16Index,
} from "../../static/js/player/source-position.js";

test("lines end at \\r\\n, a lone \\r and \\n, as the server counts them", () => {
  assert.deepEqual(sourceLines("a = 1\rb = 2\r\nc\nd"), ["a = 1", "b = 2", "c", "d"]);
});

test("a column in characters lands after emoji, which are two UTF-16 units each", () => {
  const line = "😀😀x = ?";
  assert.equal(line[utf16Index(line, 7)], "?");
  assert.equal(utf16Index(line, 1), 0);
  assert.equal(utf16Index(line, 99), line.length);
});

test("an error's line and column become the editor offset of that character", () => {
  const source = "a = 1\r😀 b = ?\r\nc";
  assert.equal(source[sourceOffset(source, 2, 5)], "=");
  assert.equal(source[sourceOffset(source, 3, null)], "c");
  assert.equal(sourceOffset(source, 1, 1), 0);
});

test("a place is worded with its line and column, its line alone, or not at all", () => {
  assert.equal(placeText({ line: 3, column: 5 }), "Line 3, column 5");
  assert.equal(placeText({ line: 3, column: null }), "Line 3");
  assert.equal(placeText({ line: null, column: null }), "");
});

test("the caret's padding keeps the line's tabs, so it lines up under the character", () => {
  assert.equal(caretPad("\treturn x * q", 13), "\t           ");
  assert.equal(caretPad("\treturn x * q", 13).length, 12);
  assert.equal(caretPad("y = x * z", 9), " ".repeat(8));
  assert.equal(caretPad("😀 = ?", 5), "    ");
  assert.equal(caretPad("ab", 6), "     ");
  assert.equal(caretPad("ab", 1), "");
});
