/**
 * What the code panel shows for the bug lab and the step-by-step sort, as plain
 * data (lines, which are marked, a caption); code-panel.js draws it. The texts
 * come from the server's /api/rules when it has them (`build`, and `mistake:<id>`,
 * where `mistake:append-first` is the sort with its append moved up), else from the
 * short sketches here, so an old export still reads.
 *
 * Example: sortStepCode("append", {rules: {}}) -> {label: "The recursive sort",
 *   lines: ["def build(v):", …, "        topo.append(v)      # children first", …], marked: Set {6}}
 */
import { MISTAKES, mistakeInfo } from "./mistakes.js";
import { withoutDocstring } from "../player/rule-text.js";

/** The article's recursive sort in our own words: append after the loop. */
const BUILD_SKETCH = [
  "def build(v):",
  "    if v in visited:",
  "        return              # skip: seen before",
  "    visited.add(v)          # visit",
  "    for child in v._prev:",
  "        build(child)",
  "    topo.append(v)          # append: after every child",
];
const BUILD_APPEND_FIRST_SKETCH = [
  "def build(v):",
  "    if v in visited:",
  "        return",
  "    visited.add(v)",
  "    topo.append(v)          # the mistake: before the children",
  "    for child in v._prev:",
  "        build(child)",
];
/** The line each mistake changes, in the server's text or the sketch. */
const MISTAKE_LINES = {
  assign: /\.grad = (?!1\.0)/,
  "append-first": /topo\.append\(/,
  "no-sort": /_backward\(\)/,
};
/** The right engine's code each mistake replaces (its /api/rules key) and the lines to mark there. */
const RIGHT_CODE = {
  assign: { key: "accumulate", lines: /\.grad \+=/ },
  "append-first": { key: "build", lines: /topo\.append\(/ },
  "no-sort": {
    key: "backward",
    lines: /topological_order\(|build\(|reversed\(topo\)|_backward\(\)/,
  },
};
const CALLER = ["topo, visited = [], set()", "build(output)", "output.grad = 1.0"];

const STEP_LINES = {
  visit: /visited\.add\(/,
  skip: /^\s*(if\b.*\bin\b|return\b)/,
  append: /topo\.append\(/,
};

/**
 * @typedef {{lines: string[], marked: Set<number>, label: string, tone?: "mistake" | "right"}} CodeBlock
 */

/**
 * @param {string | undefined} text
 * @param {string[]} fallback
 */
const linesOf = (text, fallback) =>
  text ? withoutDocstring(text.trimEnd().split("\n")) : fallback;

/**
 * The recursive `build(v)` with the line this step runs marked, and the call that
 * starts it (`build(output)`, then the seed).
 * @param {"visit" | "skip" | "append" | "seed"} step
 * @param {{rules: Record<string, string>, appendFirst?: boolean, depth?: number}} options
 * @returns {CodeBlock[]}
 */
export function sortStepCode(step, { rules, appendFirst = false, depth = 0 }) {
  const lines = appendFirst
    ? linesOf(rules["mistake:append-first"], BUILD_APPEND_FIRST_SKETCH)
    : linesOf(rules.build, BUILD_SKETCH);
  const pattern = step === "seed" ? null : STEP_LINES[step];
  const marked = new Set(
    pattern ? lines.flatMap((line, i) => (pattern.test(line) ? [i] : [])) : [],
  );
  const caller = new Set(step === "seed" ? [2] : depth === 0 && step === "visit" ? [1] : []);
  return [
    {
      lines,
      marked,
      label: appendFirst
        ? "The recursive sort, with the append moved up (the mistake)"
        : "The recursive sort",
      ...(appendFirst ? { tone: /** @type {const} */ ("mistake") } : {}),
    },
    { lines: CALLER, marked: caller, label: "backward() starts it" },
  ];
}

/**
 * The mistaken code next to the right code it replaces, for a trace with a mistake.
 * @param {unknown} mistake
 * @param {Record<string, string>} rules
 * @returns {CodeBlock[]}
 */
export function mistakeCode(mistake, rules) {
  const info = mistakeInfo(mistake);
  if (!info) return [];
  const fromServer = rules[`mistake:${info.id}`];
  const wrong = linesOf(fromServer, info.wrong);
  const pattern = MISTAKE_LINES[info.id];
  const marked = new Set(wrong.flatMap((line, i) => (pattern.test(line) ? [i] : [])));
  const rightSource = rules[RIGHT_CODE[info.id].key];
  const right = linesOf(rightSource, info.right);
  const rightMarked = new Set(
    rightSource
      ? right.flatMap((line, i) => (RIGHT_CODE[info.id].lines.test(line) ? [i] : []))
      : right.map((_, i) => i),
  );
  return [
    { lines: wrong, marked, label: `The mistake: ${info.title}`, tone: "mistake" },
    { lines: right, marked: rightMarked, label: "The right engine", tone: "right" },
  ];
}

/** The mistakes' ids and titles, for the switch. */
export const MISTAKE_CHOICES = MISTAKES.map(({ id, title }) => ({ id, title }));
