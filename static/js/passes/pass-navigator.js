/**
 * The pass navigator beside the scrubber: "Pass k of n" with buttons to the start
 * of the previous and next pass (keys PageUp and PageDown do the same). A pass is
 * one `backward()` call with the forward work and updates that led to it.
 */
import { html } from "../player/svg.js";

/**
 * The frame the "previous pass" button goes to: the start of this pass when the
 * player is past it, else the start of the one before.
 * Example: starts [0, 7], frame 9 -> 7; frame 7 -> 0; frame 3 -> 0.
 * @param {number[]} starts  each pass's first frame
 * @param {number} frame
 */
export function previousPassStart(starts, frame) {
  let pass = 0;
  while (pass + 1 < starts.length && starts[pass + 1] <= frame) pass++;
  return frame > starts[pass] ? starts[pass] : starts[Math.max(0, pass - 1)];
}

/**
 * The frame the "next pass" button goes to, or null on the last pass.
 * Example: starts [0, 7], frame 3 -> 7; frame 7 -> null.
 * @param {number[]} starts
 * @param {number} frame
 */
export function nextPassStart(starts, frame) {
  const next = starts.find((start) => start > frame);
  return next === undefined ? null : next;
}

/**
 * @param {HTMLElement} container
 * @param {{starts: number[], onSeek: (frame: number) => void}} options
 */
export function mountPassNavigator(container, { starts, onSeek }) {
  const previous = html("button", {
    type: "button",
    class: "text-button",
    "data-testid": "pass-previous",
    title: "Previous pass (Page Up)",
    text: "\u25C2 Pass",
  });
  const next = html("button", {
    type: "button",
    class: "text-button",
    "data-testid": "pass-next",
    title: "Next pass (Page Down)",
    text: "Pass \u25B8",
  });
  const counter = html("output", {
    class: "pass-counter",
    "data-testid": "pass-counter",
    "aria-live": "polite",
  });
  container.replaceChildren(
    html("nav", { class: "pass-navigator", "aria-label": "Backward passes" }, [
      previous,
      counter,
      next,
    ]),
  );
  let frame = 0;
  previous.addEventListener("click", () => onSeek(previousPassStart(starts, frame)));
  next.addEventListener("click", () => {
    const target = nextPassStart(starts, frame);
    if (target !== null) onSeek(target);
  });

  /** @param {{index: number, pass?: number}} state */
  function update(state) {
    frame = state.index;
    const pass = state.pass ?? 0;
    const text = `Pass ${pass + 1} of ${starts.length}`;
    if (counter.textContent !== text) counter.textContent = text;
    counter.dataset.pass = String(pass);
    // A button disabled while it has the focus drops it to the page's body: the other
    // one takes it (the last pass reached with "Pass ▸" focuses "◂ Pass").
    const root = /** @type {Document | ShadowRoot} */ (container.getRootNode());
    const focused = root.activeElement;
    previous.disabled = frame === 0;
    next.disabled = nextPassStart(starts, frame) === null;
    if (focused === next && next.disabled && !previous.disabled) previous.focus();
    else if (focused === previous && previous.disabled && !next.disabled) next.focus();
  }
  return {
    update,
    previous: () => onSeek(previousPassStart(starts, frame)),
    next: () => {
      const target = nextPassStart(starts, frame);
      if (target !== null) onSeek(target);
    },
  };
}
