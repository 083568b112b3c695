/**
 * The row under the scrubber for traces with several passes: the pass navigator
 * and, where some passes are one training loop's steps, the loss chart of those
 * passes beside it. Absent (null) for one-pass traces.
 */
import { loopRun, mountLossChart } from "./loss-chart.js";
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
  container.replaceChildren(navigatorSlot);
  const navigator = mountPassNavigator(navigatorSlot, { starts, onSeek });
  const run = loopRun(timeline, names);
  const chart =
    run && mountChart(container, passes.slice(run[0], run[1] + 1), run[0], names, onSeek);
  return {
    /** @param {import("./timeline.js").FrameState} state */
    update(state) {
      navigator.update(state);
      chart?.update(state);
    },
    previous: navigator.previous,
    next: navigator.next,
  };
}

/**
 * The loss chart of one loop's passes, with its caption, after the navigator.
 * @param {HTMLElement} container
 * @param {import("./passes.js").PassInfo[]} charted
 * @param {number} first  the first charted pass's index
 * @param {string[]} names
 * @param {(frame: number) => void} onSeek
 */
function mountChart(container, charted, first, names, onSeek) {
  const chartSlot = html("figure", { class: "loss-chart-figure" });
  const outputs = new Set(charted.map((pass) => names[pass.output]));
  const outputName = outputs.size === 1 ? [...outputs][0] : "output";
  const passWords = first === 0 ? "" : ` (passes ${first + 1} to ${first + charted.length})`;
  container.append(chartSlot);
  const chart = mountLossChart(chartSlot, {
    values: charted.map((pass) => pass.data),
    starts: charted.map((pass) => pass.start),
    first,
    outputName,
    onSeek,
  });
  chartSlot.append(html("figcaption", { text: `${outputName} after each pass${passWords}` }));
  return chart;
}
