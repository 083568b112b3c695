/**
 * The words of the code panel, with no DOM: which lines of a primitive's source
 * are its `_backward` rule, and each `+=` of a backward frame written out with
 * names and then with numbers.
 *
 * Example (the neuron's w1*x1 node, grad 0.5):
 *   substitutions -> [{symbolic: "x1.grad += w1.data × n.grad", numeric: "= −3.0 × 0.5 = −1.5 → −1.5"}, …]
 */
import { formatCode } from "./format.js";

/**
 * Indices of the lines that make up the `_backward` closure in a primitive's source:
 * from `def _backward` up to (not including) the line that stores it.
 * @param {string[]} lines
 * @returns {Set<number>}
 */
export function backwardLines(lines) {
  const marked = new Set();
  const start = lines.findIndex((line) => /def _backward\b/.test(line));
  if (start < 0) return marked;
  const indent = lines[start].search(/\S/);
  for (let i = start; i < lines.length; i++) {
    if (i > start && lines[i].trim() !== "" && lines[i].search(/\S/) <= indent) break;
    marked.add(i);
  }
  for (let i = Math.max(...marked); marked.size > 1 && lines[i].trim() === ""; i--) marked.delete(i);
  return marked;
}

/**
 * The key of /api/rules for a node's op (`**-1.0` -> `**`).
 * @param {string} op
 */
export const ruleKey = (op) => (op.startsWith("**") ? "**" : op);

/**
 * The local derivative of a child, in words the rule would use.
 * @param {string} op
 * @param {string} out  the node's name
 * @param {string} child  the receiving child's name
 * @param {string} other  the other operand's name (binary ops)
 */
export function localSymbol(op, out, child, other) {
  if (op === "+") return "1.0";
  if (op === "*") return `${other}.data`;
  if (op === "tanh") return `(1 \u2212 ${out}.data\u00B2)`;
  if (op === "exp") return `${out}.data`;
  if (op === "relu") return `(${out}.data > 0)`;
  if (op === "log") return `(1 / ${child}.data)`;
  if (op === "sigmoid") return `${out}.data \u00D7 (1 \u2212 ${out}.data)`;
  if (op.startsWith("**")) {
    const k = Number(op.slice(2));
    return `${formatCode(k)} \u00D7 ${child}.data**${formatCode(k - 1)}`;
  }
  return "local";
}

/**
 * Each `+=` of a backward frame, twice: with names, then with numbers.
 * @param {{op: string, name: string, contributions: Array<{to: string, local: number, upstream: number,
 *   delta: number, before: number, after: number}>, nameOf: (id: string) => string}} frame
 */
export function substitutions({ op, name, contributions, nameOf }) {
  return contributions.map((c, i) => {
    const child = nameOf(c.to);
    const other = contributions.length === 2 ? nameOf(contributions[1 - i].to) : child;
    const symbolic = `${child}.grad += ${localSymbol(op, name, child, other)} \u00D7 ${name}.grad`;
    const sum = c.before === 0 ? "" : `${formatCode(c.before)} + ${formatCode(c.delta)} = `;
    const numeric = `= ${formatCode(c.local)} \u00D7 ${formatCode(c.upstream)} = ${formatCode(c.delta)}   \u2192 ${child}.grad = ${sum}${formatCode(c.after)}`;
    return { symbolic, numeric };
  });
}
