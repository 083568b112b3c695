/**
 * What is in view, as plain loops over typed arrays: a 20,000-value graph is
 * tested in well under a millisecond, so no spatial index is needed. Each value's
 * bounds cover its record and its op circle; an edge is in view when one of its
 * segments crosses the view (not merely its bounding box: an input feeding 500
 * neurons has 500 long edges, most of them nowhere near the screen).
 *
 * Example: nodeBounds(layout) then markInView(bounds, {left: 0, top: 0, right: 100,
 * bottom: 100}, marks) -> how many values touch that square, marks[i] = 1 for each.
 */
import { SIZES } from "../layout/layout-sizes.js";
import { edgeBow, edgePolyline } from "../player/svg.js";

/**
 * @typedef {import("./view-transform.js").Rect} Rect
 */

/**
 * left, top, right, bottom of each value (record and op circle), 4 numbers per value.
 * @param {import("../layout/layout.js").Layout} layout
 */
export function nodeBounds(layout) {
  const h = SIZES.recordHeight / 2;
  const r = SIZES.opRadius;
  const bounds = new Float64Array(4 * layout.records.length);
  layout.records.forEach((box, i) => {
    const op = layout.ops[i];
    bounds[4 * i] = op ? Math.min(op.x - r, box.x - box.width / 2) : box.x - box.width / 2;
    bounds[4 * i + 1] = box.y - h;
    bounds[4 * i + 2] = box.x + box.width / 2;
    bounds[4 * i + 3] = box.y + h;
  });
  return bounds;
}

/**
 * Every edge as the curve the view draws, in straight pieces, for markLinesInView.
 * @param {import("../layout/layout.js").Layout} layout
 * @returns {{start: Int32Array, points: Float64Array}}
 */
export function edgeCurves(layout) {
  const curves = layout.edges.map((edge) => edgePolyline(edge.points, edgeBow(edge.repeat), 4));
  const start = new Int32Array(curves.length + 1);
  curves.forEach((curve, k) => {
    start[k + 1] = start[k] + curve.length;
  });
  const points = new Float64Array(2 * start[curves.length]);
  curves.forEach((curve, k) => {
    curve.forEach((p, j) => {
      points[2 * (start[k] + j)] = p.x;
      points[2 * (start[k] + j) + 1] = p.y;
    });
  });
  return { start, points };
}

/**
 * Mark each box that overlaps `rect`.
 * @param {Float64Array} bounds  4 numbers per box, as nodeBounds makes them
 * @param {Rect} rect
 * @param {Uint8Array} marks  one per box; set to 1 inside, 0 outside
 * @returns {number} how many are inside
 */
export function markInView(bounds, rect, marks) {
  let count = 0;
  for (let i = 0; i < marks.length; i++) {
    const inside =
      bounds[4 * i + 2] >= rect.left &&
      bounds[4 * i] <= rect.right &&
      bounds[4 * i + 3] >= rect.top &&
      bounds[4 * i + 1] <= rect.bottom
        ? 1
        : 0;
    marks[i] = inside;
    count += inside;
  }
  return count;
}

/**
 * Mark each polyline (edge) with a segment crossing `rect`.
 * @param {Int32Array} pointStart  polyline k is points pointStart[k]..pointStart[k + 1]
 * @param {Float64Array} points  x, y pairs
 * @param {Rect} rect
 * @param {Uint8Array} marks
 * @returns {number} how many cross
 */
export function markLinesInView(pointStart, points, rect, marks) {
  let count = 0;
  for (let k = 0; k < marks.length; k++) {
    let inside = 0;
    for (let j = pointStart[k]; j + 1 < pointStart[k + 1] && !inside; j++) {
      inside = segmentCrossesRect(
        points[2 * j],
        points[2 * j + 1],
        points[2 * j + 2],
        points[2 * j + 3],
        rect,
      )
        ? 1
        : 0;
    }
    marks[k] = inside;
    count += inside;
  }
  return count;
}

/**
 * Whether the segment (x1, y1)-(x2, y2) touches the rectangle (Liang-Barsky clipping).
 * Example: segmentCrossesRect(-10, 5, 110, 5, {left: 0, top: 0, right: 100, bottom: 10}) -> true
 * @param {number} x1
 * @param {number} y1
 * @param {number} x2
 * @param {number} y2
 * @param {Rect} rect
 */
export function segmentCrossesRect(x1, y1, x2, y2, rect) {
  let t0 = 0;
  let t1 = 1;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const sides = [
    [-dx, x1 - rect.left],
    [dx, rect.right - x1],
    [-dy, y1 - rect.top],
    [dy, rect.bottom - y1],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}
