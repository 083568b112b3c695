/**
 * The gradient-check panel's choice of what to check (SPEC.md §7, §13): which backward
 * pass (for a program of several) and which of its leaves, within the server's work
 * bound once the page knows how many fit (gradcheck-fit.js). Folded away under
 * "Choose leaves…" unless the page had to cut the check to fit.
 *
 * Test hooks: [data-testid=gradcheck-pick] (a details element), [data-testid=gradcheck-pass]
 * (a select, value = the 0-based pass; only for several passes), [data-testid=gradcheck-leaf]
 * (checkboxes, value = the node id), [data-testid=gradcheck-run] (check the chosen leaves),
 * [data-testid=gradcheck-all] (check every leaf again).
 */
import { html } from "../player/svg.js";

/**
 * @typedef {{pass: number, leaves: string[] | null}} CheckChoice
 *   leaves: the ids chosen, null for every leaf of the pass
 * @typedef {{leaves: import("./gradcheck-fit.js").PassLeaf[], checked: string[], passes: number,
 *   pass: number, max: number | null}} PickState
 *   checked: the ids checked now; max: how many leaves fit the bound, when known
 */

/**
 * @param {(choice: CheckChoice) => void} onPick  the learner asked for another check
 */
export function buildGradcheckPick(onPick) {
  const passMenu = html("select", { "data-testid": "gradcheck-pass", name: "gradcheck-pass" });
  const passLabel = html("label", { class: "gradcheck-pass" }, ["Backward pass ", passMenu]);
  const legend = html("legend");
  const boxes = html("div", { class: "gradcheck-leaves" });
  const run = html("button", {
    type: "submit",
    class: "text-button",
    "data-testid": "gradcheck-run",
    text: "Check these leaves",
  });
  const all = html("button", {
    type: "button",
    class: "text-button",
    "data-testid": "gradcheck-all",
    text: "Every leaf",
  });
  const note = html("span", { class: "gradcheck-pick-note" });
  const form = html("form", { class: "gradcheck-pick-form" }, [
    passLabel,
    html("fieldset", {}, [legend, boxes]),
    html("div", { class: "gradcheck-pick-actions" }, [run, all, note]),
  ]);
  const summary = html("summary", { text: "Choose leaves to check" });
  const root = html("details", { class: "gradcheck-pick", "data-testid": "gradcheck-pick" }, [
    summary,
    form,
  ]);
  /** @type {PickState} */
  let state = { leaves: [], checked: [], passes: 1, pass: 0, max: null };

  const chosen = () =>
    [...boxes.querySelectorAll("input")].filter((box) => box.checked).map((box) => box.value);
  const limitBoxes = () => {
    const picked = chosen().length;
    for (const box of boxes.querySelectorAll("input"))
      box.disabled = !box.checked && state.max !== null && picked >= state.max;
    run.disabled = picked === 0;
    note.textContent =
      picked === 0 ? "Choose at least one leaf." : `${picked} of ${state.leaves.length} chosen`;
  };
  boxes.addEventListener("change", limitBoxes);
  passMenu.addEventListener("change", () => onPick({ pass: Number(passMenu.value), leaves: null }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const ids = chosen();
    const every = ids.length === state.leaves.length;
    onPick({ pass: state.pass, leaves: every ? null : ids });
  });
  all.addEventListener("click", () => onPick({ pass: state.pass, leaves: null }));

  return {
    root,
    /** @param {PickState} next */
    set(next) {
      state = next;
      root.hidden = next.leaves.length < 2 && next.passes < 2;
      passLabel.hidden = next.passes < 2;
      summary.textContent =
        next.passes < 2 ? "Choose leaves to check" : "Choose the pass and leaves to check";
      passMenu.replaceChildren(
        ...Array.from({ length: next.passes }, (_, k) =>
          html("option", { value: String(k), text: `${k + 1} of ${next.passes}` }),
        ),
      );
      passMenu.value = String(next.pass);
      legend.textContent =
        next.max === null
          ? `Leaves of this pass (${next.leaves.length})`
          : `Leaves of this pass (${next.leaves.length}; up to ${next.max} at a time within the server's work bound)`;
      const checked = new Set(next.checked);
      boxes.replaceChildren(
        ...next.leaves.map((leaf) =>
          html("label", {}, [
            html("input", {
              type: "checkbox",
              value: leaf.id,
              "data-testid": "gradcheck-leaf",
              checked: checked.has(leaf.id),
            }),
            ` ${leaf.name}`,
          ]),
        ),
      );
      limitBoxes();
    },
    /** Unfold the choice (the check was cut to fit). */
    open() {
      root.open = true;
    },
  };
}
