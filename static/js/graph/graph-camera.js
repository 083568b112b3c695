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
