/**
 * The `+=` labels of a backward frame, as text and as places, with no DOM: each
 * contribution is written next to the child that receives it (a fork shows the
 * running sum, `−0.1036 + 0.1464 → 0.0429`), and each label goes under, over, right
 * of or under-left of its record (or right of it, raised or lowered half a row, or over
 * the name drawn over it), whichever covers least of the other boxes, the topo badges
 * and the names over records.
 *
 * Example: deltaTexts([{child: 2, before: 0, delta: 0.5, after: 0.5}]) ->
 * Map {2 => ["+= 0.5000 → 0.5000"]}.
 */
import { formatSigned, formatValue } from "../player/format.js";
import { SIZES } from "../layout/layout-sizes.js";

/**
 * @typedef {{x: number, y: number, width: number, height: number}} Box  top-left corner and size
 */

/**
 * The lines of text per receiving child, in the frame's order.
 * With the bug lab's `assign` engine (`overwrite`), a rule writes `=`: the old value is
 * replaced, not added to, and the label says what was lost.
 * @param {Array<{child: number, before: number, delta: number, after: number, write?: "+=" | "-=" | "="}>} contributions
 * @param {boolean} [overwrite]
 * @returns {Map<number, string[]>}
 */
export function deltaTexts(contributions, overwrite = false) {
  /** @type {Map<number, string[]>} */
  const lines = new Map();
  for (const c of contributions) {
    // A learner's own rule (SPEC §14) says for each write whether it was `=`, `+=` or
    // `-=` (which subtracts what it does not add: minus the delta).
    const text = (c.write ? c.write === "=" : overwrite)
      ? `= ${formatValue(c.after)}${c.before === 0 ? "" : ` (${formatValue(c.before)} lost)`}`
      : c.before === 0
        ? c.write === "-="
          ? `-= ${formatValue(0 - c.delta)} \u2192 ${formatValue(c.after)}`
          : `+= ${formatValue(c.delta)} \u2192 ${formatValue(c.after)}`
        : `${formatValue(c.before)} ${formatSigned(c.delta).replace(/^([+\u2212])/, "$1 ")} \u2192 ${formatValue(c.after)}`;
    lines.set(c.child, [...(lines.get(c.child) ?? []), text]);
  }
  return lines;
}

/** A value's changes written one by one up to this many; past it, counted. */
const CHANGES_SPELLED_OUT = 2;

/**
 * The lines of text per changed value of an update frame (SPEC §11), in the frame's
 * order. A closed box of the folded view (a layer, an MLP) stands for every value in it:
 * an optimizer step's hundred changes, each spelled out, piled up beside it where none
 * could be read, so past two they are counted, by field.
 *
 * Example: changeTexts([{child: 2, field: "data", before: 1, after: 0.9}]) ->
 * Map {2 => ["data 1 → 0.9"]}; three data changes of box 5 -> Map {5 => ["3 data values change"]}.
 * @param {Array<{child: number, field: "data" | "grad", before: number, after: number}>} changes
 * @returns {Map<number, string[]>}
 */
export function changeTexts(changes) {
  /** @type {Map<number, typeof changes>} */
  const byChild = new Map();
  for (const c of changes) {
    const mine = byChild.get(c.child);
    if (mine) mine.push(c);
    else byChild.set(c.child, [c]);
  }
  /** @type {Map<number, string[]>} */
  const lines = new Map();
  for (const [child, mine] of byChild) {
    if (mine.length <= CHANGES_SPELLED_OUT) {
      lines.set(
        child,
        mine.map((c) => `${c.field} ${formatValue(c.before)} \u2192 ${formatValue(c.after)}`),
      );
      continue;
    }
    /** @type {Map<string, number>} */
    const counts = new Map();
    for (const c of mine) counts.set(c.field, (counts.get(c.field) ?? 0) + 1);
    lines.set(
      child,
      [...counts].map(([field, n]) => `${n} ${field} value${n === 1 ? " changes" : "s change"}`),
    );
  }
  return lines;
}

/**
 * The size of a label holding these lines (monospace text, 7 px a character).
 * @param {string[]} texts
 */
export function labelSize(texts) {
  return { width: Math.max(...texts.map((t) => t.length)) * 7 + 16, height: texts.length * 16 + 4 };
}

/**
 * Where a label of this size goes beside a record, given what it should not cover.
 * @param {{x: number, y: number, width: number}} record  centre and width
 * @param {{width: number, height: number}} size
 * @param {Box[]} obstacles  other records, op circles and labels already placed
 * @returns {{x: number, y: number}} the label's top-left corner
 */
export function labelSpot(record, size, obstacles) {
  const h = SIZES.recordHeight;
  const { width, height } = size;
  const right = record.x + record.width / 2;
  const candidates = [
    { x: right - width, y: record.y + h / 2 + 4 },
    { x: right - width, y: record.y - h / 2 - 4 - height },
    { x: right + 8, y: record.y - height / 2 },
    { x: record.x - record.width / 2, y: record.y + h / 2 + 4 },
    // Right of it, straddling its top or bottom edge: clear of the topo badge of a
    // record in the next column that the middle spot would cover.
    { x: right + 8, y: record.y - h / 2 - height / 2 },
    { x: right + 8, y: record.y + h / 2 - height / 2 },
    // Over it, above the name drawn over it (an op value's): the name says which value
    // the label is about, and it was what a crowded frame's label covered.
    { x: right - width, y: record.y - h / 2 - 18 - height },
  ];
  return clearestSpot(candidates, width, height, obstacles);
}

/**
 * The first of `candidates` (top-left corners of a `width` × `height` box) that covers
 * none of `obstacles`, else the one covering the least area of them.
 * Example: clearestSpot([{x: 0, y: 0}, {x: 50, y: 0}], 10, 10, [{x: 0, y: 0, width: 20,
 * height: 20}]) is {x: 50, y: 0}.
 * @param {{x: number, y: number}[]} candidates  in order of preference
 * @param {number} width
 * @param {number} height
 * @param {Iterable<Box>} obstacles
 */
function clearestSpot(candidates, width, height, obstacles) {
  let best = candidates[0];
  let bestCover = Infinity;
  for (const spot of candidates) {
    let cover = 0;
    for (const other of obstacles) {
      const dx = Math.min(spot.x + width, other.x + other.width) - Math.max(spot.x, other.x);
      const dy = Math.min(spot.y + height, other.y + other.height) - Math.max(spot.y, other.y);
      if (dx > 0 && dy > 0) cover += dx * dy;
    }
    if (cover === 0) return spot;
    if (cover < bestCover) {
      bestCover = cover;
      best = spot;
    }
  }
  return best;
}

/**
 * Places every label of a frame in turn, each avoiding the records and the labels
 * placed before it.
 * @param {Array<{child: number, texts: string[]}>} labels
 * @param {import("../layout/layout.js").Layout} layout
 * @param {Array<Box & {node: number}>} obstacles  the records and op circles in view
 *   (obstaclesOf); the child's own are skipped
 * @returns {Array<{child: number, texts: string[], x: number, y: number, width: number, height: number}>}
 */
export function placeLabels(labels, layout, obstacles) {
  /** @type {Array<{child: number, texts: string[], x: number, y: number, width: number, height: number}>} */
  const placed = [];
  for (const { child, texts } of labels) {
    const record = layout.records[child];
    const others = obstacles.filter((o) => o.node !== child);
    const size = labelSize(texts);
    const spot = labelSpot(record, size, [
      ...others,
      ...placed.map((p) => ({ x: p.x - 2, y: p.y - 2, width: p.width + 4, height: p.height + 4 })),
    ]);
    placed.push({ child, texts, ...spot, ...size });
  }
  return placed;
}

/**
 * The boxes a label should not cover for one value: its record (grown by 2), its op
 * circle and, given their widths, the topo badge on the record's top-left corner and the
 * name drawn above it (an unlabelled op value's, graph-scene.js opName), which no label
 * covers, its own value's included (node -1: placeLabels never skips them).
 * @param {import("../layout/layout.js").Layout} layout
 * @param {number} i
 * @param {number} [badgeWidth]  0: no badge drawn
 * @param {number} [nameWidth]  0: no name drawn
 * @returns {Array<Box & {node: number}>}
 */
export function obstaclesOf(layout, i, badgeWidth = 0, nameWidth = 0) {
  const record = layout.records[i];
  const h = SIZES.recordHeight;
  const r = SIZES.opRadius;
  const left = record.x - record.width / 2;
  const top = record.y - h / 2;
  const boxes = [{ node: i, x: left - 2, y: top - 2, width: record.width + 4, height: h + 4 }];
  const op = layout.ops[i];
  if (op) boxes.push({ node: i, x: op.x - r, y: op.y - r, width: 2 * r, height: 2 * r });
  if (badgeWidth > 0)
    boxes.push({ node: -1, x: left - badgeWidth / 2, y: top - 9, width: badgeWidth, height: 18 });
  if (nameWidth > 0) boxes.push({ node: -1, ...nameBox(left, top, nameWidth) });
  return boxes;
}

/**
 * Where the name over a record (graph-scene.js's `.node-name`, 11 px, its baseline 4
 * above the record) is drawn, given the record's top-left corner.
 * @param {number} left
 * @param {number} top
 * @param {number} width
 * @returns {Box}
 */
function nameBox(left, top, width) {
  return { x: left + 14, y: top - 15, width, height: 12 };
}

/** A parted tag's height (parted-marks.js), and its gap to its record. */
export const TAG_HEIGHT = 17;
const TAG_GAP = 2;
/** Where a tag above a record starts, from its left edge: clear of the topo badge. */
const TAG_INSET = 12;

/**
 * The boxes of value i that a bug lab tag must not cover: its record (grown by 2), the
 * topo badge on its top-left corner, the name drawn above it (an unlabelled op value's,
 * graph-scene.js opName) and its op's shape (a circle, or a pill for a named op).
 * @param {import("../layout/layout.js").Layout} layout
 * @param {number} i
 * @param {{badgeWidth?: number, nameWidth?: number, opWidth?: number}} [sizes]
 * @returns {Array<Box & {node: number}>}
 */
export function markObstacles(layout, i, { badgeWidth = 18, nameWidth = 0, opWidth } = {}) {
  const record = layout.records[i];
  const h = SIZES.recordHeight;
  const r = SIZES.opRadius;
  const left = record.x - record.width / 2;
  const top = record.y - h / 2;
  const boxes = [
    { node: i, x: left - 2, y: top - 2, width: record.width + 4, height: h + 4 },
    { node: i, x: left - badgeWidth / 2, y: top - 9, width: badgeWidth, height: 18 },
  ];
  if (nameWidth > 0) boxes.push({ node: i, ...nameBox(left, top, nameWidth) });
  const op = layout.ops[i];
  const w = opWidth ?? 2 * r;
  if (op) boxes.push({ node: i, x: op.x - w / 2, y: op.y - r, width: w, height: 2 * r });
  return boxes;
}

/**
 * Where a tag of this width goes beside its record: above it (clear of the topo badge),
 * else above it flush right, else below it, left then flush right, else left or right of
 * it, else a row further up or down; the first that covers nothing, or the one covering
 * least.
 * Example: a record with another just above it gets its tag below.
 * @param {{x: number, y: number, width: number}} record  centre and width
 * @param {number} width
 * @param {Box[]} obstacles  what it must not cover (its own record's boxes included)
 * @returns {{x: number, y: number}} the tag's top-left corner
 */
export function tagSpot(record, width, obstacles) {
  const h = SIZES.recordHeight;
  const left = record.x - record.width / 2;
  const right = record.x + record.width / 2;
  const above = record.y - h / 2 - TAG_GAP - TAG_HEIGHT;
  const below = record.y + h / 2 + TAG_GAP;
  const row = TAG_HEIGHT + TAG_GAP;
  const candidates = [
    { x: left + TAG_INSET, y: above },
    { x: right - width, y: above },
    { x: left + TAG_INSET, y: below },
    { x: right - width, y: below },
    { x: left - 9 - TAG_GAP - width, y: record.y - TAG_HEIGHT / 2 },
    { x: right + TAG_GAP + 4, y: record.y - TAG_HEIGHT / 2 },
    { x: left + TAG_INSET, y: above - row },
    { x: left + TAG_INSET, y: below + row },
  ];
  return clearestSpot(candidates, width, TAG_HEIGHT, obstacles);
}

/**
 * The area every spot `tagSpot` may give a tag of this width reaches: above, below and
 * either side of its record, a row further up or down included.
 * @param {{x: number, y: number, width: number}} record  centre and width
 * @param {number} width
 * @returns {Box}
 */
export function tagReach(record, width) {
  const reach = width + SIZES.recordHeight;
  return {
    x: record.x - record.width / 2 - reach,
    y: record.y - SIZES.recordHeight - TAG_HEIGHT - 4,
    width: record.width + 2 * reach,
    height: 2 * (SIZES.recordHeight + TAG_HEIGHT + 4),
  };
}

/**
 * Boxes filed by the cells of a grid (`cell` layout units wide), so that what meets an
 * area is looked for among the boxes of its cells only: a big graph's tags each look at
 * the few boxes near them, not at every one placed so far.
 * Example: a grid holding 20,000 tags in a row answers `near` for one with the two or
 * three around it.
 * @template {Box} B
 * @param {number} [cell]
 */
export function boxGrid(cell = 256) {
  /** @type {Map<string, B[]>} */
  const cells = new Map();
  /**
   * @param {Box} area
   * @param {(key: string) => void} visit
   */
  const each = (area, visit) => {
    for (let cx = Math.floor(area.x / cell); cx <= Math.floor((area.x + area.width) / cell); cx++)
      for (
        let cy = Math.floor(area.y / cell);
        cy <= Math.floor((area.y + area.height) / cell);
        cy++
      )
        visit(`${cx},${cy}`);
  };
  return {
    /** @param {B} box */
    add(box) {
      each(box, (key) => {
        const list = cells.get(key);
        if (list) list.push(box);
        else cells.set(key, [box]);
      });
    },
    /**
     * The boxes filed in the cells `area` meets (each once) that `keep` keeps.
     * @param {Box} area
     * @param {(box: B) => boolean} [keep]
     * @returns {B[]}
     */
    near(area, keep = () => true) {
      /** @type {Set<B>} */
      const found = new Set();
      each(area, (key) => {
        for (const box of cells.get(key) ?? []) if (keep(box)) found.add(box);
      });
      return [...found];
    },
  };
}
