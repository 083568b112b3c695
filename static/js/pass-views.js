/**
 * Per-pass views for traces with several passes: the topo strip, the code panel
 * and the table show one pass's order at a time, so they are mounted again with
 * that pass's Timeline (passes.js passTimeline) when the player crosses into
 * another pass. A `<details>` the learner opened stays open.
 */
import { passTimeline } from "./passes.js";

/**
 * @template {{update: (state: import("./timeline.js").FrameState) => void}} View
 * @param {HTMLElement} container
 * @param {import("./timeline.js").Timeline} timeline
 * @param {(timeline: import("./timeline.js").Timeline) => View} mount
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
        view = mount(passTimeline(timeline, pass));
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
