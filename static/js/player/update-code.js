/**
 * The code panel's part for an update frame (SPEC.md §11): the program's own line
 * that changed values between passes (an optimizer's `p.data -= lr * p.grad`, a
 * `zero_grad()`), then each value's change with the numbers put in.
 * Example: w.data 1 -> 0.8 while w.grad is 2 reads "w.data: 1.0 → 0.8 (−0.2 = −0.1 × grad 2.0)".
 * A value without a label is called where the program keeps it, as the narration calls
 * it ("layers[0][1].w[2].data: 0.6 → 0.57 (…)"); one kept nowhere the engine looked has
 * only its number for a name, which the change itself replaces: it is called by the call
 * that made it, "in MLP.layers[0].neurons[1]: data 0.6 → 0.57 (…)", rather than
 * "0.6.data: 0.6 → 0.57".
 */
import { formatValue } from "./format.js";
import { html } from "./svg.js";

/**
 * One sentence per change.
 * @param {{child: number, field: string, before: number, after: number}} change
 * @param {string | null} name  null: the value has no label, its name is a number
 * @param {number} grad  the value's gradient at this frame
 * @param {string} [group]  the call that made the value (nodes[].group), for a value without a name
 */
export function changeText(change, name, grad, group = "") {
  const values = `${formatValue(change.before)} \u2192 ${formatValue(change.after)}`;
  const moved =
    name !== null
      ? `${name}.${change.field}: ${values}`
      : `${group ? `in ${group}: ` : ""}${change.field} ${values}`;
  if (change.field === "grad")
    return change.after === 0 ? `${moved} (emptied for the next pass)` : moved;
  const delta = change.after - change.before;
  if (delta === 0) return `${moved} (unchanged)`;
  const rate = grad !== 0 ? -delta / grad : null;
  const step =
    rate !== null && Number.isFinite(rate)
      ? ` = ${formatValue(-rate)} \u00D7 grad ${formatValue(grad)}`
      : "";
  return `${moved} (moved by ${formatValue(delta)}${step})`;
}

/**
 * What a change calls its value: the engine's name for it, or null where that name is
 * only the number an unlabelled leaf had (`changeText` then names the call that made it).
 * A name the engine found where the program keeps the value (`layers[0][1].w[2]`, `w`)
 * starts as a Python name does, never with a digit, a point or a minus sign.
 * Example: changeName({kind: "leaf", label: ""}, "w[0]") is "w[0]"; with "−0.4482", null.
 * @param {{kind: string, label: string} | undefined} node
 * @param {string} name
 * @returns {string | null}
 */
export function changeName(node, name) {
  if (node?.kind !== "leaf" || node.label) return name;
  return /^[\u2212\-.\d]/.test(name ?? "") ? null : name;
}

/** @typedef {(lines: string[], marked: Set<number>, options?: {first?: number, label?: string}) => HTMLElement} CodeBlock */

/**
 * The program's own line `line` (1-based) with one line either side, marked and
 * labelled "Your program": the code panel shows it for build and update frames.
 * A neighbour that is blank (or only spaces) is left out: it says nothing about the line.
 * None when the frame has no line in the source.
 * Example: line 3 of a 10-line program shows lines 2 to 4, the middle one marked; with
 * line 4 blank, lines 2 and 3.
 * @param {number | null} line
 * @param {string[]} sourceLines
 * @param {CodeBlock} codeBlock
 * @param {string} [label]  the box's caption
 * @returns {HTMLElement[]}
 */
export function programExcerpt(line, sourceLines, codeBlock, label = "Your program") {
  if (line === null || sourceLines[line - 1] === undefined) return [];
  const blank = (/** @type {number} */ n) => (sourceLines[n - 1] ?? "").trim() === "";
  const from = line > 1 && !blank(line - 1) ? line - 1 : line;
  const to = line < sourceLines.length && !blank(line + 1) ? line + 1 : line;
  return [
    codeBlock(sourceLines.slice(from - 1, to), new Set([line - from]), { first: from, label }),
  ];
}

/**
 * What an update frame's changes are, in one sentence: a zero_grad, the program's own
 * backward() writing gradients in its own loop (`inBackward`: the frame's line is inside
 * the pass's `backward` lines), or the program's own step between passes.
 * Example: updateNote([{field: "grad", after: 0}], false) starts "Gradients set back to zero";
 * updateNote([{field: "grad", after: 2}], true) is "Your backward() writes a gradient itself:".
 * @param {Array<{field: "data" | "grad", after: number}>} changes
 * @param {boolean} inBackward
 */
export function updateNote(changes, inBackward) {
  const count = (/** @type {string} */ one, /** @type {string} */ many) =>
    changes.length === 1 ? one : `${changes.length} ${many}`;
  if (inBackward && changes.every((c) => c.field === "grad"))
    return `Your backward() writes ${count("a gradient", "gradients")} itself:`;
  if (
    changes.some((c) => c.field === "grad") &&
    changes.every((c) => c.field === "grad" && c.after === 0)
  )
    return "Gradients set back to zero, so the next backward pass starts from nothing instead of adding to these.";
  if (inBackward)
    return `Inside your backward(), the program changes ${count("a value", "values")}:`;
  return `Between passes, the program changes ${count("a value", "values")}:`;
}

/**
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {{sourceLines: string[], names: string[], codeBlock: CodeBlock,
 *   nodes: import("../passes/trace.js").TraceNode[], inBackward?: boolean}} options
 *   inBackward: the frame's line is inside the pass's own backward() (`updateNote`)
 */
export function updateParts(state, { sourceLines, names, codeBlock, nodes, inBackward = false }) {
  const parts = programExcerpt(state.line, sourceLines, codeBlock);
  const changes = state.changes ?? [];
  parts.push(html("p", { class: "code-note", text: updateNote(changes, inBackward) }));
  parts.push(
    html(
      "ul",
      { class: "update-changes" },
      changes.slice(0, 12).map((c) => {
        const node = nodes[c.child];
        const name = changeName(node, names[c.child]);
        return html("li", {
          text: changeText(c, name, state.grads[c.child], node?.group ?? ""),
        });
      }),
    ),
  );
  if (changes.length > 12)
    parts.push(html("p", { class: "code-note", text: `\u2026 and ${changes.length - 12} more.` }));
  return parts;
}
