/**
 * The narration: the current frame's text in an ARIA live region, with the phase
 * as a small heading. Polite, so screen readers finish a sentence before the next.
 */
import { html } from "./svg.js";
import { mountUnderflowNote } from "../graph/underflow-note.js";

const PHASE_TITLES = {
  build: "Build",
  sort: "Topological sort",
  backward: "Backward",
  update: "Update",
};

/** @param {HTMLElement} container */
export function mountNarration(container) {
  const phase = html("span", { class: "phase-pill" });
  const text = html("p", {
    class: "narration-text",
    "data-testid": "narration",
    "aria-live": "polite",
  });
  const box = html("div", { class: "narration" }, [phase, text]);
  container.replaceChildren(box);
  const underflow = mountUnderflowNote(box);
  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    phase.textContent = PHASE_TITLES[state.phase];
    phase.dataset.phase = state.phase;
    if (text.textContent !== state.text) text.textContent = state.text;
    underflow.update(state);
  }
  return { update, box };
}
