/**
 * Bug lab marks on the graph (SPEC.md §8): a node whose gradient parts from the
 * right engine's gets `data-parted` (and `data-correct-grad`, the right value in
 * full precision) and a tag beside its record with the right value, e.g.
 * `≠ right engine 2.0000`: above it, else below, wherever it covers no other record,
 * badge, name, op, tag or `+=` label (label-placement.js tagSpot). The tag is drawn in its own layer
 * on top of the graph, so graph-view.js stays unaware of the lab. Nothing is drawn for a trace
 * without `correct_grad`. A trace of several passes (`layout` null: pass-graph.js lays
 * out each pass) compares each pass with its own right engine and marks the records
 * only, without tags. A parted record's caption reads `grad ✗`, not the `grad ✓` of a
 * final gradient, which would say the value beside its tag is right.
 */
import { formatValue } from "../player/format.js";
import { opWidth, topoBadgeWidth } from "../layout/layout-sizes.js";
import { gradCaptionText, opName } from "./graph-scene.js";
import { boxGrid, markObstacles, TAG_HEIGHT, tagReach, tagSpot } from "./label-placement.js";
import { opGlyph } from "../passes/op-facts.js";
import { partedAt } from "../lab/mistakes.js";
import { svg } from "../player/svg.js";

/** `.parted-tag text` is 11px monospace: about this wide a character, plus padding. */
const TAG_CHAR_WIDTH = 6.6;
const TAG_PADDING = 14;
/** `.node-name` (graph-scene.js): 11px monospace. */
const NAME_CHAR_WIDTH = 6.7;

/**
 * Every value's boxes (markObstacles) filed by grid cell, made once: the layout does not
 * move, only which values are drawn.
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {import("../layout/layout.js").Layout} layout
 * @param {string[]} names
 */
function obstacleGrid(timeline, layout, names) {
  const { trace } = timeline;
  /** @type {ReturnType<typeof boxGrid<import("./label-placement.js").Box & {node: number}>>} */
  const grid = boxGrid();
  trace.nodes.forEach((node, i) => {
    const name = opName(node, names[i] ?? "", layout.records[i].width);
    const boxes = markObstacles(layout, i, {
      badgeWidth: topoBadgeWidth((timeline.topoIndex[i] ?? 0) + 1),
      nameWidth: name.length * NAME_CHAR_WIDTH,
      opWidth: node.kind === "op" ? opWidth(opGlyph(trace.ops, node.op).length) : undefined,
    });
    for (const box of boxes) grid.add(box);
  });
  /**
   * The boxes of drawn values that meet this area.
   * @param {{x: number, y: number, width: number, height: number}} area
   * @param {ArrayLike<number>} visible
   */
  return (area, visible) => grid.near(area, (box) => Boolean(visible[box.node]));
}

/**
 * The boxes of the `+=` labels graph-view.js drew for this frame (delta-labels.js), read
 * from their attributes, grown by 2: a tag does not cover them either.
 * @param {HTMLElement} stage
 * @returns {Array<import("./label-placement.js").Box>}
 */
function deltaBoxes(stage) {
  const boxes = [];
  for (const group of stage.querySelectorAll("[data-testid=delta]")) {
    const at = /translate\(([-\d.e]+),\s*([-\d.e]+)\)/.exec(group.getAttribute("transform") ?? "");
    const rect = group.querySelector("rect");
    if (!at || !rect) continue;
    boxes.push({
      x: Number(at[1]) - 2,
      y: Number(at[2]) - 2,
      width: Number(rect.getAttribute("width")) + 4,
      height: Number(rect.getAttribute("height")) + 4,
    });
  }
  return boxes;
}

/**
 * @param {HTMLElement} stage  the element graph-view.js drew into
 * @param {{timeline: import("../passes/timeline.js").Timeline, layout: import("../layout/layout.js").Layout | null,
 *   names?: string[]}} options  names: the values' names, for the names drawn above records
 */
export function mountPartedMarks(stage, { timeline, layout, names = [] }) {
  const { trace } = timeline;
  const active = trace.nodes.some((node) => typeof node.correct_grad === "number");
  const viewport = stage.querySelector(".graph-viewport");
  if (!active || (layout && !viewport)) return { update: () => {} };
  const layer = layout
    ? svg("g", { class: "parted-marks" }, /** @type {SVGElement} */ (viewport))
    : null;
  /** @type {ReturnType<typeof obstacleGrid> | null} made at the first tag */
  let nearby = null;
  // Records are found by id at each update: a big graph mounts only those in view.
  const recordOf = (/** @type {number} */ i) =>
    stage.querySelector(`.node[data-node-id="${CSS.escape(trace.nodes[i].id)}"]`);

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    // After a backward, the program's own writes (`p.grad = 0`) are not the engine's;
    // a backward() that writes the gradients itself is judged once its writes are done.
    const parted = partedAt(timeline, state);
    for (const record of stage.querySelectorAll(".node[data-parted]")) {
      record.removeAttribute("data-parted");
      record.removeAttribute("data-correct-grad");
      const caption = record.querySelector(".node-caption-grad");
      if (caption) caption.textContent = gradCaptionText(record.hasAttribute("data-final"));
    }
    layer?.replaceChildren();
    // The tags placed so far and this frame's `+=` labels, grown by 2, filed by cell: a
    // tag looks at those near it only (all of them was quadratic: 1.7 s a frame for
    // 20,000 parted values).
    /** @type {ReturnType<typeof boxGrid<import("./label-placement.js").Box>>} */
    const placed = boxGrid();
    if (parted.length && layer) for (const box of deltaBoxes(stage)) placed.add(box);
    for (const { node, correct } of parted) {
      const record = recordOf(node);
      record?.setAttribute("data-parted", "true");
      record?.setAttribute("data-correct-grad", String(correct));
      const caption = record?.querySelector(".node-caption-grad");
      if (caption) caption.textContent = gradCaptionText(true, true);
      if (!layer || !layout) continue;
      const box = layout.records[node];
      const text = `\u2260 right engine ${formatValue(correct)}`;
      const width = text.length * TAG_CHAR_WIDTH + TAG_PADDING;
      nearby ??= obstacleGrid(timeline, layout, names);
      // Everything a tag beside this record could reach: above, below, either side.
      const around = tagReach(box, width);
      const spot = tagSpot(box, width, [...nearby(around, state.visible), ...placed.near(around)]);
      placed.add({ x: spot.x - 2, y: spot.y - 2, width: width + 4, height: TAG_HEIGHT + 4 });
      const tag = svg(
        "g",
        {
          class: "parted-tag",
          "data-testid": "parted-tag",
          "data-node-id": trace.nodes[node].id,
          transform: `translate(${spot.x},${spot.y})`,
        },
        layer,
      );
      svg("rect", { width, height: TAG_HEIGHT, rx: 4 }, tag);
      svg("text", { x: width / 2, y: 12.5 }, tag).textContent = text;
    }
  }
  return { update };
}
