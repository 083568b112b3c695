import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  deltaTexts,
  labelSize,
  labelSpot,
  obstaclesOf,
  placeLabels,
} from "../../static/js/graph/label-placement.js";
import { SIZES } from "../../static/js/layout/layout-sizes.js";

const h = SIZES.recordHeight;

/** Whether two top-left boxes overlap. */
const overlap = (a, b) =>
  Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x) &&
  Math.min(a.y + a.height, b.y + b.height) > Math.max(a.y, b.y);

describe("deltaTexts", () => {
  it("writes a first += with its result, and a later one as a running sum", () => {
    const texts = deltaTexts([
      { child: 4, before: 0, delta: -0.1036, after: -0.1036 },
      { child: 4, before: -0.1036, delta: 0.1464, after: 0.0428 },
      { child: 2, before: 0, delta: 1, after: 1 },
    ]);
    assert.deepEqual(texts.get(4), [
      "+= \u22120.1036 \u2192 \u22120.1036",
      "\u22120.1036 + 0.1464 \u2192 0.0428",
    ]);
    assert.deepEqual(texts.get(2), ["+= 1 \u2192 1"]);
  });

  it("writes a negative amount as a subtraction", () => {
    const [text] = /** @type {string[]} */ (
      deltaTexts([{ child: 0, before: 0.5, delta: -0.25, after: 0.25 }]).get(0)
    );
    assert.equal(text, "0.5 \u2212 0.25 \u2192 0.25");
  });
});

describe("labelSpot", () => {
  const record = { x: 100, y: 100, width: 120 };
  const size = labelSize(["+= 1 \u2192 1"]);

  it("puts a label under its record, right-aligned, when nothing is there", () => {
    assert.deepEqual(labelSpot(record, size, []), { x: 160 - size.width, y: 100 + h / 2 + 4 });
  });

  it("moves over the record when a box sits under it", () => {
    const below = { x: 40, y: 100 + h / 2, width: 200, height: 60 };
    const spot = labelSpot(record, size, [below]);
    assert.equal(spot.y, 100 - h / 2 - 4 - size.height);
    assert.equal(overlap({ ...spot, ...size }, below), false);
  });

  it("goes where it covers least when every spot is taken", () => {
    const everywhere = [
      { x: -1000, y: 100 + h / 2, width: 3000, height: 200 },
      { x: -1000, y: -1000, width: 3000, height: 1000 + 100 - h / 2 - 2 },
      { x: 160, y: 60, width: 2000, height: 10 },
    ];
    const spot = labelSpot(record, size, everywhere);
    assert.equal(spot.x, 168, "the spot right of the record is only partly covered");
  });
});

describe("placeLabels", () => {
  it("keeps two labels of one frame from covering each other or other records", () => {
    const layout = /** @type {any} */ ({
      records: [
        { x: 100, y: 100, width: 120 },
        { x: 100, y: 160, width: 120 },
        { x: 100, y: 40, width: 120 },
      ],
      ops: [null, null, null],
    });
    const obstacles = [0, 1, 2].flatMap((i) => obstaclesOf(layout, i));
    const placed = placeLabels(
      [
        { child: 0, texts: ["+= 1 \u2192 1"] },
        { child: 1, texts: ["+= 2 \u2192 2"] },
      ],
      layout,
      obstacles,
    );
    assert.equal(placed.length, 2);
    assert.equal(overlap(placed[0], placed[1]), false);
    for (const label of placed) {
      for (const box of obstacles)
        assert.equal(overlap(label, box), false, `label of ${label.child} covers a record`);
    }
  });

  it("does not count a label's own record against it", () => {
    const layout = /** @type {any} */ ({
      records: [{ x: 100, y: 100, width: 120 }],
      ops: [{ x: 20, y: 100 }],
    });
    const [label] = placeLabels(
      [{ child: 0, texts: ["+= 1 \u2192 1"] }],
      layout,
      obstaclesOf(layout, 0),
    );
    assert.equal(label.y, 100 + h / 2 + 4);
  });
});
