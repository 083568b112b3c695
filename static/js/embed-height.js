/**
 * Tells the page around an iframe how tall the player is, so a course page can
 * size the frame to its content instead of showing a second scrollbar. Posts
 * `{type: "backprop-animator:height", height}` (CSS pixels) to the parent window
 * whenever the height changes; the README gives the parent's five-line listener.
 * Only a height is sent, so any origin may hear it.
 */

export const HEIGHT_MESSAGE = "backprop-animator:height";

/**
 * @param {HTMLElement} content  the element whose height is the page's height
 * @param {Window} [target]  where to post; nothing is posted when the page is not framed
 * @returns {() => void}  stops reporting
 */
export function reportHeight(content, target = window.parent) {
  if (target === window || typeof ResizeObserver === "undefined") return () => {};
  let sent = -1;
  const post = () => {
    const style = getComputedStyle(content);
    const margins = parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    const height = Math.ceil(content.getBoundingClientRect().height + margins);
    if (height === sent) return;
    sent = height;
    target.postMessage({ type: HEIGHT_MESSAGE, height }, "*");
  };
  const observer = new ResizeObserver(post);
  observer.observe(content);
  post();
  return () => observer.disconnect();
}
