/**
 * A learner's typed number, read and judged, with no DOM and no `eval`: the quiz
 * (quiz.js) asks for a gradient and this module says whether the answer is right
 * and, when it can tell, which term of `child.grad += local × upstream` was off.
 *
 * Accepted notation: an optional sign (`-`, `+` or the true minus `−`), digits with
 * an optional point (`2`, `-1.5`, `.5`, `3.`), an optional exponent (`1e-3`,
 * `2.5E+2`), or a fraction of two such numbers (`1/2`, `-3/4`, `1e-3/2`). Spaces
 * anywhere are ignored (`- 1 / 2`). Left out on purpose: expressions (`0.5*3`),
 * decimal commas (ambiguous with thousands), `inf` and `nan`.
 *
 * Examples: parseAnswer("−1.5") -> {ok: true, value: -1.5}; parseAnswer("1/2") ->
 * {ok: true, value: 0.5}; parseAnswer("1/0") -> {ok: false, message: "…"};
 * isClose(0.498, 0.5) -> true (within 5e-3); isClose(101, 100) -> true (1 %).
 */

import { evaluate, exponentOf, factsOf, fill } from "../passes/op-facts.js";
import { attribute } from "../player/rule-text.js";

export const RELATIVE_TOLERANCE = 1e-2;
export const ABSOLUTE_TOLERANCE = 5e-3;
const MAX_ANSWER_CHARS = 100;
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const ANSWER = new RegExp(`^(${NUMBER})(?:/(${NUMBER}))?$`);
// U+2212 minus and the dashes people type for it on phones and in word processors.
const MINUS_LIKE = /[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g;
const SPACES = /[\s\u00A0\u202F]+/g;

/**
 * @typedef {{ok: true, value: number} | {ok: false, message: string}} ParsedAnswer
 */

/**
 * Read a typed answer as a number.
 * @param {string} text
 * @returns {ParsedAnswer}
 */
export function parseAnswer(text) {
  if (typeof text !== "string") return { ok: false, message: "Type a number." };
  if (text.length > MAX_ANSWER_CHARS)
    return { ok: false, message: `An answer is at most ${MAX_ANSWER_CHARS} characters.` };
  const compact = text
    .replace(SPACES, "")
    .replace(MINUS_LIKE, "-")
    .replace(/\u2044|\u2215/g, "/");
  if (compact === "")
    return { ok: false, message: "Type a number first, such as -1.5, .5 or 1/2." };
  if (/^[+-]?\d*,\d+$/.test(compact))
    return { ok: false, message: "Write the decimals after a point: 0.5, not 0,5." };
  const match = ANSWER.exec(compact);
  if (!match)
    return {
      ok: false,
      message: `"${text.trim()}" is not a number this quiz reads: try -1.5, .5, 1e-3 or 1/2.`,
    };
  const numerator = Number(match[1]);
  const denominator = match[2] === undefined ? 1 : Number(match[2]);
  if (denominator === 0) return { ok: false, message: "A fraction cannot have 0 below the line." };
  const value = numerator / denominator;
  if (!Number.isFinite(value))
    return { ok: false, message: "That number is too large to be a gradient here." };
  return { ok: true, value: value === 0 ? 0 : value };
}

/**
 * Whether an answer is right: within 1e-2 relative or 5e-3 absolute of the truth.
 * @param {number} answer
 * @param {number} truth
 */
export function isClose(answer, truth) {
  const gap = Math.abs(answer - truth);
  return gap <= ABSOLUTE_TOLERANCE || gap <= RELATIVE_TOLERANCE * Math.abs(truth);
}

/**
 * @typedef {{local: number | null, upstream: number, delta: number, before: number, after: number}} Step
 *   local: null where a learner's own rule's factor cannot be read off their code (SPEC §14)
 * @typedef {"right" | "forgot-before" | "forgot-upstream" | "forgot-local" | "sign" | "wrong-factor"
 *   | "unchanged" | "added" | "other"} Verdict
 */

/**
 * Judge an answer to "what is the child's gradient after this `+=`?". `factors` are
 * other numbers the learner might have multiplied by instead of the local
 * derivative (the data of the node and of its operands), for the wrong-factor case.
 * A mistake is only named when its number differs from the truth, so an answer is
 * never called both right and wrong. "added" is for engines that do not add (the bug
 * lab's `assign`: after = local × upstream): the learner added as a correct engine would.
 *
 * Example: the neuron's b (before 0, local 1, upstream 0.5, after 0.5): 0.5 -> "right";
 * the expanded neuron's second += into e (before −0.1036, delta 0.1464, after 0.0429):
 * 0.1464 -> "forgot-before".
 * @param {number} answer
 * @param {Step} step
 * @param {number[]} [factors]
 * @returns {{verdict: Verdict, factor?: number}}
 */
export function judgeAnswer(answer, step, factors = []) {
  const { upstream, delta, before, after } = step;
  const local = step.local ?? Number.NaN; // unknown: no slip is judged against it
  if (isClose(answer, after)) return { verdict: "right" };
  /** @param {number} candidate */
  const matches = (candidate) =>
    Number.isFinite(candidate) && !isClose(candidate, after) && isClose(answer, candidate);
  if (before !== 0 && matches(delta)) return { verdict: "forgot-before" };
  if (upstream !== 1 && (matches(before + local) || (before !== 0 && matches(local))))
    return { verdict: "forgot-upstream" };
  if (local !== 1 && matches(before + upstream)) return { verdict: "forgot-local" };
  if (matches(-after) || matches(before - delta)) return { verdict: "sign" };
  for (const factor of factors) {
    if (factor !== local && matches(before + factor * upstream))
      return { verdict: "wrong-factor", factor };
  }
  if (matches(before)) return { verdict: "unchanged" };
  if (before !== 0 && matches(before + delta)) return { verdict: "added" };
  return { verdict: "other" };
}

/**
 * Numbers a learner may multiply by instead of a rule's local derivative, each with
 * the words for it: any operand's or the output's `data` (in `*`, the child's own
 * factor instead of the other's), and the slips the engine lists for the op (the
 * trace's `ops`: for tanh the input where the output belongs, for `**k` a forgotten
 * `k` or `− 1`). `judgeAnswer` only names one that differs from the true local derivative.
 *
 * Example: wrongFactors(trace.ops, "tanh", {name: "n", data: 0.8814}, {name: "o", data: 0.7071})
 * includes {value: 1 − 0.8814², what: "1 − n.data²"}.
 * @param {import("../passes/op-facts.js").OpTable | undefined} ops
 * @param {string} op
 * @param {{name: string, data: number}} child
 * @param {{name: string, data: number}} out
 * @param {{name: string, data: number} | null} [other]  the other operand of a binary op
 * @returns {Array<{value: number, what: string}>}
 */
export function wrongFactors(ops, op, child, out, other = null) {
  const data = (/** @type {{name: string}} */ v) => attribute(v.name, "data");
  const factors = [
    { value: child.data, what: data(child) },
    { value: out.data, what: data(out) },
  ];
  if (other && other.name !== child.name) factors.push({ value: other.data, what: data(other) });
  const k = exponentOf(op);
  /** @type {Record<string, string>} */
  const words = { out: data(out), child: data(child), k: String(k), "k-1": String(k - 1) };
  if (other) words.other = data(other);
  const vars = { out: out.data, child: child.data, other: other?.data ?? Number.NaN, k };
  for (const slip of factsOf(ops, op)?.slips ?? [])
    factors.push({ value: evaluate(slip.value, vars), what: fill(slip.text, words) });
  return factors.filter((factor) => Number.isFinite(factor.value));
}
