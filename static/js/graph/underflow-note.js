/**
 * The lesson behind an underflow, one click from the narration: a disclosure shown
 * on backward frames where a float became 0 (contributions with `underflow`, marked
 * by engine/trace/underflow.py). It explains why the numbers are kept, not fixed.
 */
import { html } from "../player/svg.js";

const SUMMARY = "Why is this number wrong?";
const LESSON = [
  "Every rule here is exact calculus; the numbers are floating point. A float cannot be " +
    "smaller than about 1e-308 (nor, with lost digits, 5e-324): a true amount below that " +
    "becomes 0, and what it should have cancelled survives.",
  "Expanded, tanh is (e − 1)/(e + 1) with e = exp(2x); for a large x the ** −1 rule’s " +
    "local derivative, −1/den², is such an amount, so x.grad comes out near 2 instead of 0. " +
    "The packed tanh is one fused rule, 1 − tanh², which never forms the tiny number: " +
    "that is why real libraries ship fused operators for tanh, sigmoid and softmax.",
];

/** @param {HTMLElement} container  where the note goes (after the narration text) */
export function mountUnderflowNote(container) {
  const note = html(
    "details",
    { class: "underflow-note", "data-testid": "underflow-note", hidden: true },
    [html("summary", { text: SUMMARY }), ...LESSON.map((text) => html("p", { text }))],
  );
  container.append(note);
  /** @param {{contributions: Array<{underflow?: true}>}} state */
  function update(state) {
    const show = state.contributions.some((c) => c.underflow === true);
    if (note.hidden === show) note.hidden = !show;
  }
  return { update };
}
