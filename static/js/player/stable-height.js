/**
 * Keeps the player's panels (narration, sort order, code) as tall as they are at the
 * tallest frame of the trace, so a course page's text below a player does not jump
 * at every step, and an embed's frame keeps one height while the learner scrubs. The
 * player keeps the narration's own height the same way on every page, so the panels
 * under it (all of them, on a phone) hold still while its text changes length.
 *
 * The panels are measured at those frames when the player mounts, and again when
 * their width changes, since text wraps differently.
 *
 * Example: tallestCandidates({frames: [{phase: "build", text: "a"}, …]}) -> [0, 1, …]
 */

/** Traces up to this many frames are measured at every frame; longer ones by sample. */
export const MEASURE_EVERY_FRAME_UP_TO = 300;

/** Unwritten texts written per kind of frame to find its longest (see tallestCandidates). */
const WRITTEN_PER_KIND = 3;

/**
 * The frames to measure: all of them for a short trace; else, for each kind of frame
 * (phase, the node's kind and operation, how many contributions, the sort step), the one
 * with the longest text. A text the page has not written yet (the columns encoding
 * writes a frame's text when it is first read, passes/columns.js) is first judged by
 * the names it will hold (its node's, its operands' or its children's), which is what
 * varies most within a kind; the few longest so judged are written and measured. Pure.
 * @param {{nodes: Array<{id: string, op: string, kind?: string, name?: string}>,
 *   edges?: Array<{source: string, target: string}>, frames: Array<{phase: string,
 *   text?: string, node?: string, step?: string, contributions?: Array<{to?: string}>}>}} trace
 * @param {number} [limit]
 * @returns {number[]} frame indices, ascending
 */
export function tallestCandidates(trace, limit = MEASURE_EVERY_FRAME_UP_TO) {
  if (trace.frames.length <= limit) return trace.frames.map((_, index) => index);
  const nodeOf = new Map(trace.nodes.map((node) => [node.id, node]));
  const nameLength = (/** @type {string | undefined} */ id) =>
    nodeOf.get(id ?? "")?.name?.length ?? 0;
  /** @type {Map<string, number>} the names of each node's operands, their lengths summed */
  const operandNames = new Map();
  for (const edge of trace.edges ?? [])
    operandNames.set(edge.target, (operandNames.get(edge.target) ?? 0) + nameLength(edge.source));
  /** @param {(typeof trace.frames)[number]} frame */
  const guess = (frame) => {
    let length = nameLength(frame.node);
    if (frame.phase === "build") length += operandNames.get(frame.node ?? "") ?? 0;
    for (const c of frame.contributions ?? []) length += nameLength(c.to);
    return length;
  };
  /** @type {Map<string, {written: [number, number] | null, guessed: [number, number][]}>} */
  const kinds = new Map();
  trace.frames.forEach((frame, index) => {
    const node = nodeOf.get(frame.node ?? "");
    const kind = [
      frame.phase,
      node?.kind ?? "",
      node?.op ?? "",
      frame.contributions?.length ?? 0,
      frame.step ?? "",
    ].join("|");
    let entry = kinds.get(kind);
    if (!entry) {
      entry = { written: null, guessed: [] };
      kinds.set(kind, entry);
    }
    if (Object.hasOwn(frame, "text")) {
      const length = frame.text?.length ?? 0;
      if (!entry.written || length > entry.written[1]) entry.written = [index, length];
      return;
    }
    entry.guessed.push([index, guess(frame)]);
    if (entry.guessed.length > 4 * WRITTEN_PER_KIND) keepLongest(entry.guessed);
  });
  const chosen = [];
  for (const { written, guessed } of kinds.values()) {
    keepLongest(guessed);
    let best = written;
    for (const [index] of guessed) {
      const length = trace.frames[index].text?.length ?? 0; // written now, a few per kind
      if (!best || length > best[1]) best = [index, length];
    }
    if (best) chosen.push(best[0]);
  }
  return chosen.sort((a, b) => a - b);
}

/**
 * The WRITTEN_PER_KIND longest guesses, in place.
 * @param {[number, number][]} guessed  [frame index, guessed length]
 */
function keepLongest(guessed) {
  guessed.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  guessed.length = Math.min(guessed.length, WRITTEN_PER_KIND);
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
