/**
 * The words of the code panel, with no DOM: which lines of a primitive's source
 * are its `_backward` rule, and each `+=` of a backward frame written out with
 * names and then with numbers.
 *
 * Example (the neuron's x1*w1 node, grad 0.5):
 *   substitutions -> [{symbolic: "x1.grad += w1.data × (x1*w1).grad", numeric: "= −3.0 × 0.5 = −1.5",
 *   result: "→ x1.grad = −1.5"}, …]
 */
import { formatValue, operand } from "./format.js";
import { exponentOf, factsOf, fill, opKey } from "../passes/op-facts.js";

/**
 * Where a line's comment starts: the index of the `#` outside any string literal on the
 * line, or -1. A line inside a triple-quoted string is read as code (at worst its text
 * after a `#` wraps like a comment).
 * Example: commentStart("x = 1  # one") -> 7; commentStart("s = '#'") -> -1
 * @param {string} line
 */
export function commentStart(line) {
  /** @type {string | null} */ let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#") return i;
  }
  return -1;
}

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
  for (let i = Math.max(...marked); marked.size > 1 && lines[i].trim() === ""; i--)
    marked.delete(i);
  return marked;
}

/**
 * A function's source without its docstring, which the code panel has no room for.
 * Example: ["def f():", '    """Say it."""', "    return 1"] -> ["def f():", "    return 1"]
 * @param {string[]} lines
 */
export function withoutDocstring(lines) {
  const start = lines.findIndex((line) => /^\s*def\b/.test(line)) + 1;
  const quote = start > 0 ? /^\s*("""|''')/.exec(lines[start] ?? "") : null;
  if (!quote) return lines;
  let end = start;
  if (!lines[start].trim().slice(3).includes(quote[1])) {
    end = lines.findIndex((line, i) => i > start && line.includes(quote[1]));
    if (end < 0) return lines;
  }
  return [...lines.slice(0, start), ...lines.slice(end + 1)];
}

/** The most lines of a program's own rule the code panel shows. */
export const MOST_RULE_LINES = 40;

/**
 * The gradient's attribute as the program's own class names it (`engine_check.grad`:
 * `gradient`, `derivative`, `_grad`), else `grad` (the engine's own `Value`, a class that
 * keeps it in `grad`, or anything that is not a plain name).
 * Example: gradName({engine_check: {grad: "gradient"}}) -> "gradient".
 * @param {{engine_check?: {grad?: string}}} trace
 */
export function gradName(trace) {
  const grad = trace.engine_check?.grad;
  return typeof grad === "string" && /^[A-Za-z_]\w*$/.test(grad) ? grad : "grad";
}

/**
 * The name of the program's own function a pass runs, read off its `def` line
 * (`passes[].backward.line`): `backward`, or a function of its own such as
 * `compute_gradients(z)`'s; `backward` where no `def` is found there.
 * Example: passName({passes: [{backward: {line: 1}}]}, ["def getGradients(z):"]) ->
 *   "getGradients"
 * @param {{passes?: {backward?: {line: number} | null}[]}} trace
 * @param {string[]} sourceLines
 * @param {number} [pass]
 */
export function passName(trace, sourceLines, pass = 0) {
  return passDef(trace, sourceLines, pass)?.[2] ?? "backward";
}

/**
 * The `def` line of a pass's own function (`passes[].backward.line`), matched: its
 * indent, its name and its first parameter; null where the line is no `def`.
 * @param {{passes?: {backward?: {line: number} | null}[]}} trace
 * @param {string[]} sourceLines
 * @param {number} pass
 */
function passDef(trace, sourceLines, pass) {
  const line = trace.passes?.[pass]?.backward?.line;
  return typeof line === "number"
    ? /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)?/.exec(
        sourceLines[line - 1] ?? "",
      )
    : null;
}

/**
 * The call that ran a pass on the node named `output`, as the program wrote it, read off
 * the `def` of its own function (`passes[].backward.line`): a method of the class (an
 * indented `def` whose first parameter is `self`), `y.backprop()`, else a function given
 * the node, `compute_gradients(y)`; `y.backward()` where no `def` is found there.
 * @param {{passes?: {backward?: {line: number} | null}[]}} trace
 * @param {string[]} sourceLines
 * @param {string} output
 * @param {number} [pass]
 */
export function passCall(trace, sourceLines, output, pass = 0) {
  const def = passDef(trace, sourceLines, pass);
  if (def && !(def[1] && def[3] === "self")) return `${def[2]}(${output})`;
  return `${operand(output)}.${def ? def[2] : "backward"}()`;
}

/**
 * The attribute a program-class node keeps its rule in, read off the rule's first line
 * (`nodes[].rule`: `self.rule = lambda: None` -> "rule", `def _backward():` ->
 * "_backward"); `_backward` for the engine's own Value (no such lines); null where
 * the line names none.
 * @param {string[]} sourceLines
 * @param {{line: number} | undefined} rule
 * @returns {string | null}
 */
export function ruleAttribute(sourceLines, rule) {
  if (!rule) return "_backward";
  const line = sourceLines[rule.line - 1] ?? "";
  const found =
    /\.\s*([A-Za-z_]\w*)\s*=\s*lambda\b/.exec(line) ?? /^\s*def\s+([A-Za-z_]\w*)\s*\(/.exec(line);
  return found ? found[1] : null;
}

/**
 * A program-class node's own `_backward`, as the program wrote it (`nodes[].rule`:
 * its first and last line in the source): the lines without their common indent, the
 * number of the first, and which of them write a `.grad` (what runs at a backward
 * step; `grad`: the attribute, as `gradName` gives it); null when the lines are not in
 * the source.
 * Example: programRule(["class V:", "  def _backward():", "    a.grad += 1"],
 *   {line: 2, end_line: 3}) -> {lines: ["def _backward():", "  a.grad += 1"], first: 2,
 *   writes: Set {1}}
 * @param {string[]} sourceLines
 * @param {{line: number, end_line: number}} rule
 * @param {string} [grad]
 * @returns {{lines: string[], first: number, writes: Set<number>} | null}
 */
export function programRule(sourceLines, rule, grad = "grad") {
  const { line, end_line: endLine } = rule;
  if (!Number.isInteger(line) || !Number.isInteger(endLine)) return null;
  if (line < 1 || endLine < line || endLine > sourceLines.length) return null;
  const cut = endLine - line + 1 > MOST_RULE_LINES;
  const raw = sourceLines.slice(line - 1, cut ? line - 1 + MOST_RULE_LINES : endLine);
  const indents = raw.filter((text) => text.trim() !== "").map((text) => text.search(/\S/));
  const indent = indents.length ? Math.min(...indents) : 0;
  const lines = raw.map((text) => text.slice(Math.min(indent, text.length)));
  if (cut) lines.push("\u2026");
  const writes = new Set();
  const written =
    grad === "grad"
      ? /\.grad\s*(?:\*\*|\/\/|[-+*/%@&|^]|<<|>>)?=(?!=)/
      : new RegExp(`\\.${grad}\\s*(?:\\*\\*|\\/\\/|[-+*/%@&|^]|<<|>>)?=(?!=)`);
  lines.forEach((text, i) => {
    if (written.test(text)) writes.add(i);
  });
  return { lines, first: line, writes };
}

/** The key of /api/rules for a node's op (`**-1.0` -> `**`): the same as the trace's `ops`. */
export const ruleKey = opKey;

/**
 * The engine's source of a node's rule (/api/rules), or null: only for an op the engine
 * has (one with facts in the trace's `ops`), so a program's own op named `backward` is
 * not shown the engine's loop, nor one named `constructor` an Object method.
 * Example: ruleSource(rules, trace.ops, "**2") -> rules["**"].
 * @param {Record<string, string>} rules
 * @param {import("../passes/op-facts.js").OpTable | undefined} ops
 * @param {string} op
 * @returns {string | null}
 */
export function ruleSource(rules, ops, op) {
  const key = ruleKey(op);
  return factsOf(ops, op) && Object.hasOwn(rules, key) ? rules[key] : null;
}

/**
 * A node's attribute as Python would need it written: names that are not one operand
 * (a plain name or a path) are bracketed, as the engine's texts write them.
 * Example: attribute("x1*w1", "grad") -> "(x1*w1).grad"; attribute("-1", "grad") ->
 * "(-1).grad"; attribute("e", "data") -> "e.data"; attribute("n.w[0]", "grad") -> "n.w[0].grad".
 * @param {string} name
 * @param {string} attr
 */
export const attribute = (name, attr) => `${operand(name)}.${attr}`;

/**
 * The local derivative of a child as the rule computes it, from the engine's template
 * for the op (the trace's `ops`, op-facts.js); `local` for an op with none.
 * Example: localSymbol(trace.ops, "tanh", "o", "n", "n") -> "(1 − o.data²)".
 * @param {import("../passes/op-facts.js").OpTable | undefined} ops
 * @param {string} op
 * @param {string} out  the node's name
 * @param {string} child  the receiving child's name
 * @param {string} other  the other operand's name (binary ops)
 */
export function localSymbol(ops, op, out, child, other) {
  const facts = factsOf(ops, op);
  if (!facts) return "local";
  /** @type {Record<string, string>} */
  const values = {
    out: attribute(out, "data"),
    child: attribute(child, "data"),
    other: attribute(other, "data"),
  };
  if (op.startsWith("**")) {
    const k = exponentOf(op);
    values.k = formatValue(k);
    values["k-1"] = formatValue(k - 1);
  }
  return fill(facts.local, values);
}

/**
 * Each `+=` of a backward frame, three ways: with names, with numbers, and where
 * the child's gradient ends up (with the running sum when it already had one).
 * With the bug lab's `assign` mistake (SPEC §8) the rule writes `=`: no running sum.
 * A rule of the program's own Value class (SPEC §14: contributions with `write`) is
 * shown as the learner wrote it: their line, their factor, their `=` or `+=`.
 * @param {{op: string, name: string, contributions: import("../passes/trace.js").Contribution[],
 *   nameOf: (id: string) => string, assign?: boolean,
 *   ops: import("../passes/op-facts.js").OpTable | undefined, sourceLines?: string[],
 *   grad?: string}} frame
 *   ops: the trace's; sourceLines: the program's, for a learner's writes; grad: the
 *   gradient's attribute as the learner's class names it (`engine_check.grad`), for theirs
 */
export function substitutions({
  op,
  name,
  contributions,
  nameOf,
  assign = false,
  ops,
  sourceLines = [],
  grad = "grad",
}) {
  return contributions.map((c, i) => {
    const child = nameOf(c.to);
    if (c.write) {
      // Which of this line's writes it is: a loop on one line writes each child in turn.
      const k = contributions
        .slice(0, i)
        .filter((d) => d.line === c.line && d.write === c.write).length;
      return learnerSubstitution(c, child, sourceLines, grad, k);
    }
    const other = contributions.length === 2 ? nameOf(contributions[1 - i].to) : child;
    const symbolic = `${attribute(child, "grad")} ${assign ? "=" : "+="} ${localSymbol(ops, op, name, child, other)} \u00D7 ${attribute(name, "grad")}`;
    const sum =
      c.before === 0 || assign ? "" : `${formatValue(c.before)} + ${formatValue(c.delta)} = `;
    // A built-in rule's write always has its factor; a learner's goes the other way above.
    const factor = c.local === null ? "?" : formatValue(c.local);
    const numeric = `= ${factor} \u00D7 ${formatValue(c.upstream)} = ${formatValue(c.delta)}`;
    const lost = assign && c.before !== 0 ? `, overwriting ${formatValue(c.before)}` : "";
    const result = `\u2192 ${attribute(child, "grad")} = ${sum}${formatValue(c.after)}${lost}`;
    return { symbolic, numeric, result };
  });
}

const COMPOUND =
  /^\s*(?:for|async\s+for|if|elif|else|while|with|async\s+with|try|except|finally)\b/;
const AUGMENTED = "+-*/%&|^@";

/**
 * The statement of a source line that makes a write (`write`: `+=`, `-=` or `=`), the
 * `k`-th such one: the line itself, trimmed and without its comment, unless it holds more
 * than one statement (a one-line suite, `for p, g in zip(v.parents, v.grad_fn(v.grad)):
 * p.grad += g`, or `a.grad += x; b.grad += y`). Brackets, strings and a comment are
 * skipped; a compound statement's header ends at its first colon outside them (not a
 * walrus's `:=`). The comment stays in the rule's code below the numbers: beside them,
 * `# should be -= : d(a-b)/db = -1` ran on into `= 1 × −2.213` as if one sum.
 * Example: writeStatement("    for p, g in pairs: p.grad += g", "+=") -> "p.grad += g".
 * @param {string} line
 * @param {string} write
 * @param {number} [k]
 */
export function writeStatement(line, write, k = 0) {
  /** @type {{text: string, ops: Set<string>}[]} */
  const parts = [];
  let start = 0;
  let depth = 0;
  let header = COMPOUND.test(line);
  let ops = new Set();
  /** @type {string | null} */
  let quote = null;
  const cut = (/** @type {number} */ end) => {
    parts.push({ text: line.slice(start, end).trim(), ops });
    start = end + 1;
    ops = new Set();
  };
  let end = line.length;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote !== null) {
      if (ch === "\\") i++;
      else if (line.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = null;
      }
    } else if (ch === '"' || ch === "'") {
      quote = line.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      i += quote.length - 1;
    } else if (ch === "#") {
      end = i;
      break;
    } else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (ch === ";") cut(i);
    else if (ch === ":" && header && line[i + 1] !== "=") {
      cut(i);
      header = false;
    } else if (ch === "=" && line[i + 1] === "=") i++;
    else if (ch === "=" && !"=!<>:".includes(line[i - 1] ?? "")) {
      const before = line[i - 1] ?? "";
      ops.add(AUGMENTED.includes(before) ? `${before}=` : "=");
    }
  }
  cut(end);
  const writing = parts.filter((part) => part.ops.has(write));
  if (parts.filter((part) => part.text).length < 2 || writing.length === 0)
    return line.slice(0, end).trim() || line.trim();
  return writing[k % writing.length].text;
}

/**
 * One write of a learner's own rule, from their code: the statement on its line, the
 * numbers it multiplied (when the factor can be read off the code), and what the child's
 * gradient became, saying what an `=` threw away.
 * Example: {write: "=", line: 19, local: 3, upstream: 1, before: 3, after: 3} on
 * `other.grad = self.data * out.grad` -> symbolic "other.grad = self.data * out.grad",
 * numeric "= 3.0 × 1.0 = 3.0", result "→ a.grad = 3.0, overwriting 3.0".
 * @param {import("../passes/trace.js").Contribution} c
 * @param {string} child  the child's name
 * @param {string[]} sourceLines
 * @param {string} grad  the gradient's attribute, as the learner's class names it
 */
function learnerSubstitution(c, child, sourceLines, grad, k = 0) {
  const written = c.line ? writeStatement(sourceLines[c.line - 1] ?? "", c.write ?? "=", k) : "";
  const symbolic = written || `${attribute(child, grad)} ${c.write} …`;
  // A `-=` subtracts its factor times the upstream gradient: its `local` is minus that
  // factor, its delta minus that product, and both are said as the code has them.
  const minus = c.write === "-=";
  const value = c.write === "+=" ? c.delta : minus ? 0 - c.delta : c.after;
  const numeric =
    c.local === null || c.local === undefined
      ? `= ${formatValue(value)}`
      : `= ${formatValue(minus ? 0 - c.local : c.local)} \u00D7 ${formatValue(c.upstream)} = ${formatValue(value)}`;
  const sum =
    c.write !== "=" && c.before !== 0
      ? `${formatValue(c.before)} ${minus ? "\u2212" : "+"} ${formatValue(value)} = `
      : "";
  const lost = c.write === "=" && c.before !== 0 ? `, overwriting ${formatValue(c.before)}` : "";
  const result = `\u2192 ${attribute(child, grad)} = ${sum}${formatValue(c.after)}${lost}`;
  return { symbolic, numeric, result };
}
