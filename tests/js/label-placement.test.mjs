import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  boxGrid,
  changeTexts,
  deltaTexts,
  labelSize,
  labelSpot,
  markObstacles,
  obstaclesOf,
  placeLabels,
  TAG_HEIGHT,
  tagReach,
  tagSpot,
} from "../../static/js/graph/label-placement.js";
import { SIZES, topoBadgeWidth } from "../../static/js/layout/layout-sizes.js";

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

  it("writes a learner's -= as the code subtracts, its delta negated", () => {
    const texts = deltaTexts([
      { child: 1, before: 0, delta: -1, after: -1, write: "-=" },
      { child: 1, before: -1, delta: -2, after: -3, write: "-=" },
    ]);
    assert.deepEqual(texts.get(1), ["-= 1 \u2192 \u22121", "\u22121 \u2212 2 \u2192 \u22123"]);
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

  it("keeps a leaf's label off the topo badge of the record it feeds", () => {
    // A column of three leaves 24 apart (the article's w2, w1, x1 of a neuron) and the
    // product of the lower two in the next column, its badge level with the middle leaf's
    // right: under and over are taken by the neighbours, right of the middle is the badge.
    const layout = /** @type {any} */ ({
      records: [
        { x: 100, y: 100, width: 120 },
        { x: 100, y: 100 - h - 24, width: 120 },
        { x: 100, y: 100 + h + 24, width: 120 },
        { x: 280, y: 100 + 20, width: 120 },
      ],
      ops: [null, null, null, { x: 200, y: 120 }],
    });
    const obstacles = [0, 1, 2, 3].flatMap((i) => obstaclesOf(layout, i, topoBadgeWidth(i + 1)));
    const badge = { x: 220 - 9, y: 120 - h / 2 - 9, width: 18, height: 18 };
    assert.deepEqual(obstacles.at(-1), { node: -1, ...badge });
    const [label] = placeLabels([{ child: 0, texts: ["+= 1 \u2192 1"] }], layout, obstacles);
    assert.equal(overlap(label, badge), false, "the label covers the product's badge");
    for (const box of obstacles)
      if (box.node !== 0) assert.equal(overlap(label, box), false, "the label covers a box");
    assert.equal(label.x, 168, "right of its record");
  });

  it("sizes a badge by its digits", () => {
    assert.equal(topoBadgeWidth(7), 18);
    assert.equal(topoBadgeWidth(134), 27.5);
  });
});

describe("tagSpot", () => {
  // Two records in a column, a gap of 24 between them, and the op of a record in the
  // next column just to the right, a little higher than the lower one (as a layout has).
  const upper = { x: 100, y: 50, width: 120, labelWidth: 0, valueWidth: 60 };
  const lower = { x: 100, y: 50 + h + 24, width: 120, labelWidth: 0, valueWidth: 60 };
  const next = { x: 300, y: lower.y - 30, width: 120, labelWidth: 0, valueWidth: 60 };
  const layout = /** @type {any} */ ({
    records: [upper, lower, next],
    ops: [null, null, { x: 175, y: next.y }],
  });
  const all = [0, 1, 2].flatMap((i) => markObstacles(layout, i));
  const box = (/** @type {{x: number, y: number}} */ spot, /** @type {number} */ width) => ({
    ...spot,
    width,
    height: TAG_HEIGHT,
  });

  it("puts a tag above its record, clear of its topo badge", () => {
    const spot = tagSpot(upper, 80, markObstacles(layout, 0));
    assert.equal(spot.y + TAG_HEIGHT, upper.y - h / 2 - 2);
    assert.ok(spot.x >= upper.x - upper.width / 2 + 9, "left of the badge's right edge");
  });
  it("goes below when a wide tag above would cover the op to the right or its badge", () => {
    const width = 150; // wider than the record: above-left reaches the op, above-right the badge
    assert.ok(overlap(box({ x: lower.x - 60 + 12, y: lower.y - h / 2 - 19 }, width), all[6]));
    const spot = tagSpot(lower, width, all);
    assert.equal(spot.y, lower.y + h / 2 + 2);
    for (const other of all) assert.ok(!overlap(box(spot, width), other), JSON.stringify(other));
  });
  it("never covers a record above it in a tight column", () => {
    const tight = { ...lower, y: upper.y + h + 10 }; // no room for a tag between them
    const tightLayout = /** @type {any} */ ({ records: [upper, tight], ops: [null, null] });
    const obstacles = [...markObstacles(tightLayout, 0), ...markObstacles(tightLayout, 1)];
    const spot = tagSpot(tight, 90, obstacles);
    for (const other of obstacles) assert.ok(!overlap(box(spot, 90), other));
    assert.ok(spot.y > tight.y, "below it");
  });
  it("keeps clear of the name drawn above an unlabelled record", () => {
    const obstacles = markObstacles(layout, 0, { nameWidth: 60 });
    const spot = tagSpot(upper, 80, obstacles);
    for (const other of obstacles) assert.ok(!overlap(box(spot, 80), other));
  });
});

describe("boxGrid", () => {
  it("answers an area with the boxes of its cells, each once, that its filter keeps", () => {
    const grid = boxGrid(100);
    const wide = { x: 50, y: 10, width: 200, height: 10, node: 0 }; // in cells 0, 1 and 2
    const far = { x: 1000, y: 10, width: 10, height: 10, node: 1 };
    const hidden = { x: 120, y: 10, width: 10, height: 10, node: 2 };
    for (const box of [wide, far, hidden]) grid.add(box);
    assert.deepEqual(grid.near({ x: 110, y: 0, width: 150, height: 30 }), [wide, hidden]);
    assert.deepEqual(
      grid.near({ x: 110, y: 0, width: 150, height: 30 }, (box) => box.node !== 2),
      [wide],
    );
    assert.deepEqual(grid.near({ x: 500, y: 500, width: 10, height: 10 }), []);
  });

  it("keeps placing many tags linear: each looks at the tags near it only", () => {
    // The bug lab's tags on 20,000 parted values: looking at every tag placed so far
    // was quadratic (1.7 s a frame); each tag now sees the few placed around it, and
    // none of those it must not cover is missed.
    const cols = 150;
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      x: (i % cols) * 200,
      y: Math.floor(i / cols) * 120,
      width: 120,
    }));
    const placed = boxGrid();
    const all = [];
    let most = 0;
    for (const record of records) {
      const near = placed.near(tagReach(record, 150));
      most = Math.max(most, near.length);
      const spot = tagSpot(record, 150, near);
      const box = { x: spot.x - 2, y: spot.y - 2, width: 154, height: TAG_HEIGHT + 4 };
      placed.add(box);
      all.push(box);
    }
    assert.ok(most <= 30, `a tag looked at ${most} others`);
    for (let i = 0; i < all.length; i += 997) {
      const meeting = all.filter((other) => other !== all[i] && overlap(all[i], other));
      assert.deepEqual(meeting, []);
    }
  });
});

describe("names over records (a crowded frame)", () => {
  it("counts the name over a record, its own included, as a box no label covers", () => {
    const layout = /** @type {any} */ ({ records: [{ x: 100, y: 100, width: 120 }], ops: [null] });
    const name = { node: -1, x: 40 + 14, y: 100 - h / 2 - 15, width: 60, height: 12 };
    assert.deepEqual(obstaclesOf(layout, 0, 0, 60).at(-1), name);
    assert.equal(obstaclesOf(layout, 0).length, 1, "no name, no box");
  });

  it("puts a label over the name of its value when under, over and right are taken", () => {
    // A value with a name over it, records just under it and right of it: over the
    // record was the least covered spot, on its own name, which said which value it was.
    const layout = /** @type {any} */ ({
      records: [
        { x: 100, y: 100, width: 120 },
        { x: 100, y: 100 + h + 24, width: 120 },
        { x: 260, y: 100, width: 160 },
        { x: 260, y: 100 + h / 2, width: 160 },
        { x: 260, y: 100 - h / 2, width: 160 },
      ],
      ops: [null, null, null, null, null],
    });
    const obstacles = [0, 1, 2, 3, 4].flatMap((i) => obstaclesOf(layout, i, 0, i === 0 ? 90 : 0));
    const [label] = placeLabels([{ child: 0, texts: ["+= 1 \u2192 1"] }], layout, obstacles);
    for (const box of obstacles)
      if (box.node !== 0) assert.equal(overlap(label, box), false, JSON.stringify(box));
    assert.ok(label.y + label.height <= 100 - h / 2 - 15, "above the name");
  });
});

describe("changeTexts: an update frame's changes beside each value", () => {
  it("spells out a value's one or two changes", () => {
    const texts = changeTexts([
      { child: 2, field: "data", before: 1, after: 0.8 },
      { child: 3, field: "data", before: 0.5, after: 0.25 },
      { child: 3, field: "grad", before: 2, after: 0 },
    ]);
    assert.deepEqual(
      [...texts],
      [
        [2, ["data 1 \u2192 0.8"]],
        [3, ["data 0.5 \u2192 0.25", "grad 2 \u2192 0"]],
      ],
    );
  });

  it("counts, by field, the many changes of a closed box's values", () => {
    // An optimizer step inside a folded MLP: 103 labels piled on its box, none readable.
    const changes = Array.from({ length: 103 }, (_, i) => ({
      child: 7,
      field: /** @type {"data"} */ ("data"),
      before: i,
      after: i - 0.5,
    }));
    changes.push({ child: 7, field: "grad", before: 1, after: 0 });
    assert.deepEqual(
      [...changeTexts(changes)],
      [[7, ["103 data values change", "1 grad value changes"]]],
    );
  });

  it("groups a big folded model's changes in one walk", () => {
    // 20,000 parameters (BACKPROP_MAX_NODES) in one closed box, each data and grad
    // changed by one statement: copying the box's list at each change was quadratic
    // (53 s here, the page frozen); grouped in place it is a few milliseconds.
    const changes = Array.from({ length: 40_000 }, (_, i) => ({
      child: 1,
      field: /** @type {"data" | "grad"} */ (i % 2 ? "grad" : "data"),
      before: i,
      after: i + 1,
    }));
    assert.deepEqual(
      [...changeTexts(changes)],
      [[1, ["20000 data values change", "20000 grad values change"]]],
    );
  });
});
