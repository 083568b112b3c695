/**
 * The texts the share dialog offers: the permalink, an `<iframe>` of `/embed`, the
 * script-tag embed, and the standalone export's download link. Pure: strings in,
 * strings out, every user text escaped for the HTML attribute it lands in.
 *
 * Example: iframeSnippet({origin: "https://ba.example", source: "a + a", granularity: "packed", frame: 0})
 *   -> '<iframe src="https://ba.example/embed?source=a+%2B+a&amp;granularity=packed&amp;frame=0" title=…'
 */
import { HIDDEN_BY_DEFAULT, PARTS, embedParams } from "./embed-options.js";
import { DEFAULT_FRAME_HEIGHT } from "./frame-messages.js";
import { labParams, withLabParams } from "../lab/lab-url.js";
import { programTitle } from "./program-title.js";
import { writeUrlState } from "./url-state.js";

/** What each part adds to that height. */
const PART_HEIGHTS = /** @type {Record<string, number>} */ ({
  editor: 250,
  code: 120,
  narration: 100,
});

/**
 * @typedef {{origin: string, source: string, granularity: "packed" | "expanded", frame: number,
 *   embed?: Partial<import("./embed-options.js").EmbedOptions>, lab?: Partial<import("../lab/lab-url.js").LabState>,
 *   quiz?: boolean}} ShareState
 * lab: the bug lab's mistake, sort steps and gradient check, carried by every link
 * quiz: the player as the quiz (`quiz=1`, SPEC §10), carried by every link
 * origin: where the app is served, e.g. "https://ba.example" (no trailing slash)
 */

/** @param {string} text */
export function escapeAttribute(text) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r?\n/g, "&#10;");
}

/** @param {ShareState} state */
export function permalink({ origin, source, granularity, frame, lab, quiz = false }) {
  return `${origin}/${withLabParams(writeUrlState({ source, granularity, frame, quiz }), lab)}`;
}

/** @param {ShareState} state */
export function embedUrl({ origin, source, granularity, frame, embed = {}, lab, quiz = false }) {
  const params = new URLSearchParams(
    withLabParams(writeUrlState({ source, granularity, frame, quiz }), lab),
  );
  for (const [name, value] of embedParams(embed)) params.set(name, value);
  return `${origin}/embed?${params}`;
}

/** @param {ShareState} state */
export function exportUrl({ origin, source, granularity, frame, lab, quiz = false }) {
  const params = new URLSearchParams(writeUrlState({ source, granularity, frame, quiz }));
  // The export embeds a forward-difference check (`gradcheck=1`); it has no central one.
  for (const [name, value] of labParams({ ...lab, scheme: "forward" })) params.set(name, value);
  return `${origin}/export?${params}`;
}

/**
 * The `<script>` that sizes every embed's iframe to its content (static/height-listener.js).
 * @param {string} origin
 */
export function heightListenerSnippet(origin) {
  return `<script src="${escapeAttribute(origin)}/static/height-listener.js" async></script>`;
}

/**
 * An iframe of `/embed` with a title that says what it holds (accessibility reviews ask
 * for one), lazy loading, and the height listener on the line after it.
 * @param {ShareState} state
 */
export function iframeSnippet(state) {
  const hidden = state.embed?.hide ?? HIDDEN_BY_DEFAULT;
  const height = PARTS.reduce((sum, part) => {
    const change = Number(HIDDEN_BY_DEFAULT.includes(part)) - Number(hidden.includes(part));
    return sum + change * PART_HEIGHTS[part];
  }, DEFAULT_FRAME_HEIGHT);
  return (
    `<iframe src="${escapeAttribute(embedUrl(state))}" title="${escapeAttribute(programTitle(state.source))}"` +
    ` width="100%" height="${height}" loading="lazy" style="border:0;max-width:1000px"></iframe>\n` +
    heightListenerSnippet(state.origin)
  );
}

/**
 * A div the script-tag embed turns into a player, with the same options as the iframe
 * (parts shown, autoplay, speed, theme, the quiz, the bug lab's mistake and sort steps)
 * as `data-backprop-*` attributes. The script tag has no editor, so that option is left
 * out, and no gradient check panel (the iframe has one).
 * @param {ShareState} state
 */
export function scriptSnippet({ origin, source, granularity, frame, embed = {}, lab, quiz }) {
  const attributes = [`data-backprop-source="${escapeAttribute(source)}"`];
  if (granularity !== "packed") attributes.push(`data-backprop-granularity="${granularity}"`);
  if (frame > 0) attributes.push(`data-backprop-frame="${Math.trunc(frame)}"`);
  if (quiz) attributes.push(`data-backprop-quiz="1"`);
  for (const [name, value] of labParams({ ...lab, gradcheck: false }))
    attributes.push(`data-backprop-${name}="${escapeAttribute(value)}"`);
  const options = { ...embed, hide: [...(embed.hide ?? HIDDEN_BY_DEFAULT), "editor"] };
  for (const [name, value] of embedParams(options))
    attributes.push(`data-backprop-${name}="${escapeAttribute(value)}"`);
  return `<div ${attributes.join(" ")}></div>\n<script src="${escapeAttribute(origin)}/static/embed.js" async></script>`;
}
