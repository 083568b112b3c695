/**
 * The bug lab's controls on the page (SPEC.md §7–9): a switch between the right
 * engine and each mistake, "sort step by step", and the button that opens the
 * gradient check. They hold no state of their own: the page sets them from its
 * URL and hears every change.
 *
 * Test hooks: [data-testid=mistake] (a select: "" is the right engine),
 * [data-testid=sort-steps-toggle] (checkbox), [data-testid=gradcheck-toggle]
 * (button, aria-pressed).
 */
import { MISTAKE_CHOICES } from "./lab-code.js";
import { LAB_DEFAULTS } from "./lab-url.js";
import { html } from "../player/svg.js";

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
  container.replaceChildren(
    html("div", { class: "lab-controls", role: "group", "aria-label": "Lab" }, [
      html("label", { class: "lab-engine" }, ["Engine ", select]),
      html("label", { class: "lab-steps" }, [steps, " sort step by step"]),
      check,
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
  };
}
