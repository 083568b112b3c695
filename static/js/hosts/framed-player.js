/**
 * The player in an iframe on a course page, as `/embed` (embed-page.js) and the LTI
 * tool's graded player (`/lti/play/…`, lti-play.js) show it: its options (parts shown,
 * autoplay, speed, theme: embed-options.js) from its address, the editor only when
 * they ask for it, its height and frame posted to the page around it and seeks taken
 * from it (frame-messages.js). The rest is page-controller.js. Importing this module
 * does nothing: `mountFramedPlayer(...).start()` does the work.
 */
import { keepEmbedOptions, readEmbedOptions } from "./embed-options.js";
import { listenForSeek, reportFrame, reportHeight } from "./frame-messages.js";
import { applyTheme } from "./host.js";
import { mountPageController } from "./page-controller.js";

/**
 * Mount the framed player on the page's markup (templates/embed.html, lti_play.html):
 * `main`, `#player`, the error box and the `#embed-editor` template.
 * @param {Pick<import("./page-controller.js").PageOptions, "quizReport" | "quizStorage">} [options]
 *   quizReport: where each closed quiz question goes (default: the parent window);
 *   quizStorage: where its answers survive a reload (default: sessionStorage)
 */
export function mountFramedPlayer({ quizReport, quizStorage } = {}) {
  const options = readEmbedOptions(location.search);
  applyTheme(options.theme, document.documentElement);
  const errorBox = /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]"));
  const main = /** @type {HTMLElement} */ (document.querySelector("main"));
  const heights = reportHeight(main);
  const page = mountPageController({
    playerRoot: /** @type {HTMLElement} */ (document.getElementById("player")),
    errorBox,
    editorRoot: embedEditor(),
    openLink: /** @type {HTMLAnchorElement | null} */ (document.getElementById("open-full")),
    hide: options.hide,
    speed: options.speed,
    autoplay: options.autoplay,
    steady: true,
    remember: false,
    fitEditor: true,
    address: (search) => keepEmbedOptions(search, location.search),
    onFrame: reportFrame,
    onSettled: () => heights.ready(),
    quizReport,
    quizStorage,
  });
  listenForSeek((frame) => page.player?.seek(frame));
  return page;

  /**
   * The editor, when the options ask for one: the template's markup is put in before the
   * error box, and the editor is mounted on the whole page so it uses that box.
   * @returns {HTMLElement | null}
   */
  function embedEditor() {
    const template = /** @type {HTMLTemplateElement | null} */ (
      document.getElementById("embed-editor")
    );
    if (!template || options.hide.includes("editor")) return null;
    errorBox.before(template.content.cloneNode(true));
    return main;
  }
}
