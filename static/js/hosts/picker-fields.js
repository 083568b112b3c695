/**
 * The Deep Linking picker's form (templates/lti_picker.html) as data, with no DOM: the
 * `/embed` address that previews what the teacher chose, and what choosing an example
 * changes. lti-picker.js puts them on the page. The fields are the form's: `source`,
 * `granularity`, `quiz`, `mistake`, `sort_steps`, `gradcheck` and the `show` parts
 * (editor, code, narration; embed-options.js's defaults: code and narration).
 *
 * Example: previewSearch({source: "a + a", granularity: "packed", quiz: true, mistake: "assign",
 *   sortSteps: false, gradcheck: false, show: ["narration"]})
 *   -> "?source=a+%2B+a&granularity=packed&frame=0&quiz=1&mistake=assign&controls=-code"
 */
import { embedParams, PARTS } from "./embed-options.js";
import { labParams } from "../lab/lab-url.js";
import { writeUrlState } from "./url-state.js";

/** A longer preview address is not tried: servers and browsers cut addresses near here. */
export const PREVIEW_MAX_CHARS = 16_000;

/**
 * @typedef {{source: string, granularity: "packed" | "expanded", quiz: boolean,
 *   mistake: string, sortSteps: boolean, gradcheck: boolean, show: string[]}} PickerFields
 *   mistake: "" for the right engine
 * @typedef {{key?: string, id?: string, title: string, source: string, granularity?: string,
 *   mistake?: string | null, sort_steps?: boolean | null, gradcheck?: boolean | null}} PickerExample
 *   key (or the API's id): what the form's `example` field sends
 */

/**
 * The parts a player shown with these `show` boxes leaves out.
 * Example: hiddenParts(["code"]) -> ["editor", "narration"]
 * @param {string[]} show
 */
export const hiddenParts = (show) => PARTS.filter((part) => !show.includes(part));

/**
 * The query of `/embed` that shows the activity as the form has it.
 * @param {PickerFields} fields
 */
export function previewSearch({ source, granularity, quiz, mistake, sortSteps, gradcheck, show }) {
  const params = new URLSearchParams(
    writeUrlState({
      source,
      granularity: granularity === "expanded" ? "expanded" : "packed",
      frame: 0,
      quiz,
    }),
  );
  const lab = labParams({
    mistake: /** @type {import("../lab/mistakes.js").Mistake | null} */ (mistake || null),
    sortSteps,
    gradcheck,
  });
  for (const [name, value] of [...lab, ...embedParams({ hide: hiddenParts(show) })])
    params.append(name, value);
  return `?${params}`;
}

/** @param {PickerExample} example */
export const exampleKey = (example) => example.key ?? example.id ?? "";

/**
 * The example the form's `example` field names, if any.
 * @param {PickerExample[]} examples
 * @param {string} key
 */
export const findExample = (examples, key) =>
  key ? (examples.find((example) => exampleKey(example) === key) ?? null) : null;

/**
 * What choosing an example changes in the form: the program, its granularity and lab
 * options, and the title when the teacher has not written one (it is empty, or still the
 * title an earlier example put there).
 * @param {PickerExample} example
 * @param {string} title  the title field now
 * @param {string} [filled]  the title the last example chosen put in the field
 * @returns {{source: string, title: string, granularity: "packed" | "expanded" | null,
 *   mistake: string, sortSteps: boolean, gradcheck: boolean}}
 *   granularity null: the example does not say, the field stays
 */
export function exampleChoice(example, title, filled = "") {
  return {
    source: example.source,
    title: title.trim() && title !== filled ? title : example.title,
    granularity:
      example.granularity === "expanded" || example.granularity === "packed"
        ? example.granularity
        : null,
    mistake: example.mistake ?? "",
    sortSteps: Boolean(example.sort_steps),
    gradcheck: Boolean(example.gradcheck),
  };
}
