/**
 * The entry of the LTI tool's Deep Linking picker (templates/lti_picker.html): the form
 * works without it; this adds what choosing an example fills in, a live preview of the
 * activity (an `/embed` iframe, updated a moment after each change, as tall as the
 * player says it is) and the caret at a program error the server sent back.
 * The form as data is picker-fields.js.
 */
import { HEIGHT_MESSAGE } from "./hosts/frame-messages.js";
import {
  exampleChoice,
  findExample,
  PREVIEW_MAX_CHARS,
  previewSearch,
} from "./hosts/picker-fields.js";
import { sourceOffset } from "./player/source-position.js";

const PREVIEW_DELAY_MS = 500;
const FRAME_HEIGHT = /** @type {const} */ ({ min: 240, max: 2400 });

const form = /** @type {HTMLFormElement} */ (document.querySelector(".picker-form"));
/** @param {string} name */
const control = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
const exampleSelect = /** @type {HTMLSelectElement} */ (
  /** @type {unknown} */ (control("example"))
);
const source = /** @type {HTMLTextAreaElement} */ (/** @type {unknown} */ (control("source")));
const title = control("title");
const granularity = /** @type {HTMLSelectElement} */ (
  /** @type {unknown} */ (control("granularity"))
);
const mistake = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ (control("mistake")));
const showBoxes = /** @type {HTMLInputElement[]} */ ([
  ...form.querySelectorAll("input[type=checkbox][name=show]"),
]);
const submit = /** @type {HTMLButtonElement} */ (form.querySelector("[data-testid=picker-submit]"));
const preview = /** @type {HTMLElement} */ (document.querySelector("[data-preview]"));
const frame = /** @type {HTMLIFrameElement} */ (
  preview.querySelector("[data-testid=picker-preview]")
);
const note = /** @type {HTMLElement} */ (preview.querySelector("[data-preview-note]"));

/** @type {import("./hosts/picker-fields.js").PickerExample[]} */
const examples = readExamples();
/** The title the last example chosen put in the field. */
let filledTitle = "";
let timer = 0;

/** @returns {import("./hosts/picker-fields.js").PickerFields} */
function fields() {
  return {
    source: source.value,
    granularity: granularity.value === "expanded" ? "expanded" : "packed",
    quiz: control("quiz").checked,
    mistake: mistake.value,
    sortSteps: control("sort_steps").checked,
    gradcheck: control("gradcheck").checked,
    show: showBoxes.filter((box) => box.checked).map((box) => box.value),
  };
}

/** Show the form's activity in the preview, or say why there is none. */
function showPreview() {
  window.clearTimeout(timer);
  timer = 0;
  const now = fields();
  const search = previewSearch(now);
  let why = "";
  if (!now.source.trim()) why = "Choose an example or type a program to see it here.";
  else if (search.length > PREVIEW_MAX_CHARS)
    why = "This program is too long to preview here; learners will still see it.";
  note.textContent = why;
  note.hidden = !why;
  frame.hidden = Boolean(why);
  if (why) return;
  const url = `/embed${search}`;
  if (frame.getAttribute("src") !== url) frame.src = url;
}

function schedulePreview() {
  window.clearTimeout(timer);
  timer = window.setTimeout(showPreview, PREVIEW_DELAY_MS);
}

/** Fill the form from the example chosen in the menu (the teacher's own: focus the box). */
function applyExample() {
  const example = findExample(examples, exampleSelect.value);
  if (!example) {
    source.focus();
    return;
  }
  const choice = exampleChoice(example, title.value, filledTitle);
  source.value = choice.source;
  source.removeAttribute("aria-invalid");
  if (choice.title !== title.value) {
    title.value = choice.title;
    filledTitle = choice.title;
  }
  if (choice.granularity) granularity.value = choice.granularity;
  mistake.value = choice.mistake;
  control("sort_steps").checked = choice.sortSteps;
  control("gradcheck").checked = choice.gradcheck;
  showPreview();
}
exampleSelect.addEventListener("change", applyExample);

source.addEventListener("input", () => {
  source.removeAttribute("aria-invalid");
  // Edited away from the example it was: the program is the teacher's own now.
  const example = findExample(examples, exampleSelect.value);
  if (example && example.source !== source.value) exampleSelect.value = "";
  schedulePreview();
});
form.addEventListener("change", (event) => {
  if (event.target !== exampleSelect && event.target !== source && event.target !== title)
    showPreview();
});

form.addEventListener("submit", () => {
  // One activity per press: a second press while the course answers would add two.
  window.setTimeout(() => {
    submit.disabled = true;
    submit.textContent = "Adding…";
  });
});
// Back to this page from the browser's cache: the form may be sent again.
addEventListener("pageshow", () => {
  submit.disabled = false;
  submit.textContent = "Add to course";
});

addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.data?.type !== HEIGHT_MESSAGE) return;
  const height = Number(event.data.height);
  if (!Number.isFinite(height)) return;
  frame.height = String(Math.round(Math.min(FRAME_HEIGHT.max, Math.max(FRAME_HEIGHT.min, height))));
});

placeCaretAtError();
preview.hidden = false;
// An example chosen before this script ran (a slow connection) still fills the form.
if (exampleSelect.value && !source.value) applyExample();
else showPreview();
form.dataset.ready = "true";

/** @returns {import("./hosts/picker-fields.js").PickerExample[]} */
function readExamples() {
  try {
    const list = JSON.parse(document.getElementById("picker-examples")?.textContent || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The server sent the form back with a program error: the caret goes where it is. */
function placeCaretAtError() {
  const box = /** @type {HTMLElement | null} */ (
    document.querySelector("[data-testid=picker-error]")
  );
  const line = Number(box?.dataset.line);
  if (!box || !Number.isInteger(line) || line < 1) return;
  const column = Number(box.dataset.column);
  const offset = sourceOffset(source.value, line, Number.isInteger(column) ? column : null);
  source.setSelectionRange(offset, offset);
}
