/**
 * The texts the share dialog offers: the permalink, an `<iframe>` of `/embed`, the
 * script-tag embed, and the standalone export's download link. Pure: strings in,
 * strings out, every user text escaped for the HTML attribute it lands in.
 *
 * Example: iframeSnippet({origin: "https://ba.example", source: "a + a", granularity: "packed", frame: 0})
 *   -> '<iframe src="https://ba.example/embed?source=a+%2B+a&amp;granularity=packed&amp;frame=0" title=…'
 */
import { HIDDEN_BY_DEFAULT, PARTS, embedParams } from "./embed-options.js";
import { labParams, withLabParams } from "./lab-url.js";
import { writeUrlState } from "./url-state.js";

/** The embed's height with its default parts, measured on the neuron at 700–1000px wide. */
export const IFRAME_HEIGHT = 760;
/** What each part adds to that height. */
const PART_HEIGHTS = /** @type {Record<string, number>} */ ({ editor: 250, code: 120, narration: 100 });

/**
 * @typedef {{origin: string, source: string, granularity: "packed" | "expanded", frame: number,
 *   embed?: Partial<import("./embed-options.js").EmbedOptions>, lab?: Partial<import("./lab-url.js").LabState>}} ShareState
 * lab: the bug lab's mistake, sort steps and gradient check, carried by every link
 * origin: where the app is served, e.g. "https://ba.example" (no trailing slash)
 */

/** @param {string} text */
export function escapeAttribute(text) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/\r?\n/g, "&#10;");
}

/** @param {ShareState} state */
export function permalink({ origin, source, granularity, frame, lab }) {
  return `${origin}/${withLabParams(writeUrlState({ source, granularity, frame }), lab)}`;
}

/** @param {ShareState} state */
export function embedUrl({ origin, source, granularity, frame, embed = {}, lab }) {
  const params = new URLSearchParams(withLabParams(writeUrlState({ source, granularity, frame }), lab));
  for (const [name, value] of embedParams(embed)) params.set(name, value);
  return `${origin}/embed?${params}`;
}

/** @param {ShareState} state */
export function exportUrl({ origin, source, granularity, frame, lab }) {
  const params = new URLSearchParams(writeUrlState({ source, granularity, frame }));
  // The export embeds a forward-difference check (`gradcheck=1`); it has no central one.
  for (const [name, value] of labParams({ ...lab, scheme: "forward" })) params.set(name, value);
  return `${origin}/export?${params}`;
}

/**
 * A title that says what the frame holds, as accessibility reviews ask of iframes.
 * @param {string} source
 */
export function describeProgram(source) {
  const line = source.split("\n").map((text) => text.trim()).find((text) => text && !text.startsWith("#")) ?? "";
  const short = line.length > 48 ? `${line.slice(0, 47)}…` : line;
  return short ? `backprop-animator: backpropagation through ${short}` : "backprop-animator player";
}

/** @param {ShareState} state */
export function iframeSnippet(state) {
  const hidden = state.embed?.hide ?? HIDDEN_BY_DEFAULT;
  const height = PARTS.reduce((sum, part) => {
    const change = Number(HIDDEN_BY_DEFAULT.includes(part)) - Number(hidden.includes(part));
    return sum + change * PART_HEIGHTS[part];
  }, IFRAME_HEIGHT);
  return `<iframe src="${escapeAttribute(embedUrl(state))}" title="${escapeAttribute(describeProgram(state.source))}"`
    + ` width="100%" height="${height}" loading="lazy" style="border:0;max-width:1000px"></iframe>`;
}

/** @param {ShareState} state */
export function scriptSnippet({ origin, source, granularity, frame }) {
  const attributes = [`data-backprop-source="${escapeAttribute(source)}"`];
  if (granularity !== "packed") attributes.push(`data-backprop-granularity="${granularity}"`);
  if (frame > 0) attributes.push(`data-backprop-frame="${Math.trunc(frame)}"`);
  return `<div ${attributes.join(" ")}></div>\n<script src="${escapeAttribute(origin)}/static/embed.js" async></script>`;
}

/** The parent-page listener that sizes every embed iframe to its content (README "Embed"). */
export const HEIGHT_LISTENER = `<script>
addEventListener("message", (event) => {
  if (event.data?.type !== "backprop-animator:height") return;
  for (const frame of document.querySelectorAll("iframe"))
    if (frame.contentWindow === event.source) frame.style.height = event.data.height + "px";
});
</script>`;
