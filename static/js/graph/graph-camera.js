/**
 * Where the graph view looks, as pure decisions: fit the whole graph or follow the
 * action, how tall the frame is, and whether the view is near (SVG records with
 * numbers) or far (a canvas of coloured boxes). No DOM.
 *
 * Readable means the numbers in a record are at least MIN_TEXT_PX on screen: a
 * graph that would need smaller text to fit is followed (the current node centred)
 * instead, so a projector or a phone never shows 7 px text.
 *
 * Examples: framing({fitScale: 1.1, small: true}) -> {mode: "fit"};
 * framing({fitScale: 0.5, small: true}) -> {mode: "follow", scale: READABLE_SCALE};
 * levelOfDetail(0.1, 40) -> "far"; levelOfDetail(0.9, 120) -> "near".
 */

/** The smallest size node text may have on screen, in CSS pixels. */
export const MIN_TEXT_PX = 11;
/** The size of a record's numbers and labels at scale 1 (player.css's .node-value). */
export const NODE_TEXT_PX = 12.5;
/** The smallest scale at which a record's text stays readable. */
export const READABLE_SCALE = MIN_TEXT_PX / NODE_TEXT_PX;
/**
 * Graphs up to this many values are drawn whole in SVG (every value carries its
 * test hooks); bigger ones draw only what is in view.
 */
export const SMALL_GRAPH_NODES = 300;
/** Below this scale a big graph is drawn far (canvas): numbers would be specks. */
export const FAR_BELOW_SCALE = 0.3;
/** More records in view than this and SVG gets slow: draw far. */
export const NEAR_MAX_NODES = 700;

/**
 * @param {{fitScale: number, small: boolean, fitChosen?: boolean}} options
 *   fitScale: the scale that shows the whole graph; small: at most SMALL_GRAPH_NODES;
 *   fitChosen: the learner pressed Fit
 * @returns {{mode: "fit"} | {mode: "follow", scale: number}}
 */
export function framing({ fitScale, small, fitChosen = false }) {
  if (fitScale >= READABLE_SCALE) return { mode: "fit" };
  // A big graph's Fit is its overview (drawn far); a small one's never shrinks text.
  if (fitChosen && !small) return { mode: "fit" };
  return { mode: "follow", scale: READABLE_SCALE };
}

/**
 * A flat graph gets a short frame, a tall or big one most of the window. Depends only
 * on the frame's width and the window's height, so re-running it on resize settles.
 * Example: frameHeight({width: 1200, windowHeight: 900, content: {width: 800, height: 200}}) -> 292
 * @param {{width: number, windowHeight: number, content: {width: number, height: number}}} options
 */
export function frameHeight({ width, windowHeight, content }) {
  const tallest = Math.max(280, 0.62 * windowHeight);
  const widthScale = Math.min(1.1, (width - 24) / content.width);
  const scale = Math.max(widthScale, READABLE_SCALE);
  const wanted = content.height * scale + 72;
  return Math.round(Math.max(260, Math.min(tallest, wanted)));
}

/**
 * Near (SVG records with their numbers) or far (canvas boxes) for a big graph.
 * @param {number} scale  the view's scale
 * @param {number} nodesInView  records at least partly on screen
 * @returns {"near" | "far"}
 */
export function levelOfDetail(scale, nodesInView) {
  return scale < FAR_BELOW_SCALE || nodesInView > NEAR_MAX_NODES ? "far" : "near";
}

/** After the scrubber stops jumping, wait this long before gliding to the current node. */
export const FOLLOW_AFTER_JUMP_MS = 160;

/**
 * Whether a content rectangle (centre and size), seen through `view`, overlaps one of
 * the `covers` (screen rectangles of the controls drawn over the graph).
 * Example: underCovers({x: 0, y: 0, k: 1}, {x: 95, y: 10, width: 20, height: 10},
 *   [{left: 100, top: 0, right: 140, bottom: 40}]) -> true
 * @param {{x: number, y: number, k: number}} view
 * @param {{x: number, y: number, width: number, height: number}} box
 * @param {Array<{left: number, top: number, right: number, bottom: number}>} covers
 */
export function underCovers(view, box, covers) {
  const { x, y, k } = view;
  const left = (box.x - box.width / 2) * k + x;
  const right = (box.x + box.width / 2) * k + x;
  const top = (box.y - box.height / 2) * k + y;
  const bottom = (box.y + box.height / 2) * k + y;
  return covers.some(
    (part) => left < part.right && right > part.left && top < part.bottom && bottom > part.top,
  );
}

/**
 * The centre, along one axis of the view, that shows the span `keep` whole (at least
 * `margin` screen pixels inside the view's edges, less where it is too long for that)
 * and is otherwise as close to `want` as it can be: a step too big for the view keeps
 * the values it must show whole and slides towards the rest.
 * Example: slideTo(500, {centre: 100, length: 100}, 1, 400, 24) -> 226 (the span's
 * start 24 px inside the view's left edge, the view reaching as far towards 500 as it can).
 * @param {number} want  the centre that would show everything, content units
 * @param {{centre: number, length: number}} keep  content units
 * @param {number} k  the view's scale
 * @param {number} room  the view's length on screen
 * @param {number} margin  screen pixels
 */
export function slideTo(want, keep, k, room, margin) {
  const inset = Math.max(0, Math.min(margin, (room - keep.length * k) / 2));
  const half = (room / 2 - inset) / k;
  const low = keep.centre + keep.length / 2 - half;
  const high = keep.centre - keep.length / 2 + half;
  if (low > high) return keep.centre;
  return Math.min(high, Math.max(low, want));
}

/**
 * The smallest move (screen pixels) that takes `rect` out from under every one of
 * `covers` (the controls drawn over the graph: the zoom buttons, the minimap) while it
 * stays `margin` inside the view; {dx: 0, dy: 0} when it is under none, or when no
 * such move exists.
 * Example: clearOfCovers({left: 200, top: 20, right: 300, bottom: 60},
 *   [{left: 250, top: 10, right: 390, bottom: 42}], {width: 400, height: 300}, 8)
 *   -> {dx: 0, dy: 26} (down below the buttons: moving left would take 54 px)
 * @param {{left: number, top: number, right: number, bottom: number}} rect
 * @param {Array<{left: number, top: number, right: number, bottom: number}>} covers
 * @param {{width: number, height: number}} size
 * @param {number} margin
 * @returns {{dx: number, dy: number}}
 */
export function clearOfCovers(rect, covers, size, margin) {
  const gap = 4;
  const under = (/** @type {number} */ dx, /** @type {number} */ dy) =>
    covers.some(
      (c) =>
        rect.left + dx < c.right &&
        rect.right + dx > c.left &&
        rect.top + dy < c.bottom &&
        rect.bottom + dy > c.top,
    );
  const inside = (/** @type {number} */ dx, /** @type {number} */ dy) =>
    rect.left + dx >= margin &&
    rect.right + dx <= size.width - margin &&
    rect.top + dy >= margin &&
    rect.bottom + dy <= size.height - margin;
  if (!under(0, 0)) return { dx: 0, dy: 0 };
  /** @type {Array<{dx: number, dy: number}>} */
  const moves = [];
  for (const c of covers) {
    moves.push(
      { dx: 0, dy: c.bottom + gap - rect.top },
      { dx: 0, dy: c.top - gap - rect.bottom },
      { dx: c.left - gap - rect.right, dy: 0 },
      { dx: c.right + gap - rect.left, dy: 0 },
    );
  }
  let best = { dx: 0, dy: 0 };
  let bestLength = Infinity;
  for (const move of moves) {
    const length = Math.abs(move.dx) + Math.abs(move.dy);
    if (length < bestLength && inside(move.dx, move.dy) && !under(move.dx, move.dy)) {
      best = move;
      bestLength = length;
    }
  }
  return best;
}
