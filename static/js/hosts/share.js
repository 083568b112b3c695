/**
 * The share dialog on `/`: the permalink, an iframe snippet (with the embed's
 * options as checkboxes), the parent-page height listener, the script-tag snippet
 * and a link to the standalone export. Copy buttons use the Clipboard API and,
 * where it is refused (no permission, plain http), select the text instead so
 * Ctrl+C finishes the job. The texts come from share-snippets.js.
 */
import { PARTS } from "./embed-options.js";
import {
  exportUrl,
  heightListenerSnippet,
  iframeSnippet,
  permalink,
  scriptSnippet,
} from "./share-snippets.js";

/**
 * @param {Element | null} button  opens the dialog
 * @param {HTMLDialogElement | null} dialog  the markup index.html renders
 * @param {() => {source: string, granularity: "packed" | "expanded", frame: number, quiz?: boolean,
 *   lab?: Partial<import("../lab/lab-url.js").LabState>}} currentState
 */
export function mountShare(button, dialog, currentState) {
  if (!button || !dialog) return;
  const field = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement | HTMLTextAreaElement} */ (
      dialog.querySelector(`[data-share-field="${name}"]`)
    );
  const exportLink = /** @type {HTMLAnchorElement} */ (dialog.querySelector("[data-share-export]"));
  const status = /** @type {HTMLElement} */ (dialog.querySelector(".share-status"));
  const checkbox = (/** @type {string} */ name) =>
    /** @type {HTMLInputElement} */ (dialog.querySelector(`input[name="${name}"]`));
  const themeMenu = /** @type {HTMLSelectElement} */ (dialog.querySelector("select[name=theme]"));

  function embedOptions() {
    return {
      hide: PARTS.filter((part) => !checkbox(`show-${part}`).checked),
      autoplay: checkbox("autoplay").checked,
      theme: /** @type {"auto" | "light" | "dark"} */ (themeMenu.value),
    };
  }

  // The quiz switch starts as the page is (`/?quiz=1`), and every snippet follows it.
  const quizBox = checkbox("quiz");

  function refresh() {
    const state = {
      origin: location.origin,
      ...currentState(),
      embed: embedOptions(),
      quiz: quizBox?.checked ?? false,
    };
    field("link").value = permalink(state);
    field("iframe").value = iframeSnippet(state);
    field("listener").value = heightListenerSnippet(state.origin);
    field("script").value = scriptSnippet(state);
    exportLink.href = exportUrl(state);
    status.textContent = "";
  }

  /** @param {HTMLInputElement | HTMLTextAreaElement} source */
  async function copy(source) {
    try {
      await navigator.clipboard.writeText(source.value);
      status.textContent = "Copied to the clipboard.";
    } catch {
      source.focus();
      source.select();
      status.textContent =
        "Copying was refused here: the text is selected, press Ctrl+C (⌘C on a Mac).";
    }
  }

  button.addEventListener("click", () => {
    if (quizBox) quizBox.checked = currentState().quiz ?? false;
    refresh();
    dialog.showModal();
  });
  dialog.addEventListener("change", refresh);
  // Arrow keys and Space belong to the dialog while it is open, not to the player behind it.
  dialog.addEventListener("keydown", (event) => event.stopPropagation());
  dialog.addEventListener("click", (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target === dialog) dialog.close(); // a click on the backdrop
    const copyButton = /** @type {HTMLElement | null} */ (target.closest("[data-copy]"));
    if (copyButton) copy(field(/** @type {string} */ (copyButton.dataset.copy)));
    if (target.closest("[data-close]")) dialog.close();
  });
}
