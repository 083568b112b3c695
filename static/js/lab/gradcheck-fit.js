/**
 * Fitting the gradient check within the server's work bound (SPEC.md §7, §13), with no DOM.
 *
 * A check re-runs the program once per leaf and h value, so a real program (a small MLP
 * trained for a few passes: 13 leaves × 14 h values) can be over `BACKPROP_MAX_GRADCHECK_WORK`
 * as a whole. The server's error says the sum it would do, e.g. "about 1,139,358 interpreter
 * steps (13 leaves × 14 runs × 6,226 steps a run) … (the limit is 500,000 …)"; from it the
 * page works out how many leaves fit and checks those, spread over the pass's leaves (so
 * every layer of a network is sampled), with the whole sweep of h. Only when one leaf with
 * the whole sweep is over the bound does it take fewer h values, spread over the sweep.
 *
 * Example: overBound(that message) -> {leaves: 13, perLeaf: 87164, overhead: 6226,
 * limit: 500000, hValues: 14}; leavesThatFit(it) -> 5; spread(["n0", …, "n12"], 4) ->
 * ["n0", "n4", "n8", "n12"].
 */

/**
 * The server's default sweep of h (SPEC §7), `engine/lab/gradcheck.py`'s `DEFAULT_H`: one
 * JSON line, which tests/engine/test_gradcheck.py reads (`js_constant`) to hold the two the same.
 */
// biome-ignore format: one line of JSON, for `app.page_constants.js_constant`
export const DEFAULT_H = [0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14];

/**
 * @typedef {{total: number, leaves: number, perLeaf: number, overhead: number, limit: number,
 *   hValues: number | null}} OverBound
 *   total: the work the whole check would do; perLeaf: the work of one leaf; overhead: the
 *   work done once whatever the leaves (the forward difference's unmoved run); hValues: the
 *   h values per leaf when the message says (a straight-line graph's), else null
 * @typedef {{id: string, name: string}} PassLeaf
 * @typedef {{leaves: string[], h: number[] | null, of: number}} Fitted
 *   the leaves (ids) and h values (null: the default sweep) checked, out of `of` leaves asked
 */

const NUMBER = "(\\d[\\d,]*)";
const RUN_WORK = new RegExp(
  `about ${NUMBER} interpreter steps \\(${NUMBER} leaves \u00D7 ${NUMBER} runs \u00D7 ${NUMBER} steps a run\\)`,
);
const GRAPH_WORK = new RegExp(
  `evaluate ${NUMBER} nodes \\(${NUMBER} leaves \u00D7 ${NUMBER} h values \u00D7 ${NUMBER} nodes\\)`,
);
const LIMIT = new RegExp(`the limit is ${NUMBER}`);

/** @param {string} text  e.g. "1,139,358" */
const count = (text) => Number(text.replace(/,/g, ""));

/**
 * The sum of the server's "over the work bound" error, or null for any other error.
 * @param {string} message
 * @returns {OverBound | null}
 */
export function overBound(message) {
  const limit = LIMIT.exec(message);
  const match = RUN_WORK.exec(message) ?? GRAPH_WORK.exec(message);
  if (!limit || !match) return null;
  const [total, leaves, per, each] = match.slice(1, 5).map(count);
  const perLeaf = per * each;
  return {
    total,
    leaves,
    perLeaf,
    overhead: Math.max(0, total - leaves * perLeaf),
    limit: count(limit[1]),
    hValues: match[0].startsWith("evaluate") ? per : null,
  };
}

/**
 * How many leaves the whole sweep fits for, within the bound.
 * @param {OverBound} over
 */
export function leavesThatFit(over) {
  return over.perLeaf > 0
    ? Math.max(0, Math.floor((over.limit - over.overhead) / over.perLeaf))
    : 0;
}

/**
 * `n` of the items, spread evenly from the first to the last, in their order.
 * Example: spread([a, b, c, d, e], 3) -> [a, c, e]; spread([a, b], 5) -> [a, b].
 * @template T
 * @param {T[]} items
 * @param {number} n
 * @returns {T[]}
 */
export function spread(items, n) {
  if (n >= items.length) return items.slice();
  if (n <= 0) return [];
  if (n === 1) return [items[Math.floor((items.length - 1) / 2)]];
  const picked = new Set();
  for (let i = 0; i < n; i++) picked.add(Math.round((i * (items.length - 1)) / (n - 1)));
  return [...picked].sort((a, b) => a - b).map((index) => items[index]);
}

/**
 * The leaves of pass `pass` (`kind: leaf`, in node-id order), as the check takes them, each
 * called what the texts call it (its name; a running sum's first leaf is `0`, not its label).
 * @param {import("../passes/trace.js").Trace} trace
 * @param {number} pass
 * @returns {PassLeaf[]}
 */
export function passLeaves(trace, pass) {
  const ids = new Set(trace.passes[pass]?.topo ?? trace.nodes.map((node) => node.id));
  return trace.nodes
    .filter((node) => node.kind === "leaf" && ids.has(node.id))
    .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))
    .map((node) => ({ id: node.id, name: node.name || node.label || node.id }));
}

/**
 * What to check instead of `asked` (leaf ids, with `h`: null for the default sweep) when
 * that is over the bound: as many leaves as fit with the whole sweep, spread over `asked`;
 * else one leaf (the middle one) with as many h values as fit, spread over the sweep; else null.
 * @param {OverBound} over
 * @param {string[]} asked
 * @param {number[] | null} h
 * @returns {Fitted | null}
 */
export function fitWithin(over, asked, h = null) {
  const fit = leavesThatFit(over);
  if (fit >= 1 && fit < asked.length) return { leaves: spread(asked, fit), h, of: asked.length };
  const sweep = h ?? DEFAULT_H;
  const perH = over.perLeaf / sweep.length;
  const hFit = perH > 0 ? Math.floor((over.limit - over.overhead) / perH) : 0;
  if (fit >= 1 || hFit < 2 || hFit >= sweep.length) return null;
  return { leaves: spread(asked, 1), h: spread(sweep, hFit), of: asked.length };
}

/**
 * Run the check of `asked`; when the server says it is over the work bound, run what fits
 * instead (`fitWithin`) and say so in `fitted`; other errors, and a check that cannot be
 * cut to fit, throw as they came.
 * @param {(choice: {leaves: string[] | null, h: number[] | null}) => Promise<unknown>} fetchCheck
 *   leaves null: every leaf of the pass
 * @param {{asked: string[], all: boolean}} options  asked: the leaf ids to check; all: they are every leaf
 * @returns {Promise<{result: unknown, fitted: Fitted | null, over: OverBound | null}>}
 */
export async function checkWithinBound(fetchCheck, { asked, all }) {
  try {
    return {
      result: await fetchCheck({ leaves: all ? null : asked, h: null }),
      fitted: null,
      over: null,
    };
  } catch (error) {
    const over = error instanceof Error ? overBound(error.message) : null;
    const fitted = over && fitWithin(over, asked);
    if (!over || !fitted) throw error;
    const result = await fetchCheck({ leaves: fitted.leaves, h: fitted.h });
    return { result, fitted, over };
  }
}
