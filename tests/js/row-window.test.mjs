import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { visibleRange } from "../../static/js/player/row-window.js";

describe("visibleRange", () => {
  it("covers the rows meeting the viewport plus the overscan each side", () => {
    assert.deepEqual(visibleRange(300, 200, 30, 2000, 2), { start: 8, end: 19 });
  });

  it("starts at the first row at the top", () => {
    assert.deepEqual(visibleRange(0, 200, 30, 2000, 2), { start: 0, end: 9 });
  });

  it("takes every row of a list shorter than the viewport", () => {
    assert.deepEqual(visibleRange(0, 200, 30, 3, 2), { start: 0, end: 3 });
  });

  it("treats a scroll past the end of a list that just shrank as scrolled to its end", () => {
    assert.deepEqual(visibleRange(50_000, 300, 30, 100, 4), { start: 86, end: 100 });
  });

  it("reads a negative scroll (overscroll bounce) as the top", () => {
    assert.deepEqual(visibleRange(-40, 90, 30, 50, 0), { start: 0, end: 3 });
  });

  it("is empty for an empty list", () => {
    assert.deepEqual(visibleRange(120, 300, 30, 0, 8), { start: 0, end: 0 });
  });

  it("keeps a fractional row height's partly shown rows", () => {
    assert.deepEqual(visibleRange(100, 50, 27.5, 1000, 0), { start: 3, end: 6 });
  });

  it("always holds the viewport's rows, whatever the scroll", () => {
    const rowHeight = 27.5;
    const viewport = 333;
    const count = 1642;
    for (let scrollTop = 0; scrollTop <= count * rowHeight - viewport; scrollTop += 7.25) {
      const { start, end } = visibleRange(scrollTop, viewport, rowHeight, count, 3);
      const firstSeen = Math.floor(scrollTop / rowHeight);
      const lastSeen = Math.min(count - 1, Math.floor((scrollTop + viewport - 1e-9) / rowHeight));
      assert.ok(start <= firstSeen && lastSeen < end, `scrollTop ${scrollTop}: [${start}, ${end})`);
      assert.ok(end - start <= Math.ceil(viewport / rowHeight) + 1 + 6);
    }
  });

  it("refuses a row height that is not positive", () => {
    assert.throws(() => visibleRange(0, 100, 0, 10, 2), /rowHeight must be positive, not 0/);
  });
});
