/**
 * The embed's options (docs/COURSES.md, "Share, iframe and script tag: the options"):
 * which parts to hide, autoplay, speed and theme, read from `/embed`'s query string or a
 * `data-backprop-*` element, and written back for the share dialog's snippets. Reading
 * forgives junk: an unknown part, speed or theme is ignored, as url-state.js does with
 * frames.
 *
 * The embed shows the code panel and the narration, and no editor, unless told:
 * `controls` lists changes, `-name` hides a part and `name` (or `+name`) shows it
 * (`controls=editor,-code`); `none` hides all three, `all` shows them.
 * `hide=code,narration` is the same as `controls=-code,-narration`.
 *
 * Example: readEmbedOptions("?controls=-code&autoplay=1&speed=2&theme=dark") ->
 *   {hide: ["editor", "code"], autoplay: true, speed: 2, theme: "dark"}
 */
import { LAB_PARAM_NAMES } from "../lab/lab-url.js";
import { SPEEDS } from "../passes/playback.js";

/** The parts an embed may hide: the program editor, the code panel, the narration. */
export const PARTS = /** @type {const} */ (["editor", "code", "narration"]);
/** What an embed leaves out when its options do not say. */
export const HIDDEN_BY_DEFAULT = ["editor"];
export const THEMES = /** @type {const} */ (["auto", "light", "dark"]);
const ALIASES = /** @type {Record<string, string>} */ ({ "code-panel": "code", text: "narration" });
const YES = new Set(["", "1", "true", "yes", "on"]);

/**
 * @typedef {{hide: string[], autoplay: boolean, speed: number | null, theme: "auto" | "light" | "dark"}} EmbedOptions
 */

/**
 * @param {string | URLSearchParams} search  location.search, or parameters already parsed
 * @returns {EmbedOptions}
 */
export function readEmbedOptions(search) {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const hidden = new Set(HIDDEN_BY_DEFAULT);
  for (const part of listOf(params.get("hide"))) hidden.add(part.replace(/^[-+]/, ""));
  for (const item of listOf(params.get("controls"))) {
    if (item === "none" || item === "all") {
      for (const part of PARTS) item === "none" ? hidden.add(part) : hidden.delete(part);
    } else if (item.startsWith("-")) {
      hidden.add(item.slice(1));
    } else {
      hidden.delete(item.replace(/^\+/, ""));
    }
  }
  const autoplay = params.get("autoplay");
  const speed = Number(params.get("speed"));
  const theme = params.get("theme");
  return {
    hide: PARTS.filter((part) => hidden.has(part)),
    autoplay: autoplay !== null && YES.has(autoplay.trim().toLowerCase()),
    speed: SPEEDS.includes(speed) ? speed : null,
    theme: THEMES.includes(/** @type {any} */ (theme))
      ? /** @type {EmbedOptions["theme"]} */ (theme)
      : "auto",
  };
}

/**
 * The options as query parameters, leaving out defaults so snippets stay short.
 * @param {Partial<EmbedOptions>} options
 * @returns {Array<[string, string]>}
 */
export function embedParams({ hide = [], autoplay = false, speed = null, theme = "auto" }) {
  /** @type {Array<[string, string]>} */
  const params = [];
  const changes = PARTS.filter(
    (part) => hide.includes(part) !== HIDDEN_BY_DEFAULT.includes(part),
  ).map((part) => (hide.includes(part) ? `-${part}` : part));
  if (changes.length) params.push(["controls", changes.join(",")]);
  if (autoplay) params.push(["autoplay", "1"]);
  if (speed !== null && speed !== 1) params.push(["speed", String(speed)]);
  if (theme !== "auto") params.push(["theme", theme]);
  return params;
}

/**
 * The embed's address for a state: the state's query, then the embed's own options
 * (controls, theme…) from the address it has now. The lab's parameters come only
 * from the state, so a lab option turned off does not come back.
 *
 * Example: keepEmbedOptions("?source=a&frame=2", "?source=b&frame=0&theme=dark&mistake=assign")
 *   -> "?source=a&frame=2&theme=dark"
 * @param {string} search  the state's query
 * @param {string} current  the embed's address now (location.search)
 */
export function keepEmbedOptions(search, current) {
  const params = new URLSearchParams(search);
  for (const [name, value] of new URLSearchParams(current)) {
    if (!params.has(name) && !LAB_PARAM_NAMES.includes(name)) params.append(name, value);
  }
  return `?${params}`;
}

/** @param {string | null} text */
function listOf(text) {
  if (!text) return [];
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
    .map((item) => {
      const sign = /^[-+]/.test(item) ? item[0] : "";
      const name = item.slice(sign.length);
      return sign + (ALIASES[name] ?? name);
    });
}
