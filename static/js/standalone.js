/**
 * The entry of a standalone export (`backprop-animator export`, `GET /export`,
 * notebooks): everything the player needs is in the page itself. The trace, the
 * engine's rule sources and the options sit in JSON data blocks that
 * app/export.py wrote; this module mounts the player on them (host.js). No network.
 * `quiz: true` in the options turns the player into the quiz (scores go to the
 * parent window when the file is framed, as in a notebook). In a frame (a
 * notebook), it reports its height and frame and takes seeks from the page
 * around it (frame-messages.js).
 */
import { listenForSeek, reportFrame, reportHeight } from "./hosts/frame-messages.js";
import { mountGradcheckPanel } from "./lab/gradcheck-panel.js";
import { applyTheme, showPlayer } from "./hosts/host.js";

/** @param {string} id */
function readData(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the export has no #${id} data block`);
  return JSON.parse(/** @type {string} */ (element.textContent));
}

const root = /** @type {HTMLElement} */ (document.getElementById("player"));
const options = readData("backprop-options");
applyTheme(options.theme, document.documentElement);
const heights = reportHeight(/** @type {HTMLElement} */ (document.querySelector("main")));
const player = await showPlayer(root, {
  load: async () => ({ trace: readData("backprop-trace"), rules: readData("backprop-rules") }),
  errorBox: /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]")),
  errorContext: "The player could not start",
  frame: options.frame ?? 0,
  onFrame: reportFrame,
  quiz: options.quiz === true ? {} : null,
});
if (player) {
  listenForSeek((frame) => player.seek(frame));
  // An export made with the gradient check carries its result (SPEC §7): show the panel.
  if (options.gradcheck) {
    const host = document.createElement("div");
    host.className = "gradcheck-host";
    root.after(host);
    const panel = mountGradcheckPanel(host);
    panel.setOpen(true);
    panel.show(options.gradcheck, player.timeline.trace);
  }
}
heights.ready();
