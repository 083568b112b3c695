/**
 * Which example the examples menu names for what is on screen. Some examples share a
 * program and differ only in the engine they run on (the bug lab's `a + a` and neuron,
 * the sort step by step), so the program alone cannot tell them apart: the lab's
 * options decide, and the one the learner picked stays named while it still fits.
 *
 * Example: the neuron's source with {mistake: "append-first"} names
 * "mistake-append-first", not "neuron"; with a mistake no example has, the plain
 * example of that program ("neuron").
 */

/**
 * @typedef {{id: string, source: string, granularity: string, mistake?: string | null,
 *   sort_steps?: boolean | null}} MenuExample
 */

/**
 * @param {MenuExample[]} examples
 * @param {{source: string, granularity: string, mistake: string | null, sortSteps: boolean}} shown
 * @param {string} current  the id the menu names now ("" for none)
 * @returns {string}  the id to name, or "" when the program is the learner's own
 */
export function matchingExample(examples, shown, current = "") {
  const same = examples.filter(
    (example) => example.source === shown.source && example.granularity === shown.granularity,
  );
  const exact = same.filter(
    (example) =>
      (example.mistake ?? null) === shown.mistake &&
      Boolean(example.sort_steps) === shown.sortSteps,
  );
  const plain = same.filter((example) => !example.mistake && !example.sort_steps);
  const pool = exact.length > 0 ? exact : plain;
  return (pool.find((example) => example.id === current) ?? pool[0])?.id ?? "";
}
