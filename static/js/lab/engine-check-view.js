/**
 * "Check your engine" (SPEC.md §14): for a program with its own Value class, the
 * trace's `engine_check` as a panel in the player. One row per op of the learner's
 * class (right, wrong or unchecked, with the line of its rule), one for the sort and
 * one for `+=`; each wrong row has a button to the first frame where it goes wrong.
 * The graph's marks (parted-marks.js) outline the nodes whose gradient ends wrong.
 * Absent for a trace without `engine_check` (the built-in engine).
 *
 * Test hooks: [data-testid=engine-check] (data-verdict "right" or "wrong"); inside it
 * [data-testid=engine-check-row] per op (data-op, data-verdict, data-line),
 * [data-testid=engine-check-sort] and [data-testid=engine-check-accumulation]
 * (data-verdict), and [data-testid=engine-check-first] buttons (data-frame).
 *
 * With the quiz on, a row's numbers (a local derivative, the share an `=` threw away)
 * are hidden while a question at or before the row's frame waits: they are gradients the
 * quiz asks for, or give them away (the lost share is the answer of the write before).
 * They show as "?" with a sentence that says why, and come back once it is answered.
 * Test hooks for that: [data-testid=engine-check-number] (data-masked while hidden) and
 * [data-testid=engine-check-masked], the sentence.
 *
 * Example: the article's engine with `=` in every rule shows "+=: wrong" with
 * "Show frame 8", and its rows for + and * say "right".
 */
import { formatValue, operand } from "../player/format.js";
import { gradName } from "../player/rule-text.js";
import { html } from "../player/svg.js";
import { callsNoBackward } from "../passes/passes.js";
import { partedAtEnds } from "./mistakes.js";

/**
 * @typedef {{nameOf: (id: string) => string, jump: (frame: number) => HTMLButtonElement,
 *   number: (value: number, frame: number) => HTMLElement, grad: string,
 *   writeLines: (frame: number, child: string) => number[], measured: Set<string>,
 *   noBackward: boolean}} RowContext
 *   nameOf: a node's name on screen; jump: a new button to a frame; number: a number the
 *   row shows about that frame, which the quiz may hide; grad: the gradient's attribute
 *   as the learner's class names it (`check.grad`: `gradient`, `_grad`), else `grad`;
 *   writeLines: the lines of the learner's writes into `child` at that frame (two for
 *   `a * a`, whose local derivative is their sum), each once, where known; measured: the
 *   rows of ops no table knows, whose right derivatives were measured (`measuredOps`);
 *   noBackward: the program calls no backward() and no rule (`callsNoBackward`)
 */

/**
 * @typedef {{element: HTMLElement, text: string, frame: number}} Shown
 *   a number of a row: its text, and the frame it tells about
 */

/** @param {string} verdict */
function verdictMark(verdict) {
  return html("span", {
    class: `engine-check-verdict engine-check-${verdict}`,
    text: verdict === "right" ? "right" : verdict === "wrong" ? "wrong" : "not checked",
  });
}

/**
 * A button to the first frame where something goes wrong, kept in `buttons` for update.
 * @param {number} frame
 * @param {(frame: number) => void} onSeek
 * @param {HTMLButtonElement[]} buttons
 */
function jumpButton(frame, onSeek, buttons) {
  const button = /** @type {HTMLButtonElement} */ (
    html("button", {
      type: "button",
      class: "engine-check-first",
      "data-testid": "engine-check-first",
      "data-frame": String(frame),
      text: `Show frame ${frame + 1}`,
    })
  );
  button.addEventListener("click", () => onSeek(frame));
  buttons.push(button);
  return button;
}

/**
 * One op's row; `wrote`: whether a rule of a node of this op wrote a gradient;
 * `replaced`: where another op's method set its rule in place of this op's (`replacedRows`).
 * @param {import("../passes/trace.js").RuleVerdict} rule
 * @param {boolean} wrote
 * @param {{holder: string, by: import("../passes/trace.js").RuleVerdict} | undefined} replaced
 * @param {RowContext} ctx
 */
function ruleRow(
  rule,
  wrote,
  replaced,
  { nameOf, jump, number, writeLines, measured, noBackward },
) {
  const where = rule.line ? ` (line ${rule.line})` : "";
  /** @type {(Node | string)[]} */
  const parts = [html("code", { text: rule.op }), ` rule${where}: `, verdictMark(rule.verdict)];
  if (rule.first?.merged !== undefined) {
    // A set of operands merged one away (a class that hashes by value): no factor is wrong.
    const { child, correct, frame, node, merged } = rule.first;
    parts.push(
      `. ${nameOf(node)}'s operands (its _prev) lost ${nameOf(child)}: the set merged it with ${nameOf(merged)}, equal to it by the class's __eq__ and __hash__, so ${nameOf(child)}'s rule never runs and what ${nameOf(child)} is made of gets nothing (${nameOf(child)}'s right local derivative in ${nameOf(node)} is `,
      number(correct, frame),
      "). ",
      jump(frame),
    );
  } else if (rule.first?.kept_on !== undefined) {
    // The op's method set the rule on an operand: the node's own rule does nothing.
    const { child, correct, frame, node, kept_on: holder } = rule.first;
    parts.push(
      `. The rule of ${nameOf(node)} is set on ${nameOf(holder)}, its operand, not on ${nameOf(node)}: ${nameOf(node)}'s own rule does nothing (0 for ${nameOf(child)}, whose right local derivative is `,
      number(correct, frame),
      `), and ${nameOf(holder)} keeps the rule of the last op it went into. `,
      jump(frame),
    );
  } else if (rule.first) {
    const { child, learner, correct, frame, node } = rule.first;
    // The row's line is where the rule begins (`def _backward():`); the wrong factor is
    // in a write some lines below, which the learner has to find.
    const lines = writeLines(frame, child).filter((line) => line !== rule.line);
    const at = lines.length ? ` on line${lines.length > 1 ? "s" : ""} ${listed(lines)}` : "";
    parts.push(
      `. ${nameOf(node)}'s rule uses `,
      number(learner, frame),
      ` as ${nameOf(child)}'s local derivative${at}; the right local derivative is `,
      number(correct, frame),
      measured.has(rule.op)
        ? `, checked numerically: no table knows ${rule.op}, so its own code was run again with ${nameOf(child)} nudged a tiny step up and down. `
        : ". ",
      jump(frame),
    );
  } else if (rule.verdict === "unchecked" && replaced) {
    // Its node's rule was replaced by another op's: nothing of this op's ran to judge.
    const { holder, by } = replaced;
    const line = by.line ? ` on line ${by.line}` : "";
    parts.push(
      `. The ${by.op} op's method set its rule on ${nameOf(holder)} in place of ${nameOf(holder)}'s own${line}, so ${nameOf(holder)}'s own rule never ran: there is nothing of this op's to judge.`,
    );
  } else if (rule.verdict === "unchecked" && !wrote) {
    parts.push(
      noBackward
        ? ". No rule of this op runs (the program calls no backward() and no node's rule), so it cannot be judged on its own; the gradients are judged as they end."
        : ". No rule of this op writes a gradient (backward() writes them itself), so it cannot be judged on its own; the gradients are judged as they end.",
    );
  } else if (rule.verdict === "unchecked") {
    parts.push(
      ". No right derivative is known for this op here (or an operand is missing from its _prev).",
    );
  } else {
    // Right derivatives, which is all this row judges: a rule that writes `=` is the += row's.
    parts.push(
      !rule.line
        ? " (the built-in engine)."
        : measured.has(rule.op)
          ? ` local derivatives on every use, checked numerically: no table knows ${rule.op}, so its own code was run again with each operand nudged a tiny step up and down.`
          : " local derivatives on every use.",
    );
  }
  return html(
    "li",
    {
      "data-testid": "engine-check-row",
      "data-op": rule.op,
      "data-verdict": rule.verdict,
      "data-line": rule.line ? String(rule.line) : "",
    },
    parts,
  );
}

/**
 * Numbers in words: "13", "13 and 14", "13, 14 and 15".
 * @param {number[]} items
 */
function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * Whether any rule of a node ran: a backward() that adds each child's share in a loop of
 * its own (no rule per node) leaves the sort and `+=` nothing to judge.
 * @param {import("../passes/trace.js").Trace} trace
 */
function ranRules(trace) {
  return trace.frames.some((frame) => frame.phase === "backward");
}

/**
 * The ops (by the check's rows, `**` for every `**k`: `rowOf`) of which some node's rule
 * wrote a gradient: a rule that only returns its shares (`_grad_fn`), its backward()'s
 * loop writing them, writes none, nor does a recursion that runs no rule at all.
 * @param {import("../passes/trace.js").Trace} trace
 * @returns {Set<string>}
 */
export function opsThatWrote(trace) {
  const opOf = new Map(trace.nodes.map((node) => [node.id, node.op]));
  const ops = new Set();
  for (const frame of trace.frames) {
    if (frame.phase !== "backward" || frame.contributions.length === 0) continue;
    ops.add(rowOf(opOf.get(frame.node) ?? ""));
  }
  return ops;
}

/**
 * The rows (`rowOf`) of ops no table of right rules knows, whose right derivatives the
 * engine measured by running the op's own code again with an operand moved by ±h (its
 * nodes say `reference: "numeric"`, SPEC §14): a learner's `cube`, judged right or wrong
 * with no word of how, read as if a table knew it.
 * Example: a node {op: "cube", reference: "numeric"} -> Set {"cube"}
 * @param {import("../passes/trace.js").Trace} trace
 * @returns {Set<string>}
 */
export function measuredOps(trace) {
  const ops = new Set();
  for (const node of trace.nodes) if (node.reference === "numeric") ops.add(rowOf(node.op));
  return ops;
}

/**
 * The rows whose op's rule another op's method replaced (`other._backward = _backward` in
 * `__add__` hangs the sum's rule on a product): by that op's row, the node whose own rule
 * never ran and the row that says where it went (its `first.kept_on`).
 * @param {import("../passes/trace.js").EngineCheck} check
 * @param {import("../passes/trace.js").Trace} trace
 * @returns {Map<string, {holder: string, by: import("../passes/trace.js").RuleVerdict}>}
 */
export function replacedRows(check, trace) {
  const opOf = new Map(trace.nodes.map((node) => [node.id, node.op]));
  const found = new Map();
  for (const rule of check.rules) {
    const holder = rule.first?.kept_on;
    if (holder === undefined) continue;
    const op = rowOf(opOf.get(holder) ?? "");
    if (op !== "" && op !== rule.op && !found.has(op)) found.set(op, { holder, by: rule });
  }
  return found;
}

/**
 * A power named in a word with its exponent (`pow 3`, `Pow(-1)`, `power_2`), as the
 * engine check reads it (engine/lab/right_engine.py's WORDED_POWER, at most 64 characters).
 */
const WORDED_POWER = /^_*(pow|power)[ _:^(]*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\)?$/i;

/**
 * The check's row of a node's op, as engine_check's `_row_name` names it: every `**k` is
 * `**`, every `^k` is `^`, a worded power (`pow 3`) its word; any other op itself.
 * Example: "pow 2" -> "pow"; "^3" -> "^"; "**-1" -> "**"; "tanh" -> "tanh"
 * @param {string} op
 */
function rowOf(op) {
  if (op.startsWith("**")) return "**";
  if (op.startsWith("^")) return "^";
  const worded = op.length <= 64 ? WORDED_POWER.exec(op) : null;
  return worded ? worded[1] : op;
}

/**
 * Why no rule runs in a trace that runs none: the program calls no backward() at all
 * (`callsNoBackward`), or its backward() writes the gradients itself.
 * @param {import("../passes/trace.js").Trace} trace
 */
function noRuleRuns(trace) {
  return callsNoBackward(trace)
    ? "The program calls no backward() and no node's rule (it works out the gradients itself, or never asks for them)"
    : "backward() runs no node's rule (it writes the gradients itself)";
}

/**
 * The sort's row.
 * @param {import("../passes/trace.js").EngineCheck["sort"]} sort
 * @param {import("../passes/trace.js").Trace} trace
 * @param {RowContext} ctx
 */
function sortRow(sort, trace, { nameOf, jump, grad }) {
  const sortParts = /** @type {(Node | string)[]} */ (["The sort: ", verdictMark(sort.verdict)]);
  const sortFirst = sort.first;
  if (sortFirst) {
    const there = trace.frames[sortFirst.frame];
    const ranHere = there?.phase === "backward" && there.node === sortFirst.node;
    const who = nameOf(sortFirst.node);
    const from = sortFirst.pass;
    const where = sortFirst.line ? ` (line ${sortFirst.line})` : "";
    sortParts.push(
      sortFirst.consumer === sortFirst.node
        ? `. ${who} is among its own operands: the graph has a loop, so no order runs every rule after those of its node's consumers. `
        : sortFirst.consumer
          ? `. ${who}'s rule runs before ${nameOf(sortFirst.consumer)}'s has added to ${operand(who)}.${grad}. `
          : there?.phase === "sort"
            ? `. ${noRuleRuns(trace)}: there is no order of rules to judge, but ${operand(who)}.${grad} ends different from a right engine's, so its writes are not the chain rule's. `
            : from !== undefined && there
              ? `. Pass ${(there.pass ?? 0) + 1} also runs the rule${where} of pass ${from + 1}'s ${who}, left over (nothing cleared the list of rules): pass ${(there.pass ?? 0) + 1}'s output does not reach it, so a right engine does not run it, and what it adds is extra. `
              : ranHere
                ? `. ${who}'s rule runs a second time and adds its share again. `
                : `. ${who}'s rule never runs. `,
      jump(sortFirst.frame),
    );
  } else if (!ranRules(trace)) {
    sortParts.push(`. ${noRuleRuns(trace)}: there is no order of rules to judge.`);
  } else sortParts.push(". Every rule runs once, after all of its node's consumers.");
  return html(
    "li",
    { "data-testid": "engine-check-sort", "data-verdict": sort.verdict },
    sortParts,
  );
}

/**
 * The row for `+=`.
 * @param {import("../passes/trace.js").EngineCheck["accumulation"]} accumulation
 * @param {import("../passes/trace.js").Trace} trace
 * @param {Set<string>} wrote  the ops some rule of which wrote a gradient (`opsThatWrote`)
 * @param {RowContext} ctx
 */
function accumulationRow(accumulation, trace, wrote, { nameOf, jump, number, grad }) {
  const sumParts = /** @type {(Node | string)[]} */ ([
    html("code", { text: "+=" }),
    ": ",
    verdictMark(accumulation.verdict),
  ]);
  const lost = accumulation.first;
  if (lost) {
    // The learner's line whose `=` threw the share away (a rule may write the same child
    // twice, `a * a`: the write that found it there), where the trace has it.
    // Or its `+=` (`-=`) whose `grad` setter adds what it is given: the gradient already
    // there is added again (engine_check.added_again), not lost.
    const there = trace.frames[lost.frame];
    const writes =
      there?.phase === "backward"
        ? there.contributions.filter(
            (c) => c.to === lost.child && c.write !== undefined && c.before === lost.lost,
          )
        : [];
    const write = writes.find((c) => c.write === "=") ?? writes[0];
    // Or backward()'s own loop wrote over it between two rules (an update frame).
    const line = write?.line ?? (there?.phase === "update" ? there.line : undefined);
    const where = line ? ` (line ${line})` : "";
    const again = write !== undefined && write.write !== "=";
    // Or a backward() that walks down every path and writes each share itself, no rule
    // of a node's in it (its whole walk is the sort frame): no rule to name.
    const writer =
      there?.phase === "update"
        ? "backward() itself, between two rules,"
        : there?.phase === "sort"
          ? `backward() itself, handing ${operand(nameOf(lost.child))} its share from ${nameOf(lost.node)},`
          : `${nameOf(lost.node)}'s rule`;
    sumParts.push(
      `. ${writer} writes ${operand(nameOf(lost.child))}.${grad} with ${again ? write.write : "="}${where}, ${again ? `through a setter that adds what it is given: the ` : "and the "}`,
      number(lost.lost, lost.frame),
      again ? " already there is added again. " : " already there is lost. ",
      jump(lost.frame),
    );
  } else if (!ranRules(trace)) {
    sumParts.push(". No rule ran, so no write could be told apart from the others.");
  } else if (wrote.size === 0) {
    sumParts.push(
      ". No rule wrote a gradient (backward() writes them itself), so no write could be told apart from the others.",
    );
  } else sumParts.push(". Every child keeps each share it is given.");
  return html(
    "li",
    {
      "data-testid": "engine-check-accumulation",
      "data-verdict": accumulation.verdict,
    },
    sumParts,
  );
}

/** @param {number} n */
function gradients(n) {
  return `${n} ${n === 1 ? "gradient" : "gradients"}`;
}

/**
 * Where the graph outlines the gradients that end wrong: at the end of the program, or
 * (a program of several passes whose earlier ones end wrong) at the end of those passes.
 * @param {Array<{pass: number}>} parted
 * @param {number} passCount
 */
function outlinedWhere(parted, passCount) {
  const passes = [...new Set(parted.map((entry) => entry.pass))].sort((a, b) => a - b);
  if (passes.every((pass) => pass === passCount - 1))
    return "outlined on the graph with the right value";
  const names = passes.map((pass) => String(pass + 1));
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `outlined on the graph with the right value at the end of pass${names.length === 1 ? "" : "es"} ${list}`;
}

/**
 * Whether any part of the engine is wrong, and the panel's one-line summary. The
 * gradients counted are those the graph outlines at the end of each pass
 * (`partedAtEnds`), as the engine left them: a training loop that empties its gradients
 * after the last step (`p.grad = 0`) has not made them wrong. Where backward() writes the
 * gradients itself (no rule of an op wrote one), the summary says that its rules could
 * not be judged one by one and judges the gradients as they end.
 * Example: a backward() whose loop writes `p.grad = g` for each share a `_grad_fn`
 * returns, all right: "backward() writes the gradients itself … Judged as they end,
 * every gradient agrees with a right engine's."
 * @param {import("../passes/trace.js").EngineCheck} check
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {Set<string>} [wrote]  `opsThatWrote(timeline.trace)`, where the caller has it
 */
export function engineSummary(check, timeline, wrote = opsThatWrote(timeline.trace)) {
  const { trace } = timeline;
  const wrong =
    check.rules.some((rule) => rule.verdict === "wrong") ||
    check.sort.verdict === "wrong" ||
    check.accumulation.verdict === "wrong";
  const partedList = partedAtEnds(timeline);
  const parted = partedList.length;
  const where = outlinedWhere(partedList, trace.passes?.length ?? 1);
  const unwritten = check.rules.filter(
    (rule) => rule.verdict === "unchecked" && !wrote.has(rule.op),
  ).length;
  const unchecked = check.rules.filter((rule) => rule.verdict === "unchecked").length;
  // Nodes without a right gradient (an op no right engine knows, and what it reaches).
  const compared = trace.nodes.every((node) => typeof node.correct_grad === "number")
    ? "every gradient"
    : "every gradient the check could compare";
  const end = parted === 1 ? "ends" : "end";
  // A set that merged an operand away cuts what that operand is made of off the graph the
  // right engine walks too: none of it is outlined, though its gradients are wrong.
  const merged = check.rules.find((rule) => rule.first?.merged !== undefined);
  const summary = wrong
    ? parted
      ? `Your engine parts from a right one: ${gradients(parted)} ${end} wrong, ${where}.`
      : merged
        ? `Your engine parts from a right one: a set of operands merged two equal nodes (the ${merged.op} row below), so the graph lost one of them, and what that one is made of gets no gradient. Those nodes are cut off the graph the check compares, so none is outlined.`
        : `Your engine parts from a right one (the rows below say where), though on this program ${compared} ends as a right engine's does.`
    : unwritten
      ? (callsNoBackward(trace)
          ? "The program calls no backward() and no node's rule (it works out the gradients itself, or never asks for them), so its rules cannot be judged one by one. "
          : "backward() writes the gradients itself (in its own loop or recursion, not in each node's rule), so its rules cannot be judged one by one. ") +
        (parted
          ? `Judged as they end, ${gradients(parted)} ${end} different from a right engine's, ${where}.${
              (trace.passes?.length ?? 1) > 1
                ? " A right engine starts each backward() from the gradients your program left, an earlier pass's included."
                : ""
            }`
          : `Judged as they end, ${compared} agrees with a right engine's.`)
      : parted && unchecked
        ? `${gradients(parted)} ${end} wrong, ${where}, and ${unchecked} ${unchecked === 1 ? "rule" : "rules"} could not be checked: look there first.`
        : parted
          ? `Every rule, the sort and += agree with a right engine, yet ${gradients(parted)} ${parted === 1 ? "differs" : "differ"} (${where}): look at the seed and at what runs between passes.`
          : unchecked
            ? `Your engine agrees with a right one wherever it could be checked; ${unchecked} ${unchecked === 1 ? "rule" : "rules"} could not be.`
            : `Your engine agrees with a right one on this program: ${compared} is right.${carriedNote(trace)}`;
  return { wrong, summary, parted: partedList };
}

/**
 * The first pass that starts from gradients an earlier pass left (nothing set them back
 * to 0: a training loop without zero_grad), 0-based, or -1. A value's first `+=` in a
 * pass adds to 0 unless its gradient was carried over.
 * Example: pass 0 writes w.grad 0 → 2, pass 1 writes w.grad 2 → 4 -> 1
 * @param {import("../passes/trace.js").Trace} trace
 */
export function carriedPass(trace) {
  /** @type {Set<string>} */
  let seen = new Set();
  let pass = 0;
  for (const frame of trace.frames) {
    if (frame.phase !== "backward") continue;
    if ((frame.pass ?? 0) !== pass) {
      pass = frame.pass ?? 0;
      seen = new Set();
    }
    for (const c of frame.contributions) {
      if (seen.has(c.to)) continue;
      seen.add(c.to);
      if (pass > 0 && c.before !== 0) return pass;
    }
  }
  return -1;
}

/**
 * What a right verdict does not say about a loop that never empties its gradients: the
 * engine is right, and the forgotten zero_grad is the program's (a course's exercise
 * handed in without it read "every gradient is right" and nothing more).
 * @param {import("../passes/trace.js").Trace} trace
 */
function carriedNote(trace) {
  const pass = carriedPass(trace);
  if (pass < 0) return "";
  return ` Pass ${pass + 1} starts from the gradients pass ${pass} left, since nothing set them back to 0, and a right engine adds onto them the same way: if they should start from 0, that is a ${clearingMethod(trace.source ?? "")}() the program needs before backward().`;
}

/** A method that sets gradients back to 0 by one of the names courses give it. */
const CLEARING = /^[ \t]*def[ \t]+(zero_?grads?|clear_?grads?|reset_?grads?)[ \t]*\(/im;

/**
 * The name of the program's own method that sets gradients back to 0, where it defines
 * one by a usual name (DeZero's `cleargrad`, micrograd's `zero_grad`), else `zero_grad`.
 * Example: "def cleargrad(self):\n    self.grad = None" -> "cleargrad"; "" -> "zero_grad"
 * @param {string} source
 */
export function clearingMethod(source) {
  return CLEARING.exec(source)?.[1] ?? "zero_grad";
}

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[], onSeek: (frame: number) => void,
 *   gate?: () => number}} options
 *   gate: the frame of the quiz's first unanswered question (Infinity: none, or no quiz)
 */
export function mountEngineCheckView(
  container,
  { timeline, names, onSeek, gate = () => Number.POSITIVE_INFINITY },
) {
  const { trace } = timeline;
  const check = trace.engine_check;
  container.hidden = !check;
  if (!check) {
    container.replaceChildren();
    return { update: () => {} };
  }
  const index = new Map(trace.nodes.map((node, i) => [node.id, i]));
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  /** @type {Shown[]} */
  const numbers = [];
  /** @type {RowContext} */
  const ctx = {
    nameOf: (id) => names[index.get(id) ?? -1] ?? id,
    jump: (frame) => jumpButton(frame, onSeek, buttons),
    number: (value, frame) => {
      const text = formatValue(value);
      const element = html("span", {
        class: "engine-check-number",
        "data-testid": "engine-check-number",
        text,
      });
      numbers.push({ element, text, frame });
      return element;
    },
    grad: gradName(trace),
    writeLines: (frame, child) => {
      const shown = trace.frames[frame];
      if (shown?.phase !== "backward") return [];
      const lines = shown.contributions.filter((c) => c.to === child).map((c) => c.line);
      return [...new Set(lines.filter((line) => line !== undefined))];
    },
    measured: measuredOps(trace),
    noBackward: callsNoBackward(trace),
  };
  const wrote = opsThatWrote(trace);
  const replaced = replacedRows(check, trace);
  const rows = check.rules.map((rule) =>
    ruleRow(rule, wrote.has(rule.op), replaced.get(rule.op), ctx),
  );
  const sort = sortRow(check.sort, trace, ctx);
  const accumulation = accumulationRow(check.accumulation, trace, wrote, ctx);
  // One sentence per row that has numbers, shown while the quiz hides them.
  /** @type {Map<Shown, HTMLElement>} */
  const maskNotes = new Map();
  for (const shown of numbers) {
    const row = /** @type {HTMLElement} */ (shown.element.closest("li") ?? shown.element);
    let note = /** @type {HTMLElement | null} */ (row.querySelector(".engine-check-masked"));
    if (!note) {
      note = html("span", {
        class: "engine-check-masked",
        "data-testid": "engine-check-masked",
        hidden: true,
      });
      row.append(note);
    }
    maskNotes.set(shown, note);
  }
  const { wrong, summary } = engineSummary(check, timeline, wrote);

  container.replaceChildren(
    html(
      "section",
      {
        class: `engine-check${wrong ? " engine-check-parted" : ""}`,
        "data-testid": "engine-check",
        "data-verdict": wrong ? "wrong" : "right",
        "aria-label": "Check your engine",
      },
      [
        html("p", { class: "engine-check-title" }, [
          html("span", { class: "engine-check-badge", text: "Check your engine" }),
          ` ${summary}`,
        ]),
        html("ul", { class: "engine-check-rows" }, [...rows, sort, accumulation]),
      ],
    ),
  );

  let shownGate = Number.NaN;
  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    for (const button of buttons)
      button.setAttribute("aria-current", String(Number(button.dataset.frame) === state.index));
    const waiting = gate();
    if (waiting === shownGate) return;
    shownGate = waiting;
    for (const note of maskNotes.values()) note.hidden = true;
    for (const shown of numbers) {
      const masked = shown.frame >= waiting;
      shown.element.textContent = masked ? "?" : shown.text;
      shown.element.toggleAttribute("data-masked", masked);
      const note = /** @type {HTMLElement} */ (maskNotes.get(shown));
      if (!masked) continue;
      note.hidden = false;
      note.textContent = ` (Its numbers are hidden until you answer the quiz up to frame ${shown.frame + 1}: they would give an answer away.)`;
    }
  }
  return { update };
}
