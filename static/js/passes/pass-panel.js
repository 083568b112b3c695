/**
 * The row under the scrubber for traces with several passes: the pass navigator
 * and the loss chart side by side. Absent (null) for one-pass traces.
 */
import { mountLossChart } from "./loss-chart.js";
import { mountPassNavigator } from "./pass-navigator.js";
import { html } from "../player/svg.js";

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("./timeline.js").Timeline, names: string[], onSeek: (frame: number) => void}} options
 */
export function mountPassPanel(container, { timeline, names, onSeek }) {
  const passes = timeline.passes;
  // One pass (a program folded by its calls) has nothing to navigate or chart.
  if (!passes || passes.length < 2) {
    container.hidden = true;
    return null;
  }
  const starts = passes.map((pass) => pass.start);
  const navigatorSlot = html("div", { class: "pass-navigator-slot" });
  const chartSlot = html("figure", { class: "loss-chart-figure" });
  const outputs = new Set(passes.map((pass) => names[pass.output]));
  const outputName = outputs.size === 1 ? [...outputs][0] : "output";
  const caption = html("figcaption", { text: `${outputName} after each pass` });
  container.replaceChildren(navigatorSlot, chartSlot);
  const navigator = mountPassNavigator(navigatorSlot, { starts, onSeek });
  const chart = mountLossChart(chartSlot, {
    values: passes.map((pass) => pass.data),
    starts,
    outputName,
    onSeek,
  });
  chartSlot.append(caption);
  return {
    /** @param {import("./timeline.js").FrameState} state */
    update(state) {
      navigator.update(state);
      chart.update(state);
    },
    previous: navigator.previous,
    next: navigator.next,
  };
}
