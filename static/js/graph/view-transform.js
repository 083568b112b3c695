/**
 * The maths of a pan-and-zoom view, with no DOM: a view {x, y, k} maps a content
 * point p to the screen point (x + p.x * k, y + p.y * k) inside a box of the given
 * size. pan-zoom.js applies these to an SVG group (and the canvas draws with them).
 *
 * Examples: zoomAround({x: 0, y: 0, k: 1}, 2, {x: 100, y: 50}) -> {x: -100, y: -50, k: 2}
 * (the point under the pointer stays put); fitView({width: 200, height: 100},
 * {width: 400, height: 400}) -> {k: 1.25, x: 75, y: 137.5}.
 */

export const MIN_SCALE = 0.005;
export const MAX_SCALE = 3;
/** Fit never magnifies past this: a tiny graph should not look like a poster. */
export const MAX_FIT_SCALE = 1.25;

/**
 * @typedef {{x: number, y: number, k: number}} View
 * @typedef {{width: number, height: number}} Size
 * @typedef {{left: number, top: number, right: number, bottom: number}} Rect
 */

/** @param {number} k */
export const clampScale = (k) => Math.max(MIN_SCALE, Math.min(MAX_SCALE, k));

/**
 * Zoom by `factor` keeping the screen point `around` fixed.
 * @param {View} view
 * @param {number} factor
 * @param {{x: number, y: number}} around
 * @returns {View}
 */
export function zoomAround(view, factor, around) {
  const k = clampScale(view.k * factor);
  return {
    k,
    x: around.x - ((around.x - view.x) * k) / view.k,
    y: around.y - ((around.y - view.y) * k) / view.k,
  };
}

/**
 * The scale that shows all of `content` in `box`, at most MAX_FIT_SCALE.
 * @param {Size} content
 * @param {Size} box
 */
export function fitScale(content, box) {
  return Math.min(box.width / content.width, box.height / content.height, MAX_FIT_SCALE);
}

/**
 * All of `content` centred in `box` (at `k`, by default the fit scale).
 * @param {Size} content
 * @param {Size} box
 * @param {number} [k]
 * @returns {View}
 */
export function fitView(content, box, k = clampScale(fitScale(content, box))) {
  return { k, x: (box.width - content.width * k) / 2, y: (box.height - content.height * k) / 2 };
}

/**
 * The content point (cx, cy) at the centre of `box`, at scale k.
 * @param {number} cx
 * @param {number} cy
 * @param {number} k
 * @param {Size} box
 * @returns {View}
 */
export function centerView(cx, cy, k, box) {
  return { k, x: box.width / 2 - cx * k, y: box.height / 2 - cy * k };
}

/**
 * Pan as little as possible so the view shows no empty margin beyond `content`
 * where content could fill it, and centres content that is smaller than the box.
 * Following a node near the graph's edge then shows the rest of the graph rather
 * than a blank half. Example: content 1000 wide at k 1 in a 400 box, x = 100 -> 0.
 * @param {View} view
 * @param {Size} content
 * @param {Size} box
 * @param {number} [margin]  screen pixels of room kept around the content
 * @param {number} [reach]  screen pixels more the view may go past the content's edge
 *   (to take a value at the edge out from under the controls drawn over the view)
 * @returns {View}
 */
export function clampToContent(view, content, box, margin = 16, reach = 0) {
  const axis = (
    /** @type {number} */ at,
    /** @type {number} */ length,
    /** @type {number} */ room,
  ) => {
    const size = length * view.k;
    if (size + 2 * margin <= room) return (room - size) / 2;
    return Math.min(margin + reach, Math.max(room - size - margin - reach, at));
  };
  return {
    k: view.k,
    x: axis(view.x, content.width, box.width),
    y: axis(view.y, content.height, box.height),
  };
}

/**
 * The content rectangle on screen, grown by `margin` screen pixels each side.
 * @param {View} view
 * @param {Size} box
 * @param {number} [margin]
 * @returns {Rect}
 */
export function visibleRect(view, box, margin = 0) {
  return {
    left: (-margin - view.x) / view.k,
    top: (-margin - view.y) / view.k,
    right: (box.width + margin - view.x) / view.k,
    bottom: (box.height + margin - view.y) / view.k,
  };
}

/**
 * Whether a content rectangle (centre and size) lies on screen at least `margin`
 * screen pixels inside the box's edges.
 * @param {View} view
 * @param {Size} box
 * @param {{x: number, y: number, width: number, height: number}} rect
 * @param {number} [margin]
 */
export function isInView(view, box, rect, margin = 24) {
  const left = view.x + (rect.x - rect.width / 2) * view.k;
  const right = view.x + (rect.x + rect.width / 2) * view.k;
  const top = view.y + (rect.y - rect.height / 2) * view.k;
  const bottom = view.y + (rect.y + rect.height / 2) * view.k;
  return (
    left >= margin && top >= margin && right <= box.width - margin && bottom <= box.height - margin
  );
}

/**
 * The view `t` of the way from `from` to `to` (0..1), eased out.
 * @param {View} from
 * @param {View} to
 * @param {number} t
 * @returns {View}
 */
export function glideStep(from, to, t) {
  const ease = t * (2 - t);
  return {
    k: from.k + (to.k - from.k) * ease,
    x: from.x + (to.x - from.x) * ease,
    y: from.y + (to.y - from.y) * ease,
  };
}

/** @param {View} view */
export const transformAttribute = (view) =>
  `translate(${view.x.toFixed(1)},${view.y.toFixed(1)}) scale(${view.k.toFixed(4)})`;
