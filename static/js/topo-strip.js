/**
 * The topological order as a strip of chips, children first. It appears at the
 * sort frame; in backward frames the loop walks it from the right, so the chip
 * being run is marked and the ones already run look finished. Long orders show
 * a window around the current chip.
 */
import { mistakeInfo } from "./mistakes.js";
import { html } from "./svg.js";

const WINDOW = 12;

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("./timeline.js").Timeline, names: string[]}} options
 */
export function mountTopoStrip(container, { timeline, names }) {
  const order = timeline.trace.topo.map((id) => /** @type {number} */ (timeline.indexOf.get(id)));
  const list = html("ol", { class: "topo-chips" });
  const hint = html("p", { class: "topo-hint" });
  container.replaceChildren(
    html("section", { class: "topo-strip", "aria-label": "Topological order" }, [
      html("h2", { class: "panel-title", text: "topo" }),
      hint,
      list,
    ]),
  );
  let shownKey = "";

  /** @param {import("./timeline.js").FrameState} state */
  function update(state) {
    if (!state.sorted) {
      hint.textContent = "The order appears when the sort runs.";
      hint.hidden = false;
      list.replaceChildren();
      shownKey = "";
      return;
    }
    const output = names[/** @type {number} */ (timeline.indexOf.get(timeline.trace.output))];
    hint.textContent =
      state.phase === "sort"
        ? (mistakeInfo(timeline.trace.mistake)?.topoHint?.(output) ??
          `Each value comes after everything it was made from. The backward loop walks this order from the right, starting at ${output} with grad 1.`)
        : "";
    hint.hidden = state.phase !== "sort";
    const at = state.phase === "backward" ? timeline.topoIndex[state.current] : order.length - 1;
    const from = Math.max(0, Math.min(at - WINDOW, order.length - 2 * WINDOW - 1));
    const to = Math.min(order.length, from + 2 * WINDOW + 1);
    const key = `${state.index}`;
    if (key === shownKey) return;
    shownKey = key;
    const chips = [];
    if (from > 0) chips.push(moreChip(`\u2026 ${from}`));
    for (let position = from; position < to; position++) {
      const node = order[position];
      const ran = state.phase === "backward" && timeline.backwardFrame[node] < state.index;
      const current = state.phase === "backward" && node === state.current;
      chips.push(
        html(
          "li",
          {
            class: `topo-chip${current ? " is-current" : ""}${ran ? " is-done" : ""}`,
            "data-testid": "topo-chip",
            ...(current ? { "aria-current": "step" } : {}),
          },
          [html("span", { class: "topo-number", text: String(position + 1) }), names[node]],
        ),
      );
    }
    if (to < order.length) chips.push(moreChip(`${order.length - to} \u2026`));
    list.replaceChildren(...chips);
  }
  return { update };
}

/**
 * The chip that stands for the values left out at one end of a long order.
 * @param {string} text
 */
function moreChip(text) {
  return html("li", { class: "topo-chip is-more", "data-testid": "topo-more", text });
}
