/**
 * The page controller for `/` and `/embed`: reads the URL, fetches traces,
 * examples and rules, mounts the player, shows errors and keeps the URL a
 * permalink of what is on screen (SPEC.md §5). The player itself knows nothing
 * of servers or URLs. `/embed` also reads its options (embed-options.js) and
 * reports its height to the page that frames it; `/` offers the share dialog.
 * `?quiz=1` on either turns the player into the quiz (quiz.js).
 */
import { SourceError, fetchOptional, fetchTrace } from "./api.js";
import { mountEditor } from "./editor.js";
import { listenForSeek, reportFrame, reportHeight } from "./frame-messages.js";
import { readEmbedOptions } from "./embed-options.js";
import { carryFrame } from "./frame-carry.js";
import { LAB_PARAM_NAMES, withLabParams } from "./lab-url.js";
import { mountPageLab } from "./page-lab.js";
import { mountPlayer } from "./player.js";
import { mountShare } from "./share.js";
import { lineOfFrame, mountSourceLine } from "./source-line.js";
import { initTheme } from "./theme.js";
import { readQuiz, readUrlState, writeUrlState } from "./url-state.js";

const URL_UPDATE_MS = 120;
const LONG_URL_UPDATE_MS = 400;
const LONG_SOURCE_CHARS = 2000;

const embed = document.body.dataset.mode === "embed";
const embedOptions = readEmbedOptions(embed ? location.search : "");
const quiz = readQuiz(location.search);
const playerRoot = /** @type {HTMLElement} */ (document.getElementById("player"));
const errorBox = /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]"));
const openLink = /** @type {HTMLAnchorElement | null} */ (document.getElementById("open-full"));
const editorRoot = embed
  ? embedEditor()
  : /** @type {HTMLElement | null} */ (document.querySelector(".editor-panel"));
if (!embed) initTheme(document.querySelector(".theme-toggle"));
else if (embedOptions.theme !== "auto") document.documentElement.dataset.theme = embedOptions.theme;

/** @type {Awaited<ReturnType<typeof mountPlayer>> | null} */
let player = null;
let runId = 0;
let settledRunId = 0;
/** @type {AbortController | null} */
let inFlight = null;
/** @type {{source: string, granularity: "packed" | "expanded"}} */
let shown = { source: "", granularity: "packed" };

// The embed's error box sits outside its editor, so it still shows when the editor is hidden.
const editor =
  editorRoot &&
  mountEditor(editorRoot, {
    onRun: ({ source, granularity, fromButton }) =>
      run(source, granularity, 0, { focusPlayer: fromButton, remember: !embed }),
  });
const sourceTextarea = /** @type {HTMLTextAreaElement | null} */ (
  editorRoot?.querySelector("[data-testid=source]") ?? null
);
const sourceLine = sourceTextarea && mountSourceLine(sourceTextarea);
const heights = embed
  ? reportHeight(/** @type {HTMLElement} */ (document.querySelector("main")))
  : null;
if (embed) {
  listenForSeek((frame) => player?.seek(frame));
} else {
  // Examples and Run push history entries (run's `remember`); Back reopens the one before.
  addEventListener("popstate", () => restore());
  mountShare(
    document.querySelector("[data-share]"),
    /** @type {HTMLDialogElement | null} */ (document.querySelector(".share-dialog")),
    () => ({ ...shown, frame: player?.frame ?? 0, lab: lab.state }),
  );
}
let autoplay = embedOptions.autoplay;
// The bug lab: a mistake and sort steps change the trace, the gradient check adds a panel.
const lab = mountPageLab({
  editorRoot,
  playerRoot,
  search: location.search,
  onChange: (retrace) => {
    const from = player && { trace: player.timeline.trace, frame: player.frame };
    if (retrace && shown.source)
      run(shown.source, shown.granularity, (trace) =>
        from ? carryFrame(from.trace, from.frame, trace) : 0,
      );
    writeUrl();
  },
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
  urlTimer = window.setTimeout(
    () => {
      urlTimer = 0;
      if (urlPending) {
        urlPending = false;
        writeUrl();
      }
    },
    long ? LONG_URL_UPDATE_MS : URL_UPDATE_MS,
  );
}
function writeUrl() {
  const search = withLabParams(
    writeUrlState({ ...shown, frame: player?.frame ?? 0, quiz }),
    lab.state,
  );
  const address = embed ? withEmbedOptions(search) : search;
  if (location.search !== address) history.replaceState(null, "", address);
  if (openLink) openLink.href = `/${search}`;
}

/**
 * The embed's editor, when its options ask for one: the template's markup is put in
 * before the error box, and the editor is mounted on the whole page so it uses that box.
 * @returns {HTMLElement | null}
 */
function embedEditor() {
  const template = /** @type {HTMLTemplateElement | null} */ (
    document.getElementById("embed-editor")
  );
  if (!template || embedOptions.hide.includes("editor")) return null;
  errorBox.before(template.content.cloneNode(true));
  return document.querySelector("main");
}

/**
 * The embed keeps its own options (controls, theme…) in its address, after the state.
 * @param {string} search
 */
function withEmbedOptions(search) {
  const params = new URLSearchParams(search);
  for (const [name, value] of new URLSearchParams(location.search)) {
    if (!params.has(name) && !LAB_PARAM_NAMES.includes(name)) params.append(name, value);
  }
  return `?${params}`;
}

/**
 * A permalink of one frame of the quiz, for its summary: the address as it stands
 * (program, quiz and every other option) at another frame.
 * @param {number} frame
 */
function frameLink(frame) {
  const params = new URLSearchParams(location.search);
  params.set("frame", String(frame));
  return `?${params}`;
}

/**
 * Trace a program and show it; the newest request wins.
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {number | ((trace: import("./trace.js").Trace) => number)} frame  or where to open, given the trace
 * @param {{focusPlayer?: boolean, remember?: boolean}} [how]
 *   remember: a new history entry for this program (a Run or an example, not a restore)
 */
async function run(source, granularity, frame, { focusPlayer = false, remember = false } = {}) {
  const id = ++runId;
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  try {
    const tracing = startTrace(source, granularity, frame, remember, controller.signal);
    editor?.setBusy(true);
    player?.setWaiting(true);
    const [trace, rules] = await Promise.all([tracing, rulesReady]);
    if (id !== runId) return;
    const previous = player;
    // The editor marks the frame's line while it still holds the traced program.
    const onPlayerFrame = (/** @type {number} */ k) => {
      onFrame(k);
      sourceLine?.show(editor?.source === source ? lineOfFrame(trace, k) : null);
    };
    player = await mountPlayer(playerRoot, {
      trace,
      rules,
      frame: typeof frame === "function" ? frame(trace) : frame,
      onFrame: onPlayerFrame,
      signal: controller.signal,
      hide: embedOptions.hide,
      speed: embedOptions.speed,
      quiz: quiz ? { frameLink } : null,
      // On `/` nothing but the table follows the player; a course page's text follows /embed.
      steady: embed,
    });
    previous?.destroy();
    if (autoplay) player.play();
    autoplay = false;
    showError(null);
    shown = { source, granularity };
    writeUrl();
    lab.shown(trace);
    if (focusPlayer) player.focus();
  } catch (error) {
    if (id !== runId || (error instanceof DOMException && error.name === "AbortError")) return;
    const problem =
      error instanceof SourceError
        ? error
        : new SourceError(`The trace could not be shown: ${error}`);
    player?.setWaiting(false);
    showError(problem, source);
    lab.failed();
    shown = { source, granularity };
    writeUrl();
  } finally {
    if (id === runId) {
      editor?.setBusy(false);
      settledRunId = id;
      heights?.ready();
    }
  }
}

/**
 * Sends the trace request, then makes the run's history entry: a big program's
 * address takes the browser a while to write (tens of milliseconds, and a layout of
 * the page), which the server's tracing now covers. The entry is still made at once,
 * so Back during a slow trace returns to what was shown.
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {number | ((trace: import("./trace.js").Trace) => number)} frame
 * @param {boolean} remember  a new history entry for this program
 * @param {AbortSignal} signal
 */
function startTrace(source, granularity, frame, remember, signal) {
  const tracing = fetchTrace(source, granularity, { signal, ...lab.traceOptions() });
  const address = writeUrlState({
    source,
    granularity,
    frame: typeof frame === "function" ? 0 : frame,
  });
  if (remember && location.search !== address) history.pushState(null, "", address);
  return tracing;
}

/**
 * @param {SourceError | null} error
 * @param {string} [source]
 */
function showError(error, source) {
  playerRoot.classList.toggle("is-stale", Boolean(error));
  if (editor) {
    editor.showError(
      error && { message: error.message, line: error.line, column: error.column },
      source,
    );
    return;
  }
  errorBox.hidden = !error;
  errorBox.textContent = error
    ? `${error.line !== null ? `Line ${error.line}${error.column !== null ? `, column ${error.column}` : ""}: ` : ""}${error.message}`
    : "";
}

/**
 * The embed's editor is as tall as the program, within reason, so the frame stays compact.
 * @param {string} source
 */
function fitEditorRows(source) {
  const textarea = /** @type {HTMLTextAreaElement | null} */ (
    document.querySelector("[data-testid=source]")
  );
  if (textarea) textarea.rows = Math.min(12, Math.max(3, source.split("\n").length));
}

/** @param {number} frame */
function onFrame(frame) {
  syncUrl();
  if (embed) reportFrame(frame);
}

/** Back or Forward: show the program and frame of the address the browser went to. */
async function restore() {
  const state = readUrlState(location.search);
  const source = state.source ?? editor?.source ?? "";
  editor?.setProgram(source, state.granularity);
  if (
    runId === settledRunId &&
    source === shown.source &&
    state.granularity === shown.granularity &&
    player
  ) {
    player.seek(state.frame ?? 0);
    return;
  }
  await run(source, state.granularity, state.frame ?? 0);
}

async function start() {
  const fromUrl = readUrlState(location.search);
  if (fromUrl.source !== null) {
    editor?.setProgram(fromUrl.source, fromUrl.granularity);
    if (embed) fitEditorRows(fromUrl.source);
    const examples = fetchOptional("api/examples", []);
    examples.then((list) => {
      lab.setExamples(list);
      editor?.setExamples(list);
    });
    await run(fromUrl.source, fromUrl.granularity, fromUrl.frame ?? 0);
    return;
  }
  const examples = await fetchOptional("api/examples", []);
  lab.setExamples(examples);
  editor?.setExamples(examples);
  if (runId > 0) return; // the learner already pressed Run
  const first = examples[0];
  if (!first) {
    showError(new SourceError("No example program is available; type one and press Run."));
    return;
  }
  editor?.setProgram(first.source, first.granularity);
  if (embed) fitEditorRows(first.source);
  await run(first.source, first.granularity, 0);
}

start();
