/**
 * Where to open a new trace of the same program when the lab's options change
 * (SPEC.md §8, §9): turning sort steps on or off, or switching the engine, keeps
 * the learner at the same moment rather than the same frame number. A build frame
 * stays itself (builds do not change), any sort frame goes to the first frame of
 * the new sort, and a backward frame keeps its distance from the end (each node's
 * rule is one frame, whatever the sort looked like).
 *
 * Example (the neuron, 16 frames -> 36 with sort steps): carryFrame(old, 3) -> 3;
 * carryFrame(old, 5) -> 5 (the first sort step); carryFrame(old, 15) -> 35.
 */

/**
 * @typedef {{frames: Array<{phase: string}>}} FramesOnly
 */

/**
 * @param {FramesOnly} from  the trace on screen
 * @param {number} frame  its frame on screen
 * @param {FramesOnly} to  the new trace
 * @returns {number} a frame of `to`
 */
export function carryFrame(from, frame, to) {
  const last = to.frames.length - 1;
  const phase = from.frames[frame]?.phase;
  if (phase === undefined || last < 0) return 0;
  const sortStart = to.frames.findIndex((f) => f.phase === "sort");
  if (phase === "build") return Math.min(frame, sortStart < 0 ? last : sortStart);
  if (phase === "sort") return Math.max(0, sortStart);
  return Math.max(0, last - (from.frames.length - 1 - frame));
}
