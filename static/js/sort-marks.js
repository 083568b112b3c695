/**
 * The sort step by step on the graph (SPEC.md §9): while a sort-step frame is
 * shown, each record says where it stands in the recursion with
 * `data-sort-state` = `stack` (its `build` call is running), `visited` (marked,
 * not yet in topo) or `appended`, and `data-in-topo` once in topo (its topo number
 * shows; with append-first that happens while its call still runs). Records are
 * found by id at each update, as parted-marks.js does. Nothing for other frames.
 */
import { createSortSteps } from "./sort-steps.js";

/**
 * @param {HTMLElement} stage  the element graph-view.js drew into
 * @param {{timeline: import("./timeline.js").Timeline}} options
 */
export function mountSortMarks(stage, { timeline }) {
  const { trace } = timeline;
  const steps = createSortSteps(trace);
  const svgElement = stage.querySelector("svg");

  let marking = false;

  /** @param {import("./timeline.js").FrameState} state */
  function update(state) {
    const at = steps.at(state.index);
    svgElement?.classList.toggle("is-sorting", at !== null);
    if (!at && !marking) return;
    marking = at !== null;
    /** @type {Map<number, string>} */
    const marks = new Map();
    if (at) {
      for (const node of at.visited) marks.set(node, "visited");
      for (const node of at.topo) marks.set(node, "appended");
      for (const entry of at.stack) if (!entry.skip) marks.set(entry.node, "stack");
    }
    const inTopo = new Set(at?.topo ?? []);
    // One pass over the records on the page (a big graph mounts only those in view).
    for (const record of stage.querySelectorAll(".node[data-node-id]")) {
      const node = timeline.indexOf.get(/** @type {string} */ (record.getAttribute("data-node-id")));
      const mark = node === undefined ? undefined : marks.get(node);
      if (mark === undefined) {
        if (record.hasAttribute("data-sort-state")) record.removeAttribute("data-sort-state");
      } else if (record.getAttribute("data-sort-state") !== mark) {
        record.setAttribute("data-sort-state", mark);
      }
      const appended = node !== undefined && inTopo.has(node);
      if (record.hasAttribute("data-in-topo") !== appended) record.toggleAttribute("data-in-topo", appended);
    }
  }
  return { update };
}
