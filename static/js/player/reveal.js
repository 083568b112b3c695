/**
 * Bring a part of the page into view when a control far from it has just changed it
 * (Show frame k changes the graph above; Gradient check opens its panel below the
 * table): the learner saw nothing happen where they clicked. A part already showing
 * is left where the learner scrolled it.
 *
 * Example: revealIfGone(panel) with the panel's top 950 px down an 800 px window
 * scrolls it to the top; with its top at 400 px it does nothing.
 */

/** Less of it on screen than this, in CSS pixels, counts as gone. */
const SHOWING_PX = 60;

/**
 * @param {HTMLElement} element
 * @param {ScrollLogicalPosition} [block]  where it lands: "nearest" edge, or "start"
 */
export function revealIfGone(element, block = "nearest") {
  const { top, bottom } = element.getBoundingClientRect();
  const height = globalThis.innerHeight || document.documentElement.clientHeight;
  if (bottom < SHOWING_PX || top > height - SHOWING_PX) element.scrollIntoView({ block });
}
