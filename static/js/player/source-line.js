/**
 * The program's own line for the current frame, marked in the editor like Python
 * Tutor's arrow: build frames carry the line that made their node, update frames
 * the line that changed values (SPEC §11). The mark is a band laid over the
 * textarea at that line (the textarea stays a plain textarea: typing, `fill` and
 * selection are untouched). It hides when the frame has no line, or when the text
 * in the editor is no longer the program that was traced.
 */
import { html } from "./svg.js";

/**
 * The 1-based line the frame points at, or null.
 * Example: lineOfFrame({frames: [{phase: "build", line: 3}]}, 0) -> 3; a sort frame -> null.
 * @param {{frames: ReadonlyArray<object>}} trace
 * @param {number} k
 */
export function lineOfFrame(trace, k) {
  const line = /** @type {{line?: unknown} | undefined} */ (trace.frames[k])?.line;
  return typeof line === "number" && Number.isInteger(line) && line >= 1 ? line : null;
}

/**
 * @param {HTMLTextAreaElement} textarea
 * @param {{kind?: "frame" | "error"}} [options]  "error": the line an error is about
 *   (`data-testid=error-line`), a second band beside the frame's in the same wrapper
 */
export function mountSourceLine(textarea, { kind = "frame" } = {}) {
  let wrap = textarea.parentElement;
  if (!wrap?.classList.contains("source-wrap")) {
    wrap = html("div", { class: "source-wrap" });
    textarea.before(wrap);
    wrap.append(textarea);
  }
  // Long lines scroll sideways instead of wrapping, so line n is always row n.
  textarea.wrap = "off";
  const error = kind === "error";
  const mark = html("div", {
    class: error ? "source-line-mark error-line-mark" : "source-line-mark",
    "data-testid": error ? "error-line" : "source-line",
    "aria-hidden": "true",
  });
  mark.hidden = true;
  wrap.append(mark);
  /** @type {number | null} */ let line = null;
  /**
   * The textarea's box and type, read once and again only when it resizes: reading
   * styles while a frame is being drawn forces the browser to lay the page out.
   * @type {{lineHeight: number, padTop: number, top: number, bottom: number,
   *   rowTop: number, left: number, width: number, height: number} | null}
   */
  let box = null;
  function measure() {
    if (box) return box;
    const style = getComputedStyle(textarea);
    const lineHeight = parseFloat(style.lineHeight) || 1.5 * parseFloat(style.fontSize);
    const padTop = parseFloat(style.paddingTop);
    box = {
      lineHeight,
      padTop,
      top: textarea.offsetTop,
      bottom: textarea.offsetTop + textarea.offsetHeight,
      rowTop: textarea.offsetTop + parseFloat(style.borderTopWidth) + padTop,
      left: textarea.offsetLeft + parseFloat(style.borderLeftWidth),
      width: textarea.clientWidth,
      height: textarea.clientHeight,
    };
    return box;
  }

  function place() {
    if (line === null) {
      mark.hidden = true;
      return;
    }
    const { lineHeight, top: boxTop, bottom, rowTop, left, width } = measure();
    const top = rowTop + (line - 1) * lineHeight - textarea.scrollTop;
    mark.hidden = !(top >= boxTop && top + lineHeight <= bottom);
    mark.style.top = `${top}px`;
    mark.style.height = `${lineHeight}px`;
    mark.style.left = `${left}px`;
    mark.style.width = `${width}px`;
  }

  /**
   * Mark `next` (1-based) or nothing; scroll it into the editor's view unless the
   * learner is typing there. Frames of the same line (most of a scrub) change nothing.
   * @param {number | null} next
   */
  function show(next) {
    if (next === line) return;
    line = next;
    mark.dataset.line = next === null ? "" : String(next);
    if (next !== null && document.activeElement !== textarea) {
      const { lineHeight, padTop, height } = measure();
      const y = (next - 1) * lineHeight;
      const scrollTop = textarea.scrollTop;
      if (y < scrollTop || y + lineHeight > scrollTop + height - padTop) {
        textarea.scrollTop = Math.max(0, y - height / 2);
      }
    }
    place();
  }

  textarea.addEventListener("scroll", place);
  // Typing changes which text is on which line: the mark waits for the next Run.
  textarea.addEventListener("input", () => show(null));
  new ResizeObserver(() => {
    box = null;
    place();
  }).observe(textarea);
  return { show };
}
