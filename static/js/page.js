/**
 * The entry of `/`: the editor and the player (page-controller.js), the theme toggle,
 * the share dialog (share.js) and Back and Forward between the programs run
 * (`history.pushState` on Run and examples, `popstate` restores).
 */
import { warmLayoutWorker } from "./layout/layout-runner.js";
import { mountPageController } from "./hosts/page-controller.js";
import { mountShare } from "./hosts/share.js";
import { initTheme } from "./player/theme.js";

initTheme(document.querySelector(".theme-toggle"));
const page = mountPageController({
  playerRoot: /** @type {HTMLElement} */ (document.getElementById("player")),
  errorBox: /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]")),
  editorRoot: document.querySelector(".editor-panel"),
  remember: true,
  // A long program's address names it rather than carrying it (program-store.js).
  shortLinks: true,
  // On `/` nothing but the table follows the player; a course page's text follows /embed.
  steady: false,
});
addEventListener("popstate", () => page.restore());
mountShare(
  document.querySelector("[data-share]"),
  /** @type {HTMLDialogElement | null} */ (document.querySelector(".share-dialog")),
  page.shareState,
);
// Once the first program is shown, the layout worker starts, ready for a big one.
page.start().then(() => setTimeout(warmLayoutWorker, 0));
