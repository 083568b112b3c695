/**
 * The code panel: what code is running at this frame. Build frames show the
 * program line being run and the primitive it calls; the sort frame shows the
 * depth-first sort; backward frames show the `for node in reversed(topo)` loop
 * at the current iteration, the node's rule from the engine's own source (from
 * /api/rules, passed in) or, for a program with a Value class of its own, the
 * program's own `_backward` (`nodes[].rule`), and each `+=` with the numbers put in.
 */
import { formatValue } from "./format.js";
import { mistakeCode, sortStepCode } from "../lab/lab-code.js";
import {
  backwardLines,
  commentStart,
  gradName,
  passName,
  programRule,
  ruleAttribute,
  ruleSource,
  substitutions,
  withoutDocstring,
} from "./rule-text.js";
import { sourceLines as splitSourceLines } from "./source-position.js";
import { html } from "./svg.js";
import { programExcerpt, updateParts } from "./update-code.js";

/** Shown when the host has no engine source for the sort (e.g. an old export). */
const SORT_SKETCH = [
  "topo, seen = [], set()",
  "def visit(v):            # depth first",
  "    if v not in seen:",
  "        seen.add(v)",
  "        for child in v._prev:",
  "            visit(child)",
  "        topo.append(v)   # only after its children",
  "visit(output)",
  "output.grad = 1.0        # d output / d output",
];
const SORT_MARKED = new Set([6, 8]);

/**
 * @param {string[]} lines
 * @param {Set<number>} marked
 * @param {{first?: number, label?: string, tone?: string}} [options]  first: number of the first line, to show
 *   numbers; tone: "mistake" or "right" for the bug lab's two versions of a line
 */
function codeBlock(lines, marked, { first, label, tone } = {}) {
  const code = html("code");
  lines.forEach((line, i) => {
    const row = html("span", {
      class: marked.has(i) ? "code-line is-marked" : "code-line",
      "data-testid": "code-line",
      "data-marked": marked.has(i),
    });
    if (first !== undefined)
      row.append(
        html("span", { class: "line-number", "aria-hidden": "true", text: String(first + i) }),
      );
    // A comment wraps in the room the code leaves it, hanging at its own column: the
    // listings explain themselves in comments (`# runs before every parent has added
    // in`), which ran out of a laptop's panel, cut at its edge.
    const comment = commentStart(line);
    if (comment < 0) row.append(line === "" ? " " : line);
    else
      row.append(
        html("span", { class: "code-text", text: line.slice(0, comment) }),
        html("span", { class: "code-comment", text: line.slice(comment) }),
      );
    code.append(row);
  });
  const figure = {
    class: tone ? `code-figure is-${tone}` : "code-figure",
    "data-tone": tone ?? false,
  };
  return html("figure", figure, [
    ...(label ? [html("figcaption", { text: label })] : []),
    // Focusable because it may scroll sideways (keyboard users must reach it).
    html("pre", { class: "code", tabindex: 0 }, [code]),
  ]);
}

/**
 * Indices of the lines that match `pattern`.
 * @param {string[]} lines
 * @param {RegExp} pattern
 */
const markWhere = (lines, pattern) =>
  new Set(lines.flatMap((line, i) => (pattern.test(line) ? [i] : [])));

/**
 * @typedef {{
 *   timeline: import("../passes/timeline.js").Timeline,
 *   trace: import("../passes/trace.js").Trace,
 *   names: string[], rules: Record<string, string>, sourceLines: string[],
 *   nameOf: (id: string) => string,
 * }} CodeContext
 * What the panel's parts are made from: the trace, its names, the engine's rules.
 */

/**
 * The node's rule: the program's own (a class of its own), else the engine's.
 * @param {CodeContext} context
 * @param {import("../passes/trace.js").TraceNode} node
 * @param {(lines: string[]) => Set<number>} marked  which of the engine's lines to mark
 * @param {boolean} running  a backward step: mark the program's lines that write a grad
 */
function rule({ trace, rules, sourceLines }, node, marked, running) {
  const own = node.rule ? programRule(sourceLines, node.rule, gradName(trace)) : null;
  if (own) {
    const { lines, first, writes } = own;
    const span =
      node.rule && node.rule.end_line > first
        ? `lines ${first}\u2013${node.rule.end_line}`
        : `line ${first}`;
    return [
      codeBlock(lines, running ? (writes.size ? writes : new Set(lines.keys())) : new Set(), {
        first,
        label: `Your program \u00B7 ${span} (its own rule)`,
      }),
    ];
  }
  // A node of the learner's own class that keeps no rule of its own (its backward()
  // writes the gradients): nothing of the engine's is its code.
  if (trace.engine_check) return [];
  const { op } = node;
  const source = ruleSource(rules, trace.ops, op);
  if (!source) return [];
  const lines = withoutDocstring(source.trimEnd().split("\n"));
  return [
    codeBlock(lines, marked(lines), {
      label: `engine/value.py \u00B7 ${op.startsWith("**") ? "**" : op}`,
    }),
  ];
}

/**
 * A build frame: the program line being run and the primitive it calls.
 * @param {CodeContext} context
 * @param {import("../passes/timeline.js").FrameState} state
 */
function buildParts(context, state) {
  const { trace, names, sourceLines } = context;
  const node = trace.nodes[state.current];
  return [
    ...programExcerpt(state.line, sourceLines, codeBlock),
    html("p", { class: "code-note" }, [
      "Creates ",
      html("strong", { text: names[state.current] }),
      ` = ${formatValue(node.data)}`,
      // (A node of the learner's own class may keep no rule: its backward() does the work.)
      trace.engine_check && !node.rule ? "." : " and stores its backward rule (not run yet):",
    ]),
    ...rule(context, node, (lines) => markWhere(lines, /out\s*=\s*Value\(/), false),
  ];
}

/**
 * The program's own backward() of this frame's pass (`passes[].backward`: its lines and
 * the line calling the nodes' rules), as programRule reads it; null for the engine's.
 * @param {CodeContext} context
 * @param {import("../passes/timeline.js").FrameState} state
 */
function ownBackward({ trace, sourceLines }, state) {
  const code = trace.passes?.[state.pass ?? 0]?.backward;
  if (!code) return null;
  const own = programRule(sourceLines, code);
  if (!own) return null;
  const { call } = code;
  const inside =
    typeof call === "number" &&
    Number.isInteger(call) &&
    call >= code.line &&
    call <= code.end_line;
  return { ...own, span: `lines ${code.line}\u2013${code.end_line}`, call: inside ? call : null };
}

/**
 * The line of this frame's writes where the program's own backward() makes them itself
 * (a loop that adds the shares a rule returned, `for c, g in zip(v._prev,
 * v.grad_fn(v.grad)):` then `c.grad += g`): the write's own line, which the panel marks
 * in place of the line that called the rule; null where a rule wrote them, or they are
 * on several lines.
 * @param {import("../passes/trace.js").Trace} trace
 * @param {import("../passes/timeline.js").FrameState} state
 * @returns {number | null}
 */
function loopWriteLine(trace, state) {
  const code = trace.passes?.[state.pass ?? 0]?.backward;
  const line = state.contributions[0]?.line;
  if (!code || typeof line !== "number" || line < code.line || line > code.end_line) return null;
  return state.contributions.every((c) => c.line === line) ? line : null;
}

/**
 * What backward()'s loop did at a frame where no line of it is known to call the rule:
 * its own loop writes each node's share (microgpt's `child.grad += local * v.grad`), or,
 * where every write is outside backward()'s lines, the node's rule wrote them, called by a
 * line the engine did not find (`n.rule()`: the note said the loop wrote them).
 * Example: writes on lines 20 and 21, backward() on lines 25–36 -> "its loop runs each
 * node's rule, which writes the gradients"
 * @param {import("../passes/trace.js").Trace} trace
 * @param {import("../passes/timeline.js").FrameState} state
 */
export function loopNote(trace, state) {
  const code = trace.passes?.[state.pass ?? 0]?.backward;
  const lines = state.contributions.map((c) => c.line);
  const outside =
    code !== undefined &&
    lines.length > 0 &&
    lines.every((line) => typeof line === "number" && (line < code.line || line > code.end_line));
  return outside
    ? "its loop runs each node's rule, which writes the gradients"
    : "its loop writes the gradients";
}

/**
 * The sort frame: the program's own backward(), else the engine's backward and its
 * depth-first sort, else a sketch of them.
 * @param {CodeContext} context
 * @param {import("../passes/timeline.js").FrameState} state
 */
function sortParts(context, state) {
  const own = ownBackward(context, state);
  if (own) {
    // Marked: where it seeds the output's gradient and where it calls the rules.
    const grad = gradName(context.trace);
    const seed =
      grad === "grad"
        ? /\.grad\s*=\s*1(?:\.0*)?\s*(?:#.*)?$/
        : new RegExp(`\\.${grad}\\s*=\\s*1(?:\\.0*)?\\s*(?:#.*)?$`);
    const marked = markWhere(own.lines, seed);
    if (own.call !== null) marked.add(own.call - own.first);
    return [
      codeBlock(own.lines, marked, {
        first: own.first,
        label: `Your program \u00B7 ${own.span} (its own backward)`,
      }),
    ];
  }
  const { rules } = context;
  const engineBackward = rules.backward;
  const engineSort = rules.topological_order;
  if (!(engineBackward && engineSort))
    return [codeBlock(SORT_SKETCH, SORT_MARKED, { label: "The depth-first sort" })];
  const loop = withoutDocstring(engineBackward.trimEnd().split("\n"));
  const dfs = withoutDocstring(engineSort.trimEnd().split("\n"));
  return [
    codeBlock(loop, markWhere(loop, /topological_order\(|grad\s*=\s*1/), {
      label: "engine/value.py \u00B7 backward",
    }),
    codeBlock(dfs, markWhere(dfs, /topo\.append/), {
      label: "engine/value.py \u00B7 topological_order (the depth-first sort)",
    }),
  ];
}

/**
 * Which rule of the pass this frame runs: `step 3 of 10`.
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {import("../passes/trace.js").Trace} trace
 * @param {import("../passes/timeline.js").FrameState} state
 */
function stepOf(timeline, trace, state) {
  // Without a sort (the bug lab's no-sort), topo is the order of the walk itself.
  const position =
    trace.mistake === "no-sort"
      ? timeline.topoIndex[state.current] + 1
      : timeline.trace.topo.length - timeline.topoIndex[state.current];
  return `step ${position} of ${trace.topo.length}`;
}

/**
 * The backward loop (or, without a sort, the walk) at the current iteration.
 * @param {CodeContext} context
 * @param {import("../passes/timeline.js").FrameState} state
 */
function loopBlock({ timeline, trace, names }, state) {
  const noSort = trace.mistake === "no-sort";
  const step = stepOf(timeline, trace, state);
  return noSort
    ? codeBlock(
        [
          "walk(output)                # depth first, no sort",
          `    v._backward()           # ${step}: v = ${names[state.current]}`,
        ],
        new Set([1]),
        { label: "The backward walk" },
      )
    : codeBlock(
        [
          "for node in reversed(topo):",
          `    node._backward()        # ${step}: node = ${names[state.current]}`,
        ],
        new Set([1]),
        { label: "The backward loop" },
      );
}

/**
 * The box of the rule's lines with the numbers put in.
 * @param {ReturnType<typeof substitutions>} rows
 */
const substitutionBox = (rows) =>
  html(
    "div",
    { class: "substitutions", "aria-label": "The rule with numbers" },
    rows.map((row) =>
      html("div", { class: "substitution", "data-testid": "substitution", tabindex: 0 }, [
        html("code", { class: "symbolic", text: row.symbolic }),
        html("code", { class: "numeric", text: row.numeric }),
        html("code", { class: "result", text: row.result }),
      ]),
    ),
  );

/**
 * What a leaf's or a constant's backward frame says: its rule, under the name the
 * program keeps it by (`ruleAttribute`: `rule`, `backward_fn`; `_backward` for the
 * engine's own Value), does nothing, and its gradient (`gradName`) is final.
 * Example: a leaf `a` whose rule is `self.rule = lambda: None` -> "a is a leaf: its
 *   rule does nothing. Its grad is final."
 * @param {import("../passes/trace.js").Trace} trace
 * @param {{kind: string, rule?: {line: number, end_line: number}}} node
 * @param {string} name
 * @param {string[]} sourceLines
 */
export function leafNote(trace, node, name, sourceLines) {
  const rule = ruleAttribute(sourceLines, node.rule) ?? "rule";
  const what = node.kind === "const" ? "constant" : "leaf";
  return `${name} is a ${what}: its ${rule} does nothing. Its ${gradName(trace)} is final.`;
}

/**
 * A backward frame: the loop, then the node's rule with its `+=`s.
 * @param {CodeContext} context
 * @param {import("../passes/timeline.js").FrameState} state
 */
function backwardParts(context, state) {
  const { trace, names, nameOf, sourceLines } = context;
  const node = trace.nodes[state.current];
  // A rule the program called itself (`o._backward()` by hand): its line, not a loop;
  // a rule its own backward() called: that line, else the engine's loop.
  const own = state.line === null ? ownBackward(context, state) : null;
  const step = `Your ${passName(trace, sourceLines, state.pass ?? 0)}() \u00B7 ${stepOf(context.timeline, trace, state)}: ${names[state.current]}`;
  const parts =
    state.line !== null
      ? programExcerpt(state.line, sourceLines, codeBlock)
      : own?.call != null
        ? programExcerpt(loopWriteLine(trace, state) ?? own.call, sourceLines, codeBlock, step)
        : own
          ? [html("p", { class: "code-note", text: `${step} (${loopNote(trace, state)})` })]
          : [loopBlock(context, state)];
  if (node.kind !== "op") {
    parts.push(
      html("p", {
        class: "code-note",
        text: leafNote(trace, node, names[state.current], sourceLines),
      }),
    );
    return parts;
  }
  // The rule with its numbers first, where a laptop's screen still shows it, then
  // the rule's code it comes from.
  const ruleParts = rule(context, node, backwardLines, true);
  const rows = substitutions({
    op: node.op,
    name: names[state.current],
    contributions: state.contributions,
    nameOf,
    assign: trace.mistake === "assign",
    ops: trace.ops,
    sourceLines,
    grad: gradName(trace),
  });
  // None while the quiz hides this frame's numbers: an empty labelled box helps nobody.
  if (rows.length) parts.push(substitutionBox(rows));
  parts.push(...ruleParts);
  return parts;
}

/**
 * Everything the panel shows for this frame.
 * @param {CodeContext} context
 * @param {import("../passes/timeline.js").FrameState} state
 * @returns {HTMLElement[]}
 */
function frameParts(context, state) {
  const { trace, rules } = context;
  const parts = [];
  const frame = trace.frames[state.index];
  const sortFrame = frame.phase === "sort" ? frame : null;
  // A pass of the learner's own engine shows its own backward() at the seed (`sortParts`);
  // the walk's calls before it (`sort_steps`) show the recursive walk they are.
  const ownSeed = sortFrame?.step === "seed" && !!trace.passes?.[state.pass ?? 0]?.backward;
  const step = ownSeed ? undefined : sortFrame?.step;
  // The bug lab: the mistaken line against the right one, wherever the mistake acts.
  if (state.phase !== "build" && !(step && trace.mistake === "append-first")) {
    for (const block of mistakeCode(trace.mistake, rules))
      parts.push(codeBlock(block.lines, block.marked, block));
  }
  if (step) {
    const blocks = sortStepCode(step, {
      rules,
      appendFirst: trace.mistake === "append-first",
      depth: sortFrame?.depth,
    });
    for (const block of blocks) parts.push(codeBlock(block.lines, block.marked, block));
  } else if (state.phase === "build") {
    parts.push(...buildParts(context, state));
  } else if (state.phase === "sort") {
    parts.push(...sortParts(context, state));
  } else if (state.phase === "update") {
    const { sourceLines, names } = context;
    // Writes the program's own backward() makes in its own loop (not a rule's): their
    // frame's line is inside that function's lines.
    const code = trace.passes?.[state.pass ?? 0]?.backward;
    const line = state.line;
    const inBackward = !!code && line !== null && line >= code.line && line <= code.end_line;
    parts.push(
      ...updateParts(state, { sourceLines, names, codeBlock, nodes: trace.nodes, inBackward }),
    );
  } else {
    parts.push(...backwardParts(context, state));
  }
  return parts;
}

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[], rules: Record<string, string>}} options
 */
export function mountCodePanel(container, { timeline, names, rules }) {
  const { trace } = timeline;
  const sourceLines = splitSourceLines(trace.source);
  const body = html("div", { class: "code-panel-body" });
  container.replaceChildren(
    html(
      "section",
      {
        class: "code-panel",
        "data-testid": "code-panel",
        "aria-label": "Code that runs at this frame",
      },
      [html("h2", { class: "panel-title", text: "Code" }), body],
    ),
  );
  const nameOf = (/** @type {string} */ id) =>
    names[/** @type {number} */ (timeline.indexOf.get(id))];
  /** @type {CodeContext} */
  const context = { timeline, trace, names, rules, sourceLines, nameOf };
  let shownKey = "";

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    // The quiz shows a frame with its `+=`s still hidden, then again with them.
    const key = `${state.index}:${state.contributions.length}`;
    if (key === shownKey) return;
    shownKey = key;
    body.replaceChildren(...frameParts(context, state));
  }
  return { update };
}
