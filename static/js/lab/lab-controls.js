/**
 * The bug lab's controls on the page (SPEC.md §7–9): a switch between the right
 * engine and each mistake, "sort step by step", and the button that opens the
 * gradient check. They hold no state of their own: the page sets them from its
 * URL and hears every change.
 *
 * A program with its own `class Value` runs its own backward(), which the step-by-step
 * sort (the built-in engine's recursive build) does not follow: for it the page calls
 * setOwnEngine(true), and the checkbox is disabled with the reason beside it (its
 * aria-describedby and title), never a box that silently does nothing.
 *
 * Test hooks: [data-testid=mistake] (a select: "" is the right engine),
 * [data-testid=sort-steps-toggle] (checkbox), [data-testid=sort-steps-note] (the reason
 * it is disabled), [data-testid=gradcheck-toggle] (button, aria-pressed).
 */
import { MISTAKE_CHOICES } from "./lab-code.js";
import { LAB_DEFAULTS } from "./lab-url.js";
import { html } from "../player/svg.js";

/** Why "sort step by step" is off for a program with its own Value class. */
export const OWN_SORT_REASON =
  "Off here: this program's own backward() does the sort (its code shows at the sort " +
  "frame), and the steps follow the built-in engine's.";
let serial = 0;

/**
 * @param {HTMLElement} container
 * @param {{onChange: (state: import("./lab-url.js").LabState) => void}} options
 */
export function mountLabControls(container, { onChange }) {
  const select = html("select", { "data-testid": "mistake", name: "mistake" }, [
    html("option", { value: "", text: "right (no mistake)" }),
    html(
      "optgroup",
      { label: "with a mistake" },
      MISTAKE_CHOICES.map(({ id, title }) => html("option", { value: id, text: title })),
    ),
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
    text: OWN_SORT_REASON,
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
     * The trace on screen has its own Value class (`engine_check`): the step-by-step sort
     * does not apply, and says why. Its state is kept for the next program.
     * @param {boolean} own
     */
    setOwnEngine(own) {
      steps.disabled = own;
      stepsNote.hidden = !own;
      stepsLabel.classList.toggle("is-disabled", own);
      if (own) {
        steps.setAttribute("aria-describedby", stepsNote.id);
        stepsLabel.title = OWN_SORT_REASON;
      } else {
        steps.removeAttribute("aria-describedby");
        stepsLabel.removeAttribute("title");
      }
    },
  };
}
