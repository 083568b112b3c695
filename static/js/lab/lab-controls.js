/**
 * The bug lab's controls on the page (SPEC.md §7–9): a switch between the right
 * engine and each mistake, "sort step by step", and the button that opens the
 * gradient check. They hold no state of their own: the page sets them from its
 * URL and hears every change.
 *
 * A program with its own `class Value` sorts in its own backward(), whose calls are not
 * seen one by one: its steps are those of the recursive walk that makes the order its
 * sort made (docs/LAB.md). For it the page calls setOwnEngine(true), and a note beside
 * the checkbox says so (its aria-describedby and title).
 *
 * Test hooks: [data-testid=mistake] (a select: "" is the right engine),
 * [data-testid=sort-steps-toggle] (checkbox), [data-testid=sort-steps-note] (what the
 * steps are for the program's own class), [data-testid=gradcheck-toggle] (button,
 * aria-pressed).
 */
import { MISTAKE_CHOICES } from "./lab-code.js";
import { LAB_DEFAULTS } from "./lab-url.js";
import { passName } from "../player/rule-text.js";
import { sourceLines } from "../player/source-position.js";
import { html } from "../player/svg.js";

/** What "sort step by step" shows for a program with its own Value class. */
export const OWN_SORT_NOTE =
  "Your own backward() sorts here: the steps are those of the depth-first walk that " +
  "makes its order. Where no such walk makes it, the seed frame says what it did.";
/** The same for such a program that runs no backward() of its own. */
export const NO_OWN_SORT_NOTE =
  "Your program calls no backward() of its own, so nothing sorts: the seed frame says " +
  "how it works out its gradients.";

/**
 * The note beside "sort step by step" for the trace on screen: none for the engine's
 * own Value; for a program with its own class, what its own backward() (by the name of
 * the function the first such pass runs, `passName`) sorts, or that it calls none (a
 * chain rule by hand, rules called node by node: no pass has a `backward`).
 * @param {import("../passes/trace.js").Trace} trace
 * @returns {string | null}
 */
export function ownSortNote(trace) {
  if (!trace.engine_check) return null;
  const pass = trace.passes.findIndex((p) => p.backward);
  if (pass < 0) return NO_OWN_SORT_NOTE;
  const name = passName(trace, sourceLines(trace.source ?? ""), pass);
  return OWN_SORT_NOTE.replace("backward()", `${name}()`);
}
/** Why a program with its own Value class is offered no mistake. */
export const OWN_RULES_NOTE =
  "Your class runs its own rules: the mistakes change the built-in engine's. Write the " +
  "bug into your class, and Check your engine shows where it parts from a right one.";
let serial = 0;

/**
 * @param {HTMLElement} container
 * @param {{onChange: (state: import("./lab-url.js").LabState) => void}} options
 */
export function mountLabControls(container, { onChange }) {
  const mistakes = html(
    "optgroup",
    { label: "with a mistake" },
    MISTAKE_CHOICES.map(({ id, title }) => html("option", { value: id, text: title })),
  );
  const select = html("select", { "data-testid": "mistake", name: "mistake" }, [
    html("option", { value: "", text: "right (no mistake)" }),
    mistakes,
  ]);
  const steps = html("input", {
    type: "checkbox",
    name: "sort-steps",
    "data-testid": "sort-steps-toggle",
  });
  const check = html(
    "button",
    {
      type: "button",
      class: "text-button",
      "data-testid": "gradcheck-toggle",
      "aria-pressed": "false",
    },
    ["Gradient check"],
  );
  const stepsLabel = html("label", { class: "lab-steps" }, [steps, " sort step by step"]);
  const stepsNote = html("p", {
    class: "lab-note",
    id: `lab-steps-note-${++serial}`,
    "data-testid": "sort-steps-note",
    hidden: true,
    text: OWN_SORT_NOTE,
  });
  container.replaceChildren(
    html("div", { class: "lab-controls", role: "group", "aria-label": "Lab" }, [
      html("label", { class: "lab-engine" }, ["Engine ", select]),
      stepsLabel,
      check,
      stepsNote,
    ]),
  );

  /** The state last set, for what these controls do not show (the check's scheme). */
  let current = LAB_DEFAULTS;
  const read = () => ({
    ...current,
    mistake: /** @type {import("./lab-url.js").LabState["mistake"]} */ (select.value || null),
    sortSteps: steps.checked,
    gradcheck: check.getAttribute("aria-pressed") === "true",
  });
  select.addEventListener("change", () => onChange(read()));
  steps.addEventListener("change", () => onChange(read()));
  check.addEventListener("click", () => {
    check.setAttribute("aria-pressed", String(check.getAttribute("aria-pressed") !== "true"));
    onChange(read());
  });
  return {
    /** @param {import("./lab-url.js").LabState} state */
    set(state) {
      current = state;
      select.value = state.mistake ?? "";
      steps.checked = state.sortSteps;
      check.setAttribute("aria-pressed", String(state.gradcheck));
    },
    read,
    /**
     * The trace on screen has its own Value class (`engine_check`): the note says what
     * the steps are for it (`ownSortNote`), and the mistakes (the built-in engine's) are
     * shut.
     * @param {boolean} own
     * @param {string} [note]
     */
    setOwnEngine(own, note = OWN_SORT_NOTE) {
      stepsNote.hidden = !own;
      stepsNote.textContent = note;
      // The server refuses a mistake for such a program: none is offered, and the
      // select's description says why.
      for (const option of mistakes.querySelectorAll("option")) option.disabled = own;
      mistakes.label = own ? "with a mistake (the built-in engine only)" : "with a mistake";
      select.title = own ? OWN_RULES_NOTE : "";
      if (own) {
        steps.setAttribute("aria-describedby", stepsNote.id);
        stepsLabel.title = note;
      } else {
        steps.removeAttribute("aria-describedby");
        stepsLabel.removeAttribute("title");
      }
    },
  };
}
