/**
 * The note Fit leaves when it cannot show the whole graph: a graph whose text would be
 * too small to read whole is framed on the current step instead (graph-camera.js), and
 * without a word Fit looked like a button that does nothing. The note goes when the
 * learner moves the view by hand or the frame changes.
 */
import { html } from "../player/svg.js";

export const FIT_NOTE_TEXT =
  "Too big to show whole at a readable size: Fit keeps the current step in view. Zoom out (\u2212) to see more.";

/**
 * @param {HTMLElement} frame  the graph's frame, where the note sits under the zoom buttons
 * @returns {{show: () => void, hide: () => void}}
 */
export function mountFitNote(frame) {
  const note = html("p", {
    class: "graph-note",
    "data-testid": "fit-note",
    role: "status",
    text: FIT_NOTE_TEXT,
  });
  note.hidden = true;
  frame.append(note);
  const hide = () => {
    note.hidden = true;
  };
  frame.addEventListener("pointerdown", hide);
  frame.addEventListener("wheel", hide, { passive: true });
  return {
    show() {
      note.hidden = false;
    },
    hide,
  };
}
