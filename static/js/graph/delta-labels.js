/**
 * The `+=` labels of a frame drawn into an SVG layer: each contribution beside the
 * child that receives it, and at the sort frame the output's seed. What they say and
 * where they go is label-placement.js's (pure, tested); this module only draws.
 * Labels of children that are not drawn (off screen on a big graph) are left out.
 */
import { changeTexts, deltaTexts, obstaclesOf, placeLabels } from "./label-placement.js";
import { topoBadgeWidth } from "../layout/layout-sizes.js";
import { svg } from "../player/svg.js";

/**
 * @param {SVGElement} layer  emptied, then filled
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {{timeline: import("../passes/timeline.js").Timeline, layout: import("../layout/layout.js").Layout,
 *   drawn: Iterable<number>, isDrawn: (i: number) => boolean, nameWidth?: (i: number) => number}} graph
 *   drawn: the values on screen; nameWidth: the width of the name drawn over a record (0: none)
 * @returns {Array<{child: number, x: number, y: number, width: number, height: number}>}
 *   where each label went (top-left corner and size, layout units)
 */
export function drawDeltaLabels(
  layer,
  state,
  { timeline, layout, drawn, isDrawn, nameWidth = () => 0 },
) {
  layer.replaceChildren();
  /** @type {Array<{child: number, texts: string[], className: string}>} */
  const labels = [];
  // With sort steps the sort spans many frames; the seed label waits for the seed.
  if (state.phase === "sort" && state.sorted) {
    const output = timeline.indexOf.get(timeline.trace.output);
    if (output !== undefined)
      labels.push({ child: output, texts: ["seed: grad = 1"], className: "delta delta-seed" });
  }
  const overwrite = timeline.trace.mistake === "assign"; // the bug lab's `=` engine
  for (const [child, texts] of deltaTexts(state.contributions, overwrite))
    labels.push({ child, texts, className: "delta" });
  // Update frames (SPEC §11): what an optimizer step or zero_grad did to each value.
  for (const [child, texts] of changeTexts(state.changes ?? []))
    labels.push({ child, texts, className: "delta" });
  const shown = labels.filter((label) => isDrawn(label.child));
  if (shown.length === 0) return [];
  const obstacles = [];
  // Labels come at the sort frame and after it, when each record wears its topo badge.
  const { topoIndex } = timeline;
  for (const i of drawn) {
    if (!state.visible[i]) continue;
    const badge = topoIndex[i] >= 0 ? topoBadgeWidth(topoIndex[i] + 1) : 0;
    obstacles.push(...obstaclesOf(layout, i, badge, nameWidth(i)));
  }
  const spots = placeLabels(shown, layout, obstacles);
  spots.forEach((spot, n) => {
    const group = svg(
      "g",
      {
        class: shown[n].className,
        "data-testid": "delta",
        transform: `translate(${spot.x},${spot.y})`,
      },
      layer,
    );
    svg("rect", { width: spot.width, height: spot.height, rx: 4 }, group);
    spot.texts.forEach((text, line) => {
      svg("text", { x: spot.width / 2, y: 14 + line * 16 }, group).textContent = text;
    });
  });
  return spots;
}
