/**
 * The maths of the minimap (minimap.js), with no DOM: how big the overview is, where
 * a graph point lands on it and back, where the main view's rectangle sits on it,
 * and which view a click or an arrow key asks for.
 *
 * A minimap transform {x, y, k} maps a graph (content) point p to the minimap point
 * (x + p.x * k, y + p.y * k), like view-transform.js's View maps it to the screen.
 *
 * Examples: minimapSize({width: 1000, height: 500}, {width: 200, height: 160}) ->
 * {width: 200, height: 100}; toMinimap(minimapTransform({width: 1000, height: 500},
 * {width: 200, height: 100}, 0), {x: 500, y: 250}) -> {x: 100, y: 50}.
 */
import { centerView, clampToContent } from "./view-transform.js";

/** Graphs of more values than this get a minimap (graph-camera.js's SMALL_GRAPH_NODES). */
export const MINIMAP_MIN_NODES = 300;
/** Room left around the graph inside the minimap, in minimap pixels. */
export const MINIMAP_PADDING = 4;
/** The smallest the view's rectangle is drawn, so a reading zoom on a huge graph shows. */
export const MINIMAP_MIN_VIEW = 8;
/** The thinnest side a minimap gets, so a very tall or wide graph stays clickable. */
export const MINIMAP_MIN_SIDE = 48;

/**
 * @typedef {import("./view-transform.js").View} View
 * @typedef {import("./view-transform.js").Size} Size
 * @typedef {import("./view-transform.js").Rect} Rect
 */

/**
 * Whether a graph of `nodes` values gets a minimap.
 * @param {number} nodes
 */
export const wantsMinimap = (nodes) => nodes > MINIMAP_MIN_NODES;

/**
 * The minimap's size: the graph's shape fitted in `limit`, no side under
 * MINIMAP_MIN_SIDE (or the limit, if that is smaller). Whole pixels.
 * @param {Size} content  the laid-out graph
 * @param {Size} limit  the largest minimap allowed
 * @returns {Size}
 */
export function minimapSize(content, limit) {
  const k = Math.min(limit.width / content.width, limit.height / content.height);
  const side = (/** @type {number} */ length, /** @type {number} */ most) =>
    Math.round(Math.min(most, Math.max(Math.min(MINIMAP_MIN_SIDE, most), length * k)));
  return { width: side(content.width, limit.width), height: side(content.height, limit.height) };
}

/**
 * The transform that shows all of `content` centred in a minimap of `size`.
 * @param {Size} content
 * @param {Size} size
 * @param {number} [padding]
 * @returns {View}
 */
export function minimapTransform(content, size, padding = MINIMAP_PADDING) {
  const k = Math.max(
    1e-9,
    Math.min(
      (size.width - 2 * padding) / Math.max(1e-9, content.width),
      (size.height - 2 * padding) / Math.max(1e-9, content.height),
    ),
  );
  return {
    k,
    x: (size.width - content.width * k) / 2,
    y: (size.height - content.height * k) / 2,
  };
}

/**
 * A graph point on the minimap.
 * @param {View} transform  minimapTransform's
 * @param {{x: number, y: number}} point
 */
export function toMinimap(transform, point) {
  return { x: transform.x + point.x * transform.k, y: transform.y + point.y * transform.k };
}

/**
 * A minimap point in the graph (the inverse of toMinimap).
 * @param {View} transform
 * @param {{x: number, y: number}} point
 */
export function toGraph(transform, point) {
  return { x: (point.x - transform.x) / transform.k, y: (point.y - transform.y) / transform.k };
}

/**
 * The main view's visible rectangle on the minimap, cut to the minimap's box (a view
 * that shows more than the graph is the whole minimap), never under MINIMAP_MIN_VIEW
 * px a side so it stays visible at a reading zoom on a huge graph.
 * @param {View} view  the main view (view-transform.js)
 * @param {Size} box  the main view's size on screen
 * @param {View} transform  minimapTransform's
 * @param {Size} size  the minimap's size
 * @returns {{x: number, y: number, width: number, height: number}}
 */
export function viewOnMinimap(view, box, transform, size) {
  const topLeft = toMinimap(transform, { x: -view.x / view.k, y: -view.y / view.k });
  const bottomRight = toMinimap(transform, {
    x: (box.width - view.x) / view.k,
    y: (box.height - view.y) / view.k,
  });
  const axis = (
    /** @type {number} */ from,
    /** @type {number} */ to,
    /** @type {number} */ most,
  ) => {
    let start = Math.max(0, Math.min(most, from));
    let end = Math.max(0, Math.min(most, to));
    const least = Math.min(MINIMAP_MIN_VIEW, most);
    if (end - start < least) {
      const middle = Math.max(least / 2, Math.min(most - least / 2, (from + to) / 2));
      start = middle - least / 2;
      end = middle + least / 2;
    }
    return [start, end - start];
  };
  const [x, width] = axis(topLeft.x, bottomRight.x, size.width);
  const [y, height] = axis(topLeft.y, bottomRight.y, size.height);
  return { x, y, width, height };
}

/**
 * The main view centred on the graph point under a minimap point, at the view's
 * scale, kept from panning into blank space past the graph (clampToContent).
 * @param {View} view  the main view now
 * @param {Size} box  its size on screen
 * @param {Size} content
 * @param {View} transform
 * @param {{x: number, y: number}} point  on the minimap
 * @returns {View}
 */
export function viewCenteredAt(view, box, content, transform, point) {
  const target = toGraph(transform, point);
  return clampToContent(centerView(target.x, target.y, view.k, box), content, box);
}

/**
 * The main view moved by a keyboard step: `dx`, `dy` in steps of a fifth of the view
 * (so five presses move a screenful), kept on the graph like a click.
 * Example: panByStep({x: 0, y: 0, k: 1}, {width: 500, height: 400}, content, 1, 0)
 * moves the view 100 screen pixels right (x -100), if the graph goes on that far.
 * @param {View} view
 * @param {Size} box
 * @param {Size} content
 * @param {number} dx  -1, 0 or 1 (or more, for bigger steps)
 * @param {number} dy
 * @returns {View}
 */
export function panByStep(view, box, content, dx, dy) {
  const moved = {
    k: view.k,
    x: view.x - (dx * box.width) / 5,
    y: view.y - (dy * box.height) / 5,
  };
  return clampToContent(moved, content, box);
}
