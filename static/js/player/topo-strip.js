/**
 * The topological order as a strip of chips, children first. It appears at the
 * sort frame; in backward frames the loop walks it from the right, so the chip
 * being run is marked and the ones already run look finished. Long orders show
 * a window around the current chip.
 */
import { mistakeInfo } from "../lab/mistakes.js";
import { callsNoBackward } from "../passes/passes.js";
import { passCall } from "./rule-text.js";
import { sourceLines } from "./source-position.js";
import { html } from "./svg.js";

const WINDOW = 12;

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[]}} options
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
  /** @type {WeakMap<Element, {number: HTMLElement | null, name: Text}>} each chip's parts */
  const shown = new WeakMap();

  const noBackward = callsNoBackward(timeline.trace);

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    if (!state.sorted && order.length > 0) {
      hint.textContent = "The order appears when the sort runs.";
      hint.hidden = false;
      list.replaceChildren();
      shownKey = "";
      return;
    }
    const output = names[/** @type {number} */ (timeline.indexOf.get(timeline.trace.output))];
    if (order.length === 0) {
      // A backward() that runs no rule per node (it recurses, writing each gradient
      // itself), or none at all: no order is made, before the sort frame as at it (it
      // said "The order appears when the sort runs" where none would).
      hint.textContent = noBackward
        ? "No order here: the program calls no backward() and no node's rule, so no sort runs and there is no topological order to walk."
        : `No order here: ${passCall(timeline.trace, sourceLines(timeline.trace.source ?? ""), output, state.pass ?? 0)} runs no rule per node (it writes the gradients itself), so there is no topological order to walk.`;
      hint.hidden = false;
      list.replaceChildren();
      shownKey = "";
      return;
    }
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
    // The chips are kept and changed in place, a step moving the window by one: building
    // them anew each step made the page lay out the whole strip again.
    let k = 0;
    if (from > 0) setChip(k++, `\u2026 ${from}`, "topo-chip is-more", "topo-more");
    for (let position = from; position < to; position++) {
      const node = order[position];
      const ran = state.phase === "backward" && timeline.backwardFrame[node] < state.index;
      const current = state.phase === "backward" && node === state.current;
      const chip = setChip(
        k++,
        names[node],
        `topo-chip${current ? " is-current" : ""}${ran ? " is-done" : ""}`,
        "topo-chip",
        String(position + 1),
      );
      if (current) chip.setAttribute("aria-current", "step");
    }
    if (to < order.length)
      setChip(k++, `${order.length - to} \u2026`, "topo-chip is-more", "topo-more");
    while (list.children.length > k) list.lastElementChild?.remove();
  }

  /**
   * The k-th chip of the list, made or changed to show `text` (after `number`, a
   * numbered chip) with `className`; only what differs is written, into the chip's
   * own span and text (a step moves every number and name along by one).
   * @param {number} k
   * @param {string} text
   * @param {string} className
   * @param {string} testid
   * @param {string} [number]
   */
  function setChip(k, text, className, testid, number) {
    let chip = /** @type {HTMLElement | undefined} */ (list.children[k]);
    if (!chip) {
      chip = html("li", {});
      list.append(chip);
    }
    if (chip.className !== className) chip.className = className;
    chip.removeAttribute("aria-current"); // the caller marks the current chip again
    if (chip.dataset.testid !== testid) chip.dataset.testid = testid;
    let parts = shown.get(chip);
    if (!parts || (number === undefined) !== (parts.number === null)) {
      const numberSpan = number === undefined ? null : html("span", { class: "topo-number" });
      parts = { number: numberSpan, name: document.createTextNode("") };
      chip.replaceChildren(...(numberSpan ? [numberSpan] : []), parts.name);
      shown.set(chip, parts);
    }
    if (parts.number && parts.number.textContent !== number)
      parts.number.textContent = number ?? "";
    if (parts.name.nodeValue !== text) parts.name.nodeValue = text;
    return chip;
  }
  return { update };
}
