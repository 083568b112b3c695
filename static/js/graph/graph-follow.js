/**
 * The graph's camera operator: frames the graph when it opens, on resize and on Fit
 * (fit it, or follow the action at a readable zoom: graph-camera.js decides), sizes
 * the frame, and keeps the node being built or run on screen while the learner plays,
 * steps or scrubs.
 */
import { FOLLOW_AFTER_JUMP_MS, frameHeight, framing, underCovers } from "./graph-camera.js";
import { SIZES } from "../layout/layout-sizes.js";

/** Steps closer together than this (an arrow key held) move the view without a glide. */
const RAPID_STEPS_MS = 250;

/**
 * @typedef {{panZoom: ReturnType<typeof import("./pan-zoom.js").attachPanZoom>,
 *   layout: import("../layout/layout.js").Layout, timeline: import("../passes/timeline.js").Timeline,
 *   frame: HTMLElement, small: boolean}} FollowerOptions
 */

/** @param {FollowerOptions} options */
export function createFollower(options) {
  const { panZoom, timeline, frame, small } = options;
  /** The learner pressed Fit: keep fitting on resize even where we would follow. */
  let fitChosen = false;
  let started = false;
  let lastIndex = 0;
  let followTimer = 0;
  let lastStepAt = -Infinity;
  /**
   * The parts of the frame the controls cover (the zoom buttons and Map at the top
   * right, the minimap at the bottom right), in the frame's pixels: a node under them is
   * not in view (issue 23, 11). Measured with the frame's size, not at every step.
   * @type {ReturnType<typeof measureControls>}
   */
  let covered = [];

  /**
   * Size the frame, then fit the graph or centre the action at a readable zoom.
   * @returns {boolean} whether the whole graph is in view
   */
  function frameView(/** @type {import("../passes/timeline.js").FrameState} */ state) {
    covered = measureControls(frame);
    sizeFrame(options);
    const choice = framing({ fitScale: panZoom.fitScale(), small, fitChosen });
    if (choice.mode === "fit") {
      panZoom.fit();
      return true;
    }
    const focus =
      state.current >= 0 ? state.current : (timeline.indexOf.get(timeline.trace.output) ?? 0);
    const box = focusBox(options, focus, state.index, choice.scale, state);
    panZoom.centerOn(aimX(options, box, choice.scale), box.y, choice.scale, true);
    return false;
  }

  /**
   * Keep the node being built or run on screen when the view does not show it; the
   * first frame frames the view.
   * @param {import("../passes/timeline.js").FrameState} state
   * @param {boolean} overview  the view shows the graph far: leave it where it is
   */
  function follow(state, overview) {
    if (!started) {
      started = true;
      lastIndex = state.index;
      frameView(state);
      return;
    }
    const jumped = Math.abs(state.index - lastIndex) > 1;
    lastIndex = state.index;
    const now = performance.now();
    const rapid = now - lastStepAt < RAPID_STEPS_MS;
    lastStepAt = now;
    // A slower step before this one may have begun a glide: a rapid step ends it where
    // it was heading (an arrow key held, one repeat late, glided on for 280 ms).
    if (rapid && !jumped) panZoom.settle();
    if (state.current < 0 || overview) return;
    const box = focusBox(options, state.current, state.index, panZoom.view.k, state);
    if (panZoom.isInView(box) && !underControls(covered, panZoom, box)) return;
    // Glide while stepping or playing; with steps faster than a glide (an arrow key held)
    // move at once, for a glide redraws the whole view at every display frame. While the
    // scrubber jumps around, keep still (drawing a new region per jump is what costs on
    // big graphs) and move once it rests.
    clearTimeout(followTimer);
    const x = aimX(options, box, panZoom.view.k);
    if (!jumped) panZoom.centerOn(x, box.y, undefined, rapid);
    else
      followTimer = setTimeout(
        () => panZoom.centerOn(x, box.y, undefined, true),
        FOLLOW_AFTER_JUMP_MS,
      );
  }

  return {
    follow,
    frameView,
    /**
     * Fit pressed: the whole graph, or (small graphs too big to read whole) the action.
     * @returns {boolean} whether the whole graph is in view
     */
    fit(/** @type {import("../passes/timeline.js").FrameState | null} */ state) {
      fitChosen = true;
      if (!state) {
        panZoom.fit();
        return true;
      }
      // Followed at the readable scale, a graph a few pixels too big still shows whole.
      return frameView(state) || everyRecordInView(options);
    },
    get started() {
      return started;
    },
    /** The learner moved the view by hand: drop a glide still waiting for the scrubber. */
    cancel() {
      clearTimeout(followTimer);
    },
    destroy() {
      clearTimeout(followTimer);
    },
  };
}

/**
 * What to keep on screen for node `index`: the node with the operands its step reads
 * (a build's inputs, a backward step's `+=` targets) when they all fit the view at
 * scale `k`, else the node alone. Centre and size, in layout units.
 * When they do not fit and a `+=` of the step adds to a gradient that already holds
 * a contribution (a fork: the expanded neuron's e), that child is the one to show: the
 * sum is the lesson, and the rule's node is one edge away.
 * @param {FollowerOptions} options  the view's size, the layout and the timeline
 * @param {number} index
 * @param {number} frameIndex  operands not yet drawn at this frame are left out
 * @param {number} k
 * @param {import("../passes/timeline.js").FrameState} [state]  the frame, for its `+=`s
 */
function focusBox({ panZoom, layout, timeline }, index, frameIndex, k, state) {
  const own = layout.records[index];
  const half = SIZES.recordHeight / 2;
  let left = own.x - own.width / 2;
  let right = own.x + own.width / 2;
  let top = own.y - half;
  let bottom = own.y + half;
  for (const child of timeline.operands[index] ?? []) {
    const record = layout.records[child];
    if (!record || timeline.appearFrame[child] > frameIndex) continue;
    left = Math.min(left, record.x - record.width / 2);
    right = Math.max(right, record.x + record.width / 2);
    top = Math.min(top, record.y - half);
    bottom = Math.max(bottom, record.y + half);
  }
  const view = panZoom.size;
  // A little margin (the phone's neuron step, 319 px wide, fits its 364 px view).
  const fits = (right - left) * k <= view.width - 16 && (bottom - top) * k <= view.height - 16;
  if (!fits) {
    const sum = state?.phase === "backward" && state.contributions.find((c) => c.before !== 0);
    const shown = sum ? layout.records[sum.child] : own;
    return { x: shown.x, y: shown.y, width: shown.width, height: SIZES.recordHeight };
  }
  return {
    x: (left + right) / 2,
    y: (top + bottom) / 2,
    width: right - left,
    height: bottom - top,
  };
}

/** Screen pixels the view keeps beside the content's edge (view-transform's clampToContent). */
const CONTENT_MARGIN = 16;
/** Screen pixels from the view's edge within which a box counts as in view (isInView). */
const IN_VIEW_MARGIN = 24;
/**
 * Screen pixels the records may overhang each side of the view and still be shown
 * whole across it, centred: a record's border and padding, never a leaf's name (which
 * the view following the output cut off instead).
 */
const OVERHANG = 12;

/**
 * The content x to centre on to show `box` at scale k. A graph drawn whole (small)
 * whose records fit the view's width is shown whole across it; a wider one keeps its
 * left edge in view while the box fits beside it, else puts the box at the right of
 * the view. The leaves stand at the left, and a graph a little wider than the view
 * had them cut off when the view centred on its output (a Function-style engine's
 * neuron at 1280×800). A big graph, drawn by region, centres the box.
 * Example: box 100 wide at x 850, records from 20 to 1200, in an 800 px view at k 1
 *   -> the view's x is min(16, 800 − 24 − 900) = −124, so centre on (400 + 124) / 1 = 524.
 * @param {FollowerOptions} options
 * @param {{x: number, width: number}} box  centre and size, in layout units
 * @param {number} k
 */
function aimX({ panZoom, small, layout }, box, k) {
  if (!small) return box.x;
  const width = panZoom.size.width;
  let low = Infinity;
  let high = -Infinity;
  for (const record of layout.records) {
    if (!record) continue;
    low = Math.min(low, record.x - record.width / 2);
    high = Math.max(high, record.x + record.width / 2);
  }
  if ((high - low) * k <= width + 2 * OVERHANG) return (low + high) / 2;
  const x = Math.min(CONTENT_MARGIN, width - IN_VIEW_MARGIN - (box.x + box.width / 2) * k);
  // A box wider than the view: centre it, as before.
  if ((box.x - box.width / 2) * k + x < IN_VIEW_MARGIN) return box.x;
  return (width / 2 - x) / k;
}

/**
 * The controls' boxes in the frame's pixels (those with a size).
 * @param {HTMLElement} frame
 */
function measureControls(frame) {
  /** @type {Array<{left: number, top: number, right: number, bottom: number, element: HTMLElement}>} */
  const covered = [];
  for (const element of frame.querySelectorAll(".graph-tools, .minimap")) {
    const part = /** @type {HTMLElement} */ (element);
    const { offsetLeft: left, offsetTop: top, offsetWidth: width, offsetHeight: height } = part;
    if (width && height)
      covered.push({ left, top, right: left + width, bottom: top + height, element: part });
  }
  return covered;
}

/**
 * Whether every record of the layout is on screen (closer to an edge than a glide's
 * margin is fine: the question is whether any is cut off).
 * @param {FollowerOptions} options
 */
function everyRecordInView({ layout, panZoom }) {
  const height = SIZES.recordHeight;
  return layout.records.every((record) =>
    panZoom.isInView({ x: record.x, y: record.y, width: record.width, height }, 0),
  );
}

/**
 * Whether a content rectangle (centre and size) is under a control now shown.
 * @param {ReturnType<typeof measureControls>} covered
 * @param {FollowerOptions["panZoom"]} panZoom
 * @param {{x: number, y: number, width: number, height: number}} box
 */
function underControls(covered, panZoom, box) {
  const shown = covered.filter((part) => !part.element.hidden);
  return shown.length > 0 && underCovers(panZoom.heading, box, shown);
}

/** Size the frame for the layout; the view measures itself again when it changes. */
function sizeFrame(/** @type {FollowerOptions} */ { frame, layout, panZoom }) {
  const width = frame.clientWidth;
  if (!width) return;
  const height = `${frameHeight({ width, windowHeight: globalThis.innerHeight || 800, content: layout })}px`;
  if (frame.style.height === height) return;
  frame.style.height = height;
  panZoom.invalidate();
}
