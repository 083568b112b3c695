/**
 * Which rows of a long, fixed-row-height list to build: the ones in the scroll
 * viewport plus a few either side, so a small scroll shows rows already made.
 * Pure arithmetic, no DOM; the node table measures and renders.
 *
 * Leaves out variable row heights: the table keeps every row one line high.
 */

/**
 * The half-open range [start, end) of rows to render. scrollTop is measured from
 * the top of the first row; a scrollTop past the end (the list just got shorter)
 * counts as the furthest the browser will let it scroll.
 * Example: visibleRange(300, 200, 30, 2000, 2) -> {start: 8, end: 19}
 * (rows 10..16 meet the viewport; two more each side); visibleRange(0, 200, 30, 3, 2)
 * -> {start: 0, end: 3}.
 * @param {number} scrollTop
 * @param {number} viewportHeight
 * @param {number} rowHeight  > 0
 * @param {number} count
 * @param {number} overscan  extra rows each side
 * @returns {{start: number, end: number}}
 */
export function visibleRange(scrollTop, viewportHeight, rowHeight, count, overscan) {
  if (!(rowHeight > 0)) throw new RangeError(`rowHeight must be positive, not ${rowHeight}`);
  const viewport = Math.max(0, viewportHeight);
  const furthest = Math.max(0, count * rowHeight - viewport);
  const top = Math.min(Math.max(0, scrollTop), furthest);
  const first = Math.floor(top / rowHeight);
  const last = Math.ceil((top + viewport) / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}
