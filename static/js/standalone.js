/**
 * The entry of a standalone export (`backprop-animator export`, `GET /export`,
 * notebooks): everything the player needs is in the page itself. The trace, the
 * engine's rule sources and the options sit in JSON data blocks that
 * app/export.py wrote; this module mounts the player on them. No network.
 * `quiz: true` in the options turns the player into the quiz (scores go to the
 * parent window when the file is framed, as in a notebook). In a frame (a
 * notebook), it reports its height and frame and takes seeks from the page
 * around it (frame-messages.js).
 */
import { listenForSeek, reportFrame, reportHeight } from "./frame-messages.js";
import { mountGradcheckPanel } from "./gradcheck-panel.js";
import { mountPlayer } from "./player.js";

/** @param {string} id */
function readData(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the export has no #${id} data block`);
  return JSON.parse(/** @type {string} */ (element.textContent));
}

const root = /** @type {HTMLElement} */ (document.getElementById("player"));
const options = readData("backprop-options");
if (options.theme === "light" || options.theme === "dark")
  document.documentElement.dataset.theme = options.theme;
const heights = reportHeight(/** @type {HTMLElement} */ (document.querySelector("main")));
const trace = readData("backprop-trace");
mountPlayer(root, {
  trace,
  rules: readData("backprop-rules"),
  frame: options.frame ?? 0,
  onFrame: reportFrame,
  quiz: options.quiz === true ? {} : null,
})
  .then((player) => {
    listenForSeek((frame) => player.seek(frame));
    // An export made with the gradient check carries its result (SPEC §7): show the panel.
    if (!options.gradcheck) return;
    const host = document.createElement("div");
    host.className = "gradcheck-host";
    root.after(host);
    const panel = mountGradcheckPanel(host);
    panel.setOpen(true);
    panel.show(options.gradcheck, trace);
  })
  .catch((error) => {
    const box = /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]"));
    box.textContent = `The player could not start: ${error}`;
    box.hidden = false;
  })
  .finally(() => heights.ready());
