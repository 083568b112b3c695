/**
 * The editor around the player on `/`: the source textarea, examples menu,
 * granularity switch, Run (also Ctrl/Cmd+Enter) and the error box that points at
 * the line and column. It wires markup the template already rendered, so typing
 * and `fill` work before any request finishes.
 */
import { matchingExample } from "./example-match.js";
import { caretPad, placeText, sourceLines, sourceOffset } from "../player/source-position.js";
import { html } from "../player/svg.js";

/**
 * @typedef {{id: string, title: string, description: string, source: string, granularity: "packed" | "expanded"}} Example
 */

/**
 * @param {HTMLElement} root  the element holding the editor markup
 * @param {{onRun: (request: {source: string, granularity: "packed" | "expanded", fromButton: boolean}) => void,
 *   labState?: () => {mistake: string | null, sortSteps: boolean}}} options
 *   labState: the engine the program runs on, which tells apart examples sharing a program
 */
export function mountEditor(
  root,
  { onRun, labState = () => ({ mistake: null, sortSteps: false }) },
) {
  const textarea = /** @type {HTMLTextAreaElement} */ (root.querySelector("[data-testid=source]"));
  const runButton = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=run]"));
  const errorBox = /** @type {HTMLElement} */ (root.querySelector("[data-testid=error]"));
  const examplesMenu = /** @type {HTMLSelectElement | null} */ (
    root.querySelector("select[name=example]")
  );
  const radios = /** @type {NodeListOf<HTMLInputElement>} */ (
    root.querySelectorAll("input[name=granularity]")
  );
  /** @type {Example[]} */
  let examples = [];

  const granularity = () =>
    /** @type {"packed" | "expanded"} */ (
      [...radios].find((radio) => radio.checked)?.value === "expanded" ? "expanded" : "packed"
    );
  const run = (fromButton = false) =>
    onRun({ source: textarea.value, granularity: granularity(), fromButton });

  runButton.addEventListener("click", () => run(true));
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  });
  for (const radio of radios) {
    radio.addEventListener("change", () => {
      showMatchingExample();
      run();
    });
  }
  // The menu names the example on screen, and nothing once the learner's own program is there.
  textarea.addEventListener("input", showMatchingExample);
  examplesMenu?.addEventListener("change", () => {
    const example = examples.find((e) => e.id === examplesMenu.value);
    if (!example) return;
    setProgram(example.source, example.granularity);
    run();
  });

  /**
   * @param {string} source
   * @param {"packed" | "expanded"} value
   */
  function setProgram(source, value) {
    textarea.value = source;
    for (const radio of radios) radio.checked = radio.value === value;
    showMatchingExample();
  }

  function showMatchingExample() {
    if (!examplesMenu) return;
    const { mistake, sortSteps } = labState();
    examplesMenu.value = matchingExample(
      examples,
      { source: textarea.value, granularity: granularity(), mistake, sortSteps },
      examplesMenu.value,
    );
  }

  /** @param {Example[]} list */
  function setExamples(list) {
    examples = list;
    if (!examplesMenu) return;
    examplesMenu.replaceChildren(
      html("option", { value: "", text: "Choose an example…" }),
      ...list.map((example) =>
        html("option", { value: example.id, text: example.title, title: example.description }),
      ),
    );
    showMatchingExample();
  }

  /**
   * Show an error under the editor, pointing at its place in the source; null clears it.
   * @param {{message: string, line: number | null, column: number | null} | null} error
   * @param {string} [source]  the text the error is about
   */
  function showError(error, source = textarea.value) {
    textarea.toggleAttribute("aria-invalid", Boolean(error));
    if (!error) {
      errorBox.hidden = true;
      errorBox.replaceChildren();
      return;
    }
    const parts = /** @type {HTMLElement[]} */ ([
      html("p", { class: "error-message", text: error.message }),
    ]);
    if (error.line !== null) {
      parts.unshift(html("p", { class: "error-where", text: placeText(error) }));
      const lineText = sourceLines(source)[error.line - 1];
      if (lineText !== undefined) {
        const gutter = `${error.line} | `;
        const caret =
          error.column !== null
            ? `\n${" ".repeat(gutter.length)}${caretPad(lineText, error.column)}^`
            : "";
        parts.push(
          html(
            "pre",
            {
              class: "error-excerpt",
              tabindex: 0,
              "aria-label": `Line ${error.line} of the program`,
            },
            [gutter + lineText + caret],
          ),
        );
        const offset = sourceOffset(source, error.line, error.column);
        if (source === textarea.value) {
          textarea.setSelectionRange(offset, Math.min(offset + 1, source.length));
          bringIntoView(error.line, error.column);
        }
      }
    }
    errorBox.replaceChildren(...parts);
    errorBox.hidden = false;
  }

  /**
   * Scroll the editor to an error's line (1-based) and column, where they are out of
   * its view: a selection in an editor without focus neither shows nor scrolls (Run
   * was clicked, or the program came from a link), and a long program was left scrolled
   * wherever the last edit put it. The editor does not wrap lines, so line n is
   * (n − 1) line heights down; the column is counted in the font's digit widths.
   * @param {number} line
   * @param {number | null} column
   */
  function bringIntoView(line, column) {
    const style = getComputedStyle(textarea);
    const lineHeight = parseFloat(style.lineHeight) || 1.5 * parseFloat(style.fontSize);
    const padTop = parseFloat(style.paddingTop) || 0;
    const padBottom = parseFloat(style.paddingBottom) || 0;
    const height = textarea.clientHeight - padTop - padBottom;
    const y = (line - 1) * lineHeight;
    if (y < textarea.scrollTop || y + lineHeight > textarea.scrollTop + height)
      textarea.scrollTop = Math.max(0, y - (height - lineHeight) / 2);
    if (column === null) return;
    const context = document.createElement("canvas").getContext("2d");
    if (!context) return;
    context.font = style.font;
    const x = (column - 1) * context.measureText("0").width;
    const width = textarea.clientWidth - (parseFloat(style.paddingLeft) || 0);
    if (x < textarea.scrollLeft || x > textarea.scrollLeft + width * 0.9)
      textarea.scrollLeft = Math.max(0, x - width / 2);
  }

  /** @param {boolean} busy */
  function setBusy(busy) {
    runButton.toggleAttribute("aria-busy", busy);
    runButton.classList.toggle("is-busy", busy);
  }

  return {
    setProgram,
    setExamples,
    /** The lab's options changed: name the example that now fits. */
    showMatchingExample,
    showError,
    setBusy,
    get source() {
      return textarea.value;
    },
    get granularity() {
      return granularity();
    },
  };
}
