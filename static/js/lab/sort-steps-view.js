/**
 * The sort, step by step (SPEC.md §9): while a sort-step frame is shown, the call
 * stack of `build(v)` (outermost call on top, one row per depth), the `visited`
 * set and the `topo` list as they stand. Hidden on every other frame. The numbers
 * come from sort-steps.js; this module only draws them.
 *
 * Test hooks: [data-testid=sort-steps] (the panel, with data-step), and inside it
 * [data-testid=sort-stack], [data-testid=sort-visited], [data-testid=sort-topo],
 * each listing items with data-node-id.
 */
import { createSortSteps } from "./sort-steps.js";
import { html } from "../player/svg.js";

const STEP_WORDS = {
  visit:
    "visit: first call on this node, so it is marked visited and its children are called in turn",
  skip: "skip: already visited, so the call returns at once",
  append: "append: every child is done, so the node goes into topo",
  seed: "seed: topo is complete, and the output's gradient becomes 1.0",
};
const APPEND_FIRST_WORDS =
  "append: the node goes into topo before any of its children (the mistake)";
const NO_SORT_WORDS =
  "no sort: this engine never calls build, so topo stays empty; backward walks depth-first from the output instead";
/** Long lists show their last items; the counts stay exact. */
const MOST_CHIPS = 40;

/** The panel's elements, unattached: the section and the parts update fills. */
function buildSortStepsPanel() {
  const caption = html("p", { class: "sort-step-caption" });
  const stack = html("ol", {
    class: "sort-stack",
    "data-testid": "sort-stack",
    "aria-label": "Call stack",
  });
  const visited = html("ul", {
    class: "sort-chips",
    "data-testid": "sort-visited",
    "aria-label": "visited",
  });
  const topo = html("ol", {
    class: "sort-chips",
    "data-testid": "sort-topo",
    "aria-label": "topo",
  });
  const counter = html("span", { class: "sort-step-counter" });
  const visitedCount = html("span", { class: "sort-count" });
  const topoCount = html("span", { class: "sort-count" });
  const panel = html(
    "section",
    { class: "sort-steps", "data-testid": "sort-steps", "aria-label": "The sort, step by step" },
    [
      html("div", { class: "sort-steps-head" }, [
        html("h2", { class: "panel-title", text: "build(v), step by step" }),
        counter,
      ]),
      caption,
      html("div", { class: "sort-steps-grid" }, [
        html("div", { class: "sort-box" }, [html("h3", { text: "call stack" }), stack]),
        html("div", { class: "sort-box" }, [html("h3", {}, ["visited ", visitedCount]), visited]),
        html("div", { class: "sort-box" }, [html("h3", {}, ["topo ", topoCount]), topo]),
      ]),
    ],
  );
  return { panel, caption, stack, visited, topo, counter, visitedCount, topoCount };
}

/**
 * The chips of a list of nodes, the last MOST_CHIPS of them.
 * @param {number[]} nodes
 * @param {number} current  the node to mark as this step's, or -1
 * @param {import("../passes/trace.js").Trace} trace
 * @param {string[]} names
 */
function chips(nodes, current, trace, names) {
  const from = Math.max(0, nodes.length - MOST_CHIPS);
  const items =
    from > 0 ? [html("li", { class: "sort-chip is-more", text: `\u2026 ${from}` })] : [];
  for (const node of nodes.slice(from)) {
    items.push(
      html(
        "li",
        {
          class: node === current ? "sort-chip is-current" : "sort-chip",
          "data-node-id": trace.nodes[node].id,
        },
        [names[node]],
      ),
    );
  }
  return items;
}

/**
 * One `build` call on the stack.
 * @param {{node: number, skip: boolean}} entry
 * @param {number} depth
 * @param {boolean} current  whether it is the innermost call
 * @param {import("../passes/trace.js").Trace} trace
 * @param {string[]} names
 */
function stackCall(entry, depth, current, trace, names) {
  const call = html(
    "li",
    {
      class: `sort-call${current ? " is-current" : ""}${entry.skip ? " is-skip" : ""}`,
      "data-node-id": trace.nodes[entry.node].id,
      "data-depth": depth,
      ...(current ? { "aria-current": "step" } : {}),
    },
    [
      html("code", { text: `build(${names[entry.node]})` }),
      ...(entry.skip
        ? [html("span", { class: "sort-note", text: "already visited: returns" })]
        : []),
    ],
  );
  call.style.setProperty("--depth", String(depth)); // CSSOM: the page's CSP refuses style attributes
  return call;
}

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[]}} options
 */
export function mountSortStepsView(container, { timeline, names }) {
  const { trace } = timeline;
  const steps = createSortSteps(trace);
  const appendFirst = trace.mistake === "append-first";
  const { panel, caption, stack, visited, topo, counter, visitedCount, topoCount } =
    buildSortStepsPanel();
  container.replaceChildren(panel);
  container.hidden = true;

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    const at = steps.at(state.index);
    container.hidden = at === null;
    if (at === null) return;
    panel.dataset.step = at.step;
    counter.textContent = `step ${at.position + 1} of ${at.count}`;
    caption.textContent =
      trace.mistake === "no-sort"
        ? NO_SORT_WORDS
        : at.step === "append" && appendFirst
          ? APPEND_FIRST_WORDS
          : STEP_WORDS[at.step];
    const top = at.stack.length - 1;
    stack.replaceChildren(
      ...at.stack.map((entry, depth) => stackCall(entry, depth, depth === top, trace, names)),
    );
    if (!at.stack.length) {
      const why =
        trace.mistake === "no-sort"
          ? "(empty: build is never called)"
          : "(empty: build(output) returned)";
      stack.append(html("li", { class: "sort-call is-empty", text: why }));
    }
    visitedCount.textContent = `(${at.visited.length})`;
    topoCount.textContent = `(${at.topo.length})`;
    visited.replaceChildren(...chips(at.visited, at.step === "visit" ? at.node : -1, trace, names));
    topo.replaceChildren(...chips(at.topo, at.step === "append" ? at.node : -1, trace, names));
  }
  return { update };
}
