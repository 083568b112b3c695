/**
 * What a framed player (`/embed`, a standalone export, a notebook output) tells the
 * page around it, and what it hears back. Every message is a small object with a
 * `type` from this module, posted to any origin: it carries a height or a frame
 * number, nothing private.
 *
 * - `{type: HEIGHT_MESSAGE, height}`: the player's height in CSS pixels, posted
 *   once the player is there, then whenever it really changes, checked again when
 *   the frame comes into view
 *   (Chromium throttles frames that are off screen, so a height measured there may
 *   be stale). static/height-listener.js is the parent's side: it sizes the iframe.
 * - `{type: FRAME_MESSAGE, frame}`: the frame the learner is on (0-based), for a
 *   notebook widget that keeps Python's `frame` in sync (static/js/widget.js).
 * - `{type: SEEK_MESSAGE, frame}` from the parent: move the player there.
 */

export const HEIGHT_MESSAGE = "backprop-animator:height";
export const FRAME_MESSAGE = "backprop-animator:frame";
export const SEEK_MESSAGE = "backprop-animator:seek";
/** A frame's height before its player reports one: the neuron with its default parts, 700–1000px wide. */
export const DEFAULT_FRAME_HEIGHT = 760;

/**
 * Report the page's height to the parent, once the host says its player (or its error)
 * is there: a height posted before would be the empty page's, and an off-screen frame,
 * throttled, might not correct it until scrolled to. `ready()` posts at once, since
 * measuring works even while the frame's rendering is throttled.
 * @param {HTMLElement} content  the element whose height is the page's height
 * @param {Window} [target]  where to post; nothing is posted when the page is not framed
 * @returns {{ready: () => void, stop: () => void}}
 */
export function reportHeight(content, target = window.parent) {
  if (target === window || typeof ResizeObserver === "undefined") return { ready() {}, stop() {} };
  let sent = -1;
  let started = false;
  const post = () => {
    if (!started) return;
    const style = getComputedStyle(content);
    const margins = parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    const height = Math.ceil(content.getBoundingClientRect().height + margins);
    if (height === sent || height <= 0) return;
    sent = height;
    target.postMessage({ type: HEIGHT_MESSAGE, height }, "*");
  };
  const resized = new ResizeObserver(post);
  resized.observe(content);
  // Coming into view is when a throttled frame catches up: measure again then.
  const shown =
    typeof IntersectionObserver === "undefined"
      ? null
      : new IntersectionObserver((entries) => {
          if (entries.some((entry) => entry.isIntersecting)) post();
        });
  shown?.observe(content);
  addEventListener("resize", post);
  return {
    ready() {
      started = true;
      post();
    },
    stop() {
      resized.disconnect();
      shown?.disconnect();
      removeEventListener("resize", post);
    },
  };
}

/**
 * Tell the parent which frame the learner is on.
 * @param {number} frame
 * @param {Window} [target]
 */
export function reportFrame(frame, target = window.parent) {
  if (target !== window) target.postMessage({ type: FRAME_MESSAGE, frame }, "*");
}

/**
 * Let the parent move the player: `seek` gets a whole, non-negative frame number.
 * Messages from anyone but the parent, or without a usable number, are ignored.
 * @param {(frame: number) => void} seek
 * @param {Window} [parent]
 * @returns {() => void}  stops listening
 */
export function listenForSeek(seek, parent = window.parent) {
  if (parent === window) return () => {};
  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    if (event.source !== parent || event.data?.type !== SEEK_MESSAGE) return;
    const frame = event.data.frame;
    if (Number.isInteger(frame) && frame >= 0) seek(frame);
  };
  addEventListener("message", onMessage);
  return () => removeEventListener("message", onMessage);
}
