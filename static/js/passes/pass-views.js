/**
 * Per-pass views for traces with several passes: the topo strip, the code panel
 * and the table show one pass's order at a time, so they are mounted again with
 * that pass's Timeline (passes.js passTimeline) when the player crosses into
 * another pass, with that pass's names. A `<details>` the learner opened stays open.
 */
import { passTimeline } from "./passes.js";

/**
 * What to call each node in pass p, as the engine's frame texts of that pass do: the
 * engine's name (`nodes[].name`) unless that pass calls the node otherwise
 * (`passes[p].names`: an unlabelled parameter is named by its data in that pass).
 * @param {import("./timeline.js").Timeline} timeline  from passes.js createPassTimeline
 * @param {number} p
 */
export function passNames(timeline, p) {
  const passes = /** @type {{passes?: Array<{names?: Record<string, string>}>}} */ (timeline.trace)
    .passes;
  const renamed = passes?.[p]?.names ?? {};
  return timeline.trace.nodes.map((node) => renamed[node.id] ?? node.name);
}

/**
 * @template {{update: (state: import("./timeline.js").FrameState) => void}} View
 * @param {HTMLElement} container
 * @param {import("./timeline.js").Timeline} timeline
 * @param {(timeline: import("./timeline.js").Timeline, names?: string[]) => View} mount  names: the pass's (passNames)
 * @returns {{update: (state: import("./timeline.js").FrameState) => void, destroy?: () => void}}
 */
export function perPass(container, timeline, mount) {
  if (!timeline.passes) return mount(timeline);
  let shown = -1;
  /** @type {View | null} */ let view = null;
  return {
    update(state) {
      const pass = state.pass ?? 0;
      if (pass !== shown || !view) {
        const open = [...container.querySelectorAll("details")].map((details) => details.open);
        shown = pass;
        /** @type {{destroy?: () => void} | null} */ (view)?.destroy?.();
        view = mount(passTimeline(timeline, pass), passNames(timeline, pass));
        container.querySelectorAll("details").forEach((details, i) => {
          if (open[i]) details.open = true;
        });
      }
      view.update(state);
    },
    destroy() {
      /** @type {{destroy?: () => void} | null} */ (view)?.destroy?.();
    },
  };
}
