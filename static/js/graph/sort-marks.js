/**
 * The sort step by step on the graph (SPEC.md §9): while a sort-step frame is
 * shown, each record says where it stands in the recursion with
 * `data-sort-state` = `stack` (its `build` call is running), `visited` (marked,
 * not yet in topo) or `appended`, and `data-in-topo` once in topo (its topo number
 * shows; with append-first that happens while its call still runs). Records are
 * found by id at each update, as parted-marks.js does. Nothing for other frames.
 */
import { createSortSteps } from "../lab/sort-steps.js";

/**
 * @param {HTMLElement} stage  the element graph-view.js drew into
 * @param {{timeline: import("../passes/timeline.js").Timeline}} options
 */
export function mountSortMarks(stage, { timeline }) {
  const { trace } = timeline;
  const steps = createSortSteps(trace);

  /** What each node shows now, as "state" or "state+topo"; absent: unmarked. */
  /** @type {Map<number, string>} */ let shown = new Map();
  /** @type {Map<number, Element>} */ const records = new Map();
  /** @type {Element | null} */ let drawn = null;
  // A big graph mounts only the records in view, so a cached record is checked before use.
  const recordOf = (/** @type {number} */ i) => {
    const cached = records.get(i);
    if (cached?.isConnected && cached.getAttribute("data-node-id") === trace.nodes[i].id)
      return cached;
    const found = stage.querySelector(`.node[data-node-id="${CSS.escape(trace.nodes[i].id)}"]`);
    if (found) records.set(i, found);
    return found;
  };

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    const at = steps.at(state.index);
    // Looked up each time: a trace of several passes draws each pass's graph afresh,
    // and a fresh drawing has no marks yet.
    const svgNow = stage.querySelector("svg");
    if (svgNow !== drawn) {
      drawn = svgNow;
      shown = new Map();
    }
    svgNow?.classList.toggle("is-sorting", at !== null);
    if (!at && shown.size === 0) return;
    /** @type {Map<number, string>} */
    const wanted = new Map();
    if (at) {
      for (const node of at.visited) wanted.set(node, "visited");
      for (const node of at.topo) wanted.set(node, "appended");
      for (const entry of at.stack) if (!entry.skip) wanted.set(entry.node, "stack");
      for (const node of at.topo) wanted.set(node, `${wanted.get(node)}+topo`);
    }
    // Only the nodes whose mark changed are touched: one or two per step.
    for (const [node, mark] of wanted) if (shown.get(node) !== mark) paint(node, mark);
    for (const node of shown.keys()) if (!wanted.has(node)) paint(node, null);
    shown = wanted;
  }

  /**
   * @param {number} node
   * @param {string | null} mark
   */
  function paint(node, mark) {
    const record = recordOf(node);
    if (!record) return;
    if (mark === null) {
      record.removeAttribute("data-sort-state");
      record.removeAttribute("data-in-topo");
      return;
    }
    const [state, topo] = mark.split("+");
    record.setAttribute("data-sort-state", state);
    record.toggleAttribute("data-in-topo", topo === "topo");
  }
  return { update };
}
