import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  edgeCurves,
  markInView,
  markLinesInView,
  nodeBounds,
  segmentCrossesRect,
} from "../../static/js/graph/graph-culling.js";
import { SIZES } from "../../static/js/layout/layout-sizes.js";

const rect = { left: 0, top: 0, right: 100, bottom: 100 };

describe("nodeBounds", () => {
  it("covers a value's record and its op circle left of it", () => {
    const layout = {
      records: [
        { x: 200, y: 50, width: 100 },
        { x: 400, y: 50, width: 60 },
      ],
      ops: [null, { x: 350, y: 50 }],
    };
    const bounds = nodeBounds(/** @type {any} */ (layout));
    const h = SIZES.recordHeight / 2;
    assert.deepEqual([...bounds.slice(0, 4)], [150, 50 - h, 250, 50 + h]);
    assert.deepEqual([...bounds.slice(4, 8)], [350 - SIZES.opRadius, 50 - h, 430, 50 + h]);
  });
});

describe("markInView", () => {
  it("marks boxes that overlap the view, touching ones included, and counts them", () => {
    const bounds = Float64Array.from([
      10,
      10,
      20,
      20, // inside
      -50,
      -50,
      0,
      0, // touches the corner
      90,
      90,
      200,
      200, // overlaps
      101,
      0,
      150,
      50, // right of it
      0,
      120,
      50,
      150, // below it
    ]);
    const marks = new Uint8Array(5).fill(7);
    assert.equal(markInView(bounds, rect, marks), 3);
    assert.deepEqual([...marks], [1, 1, 1, 0, 0]);
  });

  it("handles a 20,000-value graph", () => {
    const count = 20000;
    const bounds = new Float64Array(4 * count);
    for (let i = 0; i < count; i++) bounds.set([0, i * 50, 80, i * 50 + 36], 4 * i);
    const marks = new Uint8Array(count);
    assert.equal(markInView(bounds, { left: 0, top: 1000, right: 100, bottom: 2000 }, marks), 21);
  });
});

describe("segmentCrossesRect", () => {
  it("is true for a segment crossing the box without an end inside", () => {
    assert.equal(segmentCrossesRect(-10, 50, 110, 50, rect), true);
    assert.equal(segmentCrossesRect(-10, -10, 110, 110, rect), true);
  });

  it("is false for a long diagonal passing beside the box, whose bounding box covers it", () => {
    assert.equal(segmentCrossesRect(-100, 50, 50, -100, rect), false);
  });

  it("is true with one end inside, and handles vertical and horizontal segments", () => {
    assert.equal(segmentCrossesRect(50, 50, 500, 500, rect), true);
    assert.equal(segmentCrossesRect(50, -100, 50, 200, rect), true);
    assert.equal(segmentCrossesRect(150, -100, 150, 200, rect), false);
    assert.equal(segmentCrossesRect(-100, 150, 200, 150, rect), false);
  });
});

describe("markLinesInView", () => {
  it("marks the polylines with a piece in view", () => {
    const pointStart = Int32Array.from([0, 2, 5]);
    const points = Float64Array.from([
      -100,
      50,
      50,
      -100, // a diagonal beside the box
      -50,
      500,
      -50,
      50,
      50,
      50, // a bend that ends inside
    ]);
    const marks = new Uint8Array(2);
    assert.equal(markLinesInView(pointStart, points, rect, marks), 1);
    assert.deepEqual([...marks], [0, 1]);
  });
});

describe("edgeCurves", () => {
  const layout = /** @type {any} */ ({
    edges: [
      {
        points: [
          { x: 0, y: 0 },
          { x: 400, y: 400 },
        ],
        repeat: 0,
      },
      {
        points: [
          { x: 0, y: 0 },
          { x: 400, y: 0 },
        ],
        repeat: 1,
      },
    ],
  });

  it("follows the drawn S-curve, not the straight line between the ends", () => {
    const { start, points } = edgeCurves(layout);
    const marks = new Uint8Array(2);
    // The curve leaves horizontally: near the start it runs right, where the straight
    // diagonal would not pass.
    markLinesInView(start, points, { left: 80, top: 20, right: 125, bottom: 70 }, marks);
    assert.equal(marks[0], 1);
    assert.equal(
      segmentCrossesRect(0, 0, 400, 400, { left: 80, top: 20, right: 125, bottom: 70 }),
      false,
    );
  });

  it("bows a repeated edge (a + a) sideways, as drawn", () => {
    const { start, points } = edgeCurves(layout);
    const ys = [];
    for (let j = start[1]; j < start[2]; j++) ys.push(points[2 * j + 1]);
    assert.ok(Math.max(...ys) > 5, "the second a -> + edge bulges down");
  });
});
