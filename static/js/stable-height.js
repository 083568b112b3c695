/**
 * Keeps the player's panels (narration, sort order, code) as tall as they are at the
 * tallest frame of the trace, so a course page's text below a player does not jump
 * at every step, and an embed's frame keeps one height while the learner scrubs.
 *
 * The frames are measured in a probe: a hidden copy of the panels, of the same width,
 * that nobody sees or hears (aria-hidden, inert, so the live narration never speaks
 * a frame that is not shown). It is measured again when the width changes, since
 * text wraps differently.
 *
 * Example: tallestCandidates({frames: [{phase: "build", text: "a"}, …]}) -> [0, 1, …]
 */

/** Traces up to this many frames are measured at every frame; longer ones by sample. */
export const MEASURE_EVERY_FRAME_UP_TO = 300;

/**
 * The frames to measure: all of them for a short trace; else, for each kind of frame
 * (phase, the node's operation, how many contributions, the sort step), the one with
 * the longest text. Pure.
 * @param {{nodes: Array<{id: string, op: string}>, frames: Array<{phase: string, text?: string,
 *   node?: string, step?: string, contributions?: unknown[]}>}} trace
 * @param {number} [limit]
 * @returns {number[]} frame indices, ascending
 */
export function tallestCandidates(trace, limit = MEASURE_EVERY_FRAME_UP_TO) {
  if (trace.frames.length <= limit) return trace.frames.map((_, index) => index);
  const opOf = new Map(trace.nodes.map((node) => [node.id, node.op]));
  /** @type {Map<string, [number, number]>} */
  const longest = new Map();
  trace.frames.forEach((frame, index) => {
    const kind = [frame.phase, opOf.get(frame.node ?? "") ?? "", frame.contributions?.length ?? 0, frame.step ?? ""].join("|");
    const length = frame.text?.length ?? 0;
    const best = longest.get(kind);
    if (!best || length > best[1]) longest.set(kind, [index, length]);
  });
  return [...longest.values()].map(([index]) => index).sort((a, b) => a - b);
}

/**
 * @param {HTMLElement} element  the live part whose height changes with the frame
 * @param {{frames: number[], probe: HTMLElement, show: (frame: number) => void}} options
 *   probe: a copy of `element`'s content, not in the page yet; show renders a frame in it
 * @returns {{destroy: () => void}}
 */
export function reserveTallestFrame(element, { frames, probe, show }) {
  const holder = document.createElement("div");
  holder.setAttribute("aria-hidden", "true");
  holder.inert = true;
  // No height of its own, so the probe never makes the page scroll; the probe still lays out.
  holder.style.cssText = "position: absolute; left: 0; top: 0; height: 0; overflow: hidden; visibility: hidden;";
  holder.append(probe);
  element.after(holder);
  let width = -1;
  let pending = 0;

  const measure = () => {
    pending = 0;
    const now = Math.round(element.getBoundingClientRect().width);
    if (now === width || now === 0) return;
    width = now;
    holder.style.width = `${now}px`;
    let tallest = 0;
    for (const frame of frames) {
      show(frame);
      tallest = Math.max(tallest, probe.getBoundingClientRect().height);
    }
    element.style.minHeight = `${Math.ceil(tallest)}px`;
  };
  element.style.alignContent = "start"; // the room left over at short frames goes below
  // Measured outside the observer's callback, so a new min-height is not a resize loop.
  const observer = new ResizeObserver(() => {
    if (!pending) pending = requestAnimationFrame(measure);
  });
  observer.observe(element);
  measure();
  return {
    destroy() {
      observer.disconnect();
      cancelAnimationFrame(pending);
      holder.remove();
    },
  };
}
