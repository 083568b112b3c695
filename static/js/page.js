/**
 * The page controller for `/` and `/embed`: reads the URL, fetches traces,
 * examples and rules, mounts the player, shows errors and keeps the URL a
 * permalink of what is on screen (SPEC.md §5). The player itself knows nothing
 * of servers or URLs.
 */
import { SourceError, fetchOptional, fetchTrace } from "./api.js";
import { mountEditor } from "./editor.js";
import { mountPlayer } from "./player.js";
import { initTheme } from "./theme.js";
import { readUrlState, writeUrlState } from "./url-state.js";

const URL_UPDATE_MS = 120;
const LONG_URL_UPDATE_MS = 400;
const LONG_SOURCE_CHARS = 2000;

const embed = document.body.dataset.mode === "embed";
const playerRoot = /** @type {HTMLElement} */ (document.getElementById("player"));
const errorBox = /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]"));
const openLink = /** @type {HTMLAnchorElement | null} */ (document.getElementById("open-full"));
initTheme(document.querySelector(".theme-toggle"));

/** @type {Awaited<ReturnType<typeof mountPlayer>> | null} */
let player = null;
let runId = 0;
/** @type {AbortController | null} */
let inFlight = null;
/** @type {{source: string, granularity: "packed" | "expanded"}} */
let shown = { source: "", granularity: "packed" };

const editor = embed ? null : mountEditor(/** @type {HTMLElement} */ (document.querySelector(".editor-panel")), {
  onRun: ({ source, granularity, fromButton }) => run(source, granularity, 0, fromButton),
});
const rulesReady = fetchOptional("api/rules", {});

let urlTimer = 0;
let urlPending = false;
/**
 * Keep the address bar a permalink without slowing scrubbing: browsers throttle
 * history updates, and each one costs more the longer the URL (a big program is
 * tens of kilobytes), so long URLs are written only once scrubbing pauses.
 */
function syncUrl() {
  const long = shown.source.length > LONG_SOURCE_CHARS;
  if (urlTimer || long) {
    urlPending = true;
    if (long) window.clearTimeout(urlTimer);
    else return;
  } else {
    writeUrl();
  }
  urlTimer = window.setTimeout(() => {
    urlTimer = 0;
    if (urlPending) {
      urlPending = false;
      writeUrl();
    }
  }, long ? LONG_URL_UPDATE_MS : URL_UPDATE_MS);
}
function writeUrl() {
  const search = writeUrlState({ ...shown, frame: player?.frame ?? 0 });
  if (location.search !== search) history.replaceState(null, "", search);
  if (openLink) openLink.href = `/${search}`;
}

/**
 * Trace a program and show it; the newest request wins.
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {number} frame
 * @param {boolean} [focusPlayer]
 */
async function run(source, granularity, frame, focusPlayer = false) {
  const id = ++runId;
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  editor?.setBusy(true);
  try {
    const [trace, rules] = await Promise.all([fetchTrace(source, granularity, { signal: controller.signal }), rulesReady]);
    if (id !== runId) return;
    const previous = player;
    player = await mountPlayer(playerRoot, { trace, rules, frame, onFrame: syncUrl, signal: controller.signal });
    previous?.destroy();
    showError(null);
    shown = { source, granularity };
    writeUrl();
    if (focusPlayer) player.focus();
  } catch (error) {
    if (id !== runId || (error instanceof DOMException && error.name === "AbortError")) return;
    const problem = error instanceof SourceError ? error : new SourceError(`The trace could not be shown: ${error}`);
    showError(problem, source);
    shown = { source, granularity };
    writeUrl();
  } finally {
    if (id === runId) editor?.setBusy(false);
  }
}

/**
 * @param {SourceError | null} error
 * @param {string} [source]
 */
function showError(error, source) {
  playerRoot.classList.toggle("is-stale", Boolean(error));
  if (editor) {
    editor.showError(error && { message: error.message, line: error.line, column: error.column }, source);
    return;
  }
  errorBox.hidden = !error;
  errorBox.textContent = error
    ? `${error.line !== null ? `Line ${error.line}${error.column !== null ? `, column ${error.column}` : ""}: ` : ""}${error.message}`
    : "";
}

async function start() {
  const fromUrl = readUrlState(location.search);
  if (fromUrl.source !== null) {
    editor?.setProgram(fromUrl.source, fromUrl.granularity);
    const examples = fetchOptional("api/examples", []);
    examples.then((list) => editor?.setExamples(list));
    await run(fromUrl.source, fromUrl.granularity, fromUrl.frame ?? 0);
    return;
  }
  const examples = await fetchOptional("api/examples", []);
  editor?.setExamples(examples);
  if (runId > 0) return; // the learner already pressed Run
  const first = examples[0];
  if (!first) {
    showError(new SourceError("No example program is available; type one and press Run."));
    return;
  }
  editor?.setProgram(first.source, first.granularity);
  await run(first.source, first.granularity, 0);
}

start();
