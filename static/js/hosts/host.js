/**
 * What every host of the player does the same way: mount it on a trace and its rules,
 * start it playing when asked, say what went wrong ("Line 3, column 5: …") in an error
 * box, and apply a fixed theme. The hosts are page.js (`/`), embed-page.js (`/embed`),
 * embed-element.js (the script tag's element, loaded by the classic static/embed.js) and
 * standalone.js (an exported file); each only says where its trace comes from and what
 * else it shows.
 * Importing this module does nothing; it fetches nothing either (the hosts pass a
 * `load` function), so the offline export carries no network code for it.
 *
 * Example:
 *   const player = await showPlayer(root, {
 *     load: async () => ({trace, rules}), errorBox, autoplay: true, frame: 0,
 *   });  // null, and the box says why, when the trace could not be loaded or shown
 */
import { mountPlayer } from "../player/player.js";
import { placeText } from "../player/source-position.js";

/** @typedef {{message: string, line: number | null, column: number | null}} Problem */
/** @typedef {Awaited<ReturnType<typeof mountPlayer>>} Player */

/**
 * The one sentence an error box shows.
 * @param {Problem} problem
 * @param {string} [prefix]  what the box says first, e.g. "backprop-animator: "
 */
export function problemText(problem, prefix = "") {
  const place = placeText(problem);
  return `${prefix}${place ? `${place}: ` : ""}${problem.message}`;
}

/**
 * Anything thrown on the way to a player as a Problem: the server's errors keep their
 * line and column (api.js's SourceError), anything else becomes a sentence.
 * @param {unknown} error
 * @param {string} [context]  said before an unexpected error, e.g. "The trace could not be shown"
 * @returns {Problem}
 */
export function problemOf(error, context = "") {
  if (error instanceof Error && error.name === "SourceError") {
    const { line = null, column = null } = /** @type {Partial<Problem>} */ (error);
    return { message: forLearner(error.message), line, column };
  }
  return { message: context ? `${context}: ${error}` : String(error), line: null, column: null };
}

// The engine names the server setting behind a limit (SPEC §4), which the CLI's user can
// change and a learner on the page cannot.
const SETTING_HINT = /; set BACKPROP_[A-Z_]+ to change it\)/;

/**
 * A server's error as a learner reads it: a limit is this server's, not theirs to set.
 * Example: forLearner("too many nodes (the limit is 20,000; set BACKPROP_MAX_NODES to change it)")
 *   -> "too many nodes (the limit is 20,000, set by this server). Make the program smaller or let it do less to stay within it."
 * @param {string} message
 */
export function forLearner(message) {
  if (!SETTING_HINT.test(message)) return message;
  const said = message.replace(SETTING_HINT, ", set by this server)");
  // An endless loop's hint (after " — ") says what to do already.
  if (said.includes(" \u2014 ")) return said;
  return `${said}${/[.!?]$/.test(said) ? "" : "."} Make the program smaller or let it do less to stay within it.`;
}

/**
 * Show a problem in an error box, or hide the box when there is none.
 * @param {HTMLElement} box
 * @param {Problem | null} problem
 * @param {string} [prefix]
 */
export function showProblem(box, problem, prefix = "") {
  box.textContent = problem ? problemText(problem, prefix) : "";
  box.hidden = !problem;
}

/**
 * A host's fixed theme: "light" or "dark" wins over the reader's system setting;
 * "auto" (or anything else) leaves it to the system.
 * @param {string | undefined} theme
 * @param {HTMLElement} element  where the CSS looks for `data-theme`
 */
export function applyTheme(theme, element) {
  if (theme === "light" || theme === "dark") element.dataset.theme = theme;
}

/**
 * Mount the player on a trace and start it playing if asked.
 * @param {HTMLElement} root
 * @param {import("../player/player.js").PlayerOptions & {autoplay?: boolean}} options
 * @returns {Promise<Player>}
 */
export async function mountAndPlay(root, { autoplay = false, ...options }) {
  const player = await mountPlayer(root, options);
  if (autoplay) player.play();
  return player;
}

/**
 * One player from one load: load the trace and rules, mount, autoplay; on any failure
 * the error box says why and the answer is null. The script tag and the export use it.
 * @param {HTMLElement} root
 * @param {Omit<import("../player/player.js").PlayerOptions, "trace" | "rules"> & {
 *   load: () => Promise<{trace: unknown, rules: Record<string, string>}>,
 *   errorBox: HTMLElement, errorPrefix?: string, errorContext?: string, autoplay?: boolean,
 * }} options
 *   errorPrefix: said before every problem; errorContext: before an unexpected one
 * @returns {Promise<Player | null>}
 */
export async function showPlayer(root, { load, errorBox, errorPrefix, errorContext, ...options }) {
  try {
    const { trace, rules } = await load();
    return await mountAndPlay(root, { ...options, trace, rules });
  } catch (error) {
    showProblem(errorBox, problemOf(error, errorContext), errorPrefix);
    return null;
  }
}
