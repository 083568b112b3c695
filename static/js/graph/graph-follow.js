/**
 * The graph's camera operator: frames the graph when it opens, on resize and on Fit
 * (fit it, or follow the action at a readable zoom: graph-camera.js decides), sizes
 * the frame, and keeps the node being built or run on screen while the learner plays,
 * steps or scrubs.
 */
import {
  FOLLOW_AFTER_JUMP_MS,
  clearOfCovers,
  frameHeight,
  framing,
  slideTo,
  underCovers,
} from "./graph-camera.js";
import { changeTexts, deltaTexts, labelSize, labelSpot } from "./label-placement.js";
import { SIZES } from "../layout/layout-sizes.js";

/** Steps closer together than this (an arrow key held) move the view without a glide. */
const RAPID_STEPS_MS = 250;

/**
 * @typedef {{x: number, y: number, width: number, height: number}} Box  centre and size, layout units
 * @typedef {{panZoom: ReturnType<typeof import("./pan-zoom.js").attachPanZoom>,
 *   layout: import("../layout/layout.js").Layout, timeline: import("../passes/timeline.js").Timeline,
 *   frame: HTMLElement, small: boolean,
 *   placedLabels?: (index: number) => Map<number, {x: number, y: number, width: number, height: number}> | null}} FollowerOptions
 *   placedLabels: where the `+=` labels of frame `index` were drawn (top-left corners), by
 *   the value they are about; null before they are drawn
 */

/**
 * What the camera keeps between steps.
 * @typedef {{fitChosen: boolean, covered: ReturnType<typeof measureControls>,
 *   following: boolean, zoomedOut: {rest: number, to: number} | null}} Camera
 *   fitChosen: the learner pressed Fit: keep fitting on resize even where we would follow;
 *   covered: the parts of the frame the controls cover (the zoom buttons and Map at the
 *   top right, the minimap at the bottom right), in the frame's pixels: a node under them
 *   is not in view (issue 23, 11), measured with the frame's size, not at every step;
 *   following: the last framing followed the action (not the whole graph fitted);
 *   zoomedOut: a fork's step zoomed the view out from `rest` to `to` to show the value
 *   whose rule runs with the gradient its `+=` adds to; the next step comes back to `rest`
 */

/** @param {FollowerOptions} options */
export function createFollower(options) {
  const { panZoom } = options;
  /** @type {Camera} */
  const camera = { fitChosen: false, covered: [], following: false, zoomedOut: null };
  let started = false;
  let lastIndex = 0;
  let followTimer = 0;
  let lastStepAt = -Infinity;
  /** @param {import("../passes/timeline.js").FrameState} state */
  const frameView = (state) => frameViewOf(options, camera, state);

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
    // Drawn far because a fork zoomed the view out (a big graph's many values in view):
    // still ours to bring back.
    if (state.current < 0 || (overview && !zoomedOutNow(camera, panZoom))) return;
    // Glide while stepping or playing; with steps faster than a glide (an arrow key held)
    // move at once, for a glide redraws the whole view at every display frame. While the
    // scrubber jumps around, keep still (drawing a new region per jump is what costs on
    // big graphs) and move once it rests.
    show(options, camera, state, (x, y, k, reach) => {
      clearTimeout(followTimer);
      if (!jumped) panZoom.centerOn(x, y, k, rapid, reach);
      else
        followTimer = setTimeout(
          () => panZoom.centerOn(x, y, k, true, reach),
          FOLLOW_AFTER_JUMP_MS,
        );
    });
  }

  const dropWaitingGlide = () => clearTimeout(followTimer);

  /**
   * The first frame is framed before its `+=` labels are drawn (where each goes depends
   * on what is drawn around it): once they are, move at once if one of them, or anything
   * else the step shows, is out of view or under the controls.
   * @param {import("../passes/timeline.js").FrameState} state
   * @param {boolean} overview
   */
  function labelsDrawn(state, overview) {
    const labelled = state.contributions.length > 0 || (state.changes?.length ?? 0) > 0;
    if (!camera.following || state.current < 0 || overview || !labelled) return;
    show(options, camera, state, (x, y, k, reach) => panZoom.centerOn(x, y, k, true, reach));
  }

  return {
    follow,
    frameView,
    labelsDrawn,
    /**
     * Fit pressed: the whole graph, or (small graphs too big to read whole) the action.
     * @returns {boolean} whether the whole graph is in view
     */
    fit(/** @type {import("../passes/timeline.js").FrameState | null} */ state) {
      camera.fitChosen = true;
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
    cancel: dropWaitingGlide,
    destroy: dropWaitingGlide,
  };
}

/**
 * Size the frame, then fit the graph or centre the action at a readable zoom.
 * @param {FollowerOptions} options
 * @param {Camera} camera
 * @param {import("../passes/timeline.js").FrameState} state
 * @returns {boolean} whether the whole graph is in view
 */
function frameViewOf(options, camera, state) {
  const { panZoom, timeline, frame, small } = options;
  camera.covered = measureControls(frame);
  sizeFrame(options);
  const choice = framing({ fitScale: panZoom.fitScale(), small, fitChosen: camera.fitChosen });
  camera.following = choice.mode === "follow";
  if (choice.mode === "fit") {
    panZoom.fit();
    return true;
  }
  const focus =
    state.current >= 0 ? state.current : (timeline.indexOf.get(timeline.trace.output) ?? 0);
  const seen = stepFocus(options, focus, state.index, choice.scale, state);
  const aim = aimAt(options, seen, seen.scale, camera.covered);
  camera.zoomedOut = seen.scale < choice.scale ? { rest: choice.scale, to: seen.scale } : null;
  panZoom.centerOn(aim.x, aim.y, seen.scale, true, aim.reach);
  return false;
}

/**
 * Whether the view is where a fork's step zoomed it out to (the learner has not zoomed
 * since).
 * @param {Camera} camera
 * @param {FollowerOptions["panZoom"]} panZoom
 */
function zoomedOutNow(camera, panZoom) {
  const out = camera.zoomedOut;
  return out !== null && Math.abs(panZoom.heading.k - out.to) < 1e-9;
}

/**
 * Move the view to show the step, unless it is on screen at the scale it needs. Steps
 * are followed at the view's scale, or the one it had before a fork zoomed it out
 * (unless the learner has zoomed since).
 * @param {FollowerOptions} options
 * @param {Camera} camera
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {(x: number, y: number, k: number | undefined, reach: number) => void} move
 */
function show(options, camera, state, move) {
  const { panZoom } = options;
  const k = panZoom.heading.k;
  if (!zoomedOutNow(camera, panZoom)) camera.zoomedOut = null;
  const rest = camera.zoomedOut ? camera.zoomedOut.rest : k;
  const seen = stepFocus(options, state.current, state.index, rest, state);
  // Within 2% further out than it needs, the view keeps its scale: builds a tenth too
  // wide one after another each moved it by a hair.
  const rescale = k > seen.scale + 1e-9 || k < seen.scale * 0.98;
  const scale = rescale ? seen.scale : k;
  if (!rescale && inView(panZoom, seen.keep) && !underControls(camera.covered, panZoom, seen.keep))
    return;
  camera.zoomedOut = scale < rest - 1e-9 ? { rest, to: scale } : null;
  const { x, y, reach } = aimAt(options, seen, scale, camera.covered);
  move(x, y, rescale ? scale : undefined, reach);
}

/**
 * What a step shows, in layout units: `whole`, the node with the values its step reads
 * (a build's operands; a backward step's `+=` targets, each with its `+=` label; an
 * update's changed values, each with the label of its change), and
 * `keep`, what must be on screen whole: `whole` where it fits the view at scale `k`.
 * Where it does not (a phone), the first of these that fits is kept, and the view slides
 * from it towards the rest (aimAt):
 * - the current value (the one whose rule runs: every `+=` multiplies its gradient) with
 *   one target and its label; keeping the targets alone cut it off at the edge (the
 *   expanded neuron's o beside its two operands, a few pixels too wide for a phone);
 * - the current value with a target's gradient cell and label, where the sum lands (a big
 *   graph's records have room for 9 digits: an MLP's `(x-1)**2` beside its `x-1`);
 * - the current value with the label of a `+=` into itself (a closed box holding both
 *   ends of a rule) or of its change (an update), or that label with its gradient cell;
 * - the targets with their labels; one of them; its gradient cell and label.
 * Where one target adds to a gradient already holding a contribution (a fork: the
 * expanded neuron's e, an MLP's b), the step is shown at a smaller `scale` rather than
 * cut: the current value with every target, else with that one, down to FORK_MIN_SCALE
 * (on a phone, keeping the sum alone left the value whose gradient it multiplies off
 * the edge). Further out than that, the sum's target is the only one tried, since the
 * sum is the lesson; without a sum, any target, and alone the first the rule writes.
 * Only the step's own few values are read: no work over the whole graph.
 * @param {FollowerOptions} options  the view's size, the layout and the timeline
 * @param {number} index
 * @param {number} frameIndex  operands not yet drawn at this frame are left out
 * @param {number} k
 * @param {import("../passes/timeline.js").FrameState} [state]  the frame, for its `+=`s
 * @returns {{whole: Box, keep: Box, scale: number}}  scale: k, or less at a fork
 */
function stepFocus(options, index, frameIndex, k, state) {
  const { panZoom, layout, timeline } = options;
  const own = recordBox(layout, index);
  const backward = state?.phase === "backward";
  /** @type {Map<number, Box>} */
  const reads = new Map();
  /** Each `+=` target's gradient cell with its label: where the sum lands. @type {Map<number, Box>} */
  const lands = new Map();
  const labels = state ? stepLabels(state, timeline.trace.mistake === "assign") : null;
  if (labels && state) {
    const placed = options.placedLabels?.(state.index) ?? null;
    for (const [child, texts] of labels) {
      const record = layout.records[child];
      if (!record) continue;
      let label = placed?.get(child);
      if (!label) {
        // Not drawn yet (the first frame): where it goes when nothing is in its way.
        const size = labelSize(texts);
        label = { ...labelSpot(record, size, []), ...size };
      }
      const labelBox = {
        x: label.x + label.width / 2,
        y: label.y + label.height / 2,
        width: label.width,
        height: label.height,
      };
      reads.set(child, union(recordBox(layout, child), labelBox));
      lands.set(child, union(gradCellBox(layout, child), labelBox));
    }
  } else {
    for (const child of timeline.operands[index] ?? []) {
      if (!layout.records[child] || timeline.appearFrame[child] > frameIndex) continue;
      reads.set(child, recordBox(layout, child));
    }
  }
  const view = panZoom.size;
  // A little margin: the phone's neuron step (319 px wide) fits its 364 px view, and so
  // does the expanded neuron's o beside its two operands (349 px; 16 px of margin left
  // o cut off at the edge).
  const fits = (/** @type {Box} */ box) =>
    box.width * k <= view.width - FIT_MARGIN && box.height * k <= view.height - FIT_MARGIN;
  // A `+=` into the current value itself (a box holding both ends of a rule) labels it.
  // The current value with that label: kept as one, for its sum may be the step's lesson
  // (a closed box's `b` summing inside it, on a phone, lost its label at the edge).
  const self = reads.get(index);
  const mine = self ?? own;
  reads.delete(index);
  const whole = [...reads.values()].reduce(union, mine);
  if (fits(whole)) return { whole, keep: whole, scale: k };
  // Its label with its gradient cell, where the sum lands, if the whole record is too wide.
  const selves = self ? [self, /** @type {Box} */ (lands.get(index))] : [];
  if (!labels && reads.size > 0) {
    // A build a little too wide (a big graph's records have room for 9 digits): zoomed
    // out a tenth at most, its operands keep their names (x1 and w1 of `x1*w1 = 2 × −3`
    // went off a phone's left edge), the new value's gradient cell, 0, may go past the
    // right one.
    const built = [...reads.values()].reduce(union, withoutGradCell(layout, index));
    const scale = Math.min(
      k,
      (view.width - FIT_MARGIN) / built.width,
      (view.height - FIT_MARGIN) / built.height,
    );
    if (scale >= BUILD_MIN_ZOOM * k) return { whole, keep: built, scale };
  }
  if (!backward || reads.size === 0) return { whole, keep: selves.find(fits) ?? own, scale: k };
  const sum = state?.contributions.find((c) => c.before !== 0 && reads.has(c.child));
  const first = state?.contributions.find((c) => reads.has(c.child));
  const chosen = /** @type {number} */ ((sum ?? first)?.child);
  const one = /** @type {Box} */ (reads.get(chosen));
  if (sum) {
    // A fork: the sum means nothing without the gradient every `+=` multiplies, so zoom
    // out to show the current value with its targets, or at least with the sum's.
    for (const keep of [whole, union(mine, one)]) {
      const scale = scaleShowing(view, keep, k);
      if (scale >= FORK_MIN_SCALE) return { whole, keep, scale };
    }
  }
  // With a sum, its target or none; else whichever target fits beside the current value.
  const beside = sum ? [chosen] : [...reads.keys()];
  const choices = [
    ...beside.map((child) => union(mine, /** @type {Box} */ (reads.get(child)))),
    ...beside.map((child) => union(mine, /** @type {Box} */ (lands.get(child)))),
    ...(sum ? [] : selves),
    [...reads.values()].reduce(union),
    one,
    /** @type {Box} */ (lands.get(chosen)),
  ];
  return { whole, keep: choices.find(fits) ?? recordBox(layout, chosen), scale: k };
}

/**
 * The labels a step writes beside values (as delta-labels.js writes them), by value: a
 * backward step's `+=`s, an update frame's changes (an optimizer step's '103 data values
 * change' beside a folded MLP went past a phone's right edge); null for a build or sort.
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {boolean} overwrite  the bug lab's `=` engine
 * @returns {Map<number, string[]> | null}
 */
function stepLabels(state, overwrite) {
  if (state.phase === "backward") return deltaTexts(state.contributions, overwrite);
  if (state.phase === "update") return changeTexts(state.changes ?? []);
  return null;
}

/**
 * The largest scale, at most k, that shows `box` with IN_VIEW_MARGIN to spare each side.
 * Example: a box 650 wide and 70 tall in a 364×356 view at k 0.88 -> (364 − 48) / 650 = 0.486
 * @param {{width: number, height: number}} view
 * @param {Box} box
 * @param {number} k
 */
function scaleShowing(view, box, k) {
  const room = 2 * IN_VIEW_MARGIN;
  return Math.min(k, (view.width - room) / box.width, (view.height - room) / box.height);
}

/**
 * Where to centre the view (content units) to show a step: `whole` where it fits (as
 * aimX places it), else `keep` whole and as much of the rest as the view holds; then
 * moved the least that takes `keep` out from under the controls (`reach`: the screen
 * pixels that move may take the view past the content's edge).
 * @param {FollowerOptions} options
 * @param {{whole: Box, keep: Box}} seen
 * @param {number} k
 * @param {ReturnType<typeof measureControls>} covered
 */
function aimAt(options, { whole, keep }, k, covered) {
  const view = options.panZoom.size;
  let x;
  let y;
  if (keep === whole) {
    x = aimX(options, whole, k);
    y = whole.y;
  } else {
    x = slideTo(whole.x, { centre: keep.x, length: keep.width }, k, view.width, IN_VIEW_MARGIN);
    y = slideTo(whole.y, { centre: keep.y, length: keep.height }, k, view.height, IN_VIEW_MARGIN);
  }
  const shown = covered.filter((part) => !part.element.hidden);
  if (shown.length === 0) return { x, y, reach: 0 };
  const left = view.width / 2 + (keep.x - keep.width / 2 - x) * k;
  const top = view.height / 2 + (keep.y - keep.height / 2 - y) * k;
  const rect = { left, top, right: left + keep.width * k, bottom: top + keep.height * k };
  const margin = Math.max(
    0,
    Math.min(8, (view.width - keep.width * k) / 2, (view.height - keep.height * k) / 2),
  );
  const { dx, dy } = clearOfCovers(rect, shown, view, margin);
  // A value at the graph's edge may need the view to go past it, else the view's
  // clamp (no blank beyond the content) puts it back under the buttons.
  return { x: x - dx / k, y: y - dy / k, reach: Math.max(Math.abs(dx), Math.abs(dy)) };
}

/**
 * Whether a box is on screen: IN_VIEW_MARGIN inside the view's edges, or as far in as
 * its size leaves room for (a step that just fits is in view when shown).
 * @param {FollowerOptions["panZoom"]} panZoom
 * @param {Box} box
 */
function inView(panZoom, box) {
  const { width, height } = panZoom.size;
  const k = panZoom.heading.k;
  const slack = Math.min(width - box.width * k, height - box.height * k) / 2;
  return panZoom.isInView(box, Math.max(0, Math.min(IN_VIEW_MARGIN, slack - 1)));
}

/**
 * Screen room a record's box takes beyond its border, in layout units: the topo badge
 * on its top-left corner (half a badge of up to three digits to the left, 9 above) and the
 * name drawn over it (15 above). A record whose border cleared the zoom buttons by a
 * pixel or two had its badge under them.
 */
const BADGE_LEFT = 14;
const NAME_ABOVE = 16;

/**
 * The record of value i with its badge and name (centre and size).
 * @param {import("../layout/layout.js").Layout} layout
 * @param {number} i
 */
function recordBox(layout, i) {
  const record = layout.records[i];
  const height = SIZES.recordHeight + NAME_ABOVE;
  return {
    x: record.x - BADGE_LEFT / 2,
    y: record.y - NAME_ABOVE / 2,
    width: record.width + BADGE_LEFT,
    height,
  };
}

/**
 * Value i's record with its badge and name, less its gradient cell (centre and size).
 * @param {import("../layout/layout.js").Layout} layout
 * @param {number} i
 */
function withoutGradCell(layout, i) {
  const box = recordBox(layout, i);
  const cut = layout.records[i].valueWidth;
  return { ...box, x: box.x - cut / 2, width: box.width - cut };
}

/**
 * The gradient cell of value i's record, its right one (centre and size).
 * @param {import("../layout/layout.js").Layout} layout
 * @param {number} i
 */
function gradCellBox(layout, i) {
  const record = layout.records[i];
  return {
    x: record.x + record.width / 2 - record.valueWidth / 2,
    y: record.y,
    width: record.valueWidth,
    height: SIZES.recordHeight,
  };
}

/** The smallest box holding both. @param {Box} a @param {Box} b @returns {Box} */
function union(a, b) {
  const left = Math.min(a.x - a.width / 2, b.x - b.width / 2);
  const right = Math.max(a.x + a.width / 2, b.x + b.width / 2);
  const top = Math.min(a.y - a.height / 2, b.y - b.height / 2);
  const bottom = Math.max(a.y + a.height / 2, b.y + b.height / 2);
  return {
    x: (left + right) / 2,
    y: (top + bottom) / 2,
    width: right - left,
    height: bottom - top,
  };
}

/** Screen pixels a step's values leave free across the view, to count as fitting it. */
const FIT_MARGIN = 8;
/**
 * The view zooms out no further than this to show a fork's step (text 5 px tall): the
 * expanded neuron's num, two columns right of e, takes 0.49 on a phone. Further out, a
 * big graph would be drawn far, without its numbers.
 */
const FORK_MIN_SCALE = 0.4;
/** A build step is zoomed out by at most this factor to keep its operands' names. */
const BUILD_MIN_ZOOM = 0.9;
/** Screen pixels the view keeps beside the content's edge (view-transform's clampToContent). */
const CONTENT_MARGIN = 16;
/** Screen pixels from the view's edge within which a box counts as in view (isInView). */
const IN_VIEW_MARGIN = 24;
/**
 * Screen pixels the records may overhang each side of the view at scale k and still be
 * shown whole across it, centred: a record's border and the padding of its cells, less a
 * pixel, so never a leaf's name or a number. 12 px, more than the padding, cut the `x` of
 * the neuron's `x2` in an 800 px embed, which then read as a constant `2`.
 * Example: overhang(0.88) -> 5.16
 * @param {number} k
 */
const overhang = (k) => Math.max(0, SIZES.cellPadding * k - 1);

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
  if ((high - low) * k <= width + 2 * overhang(k)) return (low + high) / 2;
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

/**
 * The height of the window the learner looks through: the browser's, or in an iframe
 * (an embed, a notebook's output) the screen's where that is less. A host sizes an
 * embed's iframe to its player, so the iframe's own height only grows with the graph
 * frame: a network's frame, 62% of it, was taller than a phone's screen.
 */
export function windowHeight() {
  const inner = globalThis.innerHeight || 800;
  const screen = globalThis.screen?.availHeight || inner;
  return Math.min(inner, screen);
}

/** Size the frame for the layout; the view measures itself again when it changes. */
function sizeFrame(/** @type {FollowerOptions} */ { frame, layout, panZoom }) {
  const width = frame.clientWidth;
  if (!width) return;
  const height = `${frameHeight({ width, windowHeight: windowHeight(), content: layout })}px`;
  if (frame.style.height === height) return;
  frame.style.height = height;
  panZoom.invalidate();
}
