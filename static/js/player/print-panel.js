/**
 * What the program printed (SPEC.md §11): each frame carries `prints`, the lines
 * printed since the frame before, so the panel shows everything printed up to the
 * current frame, like a console replayed. Hidden when the program prints nothing.
 */
import { html } from "./svg.js";

/**
 * For each frame, how many printed lines exist once it is shown, and the lines.
 * Example: frames [{prints: ["a"]}, {}, {prints: ["b", "c"]}] ->
 *   {lines: ["a", "b", "c"], upTo: [1, 1, 3]}
 * @param {ReadonlyArray<object>} frames
 */
export function printIndex(frames) {
  /** @type {string[]} */ const lines = [];
  const upTo = new Int32Array(frames.length);
  frames.forEach((frame, k) => {
    const { prints } = /** @type {{prints?: unknown}} */ (frame);
    if (Array.isArray(prints)) for (const line of prints) lines.push(String(line));
    upTo[k] = lines.length;
  });
  return { lines, upTo };
}

/**
 * @param {HTMLElement} container
 * @param {{frames: ReadonlyArray<object>}} options
 */
export function mountPrintPanel(container, { frames }) {
  const { lines, upTo } = printIndex(frames);
  const output = html("pre", {
    class: "print-output",
    "data-testid": "prints",
    tabindex: 0,
    "aria-label": "Printed output",
  });
  const note = html("p", { class: "print-note" });
  container.replaceChildren(
    html("section", { class: "print-panel", "aria-label": "Printed" }, [
      html("h2", { class: "panel-title", text: "Printed" }),
      note,
      output,
    ]),
  );
  container.hidden = lines.length === 0;
  let shown = -1;

  /** @param {{index: number}} state */
  function update(state) {
    const count = upTo[state.index] ?? 0;
    if (count === shown) return;
    shown = count;
    output.textContent = lines.slice(0, count).join("\n");
    output.dataset.lines = String(count);
    note.textContent = count === 0 ? "Nothing printed yet at this frame." : "";
    note.hidden = count > 0;
    output.hidden = count === 0;
    output.scrollTop = output.scrollHeight;
  }
  return { update };
}
