/**
 * Bug lab marks on the graph (SPEC.md §8): a node whose gradient parts from the
 * right engine's gets `data-parted` (and `data-correct-grad`, the right value in
 * full precision) and a tag under its record with both values, e.g.
 * `≠ right engine 2.0000`. The tag is drawn in its own layer on top of the
 * graph, so graph-view.js stays unaware of the lab. Nothing is drawn for a trace
 * without `correct_grad`. A trace of several passes (`layout` null: pass-graph.js lays
 * out each pass) compares each pass with its own right engine and marks the records
 * only, without tags. A parted record's caption reads `grad ✗`, not the `grad ✓` of a
 * final gradient, which would say the value beside its tag is right.
 */
import { formatValue } from "../player/format.js";
import { SIZES } from "../layout/layout-sizes.js";
import { gradCaptionText } from "./graph-scene.js";
import { partedAt } from "../lab/mistakes.js";
import { svg } from "../player/svg.js";

/**
 * @param {HTMLElement} stage  the element graph-view.js drew into
 * @param {{timeline: import("../passes/timeline.js").Timeline, layout: import("../layout/layout.js").Layout | null}} options
 */
export function mountPartedMarks(stage, { timeline, layout }) {
  const { trace } = timeline;
  const active = trace.nodes.some((node) => typeof node.correct_grad === "number");
  const viewport = stage.querySelector(".graph-viewport");
  if (!active || (layout && !viewport)) return { update: () => {} };
  const layer = layout
    ? svg("g", { class: "parted-marks" }, /** @type {SVGElement} */ (viewport))
    : null;
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
    for (const { node, correct } of parted) {
      const record = recordOf(node);
      record?.setAttribute("data-parted", "true");
      record?.setAttribute("data-correct-grad", String(correct));
      const caption = record?.querySelector(".node-caption-grad");
      if (caption) caption.textContent = gradCaptionText(true, true);
      if (!layer || !layout) continue;
      const box = layout.records[node];
      const text = `\u2260 right engine ${formatValue(correct)}`;
      const width = text.length * 6.6 + 14;
      const tag = svg(
        "g",
        {
          class: "parted-tag",
          "data-testid": "parted-tag",
          // Above the record, clear of its topo badge on the top-left corner.
          transform: `translate(${box.x - box.width / 2 + 12},${box.y - SIZES.recordHeight / 2 - 19})`,
        },
        layer,
      );
      svg("rect", { width, height: 17, rx: 4 }, tag);
      svg("text", { x: width / 2, y: 12.5 }, tag).textContent = text;
    }
  }
  return { update };
}
