/**
 * Keeps the player's panels (narration, sort order, code) as tall as they are at the
 * tallest frame of the trace, so a course page's text below a player does not jump
 * at every step, and an embed's frame keeps one height while the learner scrubs.
 *
 * The panels are measured at those frames when the player mounts, and again when
 * their width changes, since text wraps differently.
 *
 * Example: tallestCandidates({frames: [{phase: "build", text: "a"}, …]}) -> [0, 1, …]
 */

/** Traces up to this many frames are measured at every frame; longer ones by sample. */
export const MEASURE_EVERY_FRAME_UP_TO = 300;

/**
 * The frames to measure: all of them for a short trace; else, for each kind of frame
 * (phase, the node's operation, how many contributions, the sort step), the one with
 * the longest text. A text the page has not written yet (the columns encoding writes a
 * frame's text when it is first read, passes/columns.js) is not written for this: its
 * length is judged by the names it will hold, which is what varies within a kind. Pure.
 * @param {{nodes: Array<{id: string, op: string, name?: string}>, frames: Array<{phase: string,
 *   text?: string, node?: string, step?: string, contributions?: Array<{to?: string}>}>}} trace
 * @param {number} [limit]
 * @returns {number[]} frame indices, ascending
 */
export function tallestCandidates(trace, limit = MEASURE_EVERY_FRAME_UP_TO) {
  if (trace.frames.length <= limit) return trace.frames.map((_, index) => index);
  const opOf = new Map(trace.nodes.map((node) => [node.id, node.op]));
  const nameLength = new Map(trace.nodes.map((node) => [node.id, node.name?.length ?? 0]));
  /** @param {(typeof trace.frames)[number]} frame */
  const lengthOf = (frame) => {
    if (Object.hasOwn(frame, "text")) return frame.text?.length ?? 0;
    let length = nameLength.get(frame.node ?? "") ?? 0;
    for (const c of frame.contributions ?? []) length += nameLength.get(c.to ?? "") ?? 0;
    return length;
  };
  /** @type {Map<string, [number, number]>} */
  const longest = new Map();
  trace.frames.forEach((frame, index) => {
    const kind = [
      frame.phase,
      opOf.get(frame.node ?? "") ?? "",
      frame.contributions?.length ?? 0,
      frame.step ?? "",
    ].join("|");
    const length = lengthOf(frame);
    const best = longest.get(kind);
    if (!best || length > best[1]) longest.set(kind, [index, length]);
  });
  return [...longest.values()].map(([index]) => index).sort((a, b) => a - b);
}

/**
 * @param {HTMLElement} element  the part whose height changes with the frame
 * @param {{frames: number[], show: (frame: number) => void, restore: () => void}} options
 *   show renders a frame in that part; restore renders the current frame again
 * @returns {{destroy: () => void}}
 */
export function reserveTallestFrame(element, { frames, show, restore }) {
  if (frames.length === 0) return { destroy() {} };
  let width = -1;
  let pending = 0;

  // Every frame is shown and measured, then the current one is back, in one task: the
  // browser paints none of them, and the narration's live region ends where it was.
  const measure = () => {
    pending = 0;
    const now = Math.round(element.getBoundingClientRect().width);
    if (now === width || now === 0) return;
    width = now;
    element.style.minHeight = "";
    let tallest = 0;
    for (const frame of frames) {
      show(frame);
      tallest = Math.max(tallest, element.getBoundingClientRect().height);
    }
    restore();
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
    },
  };
}
