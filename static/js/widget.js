/**
 * The player as an anywidget (https://anywidget.dev): one ES module for JupyterLab,
 * Notebook 7, VS Code, Colab and marimo (through `animate()` in app/notebook.py) and
 * for MyST / Jupyter Book 2's `{anywidget}` directive (docs/COURSES.md).
 *
 * The player runs in an iframe of its own, so several players in a notebook share no
 * ids, styles or keys, and the notebook's CSS cannot reach them:
 * - from Python, the model's `_html` is the standalone export, shown with `srcdoc` in a
 *   sandbox (scripts only, an opaque origin): nothing is fetched;
 * - in a course book, the model names a `server` and a `source` instead, and the frame
 *   is that server's `/embed` (options in `embed`, e.g. `{"controls": "-code"}`).
 *
 * `frame` is synced both ways: the player reports where the learner is
 * (FRAME_MESSAGE) and Python or the page can move it (SEEK_MESSAGE). The frame's
 * height follows the player (HEIGHT_MESSAGE). When it renders, the widget hides the
 * still picture `animate()` left for readers without a kernel (`_still_id`).
 */
import {
  DEFAULT_FRAME_HEIGHT,
  FRAME_MESSAGE,
  HEIGHT_MESSAGE,
  SEEK_MESSAGE,
} from "./hosts/frame-messages.js";

/**
 * @typedef {{
 *   get: (name: string) => any,
 *   set: (name: string, value: any) => void,
 *   save_changes: () => void,
 *   on: (event: string, callback: () => void) => void,
 *   off: (event: string, callback: () => void) => void,
 * }} WidgetModel
 * The part of anywidget's model this widget uses.
 */

/**
 * The `/embed` address a course-book model asks for, or null when its server is not http(s).
 * @param {WidgetModel} model
 */
export function embedAddress(model) {
  const given = model.get("server");
  if (typeof given !== "string" || !given.trim()) return null;
  let server;
  try {
    server = new URL(given, location.href);
  } catch {
    return null;
  }
  if (server.protocol !== "https:" && server.protocol !== "http:") return null;
  const address = new URL("embed", server.href.endsWith("/") ? server : `${server.href}/`);
  const params = address.searchParams;
  params.set("source", String(model.get("source") ?? ""));
  const granularity = model.get("granularity");
  if (granularity === "packed" || granularity === "expanded")
    params.set("granularity", granularity);
  const frame = model.get("frame");
  if (Number.isInteger(frame) && frame > 0) params.set("frame", String(frame));
  const options = model.get("embed");
  if (options && typeof options === "object") {
    for (const [name, value] of Object.entries(options)) {
      if (!params.has(name) && ["string", "number", "boolean"].includes(typeof value))
        params.set(name, String(value));
    }
  }
  return address.href;
}

/**
 * @param {{model: WidgetModel, el: HTMLElement}} context
 * @returns {() => void}  cleans up when the view goes away
 */
export function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.className = "backprop-animator";
  frame.dataset.testid = "player-frame";
  frame.title = String(model.get("title") || "backprop-animator player");
  const height =
    Number(model.get("height")) > 0 ? Number(model.get("height")) : DEFAULT_FRAME_HEIGHT;
  frame.style.cssText = `display: block; width: 100%; height: ${height}px; border: 0;`;
  const page = model.get("_html");
  if (page) {
    frame.setAttribute("sandbox", "allow-scripts");
    frame.srcdoc = String(page);
  } else {
    const address = embedAddress(model);
    if (!address) {
      el.textContent =
        "backprop-animator: this widget needs a `server` (an http or https address) and a `source`.";
      return () => {};
    }
    frame.src = address;
    frame.loading = "lazy";
  }

  let playerStarted = false;
  let reported = -1;
  const seek = () => {
    const wanted = model.get("frame");
    if (playerStarted && Number.isInteger(wanted) && wanted !== reported) {
      frame.contentWindow?.postMessage({ type: SEEK_MESSAGE, frame: wanted }, "*");
    }
  };
  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    if (event.source !== frame.contentWindow || !event.data) return;
    const { type, height: reportedHeight, frame: at } = event.data;
    if (type === HEIGHT_MESSAGE && reportedHeight > 0)
      frame.style.height = `${Math.ceil(reportedHeight)}px`;
    if (type !== FRAME_MESSAGE || !Number.isInteger(at)) return;
    reported = at;
    if (!playerStarted) {
      // The player's first report: if Python moved `frame` while it loaded, Python wins.
      playerStarted = true;
      return seek();
    }
    if (model.get("frame") !== at) {
      model.set("frame", at);
      model.save_changes();
    }
  };
  addEventListener("message", onMessage);
  model.on("change:frame", seek);
  el.replaceChildren(frame);
  hideStill(model.get("_still_id"));
  return () => {
    removeEventListener("message", onMessage);
    model.off("change:frame", seek);
  };
}

/**
 * The still picture is for readers without a kernel; with the player live, it would repeat it.
 * @param {unknown} id
 */
function hideStill(id) {
  if (typeof id !== "string" || !/^[\w-]+$/.test(id)) return;
  for (const still of document.querySelectorAll(`[data-backprop-still="${id}"]`)) {
    const output = still.closest(".jp-OutputArea-child, .output_area") ?? still;
    /** @type {HTMLElement} */ (output).hidden = true;
    /** @type {HTMLElement} */ (output).style.display = "none";
  }
}

export default { render };
